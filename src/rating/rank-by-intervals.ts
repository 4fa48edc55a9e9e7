/**
 * @module rating/rank-by-intervals
 * Leaderboard rank from confidence intervals (Chiang et al. 2024 "Chatbot Arena", arXiv:2403.04132, §5;
 * FastChat's `final_ranking`).
 */

/**
 * rank_m = 1 + #{ j : lo_j > hi_m }: a model is outranked only by models whose whole interval lies above its
 * own. Ties share a rank, ranks need not be consecutive. With point estimates only, pass the ratings as both
 * `lo` and `hi` (rank = 1 + number of strictly higher ratings).
 * @param lo, hi equal-length arrays of lower and upper bounds (Elo scale).
 * @returns integer ranks ≥ 1, same order as the inputs.
 */
export function rankByIntervals(lo: ArrayLike<number>, hi: ArrayLike<number>): number[] {
  const n = lo.length;
  if (hi.length !== n) throw new RangeError(`lo and hi differ in length (${n} vs ${hi.length})`);
  const sortedLo = Float64Array.from(lo).sort();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    // count of lo_j > hi_i by binary search over the ascending lows
    const h = hi[i]!;
    let a = 0;
    let b = n;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (sortedLo[mid]! > h) b = mid;
      else a = mid + 1;
    }
    out.push(1 + (n - a));
  }
  return out;
}
