/**
 * Exact decimals for weights and money. Stored values are canonical decimal strings ("2.3",
 * "1500", "-0.5" never: see callers); arithmetic happens in integers (grams, haléře) so no float
 * drift accumulates. Spec "Common conventions" 5-6: types in requests are informative and weights
 * may carry a decimal comma.
 */

const DECIMAL = /^[+-]?(\d+)(?:[.,](\d+))?$/;

/**
 * Reads a request value as a canonical decimal string, or null when it is not a plain decimal.
 * Accepts numbers and numeric strings; a decimal comma only when `comma` is true.
 */
export function parseDecimal(v: unknown, opts: { comma?: boolean } = {}): string | null {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    s = String(v);
    if (/e/i.test(s)) return null; // 1e21 and 1e-7 are not values a client means
  } else if (typeof v === 'string') {
    s = v.trim();
  } else {
    return null;
  }
  const m = DECIMAL.exec(s);
  if (!m) return null;
  if (!opts.comma && s.includes(',')) return null;
  const negative = s.startsWith('-');
  const int = (m[1] ?? '0').replace(/^0+(?=\d)/, '');
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/**
 * Largest amount (value, cod) the sandbox stores: 99 999 999.99 has 10 significant digits, so it
 * is exact as a JSON number and written without exponent in every format (the spec sets none).
 */
export const MAX_AMOUNT = '99999999.99';
/** Largest package weight in kg and side in cm, whatever the carrier (carriers set lower ones). */
export const MAX_WEIGHT_KG = 1000;
export const MAX_SIDE_CM = 1000;

/** True for a canonical decimal that is an amount: not negative, at most 2 places, at most MAX_AMOUNT. */
export function isAmount(d: string): boolean {
  return !d.startsWith('-') && decimalPlaces(d) <= 2 && compareDecimal(d, MAX_AMOUNT) <= 0;
}

/** Number of digits after the point of a canonical decimal. */
export function decimalPlaces(d: string): number {
  const i = d.indexOf('.');
  return i < 0 ? 0 : d.length - i - 1;
}

/** Canonical decimal -> integer in units of 10^-scale (exact; throws if more places than scale). */
export function toScaled(d: string, scale: number): bigint {
  const negative = d.startsWith('-');
  const abs = negative ? d.slice(1) : d;
  const [int = '0', frac = ''] = abs.split('.');
  if (frac.length > scale) throw new Error(`${d} has more than ${scale} decimal places`);
  const n = BigInt(int + frac.padEnd(scale, '0'));
  return negative ? -n : n;
}

/** Integer in units of 10^-scale -> JS number for JSON (exact for the magnitudes used here). */
export function scaledToNumber(n: bigint | number, scale: number): number {
  return Number(scaledToDecimal(BigInt(n), scale));
}

/** Integer in units of 10^-scale -> canonical decimal string. */
export function scaledToDecimal(n: bigint, scale: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return negative && body !== '0' ? `-${body}` : body;
}

/** Compares two canonical decimals exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const scale = Math.max(decimalPlaces(a), decimalPlaces(b));
  const x = toScaled(a, scale);
  const y = toScaled(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** kg decimal -> grams (weights have at most 3 decimal places, checked on input). */
export function kgToGrams(kg: string): number {
  return Number(toScaled(kg, 3));
}
