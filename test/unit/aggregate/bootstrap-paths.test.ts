/**
 * The fast paths of the board's paired bootstrap (docs/scoring.md §5 "Uncertainty") against the exact ones:
 * item scores on a grid are summed several models per float64 and must unpack exactly, and a large arena
 * component draws its refits from their normal law, which must match resampling the battles within bootstrap
 * noise.
 */
import { describe, expect, it } from 'vitest';
import { fitComparative, resampleComparative } from '../../../src/aggregate/comparative.ts';
import {
  type BattleType,
  BOARD_ABILITIES,
  computeBoard,
  type DatasetScores,
} from '../../../src/aggregate/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { quantileSorted } from '../../../src/rating/index.ts';

describe('packed item scores', () => {
  it('unpack exactly: constant per-model scores (full scale, gaps, missing items) give zero-width intervals', () => {
    // 12 models (several float64 columns), 3,000 items at the top of the grid (lane sums reach n·q exactly),
    // every third model missing every fifth item: each round's dataset score must equal the point score.
    const n = 3000;
    const models = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const grid = (m: number) => (10 * ((m * 7) % 13)) / 12; // multiples of 10/12, 0 and 10 included
    const mk = (method: 'metrics' | 'scoring', shift: number): DatasetScores => ({
      dataset: `d-${method}`,
      ability: 'knowledge',
      method,
      items: n,
      scores: new Map(
        models.map((m, i) => [
          m,
          Float64Array.from({ length: n }, (_, k) =>
            i % 3 === 0 && k % 5 === 0 ? Number.NaN : i === 0 ? 10 : grid(i + shift),
          ),
        ]),
      ),
    });
    const board = computeBoard(
      { models, datasets: [mk('metrics', 0), mk('scoring', 3)], battles: [] },
      createRng(5),
      { minVotes: 20, rounds: 200 },
    );
    for (const r of board.rows) {
      expect(r.final).not.toBeNull();
      expect(r.finalLo!).toBeCloseTo(r.final!, 9);
      expect(r.finalHi!).toBeCloseTo(r.final!, 9);
    }
  });

  it('give the same intervals as unpacked scores, within bootstrap noise', () => {
    const n = 400;
    const models = ['a', 'b', 'c'];
    const acc = [0.8, 0.6, 0.55];
    const scores = (off: number) =>
      new Map(
        models.map((m, i) => [
          m,
          Float64Array.from({ length: n }, (_, k) =>
            ((k * 7919 + i * 104729) % 1000) / 1000 < acc[i]! ? 10 - off : off,
          ),
        ]),
      );
    const input = (off: number) => ({
      models,
      datasets: [
        { dataset: 'x', ability: 'knowledge', method: 'metrics', items: n, scores: scores(off) },
        { dataset: 'y', ability: 'knowledge', method: 'scoring', items: n, scores: scores(0) },
      ] satisfies DatasetScores[],
      battles: [],
    });
    // Scores 0/10 are packed; 1e-7/10−1e-7 are off every grid and take the plain path.
    const packed = computeBoard(input(0), createRng(1), { minVotes: 20, rounds: 4000 });
    const plain = computeBoard(input(1e-7), createRng(2), { minVotes: 20, rounds: 4000 });
    for (const m of models) {
      const p = packed.rows.find((r) => r.model === m)!;
      const q = plain.rows.find((r) => r.model === m)!;
      expect(Math.abs(p.finalLo! - q.finalLo!)).toBeLessThan(0.15);
      expect(Math.abs(p.finalHi! - q.finalHi!)).toBeLessThan(0.15);
    }
  });
});

describe('normal law of a large arena component', () => {
  it('matches resampling the battles (2.5 %, 50 %, 97.5 % quantiles of the comparative scores)', () => {
    const models = ['a', 'b', 'c', 'd', 'e'];
    const strength = [200, 100, 0, -50, -150];
    const battles: BattleType[] = [];
    for (let i = 0; i < 5; i++) {
      for (let j = i + 1; j < 5; j++) {
        const p = 1 / (1 + 10 ** ((strength[j]! - strength[i]!) / 400));
        const votes = 400 + i * 100;
        const aw = Math.round(votes * p * 0.85);
        const bw = Math.round(votes * (1 - p) * 0.85);
        const base = { ability: 'reasoning' as const, modelA: models[i]!, modelB: models[j]! };
        battles.push({ ...base, aWins: 1, bWins: 0, ties: 0, count: aw });
        battles.push({ ...base, aWins: 0, bWins: 1, ties: 0, count: bw });
        battles.push({ ...base, aWins: 0, bWins: 0, ties: 1, count: votes - aw - bw });
        // Battles with several votes (kept together when resampled).
        battles.push({
          ability: 'reasoning',
          modelA: models[j]!,
          modelB: models[i]!,
          aWins: 2,
          bWins: 1,
          ties: 0,
          count: 60,
        });
      }
    }
    const a = BOARD_ABILITIES.indexOf('reasoning');
    const R = 4000;
    const quantiles = (normalMinSide: number, seed: number) => {
      const state = fitComparative(models, BOARD_ABILITIES, battles, 20, normalMinSide);
      expect(state.components[a]!.map((c) => c.normal !== null)).toEqual([
        Number.isFinite(normalMinSide),
      ]);
      const out = BOARD_ABILITIES.map(() => new Float64Array(models.length));
      const samples = models.map(() => new Float64Array(R));
      const rng = createRng(seed);
      for (let r = 0; r < R; r++) {
        resampleComparative(state, rng, out);
        for (let m = 0; m < models.length; m++) samples[m]![r] = out[a]![m]!;
      }
      return samples.map((s) => {
        s.sort();
        return [0.025, 0.5, 0.975].map((q) => quantileSorted(s, q));
      });
    };
    const normal = quantiles(500, 1);
    const exact = quantiles(Number.POSITIVE_INFINITY, 2);
    for (let m = 0; m < models.length; m++) {
      const width = exact[m]![2]! - exact[m]![0]!;
      expect(width).toBeGreaterThan(0.1);
      for (let k = 0; k < 3; k++) {
        // Quantile noise of 4,000 rounds is about 2 % of the width; allow 8 %.
        expect(Math.abs(normal[m]![k]! - exact[m]![k]!)).toBeLessThan(0.08 * width);
      }
    }
  });
});

describe('normal law with a thin tail', () => {
  it('thin models resampled exactly, the others from the law: quantiles match resampling everything', () => {
    // Ten models with ~1,200 votes each and two thin ones with 24 and 40 one-vote battles (one-sided risk is
    // real for them: 3 and 6 losses on average): the thin pairs hold under 1 % of the votes.
    const thick = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const models = [...thick, 'thin-a', 'thin-b'];
    const strength = new Map(models.map((m, i) => [m, 300 - i * 40]));
    strength.set('thin-a', 260);
    strength.set('thin-b', -40);
    const battles: BattleType[] = [];
    const add = (a: string, b: string, votes: number) => {
      const p = 1 / (1 + 10 ** ((strength.get(b)! - strength.get(a)!) / 400));
      const ties = Math.round(votes * 0.1);
      const aw = Math.round((votes - ties) * p);
      const base = { ability: 'reasoning' as const, modelA: a, modelB: b };
      battles.push({ ...base, aWins: 1, bWins: 0, ties: 0, count: aw });
      battles.push({ ...base, aWins: 0, bWins: 1, ties: 0, count: votes - ties - aw });
      if (ties > 0) battles.push({ ...base, aWins: 0, bWins: 0, ties: 1, count: ties });
    };
    for (let i = 0; i < 10; i++) for (let j = i + 1; j < 10; j++) add(thick[j]!, thick[i]!, 140);
    for (let i = 0; i < 8; i++) add('thin-a', thick[i]!, 3);
    for (let i = 0; i < 10; i++) add(thick[i]!, 'thin-b', 4);
    const a = BOARD_ABILITIES.indexOf('reasoning');
    const R = 4000;
    const quantiles = (normalMinSide: number, seed: number) => {
      const state = fitComparative(models, BOARD_ABILITIES, battles, 20, normalMinSide);
      const c = state.components[a]![0]!;
      expect(c.thin?.models.length ?? 0).toBe(Number.isFinite(normalMinSide) ? 2 : 0);
      const out = BOARD_ABILITIES.map(() => new Float64Array(models.length));
      const samples = models.map(() => new Float64Array(R));
      const rng = createRng(seed);
      for (let r = 0; r < R; r++) {
        resampleComparative(state, rng, out);
        for (let m = 0; m < models.length; m++) samples[m]![r] = out[a]![m]!;
      }
      return samples.map((s) => {
        s.sort();
        return [0.025, 0.5, 0.975].map((q) => quantileSorted(s, q));
      });
    };
    const hybrid = quantiles(100, 1);
    const exact = quantiles(Number.POSITIVE_INFINITY, 2);
    const index = (name: string) => models.indexOf(name);
    for (let m = 0; m < models.length; m++) {
      const width = exact[m]![2]! - exact[m]![0]!;
      expect(width).toBeGreaterThan(0.1);
      for (let k = 0; k < 3; k++) {
        // Quantile noise of 4,000 rounds is about 2–3 % of the width; allow 8 %.
        expect(Math.abs(hybrid[m]![k]! - exact[m]![k]!)).toBeLessThan(0.08 * width);
      }
    }
    // The thin models' intervals are the wide ones (their votes, not the law, make them).
    for (const name of ['thin-a', 'thin-b']) {
      const w = exact[index(name)]![2]! - exact[index(name)]![0]!;
      expect(w).toBeGreaterThan(2 * (exact[index('t5')]![2]! - exact[index('t5')]![0]!));
    }
  });

  it('a tail holding more than NORMAL_MAX_THIN_SHARE of the votes resamples the whole component', () => {
    const models = ['a', 'b', 'c', 'd'];
    const battles: BattleType[] = [];
    const pair = (x: string, y: string, w: number, l: number) => {
      battles.push({
        ability: 'reasoning',
        modelA: x,
        modelB: y,
        aWins: 1,
        bWins: 0,
        ties: 0,
        count: w,
      });
      battles.push({
        ability: 'reasoning',
        modelA: x,
        modelB: y,
        aWins: 0,
        bWins: 1,
        ties: 0,
        count: l,
      });
    };
    pair('a', 'b', 300, 250);
    pair('a', 'c', 60, 40);
    pair('b', 'c', 50, 45);
    pair('d', 'a', 30, 40);
    const state = fitComparative(models, BOARD_ABILITIES, battles, 20, 100);
    const c = state.components[BOARD_ABILITIES.indexOf('reasoning')]![0]!;
    expect(c.normal).toBeNull();
    expect(c.thin).toBeNull();
  });
});
