/**
 * The Bradley–Terry fit of a few free models with the others held fixed (rating/conditional-refit.ts): at the full
 * maximum-likelihood estimate of the others it gives back the full estimate of the free ones (the full MLE is a
 * stationary point of the restricted likelihood), and one-sided free models get ±Infinity.
 */
import { describe, expect, it } from 'vitest';
import {
  arenaFromPairCounts,
  type ConditionalPairs,
  createConditionalWorkspace,
  fitBradleyTerry,
  type PairCountRecord,
  solveConditionalBradleyTerry,
} from '../../../src/rating/index.ts';

/** Six models, every pair voted on (counts vary with the pair), ties included. */
function pairCounts(): PairCountRecord[] {
  const names = ['a', 'b', 'c', 'd', 'e', 'f'];
  const out: PairCountRecord[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      out.push({
        model_a: names[i]!,
        model_b: names[j]!,
        model_a_wins: 5 + ((i * 7 + j * 3) % 11) + (j - i) * 2,
        model_b_wins: 3 + ((i * 5 + j) % 7),
        tie: (i + j) % 4,
        tie_bothbad: 0,
      });
    }
  }
  return out;
}

/** The pairs of the fit's problem touching the free models (local indices), oriented free model first. */
function freePairs(
  pi: Int32Array,
  pj: Int32Array,
  free: readonly number[],
): { pairs: ConditionalPairs; of: number[]; flip: boolean[] } {
  const pos = (x: number) => free.indexOf(x);
  const a: number[] = [];
  const b: number[] = [];
  const opp: number[] = [];
  const of: number[] = [];
  const flip: boolean[] = [];
  for (let k = 0; k < pi.length; k++) {
    const i = pi[k]!;
    const j = pj[k]!;
    if (pos(i) < 0 && pos(j) < 0) continue;
    const f = pos(i) < 0;
    const x = f ? j : i;
    const y = f ? i : j;
    a.push(pos(x));
    b.push(pos(y));
    opp.push(pos(y) < 0 ? y : -1);
    of.push(k);
    flip.push(f);
  }
  return {
    pairs: {
      free: free.length,
      a: Int32Array.from(a),
      b: Int32Array.from(b),
      opp: Int32Array.from(opp),
    },
    of,
    flip,
  };
}

describe('solveConditionalBradleyTerry', () => {
  it('with the others at their full MLE, gives the full MLE of the free models (a free-free pair included)', () => {
    const fit = fitBradleyTerry(arenaFromPairCounts(pairCounts()));
    const prob = fit.problem;
    const free = [1, 4];
    const { pairs, of, flip } = freePairs(prob.pi, prob.pj, free);
    const wi = Float64Array.from(of, (k, q) => (flip[q] ? prob.wj[k]! : prob.wi[k]!));
    const wj = Float64Array.from(of, (k, q) => (flip[q] ? prob.wi[k]! : prob.wj[k]!));
    const t = Float64Array.from(of, (k) => prob.t[k]!);
    // Start far from the answer.
    const theta = Float64Array.from(free, () => 0.9);
    solveConditionalBradleyTerry(
      pairs,
      wi,
      wj,
      t,
      fit.theta,
      theta,
      createConditionalWorkspace(pairs),
    );
    free.forEach((m, s) => {
      expect(theta[s]!).toBeCloseTo(fit.theta[m]!, 9);
    });
  });

  it('a free model that only won gets +Infinity, one that only lost −Infinity, one without votes NaN', () => {
    // Free models 0, 1, 2 against fixed models 0 and 1 (θ 0.1 and −0.1); free 0 and 1 also met once.
    const pairs: ConditionalPairs = {
      free: 4,
      a: Int32Array.from([0, 0, 1, 2, 2, 0, 3]),
      b: Int32Array.from([-1, -1, -1, -1, -1, 1, -1]),
      opp: Int32Array.from([0, 1, 0, 0, 1, -1, 1]),
    };
    // 0: only wins (also against free 1); 1: only losses; 2: wins and losses; 3: a pair with no vote.
    const wi = Float64Array.from([4, 2, 0, 3, 1, 1, 0]);
    const wj = Float64Array.from([0, 0, 5, 2, 4, 0, 0]);
    const t = new Float64Array(7);
    const theta = new Float64Array(4);
    solveConditionalBradleyTerry(
      pairs,
      wi,
      wj,
      t,
      [0.1, -0.1],
      theta,
      createConditionalWorkspace(pairs),
    );
    expect(theta[0]).toBe(Number.POSITIVE_INFINITY);
    expect(theta[1]).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isFinite(theta[2]!)).toBe(true);
    expect(theta[3]).toBeNaN();
    // Model 2 alone against the fixed ones: its stationarity equation holds.
    const p0 = 1 / (1 + 10 ** (0.1 - theta[2]!));
    const p1 = 1 / (1 + 10 ** (-0.1 - theta[2]!));
    expect(3 - 5 * p0 + (1 - 5 * p1)).toBeCloseTo(0, 9);
  });

  it('a thin model linked to the fixed ones only through another free model stays finite', () => {
    // Free 1 meets only free 0 (wins and losses); free 0 meets the fixed model both ways.
    const pairs: ConditionalPairs = {
      free: 2,
      a: Int32Array.from([0, 1]),
      b: Int32Array.from([-1, 0]),
      opp: Int32Array.from([0, -1]),
    };
    const theta = new Float64Array(2);
    solveConditionalBradleyTerry(
      pairs,
      Float64Array.from([6, 2]),
      Float64Array.from([3, 4]),
      new Float64Array(2),
      [0],
      theta,
      createConditionalWorkspace(pairs),
    );
    // Closed form: 10^θ0 = 6/3 against θ = 0, and 10^(θ1 − θ0) = 2/4.
    expect(theta[0]!).toBeCloseTo(Math.log10(2), 9);
    expect(theta[1]! - theta[0]!).toBeCloseTo(Math.log10(0.5), 9);
  });
});
