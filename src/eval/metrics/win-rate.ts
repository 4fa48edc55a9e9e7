/**
 * @module eval/metrics/win-rate
 * Win rate against a baseline from pairwise judge preferences, as AlpacaEval defines and prints it
 * (docs/scoring.md §3.5; Dubois et al. 2024, AlpacaEval `metrics/winrate.py`). Pure.
 */

/** Win-rate figures, in percent (as AlpacaEval's leaderboard prints them). */
export interface WinRate {
  /** Preferences counted (failures and missing verdicts excluded). */
  readonly n: number;
  /** 100 × mean(preference − 1). */
  readonly win_rate: number;
  /** 100 × standard error of the mean of (preference − 1): sample sd (n − 1) / √n; 0 when n < 2. */
  readonly standard_error: number;
  /** 100 × mean(1 if preference > 1.5, 0.5 if = 1.5, else 0). */
  readonly discrete_win_rate: number;
}

/**
 * Computes the win rate of a model against a baseline.
 * @param preferences one per item, in [1, 2]: 1 = baseline better, 1.5 = tie, 2 = model better (0 is read as a
 *   tie and null/NaN is skipped, as AlpacaEval does).
 * @returns the figures, or null when no preference remains.
 * @example winRate([2, 1, 1.5]) // { n: 3, win_rate: 50, standard_error: 28.87…, discrete_win_rate: 50 }
 */
export function winRate(preferences: readonly (number | null)[]): WinRate | null {
  const xs: number[] = [];
  for (const p of preferences) {
    if (p === null || Number.isNaN(p)) continue;
    xs.push((p === 0 ? 1.5 : p) - 1);
  }
  const n = xs.length;
  if (n === 0) return null;
  const mean = xs.reduce((s, x) => s + x, 0) / n;
  const ss = xs.reduce((s, x) => s + (x - mean) ** 2, 0);
  const se = n > 1 ? Math.sqrt(ss / (n - 1)) / Math.sqrt(n) : 0;
  let discrete = 0;
  for (const x of xs) discrete += x > 0.5 ? 1 : x === 0.5 ? 0.5 : 0;
  return {
    n,
    win_rate: 100 * mean,
    standard_error: 100 * se,
    discrete_win_rate: (100 * discrete) / n,
  };
}
