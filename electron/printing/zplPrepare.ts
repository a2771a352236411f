/**
 * The bytes a ZPL printer gets for a job: resolution conversion, then the printer's settings.
 * Bytes in, bytes out: the label's encoding (UTF-8 under ^CI28) is never decoded here; commands
 * are rewritten on a one-char-per-byte view of them (zplBytes.ts).
 */
import type { PrinterSettings } from '../../shared/contract/printing';
import type { DriverJob } from './printerDriver';
import { PrintError } from './printerDriver';
import { fromBinary, toBinary } from './zplBytes';
import { convertZplForDpi } from './zplResolution';
import { applyZplSettings } from './zplSettings';

/** Where a label that had to be sent as a whole-label graphic is reported (the station log in the app). */
export type RasterFallbackSink = (info: { title: string; dpi: number; reasons: string[] }) => void;

let fallbackSink: RasterFallbackSink = (info) =>
  console.warn(
    JSON.stringify({
      at: new Date().toISOString(),
      level: 'warn',
      message: 'ZPL label sent as a graphic: the converter does not know its commands',
      ...info,
    }),
  );

/** Replaces where raster fallbacks are reported (tests, the composition root). */
export function onRasterFallback(sink: RasterFallbackSink): () => void {
  const prev = fallbackSink;
  fallbackSink = sink;
  return () => {
    fallbackSink = prev;
  };
}

export async function prepareZplForPrinter(job: DriverJob, settings: PrinterSettings): Promise<Buffer> {
  if (job.format !== 'zpl') {
    throw new PrintError(
      'wrong_format',
      'This printer takes ZPL labels only. Route PDF labels to a system printer.',
      'not_sent',
    );
  }
  let converted: Buffer;
  try {
    const c = await convertZplForDpi(job.bytes, settings.dpi, job.labelSize);
    if (c.rasterised.length) fallbackSink({ title: job.title, dpi: settings.dpi, reasons: c.rasterised });
    converted = c.bytes;
  } catch (err) {
    throw new PrintError(
      'convert_failed',
      `The label could not be converted for a ${settings.dpi}-dpi printer: ${err instanceof Error ? err.message : String(err)}`,
      'not_sent',
    );
  }
  const text = toBinary(converted);
  const out = applyZplSettings(text, settings, job.copies);
  return out === text ? converted : fromBinary(out);
}
