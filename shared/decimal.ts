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
