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

/** Moves the k-th smallest of v[from..to) to v[k] (smaller before, larger after; Hoare's selection). */
function selectKth(v: Float64Array, k: number, from: number, to: number): void {
  let lo = from;
  let hi = to - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three as the pivot
    const a = v[lo]!;
    const b = v[mid]!;
    const c = v[hi]!;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (v[i]! < pivot) i++;
      while (v[j]! > pivot) j--;
      if (i <= j) {
        const t = v[i]!;
        v[i] = v[j]!;
        v[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * The qLo- and qHi-quantiles (0 ≤ qLo ≤ qHi ≤ 1) of finite values, exactly as {@link quantileSorted} gives them on
 * the sorted values (type 7: the same order statistics, interpolated the same way), found by selection in O(n)
 * instead of an O(n log n) sort. Reorders `v`.
 * @param v finite values, no NaN, at least one.
 * @returns [qLo-quantile, qHi-quantile].
 */
export function quantilePair(v: Float64Array, qLo: number, qHi: number): [number, number] {
  const n = v.length;
  let floor = 0;
  const at = (q: number): number => {
    const h = Math.min(Math.max(q, 0), 1) * (n - 1);
    const k = Math.floor(h);
    selectKth(v, k, floor, n);
    const a = v[k]!;
    floor = k;
    const frac = h - k;
    if (frac === 0 || k + 1 >= n) return a;
    let b = Number.POSITIVE_INFINITY;
    for (let i = k + 1; i < n; i++) if (v[i]! < b) b = v[i]!;
    return a === b ? a : a + frac * (b - a);
  };
  const lo = at(qLo);
  return [lo, at(qHi)];
}
