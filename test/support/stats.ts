/**
 * The one percentile helper of the tests and benches: the nearest-rank quantile (the smallest value
 * with at least q of the values at or below it). `values` need not be sorted; NaN when empty.
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = isSorted(values) ? values : [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export type Spread = { n: number; p50: number; p90: number; p99: number; max: number };

/** Count, p50, p90, p99 and max of `values` (one sort). */
export function spread(values: readonly number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s.at(-1) ?? Number.NaN };
}

function isSorted(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i - 1] > values[i]) return false;
  return true;
}
