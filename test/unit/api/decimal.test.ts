import { describe, expect, it, vi } from 'vitest';
import { stringifyWire, wireDecimal } from '../../../electron/api/decimal';
import { addDecimals, splitDecimal, toDecimal, toInteger, withDecimalComma } from '../../../shared/decimal';

describe('exact decimals (spec "Common conventions" 5, 6: informative types, decimal comma)', () => {
  it('reads numbers, strings and decimal commas to the same text', () => {
    expect(toDecimal(2.3)).toBe('2.3');
    expect(toDecimal('2.3')).toBe('2.3');
    expect(toDecimal('2,3')).toBe('2.3');
    expect(toDecimal(' 1 250,50 ')).toBe('1250.50');
    expect(toDecimal('.5')).toBe('0.5');
    expect(toDecimal('-0007.10')).toBe('-7.10');
    expect(toDecimal(1e-7)).toBe('0.0000001');
    expect(toDecimal(-0.25)).toBe('-0.25');
    expect(toDecimal('2,30')).toBe('2.30');
  });

  it('never writes an exponent: large and tiny JSON numbers come out as plain digits', () => {
    expect(toDecimal(1e21)).toBe('1000000000000000000000');
    expect(toDecimal(1.5e21)).toBe('1500000000000000000000');
    expect(toDecimal(-1.25e-7)).toBe('-0.000000125');
    expect(toDecimal(0.1 + 0.2)).toBe('0.30000000000000004'); // what was sent, not rounded
  });

  it("adds exactly, shows the spec's decimal comma, splits for the UI", () => {
    expect(addDecimals(['0.1', '0.2'])).toBe('0.30');
    expect(addDecimals(['99.00', '12,38', '.5'])).toBe('111.88');
    expect(() => addDecimals(['1.234'])).toThrow(/amount/);
    expect(withDecimalComma('2.5')).toBe('2,5');
    expect(splitDecimal('-0007.10')).toEqual({ negative: true, int: '7', frac: '10' });
  });

  it('refuses what is not a number', () => {
    for (const v of ['', 'abc', '1.2.3', '1,2,3', null, undefined, NaN, Infinity, {}, [], '1e5', '-', '.'])
      expect(toDecimal(v)).toBeNull();
  });

  it('keeps cents exact where floats drift (0.1 + 0.2)', () => {
    const body = stringifyWire({ value: wireDecimal('0.30'), cod: wireDecimal('1234567890.12'), note: 'x' });
    expect(body).toBe('{"value":0.30,"cod":1234567890.12,"note":"x"}');
    expect(JSON.parse(body).value).toBe(0.3);
  });

  it('does not let user text that poses as a wrapped decimal become a number', async () => {
    // A wrapped decimal as another process wrote it (a fresh copy of the module: its own marker), the
    // way a note could carry one back: the real marker's form, but not this process's marker.
    vi.resetModules();
    const other = await import('../../../electron/api/decimal');
    const posing = other.wireDecimal('1');
    expect(posing).not.toBe(wireDecimal('1'));
    expect(stringifyWire({ note: posing })).toBe(JSON.stringify({ note: posing }));
    // This process's own marker inside a longer text stays text too.
    const inside = `ticket ${wireDecimal('1')}`;
    expect(stringifyWire({ note: inside })).toBe(JSON.stringify({ note: inside }));
    expect(() => wireDecimal('12 kg')).toThrow(/decimal/);
  });

  it('reads integers leniently ("30" == 30) and refuses fractions', () => {
    expect(toInteger('30')).toBe(30);
    expect(toInteger(30)).toBe(30);
    expect(toInteger('3.5')).toBeNull();
    expect(toInteger(3.5)).toBeNull();
  });
});
