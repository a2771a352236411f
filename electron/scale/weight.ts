/**
 * Exact weights. A scale says "1.234 kg", "1234 g" or "2.5 lb"; the service wants kilograms (spec
 * "Delivery (shipment): request fields", `packages.weight`: "Weight in kg"). The digits are kept as
 * text (electron/api/decimal.ts) and converted with integer arithmetic: no float ever touches a
 * weight, so 0.1 kg + 0.2 kg stays 0.3 kg and 1 lb is exactly 0.45359237 kg.
 */
import { toDecimal } from '../api/decimal';
import type { Decimal } from '../api/types';

export type WeightUnit = 'mg' | 'g' | 'kg' | 'oz' | 'lb';

/** Kilograms per unit, exact: the pound is 0.45359237 kg by definition (1959), the ounce 1/16 lb. */
const KG_PER: Record<WeightUnit, Decimal> = { mg: '0.000001', g: '0.001', kg: '1', oz: '0.028349523125', lb: '0.45359237' };

/** A decimal as an integer and a count of decimal places: "1.25" -> 125n, 2. */
interface Scaled {
  n: bigint;
  places: number;
}

function scaled(d: Decimal): Scaled {
  const t = toDecimal(d);
  if (t === null) throw new TypeError(`Not a decimal: ${JSON.stringify(d)}`);
  const [i, f = ''] = t.replace('-', '').split('.') as [string, string?];
  const n = BigInt(i + f);
  return { n: t.startsWith('-') ? -n : n, places: f.length };
}

function text(s: Scaled): Decimal {
  const neg = s.n < 0n;
  let digits = (neg ? -s.n : s.n).toString();
  if (s.places === 0) return (neg ? '-' : '') + digits;
  digits = digits.padStart(s.places + 1, '0');
  let out = `${digits.slice(0, -s.places)}.${digits.slice(-s.places)}`.replace(/\.?0+$/, '');
  if (out === '') out = '0';
  return (neg && out !== '0' ? '-' : '') + out;
}

const align = (a: Scaled, b: Scaled): [bigint, bigint, number] => {
  const p = Math.max(a.places, b.places);
  return [a.n * 10n ** BigInt(p - a.places), b.n * 10n ** BigInt(p - b.places), p];
};

/** a × 10^exp, exactly (the HID report's exponent). */
export function shift(d: Decimal, exp: number): Decimal {
  const s = scaled(d);
  if (exp >= 0) return text({ n: s.n * 10n ** BigInt(exp), places: s.places });
  return text({ n: s.n, places: s.places - exp });
}

export function toKg(value: Decimal, unit: WeightUnit): Decimal {
  const a = scaled(value);
  const b = scaled(KG_PER[unit]);
  return text({ n: a.n * b.n, places: a.places + b.places });
}

/** Rounded half away from zero to `places` decimals (what is sent to the service: grams). */
export function round(d: Decimal, places: number): Decimal {
  const s = scaled(d);
  if (s.places <= places) return text(s);
  const div = 10n ** BigInt(s.places - places);
  const neg = s.n < 0n;
  const abs = neg ? -s.n : s.n;
  let q = abs / div;
  if ((abs % div) * 2n >= div) q += 1n;
  return text({ n: neg ? -q : q, places });
}

export function compare(a: Decimal, b: Decimal): number {
  const [x, y] = align(scaled(a), scaled(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, p] = align(scaled(a), scaled(b));
  return text({ n: x - y, places: p });
}

function abs(d: Decimal): Decimal {
  return d.startsWith('-') ? d.slice(1) : d;
}

/** Whether two kilogram weights differ by more than the tolerance (kg). */
export function differs(a: Decimal, b: Decimal, toleranceKg: Decimal): boolean {
  return compare(abs(subtract(a, b)), toleranceKg) > 0;
}

const isWeightUnit = (u: string): u is WeightUnit => u in KG_PER;

/** Unit text as scales print it ("kg", "KG", "lbs", "g ") -> the unit, or null. */
export function unitOf(t: string): WeightUnit | null {
  const u = t.trim().toLowerCase();
  if (u === 'lbs' || u === 'lb') return 'lb';
  return isWeightUnit(u) ? u : null;
}
