import { describe, expect, it } from 'vitest';
import { stringifyWire, toDecimal, toInteger, wireDecimal } from '../../../electron/api/decimal';

describe('exact decimals (spec "Common conventions" 5, 6: informative types, decimal comma)', () => {
  it('reads numbers, strings and decimal commas to the same text', () => {
    expect(toDecimal(2.3)).toBe('2.3');
    expect(toDecimal('2.3')).toBe('2.3');
    expect(toDecimal('2,3')).toBe('2.3');
    expect(toDecimal(' 1 250,50 ')).toBe('1250.50');
    expect(toDecimal('.5')).toBe('0.5');
    expect(toDecimal('-0007.10')).toBe('-7.10');
    expect(toDecimal(1e-7)).toBe('0.0000001');
  });

  it('refuses what is not a number', () => {
    for (const v of ['', 'abc', '1.2.3', '1,2,3', null, undefined, NaN, Infinity, {}, '1e5']) expect(toDecimal(v)).toBeNull();
  });

  it('keeps cents exact where floats drift (0.1 + 0.2)', () => {
    const body = stringifyWire({ value: wireDecimal('0.30'), cod: wireDecimal('1234567890.12'), note: 'x' });
    expect(body).toBe('{"value":0.30,"cod":1234567890.12,"note":"x"}');
    expect(JSON.parse(body).value).toBe(0.3);
  });

  it('does not let a string that looks like the marker become a number', () => {
    expect(stringifyWire({ note: '\u0000decimal:1' })).toBe('{"note":"\\u0000decimal:1"}');
    expect(() => wireDecimal('12 kg')).toThrow(/decimal/);
  });

  it('reads integers leniently ("30" == 30) and refuses fractions', () => {
    expect(toInteger('30')).toBe(30);
    expect(toInteger(30)).toBe(30);
    expect(toInteger('3.5')).toBeNull();
    expect(toInteger(3.5)).toBeNull();
  });
});
