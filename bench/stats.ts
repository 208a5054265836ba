// Small statistics helpers: every reported figure is a median over runs, and
// every comparison a ratio against a baseline taken in the same run.

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile with linear interpolation; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? value / baseline : Number.NaN;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Milliseconds since `start` (performance.now() based, monotonic). */
export function since(start: number): number {
  return performance.now() - start;
}
