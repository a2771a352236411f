/**
 * What a keyboard-wedge scanner types is not always the bare code. Normalisation, in this order:
 *
 * 1. Control characters (C0: CR, LF, TAB, STX/ETX, GS, ..., and DEL) are removed wherever they
 *    are: scanners send them as terminators, framing or GS1 separators, and no shipment key holds one.
 * 2. Leading and trailing white space is trimmed (inner spaces stay: an externalId may hold one).
 * 3. An AIM symbology identifier at the start (`]` + letter + letter/digit, e.g. `]C1`, `]E0`,
 *    `]Q3`), which scanners can be set to prefix, is removed.
 * 4. The prefix and suffix configured for the desk's scanner (settings), when present, are removed.
 *
 * Case is kept: keys are matched exactly as the service stores them.
 *
 * In shared/ because both sides use it: the lookup in the core, and the scanner try-out
 * field in Settings, which shows what the lookup will see.
 */

export interface ScannerAffixes {
  prefix?: string;
  suffix?: string;
}

export type NormalisedScan = { ok: true; code: string; raw: string } | { ok: false; raw: string; message: string };

/** Longest code accepted: far above any key the service issues, low enough to stop a runaway wedge. */
export const MAX_CODE_LENGTH = 200;

const AIM_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;

export function normaliseScan(raw: string, affixes: ScannerAffixes = {}): NormalisedScan {
  // eslint-disable-next-line no-control-regex
  let code = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  code = code.replace(AIM_PREFIX, '');
  if (affixes.prefix && code.startsWith(affixes.prefix)) code = code.slice(affixes.prefix.length);
  if (affixes.suffix && code.endsWith(affixes.suffix)) code = code.slice(0, code.length - affixes.suffix.length);
  code = code.trim();
  if (code === '') return { ok: false, raw, message: 'The scan was empty. Scan the barcode again.' };
  if (code.length > MAX_CODE_LENGTH) {
    return {
      ok: false,
      raw,
      message: `The scan is ${code.length} characters long; no shipment code is that long. Scan again.`,
    };
  }
  return { ok: true, code, raw };
}
