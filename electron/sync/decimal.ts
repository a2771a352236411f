/**
 * Exact decimals from the service's loosely typed numbers (spec "Common conventions" 5-6: JSON
 * numbers, strings, or a decimal comma in XML/form). The station never does float arithmetic on
 * money or weights; it keeps the digits it was given.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** "2,30" -> "2.30"; 2.3 -> "2.3"; 1e-7 -> "0.0000001"; "", null, garbage -> null. */
export function toDecimalString(v: unknown): string | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    const s = String(v);
    if (!/e/i.test(s)) return s;
    // Exponent form only for very large/small numbers: expand it without rounding the shortest digits.
    const [mantissa, expPart] = s.toLowerCase().split('e') as [string, string];
    const exp = Number(expPart);
    const neg = mantissa.startsWith('-');
    const [intDigits, fracDigits = ''] = mantissa.replace('-', '').split('.') as [string, string?];
    const digits = intDigits + fracDigits;
    const point = intDigits.length + exp;
    let out: string;
    if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
    else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
    else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
    return (neg ? '-' : '') + out;
  }
  if (typeof v === 'string') {
    const s = v.trim().replace(/\s/g, '').replace(',', '.');
    if (!DECIMAL.test(s)) return null;
    return s;
  }
  return null;
}
