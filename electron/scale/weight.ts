/**
 * Exact weights. A scale says "1.234 kg", "1234 g" or "2.5 lb"; the service wants kilograms (spec
 * "Delivery (shipment): request fields", `packages.weight`: "Weight in kg"). The digits are kept as
 * text and converted with the exact arithmetic of shared/decimal.ts: no float ever touches a
 * weight, so 0.1 kg + 0.2 kg stays 0.3 kg and 1 lb is exactly 0.45359237 kg.
 */
import { absDecimal, compareDecimals, multiplyDecimals, subtractDecimals, type Decimal } from '../../shared/decimal';

export type WeightUnit = 'mg' | 'g' | 'kg' | 'oz' | 'lb';

/** Kilograms per unit, exact: the pound is 0.45359237 kg by definition (1959), the ounce 1/16 lb. */
const KG_PER: Record<WeightUnit, Decimal> = {
  mg: '0.000001',
  g: '0.001',
  kg: '1',
  oz: '0.028349523125',
  lb: '0.45359237',
};

export function toKg(value: Decimal, unit: WeightUnit): Decimal {
  return multiplyDecimals(value, KG_PER[unit]);
}

/** Whether two kilogram weights differ by more than the tolerance (kg). */
export function differs(a: Decimal, b: Decimal, toleranceKg: Decimal): boolean {
  return compareDecimals(absDecimal(subtractDecimals(a, b)), toleranceKg) > 0;
}

/**
 * Whether a weighed weight is off the expected one by more than `percent` % of the expected (the
 * weight check before the correction). Exact: |weighed - expected| × 100 > expected ×
 * percent, so 0.65 kg against 0.5 kg at 30 % is exactly on the line and not beyond it.
 */
export function beyondShare(weighed: Decimal, expected: Decimal, percent: number): boolean {
  const off = multiplyDecimals(absDecimal(subtractDecimals(weighed, expected)), '100');
  return compareDecimals(off, multiplyDecimals(expected, String(percent))) > 0;
}

const isWeightUnit = (u: string): u is WeightUnit => u in KG_PER;

/** Unit text as scales print it ("kg", "KG", "lbs", "g ") -> the unit, or null. */
export function unitOf(t: string): WeightUnit | null {
  const u = t.trim().toLowerCase();
  if (u === 'lbs' || u === 'lb') return 'lb';
  return isWeightUnit(u) ? u : null;
}
