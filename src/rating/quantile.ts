/**
 * @module rating/quantile
 * Sample quantile with linear interpolation between order statistics (pandas/numpy default, "type 7").
 */

/**
 * The q-quantile of ascending-sorted values: position h = q·(n − 1), result v[⌊h⌋] + (h − ⌊h⌋)·(v[⌊h⌋+1] − v[⌊h⌋]).
 * Infinite values are allowed: between −∞ and anything, or anything and +∞, the interpolation is that infinity
 * (the limit of the formula; computing it directly would give ∞ − ∞ = NaN). So with n bootstrap samples of which
 * some are −∞, the q-quantile is −∞ exactly when more than ⌊q·(n − 1)⌋ samples are −∞ (e.g. 25 of 1,000 for
 * q = 2.5 %), and likewise for +∞ at the upper quantile.
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
  if (a === b || a === Number.NEGATIVE_INFINITY) return a;
  if (b === Number.POSITIVE_INFINITY) return b;
  return a + frac * (b - a);
}
