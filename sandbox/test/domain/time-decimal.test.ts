import { describe, expect, test } from 'vitest';
import { compareDecimal, parseDecimal, scaledToNumber, toScaled } from '../../domain/decimal';
import { addWorkingDays, atPragueTime, formatTimestamp, isWorkingDay } from '../../domain/time';
import { parseBoolean } from '../../domain';

describe('spec "Common conventions" 7: timestamps are ISO 8601 with a numeric offset', () => {
  test('Prague summer and winter offsets', () => {
    expect(formatTimestamp(new Date('2024-07-01T12:00:00Z'))).toBe('2024-07-01T14:00:00+02:00');
    expect(formatTimestamp(new Date('2024-01-15T12:00:00Z'))).toBe('2024-01-15T13:00:00+01:00');
    expect(atPragueTime('2024-03-31', 14).toISOString()).toBe('2024-03-31T12:00:00.000Z');
  });
  test('Czech working days skip weekends, fixed holidays and Easter Monday', () => {
    expect(isWorkingDay('2024-05-08')).toBe(false);
    expect(isWorkingDay('2024-04-01')).toBe(false); // Easter Monday 2024
    expect(isWorkingDay('2024-03-29')).toBe(false); // Good Friday 2024
    expect(addWorkingDays('2024-12-23', 1)).toBe('2024-12-27');
  });
});

describe('spec "Common conventions" 5-6: exact decimals', () => {
  test('numbers, strings and decimal commas give one canonical decimal', () => {
    expect(parseDecimal(2.3)).toBe('2.3');
    expect(parseDecimal('2.30')).toBe('2.3');
    expect(parseDecimal('2,3', { comma: true })).toBe('2.3');
    expect(parseDecimal('2,3')).toBeNull();
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('007')).toBe('7');
  });
  test('arithmetic in integers has no float drift', () => {
    expect(toScaled('0.1', 2) + toScaled('0.2', 2)).toBe(30n);
    expect(scaledToNumber(toScaled('0.1', 2) + toScaled('0.2', 2), 2)).toBe(0.3);
    expect(compareDecimal('100', '100.00')).toBe(0);
    expect(compareDecimal('99.99', '100')).toBe(-1);
  });
  test('booleans from "1", "0", "", true', () => {
    expect([parseBoolean('1'), parseBoolean('0'), parseBoolean(''), parseBoolean(true), parseBoolean('yes')]).toEqual([
      true,
      false,
      false,
      true,
      null,
    ]);
  });
});
