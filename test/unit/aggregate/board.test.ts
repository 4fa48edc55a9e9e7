/**
 * The board aggregation (docs/scoring.md §4–5) on golden inputs, and the paper's own board reproduced from its
 * ability scores.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type BattleType,
  BOARD_ABILITIES,
  type BoardAbility,
  type BoardInput,
  type BoardRounds,
  computeBoard,
  computeBoardRounds,
  type DatasetScores,
  prepareBoardRounds,
  type RoundHelper,
} from '../../../src/aggregate/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

/** A dataset with one score list per model (NaN = no score). */
function ds(
  dataset: string,
  ability: BoardAbility,
  method: 'metrics' | 'scoring',
  scores: Record<string, number[]>,
): DatasetScores {
  const n = Math.max(...Object.values(scores).map((s) => s.length));
  return {
    dataset,
    ability,
    method,
    items: n,
    scores: new Map(Object.entries(scores).map(([m, s]) => [m, Float64Array.from(s)])),
  };
}

const hasBoard = hasSharedData('zhujiu_leaderboard.tsv');

describe.skipIf(!hasBoard)("the paper's board (zhujiu_leaderboard.tsv)", () => {
  it('reproduces every total_score to two decimals from the seven ability scores', () => {
    const lines = readFileSync(sharedData('zhujiu_leaderboard.tsv'), 'utf8').trim().split('\n');
    const header = lines[0]!.split('\t');
    const rows = lines.slice(1).map((l) => {
      const cells = l.split('\t');
      return Object.fromEntries(header.map((h, i) => [h, cells[i]!]));
    });
    expect(rows).toHaveLength(10);
    // One single-item metrics dataset per ability carrying the published ability score: the ability column is
    // then exactly that score, and overall is what the board computes from the seven columns.
    const datasets = BOARD_ABILITIES.map((a) =>
      ds(
        `paper-${a}`,
        a,
        'metrics',
        Object.fromEntries(rows.map((r) => [r.model_name!, [Number(r[a])]])),
      ),
    );
    const board = computeBoard(
      { models: rows.map((r) => r.model_name!), datasets, battles: [] },
      createRng(0),
      { minVotes: 20, rounds: 0 },
    );
    const got = Object.fromEntries(board.rows.map((r) => [r.model, r.overall?.toFixed(2)]));
    const want = Object.fromEntries(
      rows.map((r) => [r.model_name!, Number(r.total_score).toFixed(2)]),
    );
    expect(got).toEqual(want);
    for (const r of board.rows) {
      for (const a of BOARD_ABILITIES)
        expect(r.abilities[a]).toBeCloseTo(
          Number(rows.find((x) => x.model_name === r.model)![a]),
          10,
        );
    }
  });
});

describe('computeBoard', () => {
  it('one model: method means, not normalisable, marked, incomplete where data is missing', () => {
    const board = computeBoard(
      {
        models: ['solo'],
        datasets: [
          ds('k1', 'knowledge', 'metrics', { solo: [10, 5] }),
          ds('k2', 'knowledge', 'metrics', { solo: [6] }),
          ds('r1', 'reasoning', 'metrics', { solo: [4, 4, 4] }),
        ],
        battles: [],
      },
      createRng(1),
      { minVotes: 20, rounds: 50 },
    );
    const row = board.rows[0]!;
    // A[metrics][knowledge] = mean(7.5, 6) = 6.75; A[metrics][reasoning] = 4; E[metrics] = 5.375.
    expect(row.cells.metrics.knowledge).toBeCloseTo(6.75, 12);
    expect(row.cells.metrics.reasoning).toBeCloseTo(4, 12);
    expect(row.methods).toEqual({ metrics: 5.375, scoring: null, comparative: null });
    expect(board.unnormalized).toEqual(['metrics']);
    expect(row.final).toBeCloseTo(5.375, 12);
    expect(row.rank).toBe(1);
    expect(row.incomplete).toBe(true);
    expect(row.missing).toEqual([
      'scoring',
      'comparative',
      'ability:chinese_specific',
      'ability:language',
      'ability:refusal',
      'ability:safety',
      'ability:robustness',
    ]);
    expect(row.abilities.language).toBeNull();
    expect(row.overall).toBeCloseTo((6.75 + 4) / 2, 12);
    expect(row.finalLo).not.toBeNull();
    expect(row.finalLo!).toBeLessThanOrEqual(row.final!);
    expect(row.finalHi!).toBeGreaterThanOrEqual(row.final!);
    expect(row.separatedFromNext).toBeNull();
  });

  it('equal method scores: that method cannot be normalised and enters as its mean, flagged', () => {
    const board = computeBoard(
      {
        models: ['a', 'b'],
        datasets: [
          ds('m', 'knowledge', 'metrics', { a: [6, 8], b: [8, 6] }), // both 7
          ds('s', 'language', 'scoring', { a: [9], b: [3] }),
        ],
        battles: [],
      },
      createRng(1),
      { minVotes: 20, rounds: 0 },
    );
    expect(board.unnormalized).toEqual(['metrics']);
    const a = board.rows.find((r) => r.model === 'a')!;
    const b = board.rows.find((r) => r.model === 'b')!;
    expect(a.normalized).toEqual({ metrics: 7, scoring: 10, comparative: null });
    expect(b.normalized).toEqual({ metrics: 7, scoring: 0, comparative: null });
    expect(a.final).toBeCloseTo(8.5, 12);
    expect(b.final).toBeCloseTo(3.5, 12);
    expect(board.rows.map((r) => r.model)).toEqual(['a', 'b']);
  });

  it('a model missing a method: empty cell, incomplete, final from the methods it has (never a 0)', () => {
    const board = computeBoard(
      {
        models: ['full', 'half', 'low'],
        datasets: [
          ds('m', 'knowledge', 'metrics', { full: [8], half: [6], low: [2] }),
          ds('s', 'knowledge', 'scoring', { full: [5], low: [1] }),
        ],
        battles: [],
      },
      createRng(1),
      { minVotes: 20, rounds: 0 },
    );
    const half = board.rows.find((r) => r.model === 'half')!;
    expect(half.methods.scoring).toBeNull();
    expect(half.normalized.scoring).toBeNull();
    expect(half.missing).toContain('scoring');
    expect(half.incomplete).toBe(true);
    // metrics normalised over {8, 6, 2}: half → (6 − 2)/6 × 10 = 6.667; final = that alone (not averaged with 0).
    expect(half.final).toBeCloseTo(20 / 3, 10);
    expect(half.abilities.knowledge).toBe(6);
    const full = board.rows.find((r) => r.model === 'full')!;
    expect(full.final).toBe(10);
    expect(full.abilities.knowledge).toBe(6.5);
  });

  it('rows missing a method the board has are not ranked above comparable rows', () => {
    // "judge-only" has only a judge score (a mean: scoring cannot be normalised with one model besides "full"…),
    // "metrics-only" only metrics: their finals are made of other methods than "full"'s and are not comparable.
    const board = computeBoard(
      {
        models: ['full', 'judge-only', 'metrics-only', 'full-low'],
        datasets: [
          ds('m', 'knowledge', 'metrics', { full: [8], 'metrics-only': [6], 'full-low': [2] }),
          ds('s', 'language', 'scoring', { full: [5], 'judge-only': [9], 'full-low': [1] }),
        ],
        battles: [],
      },
      createRng(1),
      { minVotes: 20, rounds: 30 },
    );
    const rows = board.rows.map((r) => [r.model, r.rank]);
    expect(rows).toEqual([
      ['full', 1],
      ['full-low', 2],
      ['judge-only', null],
      ['metrics-only', null],
    ]);
    expect(board.rows[1]!.separatedFromNext).toBeNull();
    expect(board.rows[2]!.separatedFromNext).toBeNull();
    expect(board.rows[2]!.final).toBe(10);
    expect(board.rows[2]!.missing).toContain('metrics');
  });

  it('folds arena battles in per ability: 10 × mean predicted win probability, min votes respected', () => {
    // Three models in reasoning with a clear order, plus a thin model with 2 votes.
    const battles: BattleType[] = [
      { ability: 'reasoning', modelA: 'a', modelB: 'b', aWins: 1, bWins: 0, ties: 0, count: 30 },
      { ability: 'reasoning', modelA: 'a', modelB: 'b', aWins: 0, bWins: 1, ties: 0, count: 10 },
      { ability: 'reasoning', modelA: 'b', modelB: 'c', aWins: 1, bWins: 0, ties: 0, count: 30 },
      { ability: 'reasoning', modelA: 'b', modelB: 'c', aWins: 0, bWins: 1, ties: 0, count: 10 },
      { ability: 'reasoning', modelA: 'a', modelB: 'c', aWins: 1, bWins: 1, ties: 1, count: 10 },
      { ability: 'reasoning', modelA: 'd', modelB: 'a', aWins: 1, bWins: 1, ties: 0, count: 1 },
    ];
    const board = computeBoard(
      { models: ['a', 'b', 'c', 'd'], datasets: [], battles },
      createRng(7),
      { minVotes: 20, rounds: 200 },
    );
    const reasoning = board.arena.reasoning;
    const d = reasoning.find((e) => e.model === 'd')!;
    expect(d.score).toBeNull();
    expect(d.note).toBe('not enough votes (2 < 20)');
    const ratings = new Map(reasoning.map((e) => [e.model, e.rating!]));
    const p = (x: string, y: string) => 1 / (1 + 10 ** ((ratings.get(y)! - ratings.get(x)!) / 400));
    const a = reasoning.find((e) => e.model === 'a')!;
    expect(a.score).toBeCloseTo((10 * (p('a', 'b') + p('a', 'c') + p('a', 'd'))) / 3, 10);
    const rows = new Map(board.rows.map((r) => [r.model, r]));
    expect(rows.get('a')!.cells.comparative.reasoning).toBeCloseTo(a.score!, 12);
    expect(rows.get('d')!.final).toBeNull();
    expect(rows.get('d')!.rank).toBeNull();
    expect(rows.get('a')!.votes).toBe(40 + 30 + 2);
    expect(board.rows.map((r) => r.model)).toEqual(['a', 'b', 'c', 'd']);
    // Head-to-head records.
    expect(board.headToHead.find((h) => h.model === 'b' && h.opponent === 'a')).toEqual({
      model: 'b',
      opponent: 'a',
      wins: 10,
      losses: 30,
      ties: 0,
    });
  });

  it('models in separate comparison components are scored within their own component', () => {
    const battles: BattleType[] = [
      { ability: 'language', modelA: 'a', modelB: 'b', aWins: 3, bWins: 1, ties: 0, count: 10 },
      { ability: 'language', modelA: 'c', modelB: 'd', aWins: 1, bWins: 3, ties: 0, count: 10 },
    ];
    const board = computeBoard(
      { models: ['a', 'b', 'c', 'd'], datasets: [], battles },
      createRng(3),
      {
        minVotes: 5,
        rounds: 0,
      },
    );
    const e = new Map(board.arena.language.map((x) => [x.model, x]));
    expect(e.get('a')!.component).toBe(e.get('b')!.component);
    expect(e.get('c')!.component).not.toBe(e.get('a')!.component);
    // Within {a, b}: P(a beats b) = 3/4 at the MLE, so 7.5; within {c, d}: d 7.5, c 2.5.
    expect(e.get('a')!.score).toBeCloseTo(7.5, 6);
    expect(e.get('d')!.score).toBeCloseTo(7.5, 6);
    expect(e.get('c')!.score).toBeCloseTo(2.5, 6);
  });

  it('the paired bootstrap is reproducible from its seed and separates clearly different models only', () => {
    const n = 200;
    const mk = (p: number, shift: number) =>
      Array.from({ length: n }, (_, i) => (((i * 7919 + shift) % 100) / 100 < p ? 10 : 0));
    const input = {
      models: ['strong', 'twin1', 'twin2'],
      datasets: [
        ds('m', 'knowledge', 'metrics', {
          strong: mk(0.9, 1),
          twin1: mk(0.5, 3),
          twin2: mk(0.5, 3),
        }),
        ds('m2', 'knowledge', 'metrics', {
          strong: mk(0.8, 5),
          twin1: mk(0.41, 9),
          twin2: mk(0.4, 9),
        }),
      ],
      battles: [],
    };
    const b1 = computeBoard(input, createRng(42), { minVotes: 20, rounds: 300 });
    const b2 = computeBoard(input, createRng(42), { minVotes: 20, rounds: 300 });
    expect(b1).toEqual(b2);
    const b3 = computeBoard(input, createRng(43), { minVotes: 20, rounds: 300 });
    expect(b3.rows.map((r) => [r.finalLo, r.finalHi])).not.toEqual(
      b1.rows.map((r) => [r.finalLo, r.finalHi]),
    );
    expect(b1.rows.map((r) => r.model)).toEqual(['strong', 'twin1', 'twin2']);
    expect(b1.rows[0]!.separatedFromNext).toBe(true);
    expect(b1.rows[1]!.separatedFromNext).toBe(false);
    expect(b1.rows[2]!.separatedFromNext).toBeNull();
    for (const r of b1.rows) {
      expect(r.finalLo!).toBeLessThanOrEqual(r.final!);
      expect(r.finalHi!).toBeGreaterThanOrEqual(r.final!);
    }
  });

  it('rejects scores outside the ten-point scale, naming dataset, model and item', () => {
    expect(() =>
      computeBoard(
        {
          models: ['x'],
          datasets: [ds('bad', 'knowledge', 'metrics', { x: [1, 11] })],
          battles: [],
        },
        createRng(0),
        { minVotes: 1, rounds: 0 },
      ),
    ).toThrow('dataset bad: model x item 1 score 11 is outside [0, 10]');
  });
});

describe('battles without an ability', () => {
  it('count in the votes column and in the head-to-head record (1 win, 1 tie, 1 loss → 1–1–1 over 3 votes)', () => {
    const one = { modelA: 'm1', modelB: 'm2', count: 1 };
    const board = computeBoard(
      {
        models: ['m1', 'm2'],
        datasets: [],
        battles: [],
        unassignedBattles: [
          { ...one, aWins: 1, bWins: 0, ties: 0 },
          { ...one, aWins: 0, bWins: 0, ties: 1 },
          { ...one, aWins: 0, bWins: 1, ties: 0 },
        ],
      },
      createRng(0),
      { minVotes: 1, rounds: 10 },
    );
    expect(board.rows.find((r) => r.model === 'm1')?.votes).toBe(3);
    expect(board.headToHead.find((h) => h.model === 'm1' && h.opponent === 'm2')).toEqual({
      model: 'm1',
      opponent: 'm2',
      wins: 1,
      losses: 1,
      ties: 1,
    });
  });
});

describe('a method whose spread is within its uncertainty (docs/scoring.md §5)', () => {
  const models = ['m1', 'm2', 'm3', 'm4'];
  /** Every pair plays `n` battles one way and `n` the other, and m1 wins `extra` more against each. */
  function arena(n: number, extra: number): BattleType[] {
    const out: BattleType[] = [];
    for (let i = 0; i < models.length; i++)
      for (let j = i + 1; j < models.length; j++) {
        const one = {
          ability: 'reasoning' as const,
          modelA: models[i]!,
          modelB: models[j]!,
          ties: 0,
        };
        out.push({ ...one, aWins: 1, bWins: 0, count: n + (i === 0 ? extra : 0) });
        out.push({ ...one, aWins: 0, bWins: 1, count: n });
      }
    return out;
  }

  it('arena votes only, four models a hair apart: no normalised score, no final, no rank (not "10.00 (0.00–10.00)")', () => {
    const board = computeBoard({ models, datasets: [], battles: arena(30, 1) }, createRng(7), {
      minVotes: 20,
      rounds: 200,
    });
    const comp = board.rows.map((r) => r.methods.comparative!);
    expect(Math.max(...comp) - Math.min(...comp)).toBeLessThan(0.3);
    expect(board.withinUncertainty).toEqual(['comparative']);
    expect(board.unnormalized).toEqual([]);
    for (const r of board.rows) {
      expect(r.normalized.comparative).toBeNull();
      expect(r.final).toBeNull();
      expect(r.rank).toBeNull();
    }
  });

  it('a clear leader is normalised and ranked as before', () => {
    const board = computeBoard({ models, datasets: [], battles: arena(30, 40) }, createRng(7), {
      minVotes: 20,
      rounds: 200,
    });
    expect(board.withinUncertainty).toEqual([]);
    expect(board.rows[0]).toMatchObject({ model: 'm1', rank: 1, final: 10 });
  });

  it('a method within its uncertainty is not required for a rank: rows with the other methods are ranked', () => {
    // Metrics separate a and b clearly; their judge grades are equal within noise; c has metrics only.
    const right = (k: number, n: number) => Array.from({ length: n }, (_, i) => (i < k ? 10 : 0));
    const board = computeBoard(
      {
        models: ['a', 'b', 'c'],
        datasets: [
          ds('m', 'knowledge', 'metrics', { a: right(45, 50), b: right(10, 50), c: right(30, 50) }),
          ds('s', 'language', 'scoring', { a: right(25, 50), b: right(24, 50) }),
        ],
        battles: [],
      },
      createRng(3),
      { minVotes: 20, rounds: 300 },
    );
    expect(board.withinUncertainty).toEqual(['scoring']);
    expect(board.rows.map((r) => [r.model, r.rank])).toEqual([
      ['a', 1],
      ['c', 2],
      ['b', 3],
    ]);
    expect(board.rows[0]!.normalized.scoring).toBeNull();
    expect(board.rows[0]!.methods.scoring).toBeCloseTo(5, 9);
  });
});

describe('bootstrap rounds computed elsewhere (docs/scoring.md §5 "Uncertainty")', () => {
  // Raw scores that differ (a flagged item), a non-grid dataset with a missing item, and arena battles: every kind
  // of per-round figure a share of rounds carries.
  const n = 30;
  const grid = (p: number, shift: number) =>
    Array.from({ length: n }, (_, i) => (((i * 7919 + shift) % 100) / 100 < p ? 10 : 0));
  const scoring = ds('judged', 'safety', 'scoring', {
    a: grid(0.8, 1),
    b: grid(0.5, 2),
    c: grid(0.3, 3),
  });
  const input: BoardInput = {
    models: ['a', 'b', 'c', 'd'],
    datasets: [
      {
        ...scoring,
        raw: new Map([['a', Float64Array.from(grid(0.8, 1), (x, i) => (i === 0 ? 7 : x))]]),
      },
      ds('free', 'knowledge', 'metrics', {
        a: Array.from({ length: n }, (_, i) => (i * 3.7) % 10),
        b: Array.from({ length: n }, (_, i) => (i === 4 ? Number.NaN : (i * 1.3) % 10)),
        d: Array.from({ length: n }, (_, i) => (i * 2.1) % 10),
      }),
    ],
    // One-vote battles: [left, right, left wins, right wins, ties].
    battles: (
      [
        ['a', 'b', 30, 12, 4],
        ['b', 'c', 20, 15, 5],
        ['c', 'd', 9, 14, 2],
        ['a', 'd', 25, 5, 3],
      ] as const
    ).flatMap(([modelA, modelB, l, r, t]) =>
      (
        [
          [1, 0, 0, l],
          [0, 1, 0, r],
          [0, 0, 1, t],
        ] as const
      ).map(([aWins, bWins, ties, count]) => ({
        ability: 'reasoning' as const,
        modelA,
        modelB,
        aWins,
        bWins,
        ties,
        count,
      })),
    ),
  };
  const opts = { minVotes: 5, rounds: 101 };
  const M = input.models.length;
  /**
   * A helper computing its share here into the board's arrays (what a worker thread does); `after` may then change
   * what was written and says whether the share was given (default: given).
   */
  const here = (after?: (out: BoardRounds, from: number, to: number) => boolean): RoundHelper => ({
    start: (seeds, from, to, out) => () => {
      prepareBoardRounds(input, opts).run(seeds, from, to, out);
      return after ? after(out, from, to) : true;
    },
  });

  it('the board is the same, bit for bit, however its rounds are shared, and a share not given is computed here', () => {
    const alone = computeBoard(input, createRng(5), opts);
    expect(alone.rows.every((r) => r.finalLo !== null)).toBe(true);
    expect(alone.datasets.some((e) => e.rawInterval !== null && e.rawScore !== e.score)).toBe(true);
    expect(alone.rows.find((r) => r.model === 'a')?.methodIntervals?.comparative).toBeTruthy();
    const notGiven = here(() => false);
    for (const helpers of [[here()], [here(), here(), here()], [notGiven, here()]]) {
      expect(computeBoard(input, createRng(5), opts, helpers)).toEqual(alone);
    }
    // A share not given is computed here over whatever the helper wrote (a thread that failed half-way).
    const spoiled = here((out, from, to) => {
      out.overall.fill(-1, (from - out.from) * M, (to - out.from) * M);
      return false;
    });
    expect(computeBoard(input, createRng(5), opts, [spoiled])).toEqual(alone);
    // A helper that gave other numbers would show: the comparisons above can fail.
    const other = here((out, from, to) => {
      for (let i = (from - out.from) * M; i < (to - out.from) * M; i++) out.overall[i]! += 1;
      return true;
    });
    expect(computeBoard(input, createRng(5), opts, [other])).not.toEqual(alone);
  });

  it('computes rounds into arrays that hold them, and refuses arrays of another shape', () => {
    const seeds = Float64Array.from({ length: 8 }, (_, r) => r * 7919 + 1);
    const rounds = prepareBoardRounds(input, opts);
    const whole = rounds.run(seeds, 0, 8);
    const into = rounds.run(seeds, 0, 8);
    into.overall.fill(0);
    rounds.run(seeds, 3, 5, into);
    expect(into.overall.subarray(3 * M, 5 * M)).toEqual(whole.overall.subarray(3 * M, 5 * M));
    expect(into.overall.subarray(0, 3 * M).every((x) => x === 0)).toBe(true);
    expect(() => rounds.run(seeds, 6, 8, rounds.run(seeds, 0, 4))).toThrow(
      /rounds \[6, 8\) do not fit the given arrays \(rounds \[0, 4\)/u,
    );
  });

  it('refuses rounds outside the seeds', () => {
    expect(() => computeBoardRounds(input, opts, new Float64Array(3), 2, 4)).toThrow(
      /rounds \[2, 4\) outside the 3 seeds/u,
    );
  });
});
