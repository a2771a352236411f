/**
 * Percentiles by the nearest-rank method: the p-th percentile of n values sorted ascending is the
 * value at rank ⌈p/100 × n⌉ (1-based). It is always one of the measured values (no interpolation),
 * so a worker can find the parcel behind it; p50 of [1, 2, 3, 4] is 2, p95 of 20 values is the 19th.
 */
export function nearestRank(values: readonly number[], p: number): number {
  if (!values.length) throw new Error('No values for a percentile.');
  if (!(p > 0 && p <= 100)) throw new Error(`A percentile is above 0 and at most 100, not ${p}.`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}
