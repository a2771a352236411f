/**
 * Per-printer settings applied to every ZPL label at send time, so a reprint uses the printer's
 * current settings and the stored job keeps the service's bytes. With default settings and one
 * copy the label goes out byte for byte as the service sent it.
 *
 * Offsets use ^LS (label shift) and ^LT (label top) rather than ^LH: the service's labels set
 * their own ^LH, and these two add to it instead of being overridden by it.
 */
import type { PrinterSettings } from '../../shared/contract/printing';

/** The ^XA..^XZ formats of a ZPL stream, in order. Text outside formats (~ commands) is dropped. */
export function splitZplLabels(zpl: string): string[] {
  const out: string[] = [];
  const re = /\^XA[\s\S]*?\^XZ/gi;
  for (let m = re.exec(zpl); m; m = re.exec(zpl)) out.push(m[0]);
  return out;
}

export function applyZplSettings(zpl: string, s: PrinterSettings, jobCopies = 1): string {
  const copies = Math.max(1, s.copies * jobCopies);
  const prefix: string[] = [];
  if (s.darkness !== 0) prefix.push(`^MD${s.darkness}`);
  if (s.offsetX !== 0) prefix.push(`^LS${-s.offsetX}`);
  if (s.offsetY !== 0) prefix.push(`^LT${s.offsetY}`);
  if (s.rotate180) prefix.push('^POI');
  if (prefix.length === 0 && copies === 1) return zpl;
  const head = prefix.join('');
  return zpl.replace(/\^XA([\s\S]*?)\^XZ/gi, (_m, body: string) => {
    // One ^PQ per label: ours replaces the service's (which is 1 for a package label).
    const withoutPq = copies === 1 ? body : body.replace(/\^PQ[\d,YN]*/gi, '');
    return `^XA${head}${withoutPq}${copies === 1 ? '' : `^PQ${copies}`}^XZ`;
  });
}
