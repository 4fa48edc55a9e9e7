/**
 * @module rating/quantile
 * Sample quantile with linear interpolation between order statistics (pandas/numpy default, "type 7").
 */

/**
 * The q-quantile of ascending-sorted values: position h = q·(n − 1), result v[⌊h⌋] + (h − ⌊h⌋)·(v[⌊h⌋+1] − v[⌊h⌋]).
 * Infinite values are allowed (interpolating between two equal infinities returns that infinity).
 * @param sorted ascending values, no NaN.
 * @param q in [0, 1].
 * @returns NaN for an empty array.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = Math.min(Math.max(q, 0), 1) * (n - 1);
  const lo = Math.floor(h);
  const frac = h - lo;
  const a = sorted[lo]!;
  if (frac === 0 || lo + 1 >= n) return a;
  const b = sorted[lo + 1]!;
  if (a === b) return a;
  return a + frac * (b - a);
}
