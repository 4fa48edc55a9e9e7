/** Binomial/multinomial sampling, quantiles, rank by intervals and predicted win rates. */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  averagePredictedWinRate,
  multinomialConditionals,
  predictedWinProbability,
  predictedWinRateMatrix,
  quantileSorted,
  rankByIntervals,
  sampleBinomial,
  sampleMultinomialInto,
} from '../../../src/rating/index.ts';

describe('sampleBinomial', () => {
  for (const [n, p] of [
    [20, 0.3],
    [200, 0.02],
    [1000, 0.5],
    [50, 0.9],
    [1_670_250, 0.003],
    [100_000, 0.7],
  ] as const) {
    it(`Binomial(${n}, ${p}) has the right mean and variance (inversion and BTRD branches)`, () => {
      const rng = createRng(11);
      const T = 50_000;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < T; i++) {
        const x = sampleBinomial(rng, n, p);
        expect(Number.isInteger(x) && x >= 0 && x <= n).toBe(true);
        s += x;
        s2 += x * x;
      }
      const mean = s / T;
      const v = s2 / T - mean * mean;
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs(mean - n * p)).toBeLessThan((5 * sd) / Math.sqrt(T));
      expect(Math.abs(v / (sd * sd) - 1)).toBeLessThan(0.05);
    });
  }

  it('edge cases', () => {
    const rng = createRng(1);
    expect(sampleBinomial(rng, 0, 0.5)).toBe(0);
    expect(sampleBinomial(rng, 10, 0)).toBe(0);
    expect(sampleBinomial(rng, 10, 1)).toBe(10);
  });

  it('multinomial draws sum to n and follow the cell shares', () => {
    const counts = [5, 0, 100, 895];
    const cond = multinomialConditionals(counts);
    expect(cond[3]).toBe(1);
    const out = new Float64Array(4);
    const rng = createRng(2);
    const tot = [0, 0, 0, 0];
    for (let r = 0; r < 2000; r++) {
      sampleMultinomialInto(rng, 1000, cond, out);
      expect(out.reduce((a, b) => a + b, 0)).toBe(1000);
      out.forEach((x, k) => {
        tot[k]! += x;
      });
    }
    expect(tot[1]).toBe(0);
    expect(tot[0]! / 2000).toBeCloseTo(5, 0);
    expect(tot[2]! / 2000).toBeCloseTo(100, 0);
  });
});

describe('quantileSorted (pandas linear interpolation)', () => {
  it('matches numpy/pandas', () => {
    const v = [1, 2, 3, 4];
    expect(quantileSorted(v, 0.025)).toBeCloseTo(1.075, 12);
    expect(quantileSorted(v, 0.5)).toBe(2.5);
    expect(quantileSorted(v, 0.975)).toBeCloseTo(3.925, 12);
    expect(quantileSorted([7], 0.3)).toBe(7);
    expect(Number.isNaN(quantileSorted([], 0.5))).toBe(true);
    expect(quantileSorted([1, Infinity, Infinity], 0.9)).toBe(Infinity);
  });
});

describe('rankByIntervals', () => {
  it('rank = 1 + number of models whose lower bound is above my upper bound', () => {
    expect(rankByIntervals([10, 0, 0], [20, 5, 15])).toEqual([1, 2, 1]);
    expect(rankByIntervals([3, 2, 1], [3, 2, 1])).toEqual([1, 2, 3]);
  });
});

describe('predicted win rates', () => {
  it('uses 1 / (1 + 10^((R_j − R_i)/400))', () => {
    expect(predictedWinProbability(1000, 1000)).toBe(0.5);
    expect(predictedWinProbability(1400, 1000)).toBeCloseTo(10 / 11, 14);
    const w = predictedWinRateMatrix([1400, 1000, 1000]);
    expect(w[1]![0]).toBeCloseTo(1 / 11, 14);
    expect(Number.isNaN(w[2]![2]!)).toBe(true);
    const avg = averagePredictedWinRate([1400, 1000, 1000]);
    expect(avg[0]).toBeCloseTo(10 / 11, 14);
    expect(avg[1]).toBeCloseTo((1 / 11 + 0.5) / 2, 14);
  });
});
