/**
 * @module rating/win-rate
 * Predicted win rates from Elo-scale ratings (docs/scoring.md §4; Chiang et al. 2024, arXiv:2403.04132;
 * FastChat `elo_analysis.py` predicted win-rate matrix).
 */

/** P(i beats j) = 1 / (1 + 10^((R_j − R_i)/400)) for Elo-scale ratings (scale 400 by default). */
export function predictedWinProbability(ri: number, rj: number, scale = 400): number {
  return 1 / (1 + 10 ** ((rj - ri) / scale));
}

/**
 * The predicted win-rate matrix: W[i][j] = P(model i beats model j), W[i][j] + W[j][i] = 1, values in (0, 1).
 * The diagonal is NaN (a model does not play itself), as in FastChat's table.
 * @param ratings Elo-scale ratings.
 */
export function predictedWinRateMatrix(ratings: ArrayLike<number>, scale = 400): number[][] {
  const n = ratings.length;
  const w: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let j = 0; j < n; j++) {
      row.push(i === j ? Number.NaN : predictedWinProbability(ratings[i]!, ratings[j]!, scale));
    }
    w.push(row);
  }
  return w;
}

/**
 * Average predicted win rate of each model: mean over the other models j of 1 / (1 + 10^((R_j − R_m)/400)),
 * in (0, 1); the comparative dataset score of docs/scoring.md §4 is 10 × this. NaN for a single model.
 * @param ratings Elo-scale ratings.
 */
export function averagePredictedWinRate(ratings: ArrayLike<number>, scale = 400): Float64Array {
  const n = ratings.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++)
      if (j !== i) s += predictedWinProbability(ratings[i]!, ratings[j]!, scale);
    out[i] = n > 1 ? s / (n - 1) : Number.NaN;
  }
  return out;
}
