/**
 * ZPL is bytes. The service's labels are UTF-8 (^CI28) and the printer reads them as such, so
 * the station never turns a label into a string and back except in two well-defined ways:
 *
 * - For rewriting commands (settings, resolution conversion) a label is held as a "binary
 *   string": one char per byte (Node's 'latin1' codec both ways). Every command is ASCII, so
 *   regular expressions work on it, and field data (^FD) goes back out byte for byte.
 * - For rendering (previews, the raster fallback) zpl-renderer-js takes a JavaScript string and
 *   encodes it as UTF-8 itself, so the bytes must be decoded with the label's own encoding:
 *   UTF-8 where it says ^CI28 (or ^CI29/^CI30), single bytes otherwise.
 *
 * Reading UTF-8 bytes as latin1 and rendering that is what printed "Karel ÄernÃ½".
 */

/** The bytes as a one-char-per-byte string, for command rewriting; reverse with fromBinary. */
export const toBinary = (bytes: Buffer): string => bytes.toString('latin1');
export const fromBinary = (s: string): Buffer => Buffer.from(s, 'latin1');

const UTF8_CI = /\^CI\s*(28|29|30)\b/i;

/** The label's text as the printer reads it: UTF-8 where ^CI28 says so, else one byte a character. */
export function zplTextOf(bytes: Buffer): string {
  return UTF8_CI.test(bytes.toString('latin1')) ? bytes.toString('utf8') : bytes.toString('latin1');
}
