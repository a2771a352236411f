/** Nearest rank: the value at rank ⌈p/100 × n⌉ of the sorted values (worked out by hand below). */
import { describe, expect, it } from 'vitest';
import { nearestRank } from '../../../electron/statistics/percentile';

describe('nearest-rank percentiles', () => {
  it('picks a measured value, never an interpolation', () => {
    // n = 4: p50 rank ⌈2⌉ = 2 → 2 (interpolation would say 2.5); p95 rank ⌈3.8⌉ = 4 → 4.
    expect(nearestRank([4, 1, 3, 2], 50)).toBe(2);
    expect(nearestRank([4, 1, 3, 2], 95)).toBe(4);
    // n = 20 (1..20): p95 rank ⌈19⌉ = 19 → 19; p50 rank 10 → 10.
    const twenty = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(nearestRank(twenty, 95)).toBe(19);
    expect(nearestRank(twenty, 50)).toBe(10);
    expect(nearestRank([7], 50)).toBe(7);
    expect(nearestRank([7], 95)).toBe(7);
  });
  it('refuses no values and a percentile out of (0, 100]', () => {
    expect(() => nearestRank([], 50)).toThrow();
    expect(() => nearestRank([1], 0)).toThrow();
    expect(() => nearestRank([1], 101)).toThrow();
  });
});
