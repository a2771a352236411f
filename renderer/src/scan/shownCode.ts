/**
 * A parcel as the worker knows it: the code normalised the way the lookup reads it, with the
 * desk scanner's prefix and suffix removed. The
 * core keeps the code as the scanner typed it (less its control characters), so every place
 * that shows a scan's code shows it through this.
 */
import { normaliseScan, type ScannerAffixes } from '../../../shared/scan/normaliseScan';
import { useSettings } from '../state/settingsStore';

export function shownCode(
  code: string,
  affixes: ScannerAffixes | undefined = useSettings.getState().settings?.scanner,
): string {
  const n = normaliseScan(code, { prefix: affixes?.prefix, suffix: affixes?.suffix });
  return n.ok ? n.code : code.trim();
}
