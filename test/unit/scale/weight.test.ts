/** Weights are exact: no float on the way from the scale to the service. */
import { describe, expect, it } from 'vitest';
import { roundDecimal as round, shiftDecimal as shift } from '../../../shared/decimal';
import { beyondShare, differs, toKg } from '../../../electron/scale/weight';

describe('exact weights', () => {
  it('converts units exactly (1 lb = 0.45359237 kg, 1 oz = 1/16 lb)', () => {
    expect(toKg('1', 'lb')).toBe('0.45359237');
    expect(toKg('16', 'oz')).toBe('0.45359237');
    expect(toKg('250', 'g')).toBe('0.25');
    expect(toKg('1500', 'mg')).toBe('0.0015');
    expect(toKg('0.1', 'kg')).toBe('0.1');
  });
  it('shifts by a power of ten and rounds half away from zero to grams', () => {
    expect(shift('163', -1)).toBe('16.3');
    expect(shift('12', 2)).toBe('1200');
    expect(round('1.1339809', 3)).toBe('1.134');
    expect(round('1.0005', 3)).toBe('1.001');
    expect(round('1.0004', 3)).toBe('1');
  });
  it('compares against the tolerance: more than it is a difference, exactly it is not', () => {
    expect(differs('1.3', '1.2', '0.05')).toBe(true);
    expect(differs('1.25', '1.2', '0.05')).toBe(false);
    expect(differs('1.15', '1.2', '0.05')).toBe(false);
    expect(differs('0.3', '0.1', '0.1')).toBe(true);
  });
});

describe('the weight check’s share ("differs from the stored one by more than a share the desk sets (default 30 %)")', () => {
  it('exactly on the share is not beyond it, with no float drift (0.39 kg against 0.3 kg is exactly 30 %)', () => {
    // In floats, (0.39 - 0.3) * 100 is 9.000000000000002 > 0.3 * 30 = 9: asked for nothing.
    expect(beyondShare('0.39', '0.3', 30)).toBe(false);
    expect(beyondShare('0.65', '0.5', 30)).toBe(false);
    expect(beyondShare('0.651', '0.5', 30)).toBe(true);
    expect(beyondShare('0.349', '0.5', 30)).toBe(true); // lighter counts too
    expect(beyondShare('2.4', '0.5', 30)).toBe(true);
    expect(beyondShare('2.4', '0.5', 500)).toBe(false);
  });
});
