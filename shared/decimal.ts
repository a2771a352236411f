/**
 * The station's one decimal module: money and weights as exact decimal text ("2.3", "1250.50",
 * "-0.25"), never floats. Pure (no Node, no DOM) so the core (API client, sync, pricing) and the
 * renderer's formatting read and add decimals the same way.
 *
 * The service's number types are informative (spec "Common conventions" 5-6): a value may come as
 * a JSON number 2.3, a string "2.3", or with a decimal comma "2,3" (XML and form answers; requests
 * accept a decimal comma in weight). `toDecimal` reads all of them into one canonical text:
 * a '.' separator, no leading zeros ("-0007.10" -> "-7.10", ".5" -> "0.5"), the fraction's digits
 * kept as given (trailing zeros too: "1250.50" stays), no exponent ever (1e21 -> "1000000000000000000000").
 */

/** Exact decimal text: optional '-', digits, optional '.' and digits. */
export type Decimal = string;

/** The canonical form `toDecimal` produces and the contract accepts. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

const LENIENT = /^(-?)(\d*)(?:\.(\d+))?$/;

/** A JSON number as the decimal text it was written with (shortest round-trip digits, no exponent). */
function numberToDecimal(v: number): Decimal | null {
  if (!Number.isFinite(v)) return null;
  const s = String(v);
  if (!/e/i.test(s)) return s;
  const [mantissa, expPart] = s.toLowerCase().split('e') as [string, string];
  const exp = Number(expPart);
  const negative = mantissa.startsWith('-');
  const [intDigits, fracDigits = ''] = mantissa.replace('-', '').split('.') as [string, string?];
  const digits = intDigits + fracDigits;
  const point = intDigits.length + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + out;
}

/** Reads a decimal the lenient way (number, "2.3", "2,3", " 1 250,50 ", ".5"); null when it is not one. */
export function toDecimal(v: unknown): Decimal | null {
  if (typeof v === 'number') return numberToDecimal(v);
  if (typeof v !== 'string') return null;
  const s = v.replace(/[\s\u00a0]/g, '').replace(',', '.');
  const m = LENIENT.exec(s);
  if (!m || (!m[2] && !m[3])) return null;
  const int = (m[2] || '0').replace(/^0+(?=\d)/, '');
  return `${m[1]}${int}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

/** Reads an integer the lenient way ("12" == 12); null when it is not one. */
export function toInteger(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

/** The sign, integer digits and fraction digits of a decimal (for formatting); null when it is not one. */
export function splitDecimal(v: unknown): { negative: boolean; int: string; frac: string } | null {
  const d = toDecimal(v);
  if (d === null) return null;
  const negative = d.startsWith('-');
  const [int = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  return { negative, int, frac };
}

/** The spec's decimal comma (XML and form bodies, "Common conventions" 5): "2.5" -> "2,5". */
export function withDecimalComma(d: Decimal): string {
  return d.replace('.', ',');
}

/** Decimal text -> integer in units of 10^-scale; null when it is not a decimal or has more places. */
export function toMinor(d: string, scale = 2): bigint | null {
  const n = toDecimal(d);
  if (n === null) return null;
  const m = LENIENT.exec(n)!;
  const frac = m[3] ?? '';
  if (frac.replace(/0+$/, '').length > scale) return null;
  const units = BigInt((m[2] || '0') + frac.padEnd(scale, '0').slice(0, scale));
  return m[1] ? -units : units;
}

/** Integer minor units -> decimal text with exactly `scale` places ("144.88", "29.00"). */
export function fromMinor(n: bigint, scale = 2): Decimal {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const body = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${body}` : body;
}

/** Exact sum of decimal amounts with `scale` places (0.1 + 0.2 is 0.30); throws on a non-amount. */
export function addDecimals(amounts: readonly string[], scale = 2): Decimal {
  let sum = 0n;
  for (const a of amounts) {
    const m = toMinor(a, scale);
    if (m === null) throw new Error(`not an amount: ${JSON.stringify(a)}`);
    sum += m;
  }
  return fromMinor(sum, scale);
}

// Exact arithmetic on decimal text of any number of places (weights: "0.45359237" kg per lb,
// a scale's exponent). A decimal is held as an integer and its count of places: "1.25" -> 125n, 2.
interface Scaled {
  n: bigint;
  places: number;
}

function scaled(d: Decimal): Scaled {
  const t = toDecimal(d);
  if (t === null) throw new TypeError(`Not a decimal: ${JSON.stringify(d)}`);
  const negative = t.startsWith('-');
  const [int, frac = ''] = (negative ? t.slice(1) : t).split('.') as [string, string?];
  const n = BigInt(int + frac);
  return { n: negative ? -n : n, places: frac.length };
}

/** Back to text, trailing zeros of the fraction dropped ("1.500" -> "1.5", "-0.0" -> "0"). */
function unscaled(s: Scaled): Decimal {
  const negative = s.n < 0n;
  const digits = (negative ? -s.n : s.n).toString();
  if (s.places === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(s.places + 1, '0');
  const out = `${padded.slice(0, -s.places)}.${padded.slice(-s.places)}`.replace(/\.?0+$/, '') || '0';
  return (negative && out !== '0' ? '-' : '') + out;
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const x = scaled(a);
  const y = scaled(b);
  const p = Math.max(x.places, y.places);
  return [x.n * 10n ** BigInt(p - x.places), y.n * 10n ** BigInt(p - y.places), p];
}

/** d × 10^exp, exactly. */
export function shiftDecimal(d: Decimal, exp: number): Decimal {
  const s = scaled(d);
  return exp >= 0
    ? unscaled({ n: s.n * 10n ** BigInt(exp), places: s.places })
    : unscaled({ n: s.n, places: s.places - exp });
}

/** a × b, exactly. */
export function multiplyDecimals(a: Decimal, b: Decimal): Decimal {
  const x = scaled(a);
  const y = scaled(b);
  return unscaled({ n: x.n * y.n, places: x.places + y.places });
}

/** a − b, exactly. */
export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, places] = aligned(a, b);
  return unscaled({ n: x - y, places });
}

/** −1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The absolute value. */
export function absDecimal(d: Decimal): Decimal {
  const t = toDecimal(d);
  if (t === null) throw new TypeError(`Not a decimal: ${JSON.stringify(d)}`);
  return t.startsWith('-') ? t.slice(1) : t;
}

/** Rounded half away from zero to `places` decimals ("2.4185" -> "2.419" at 3). */
export function roundDecimal(d: Decimal, places: number): Decimal {
  const s = scaled(d);
  if (s.places <= places) return unscaled(s);
  const div = 10n ** BigInt(s.places - places);
  const negative = s.n < 0n;
  const abs = negative ? -s.n : s.n;
  const q = abs / div + ((abs % div) * 2n >= div ? 1n : 0n);
  return unscaled({ n: negative ? -q : q, places });
}
