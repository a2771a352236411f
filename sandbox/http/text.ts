/** Text helpers of the HTTP layer: every string the sandbox writes is valid Unicode. */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** False when the string has an unpaired UTF-16 surrogate (cannot be written as UTF-8). */
export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** The string with each unpaired surrogate replaced by U+FFFD (String.prototype.toWellFormed, ES2024). */
export function wellFormed(s: string): string {
  return isWellFormed(s) ? s : s.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * A number as plain decimal text, never in exponent form (1e21 -> "1000000000000000000000",
 * 1e-7 -> "0.0000001"); '' for NaN and the infinities.
 */
export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) return '';
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exp] = m;
  const digits = lead! + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
