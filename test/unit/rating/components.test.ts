import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  arenaFromBattles,
  arenaFromPairCounts,
  type BattleRecord,
  computeArenaRatings,
  quantileSorted,
} from '../../../src/rating/index.ts';

/** A beats B 3×; B beats C 2×; C beats B once; D beats E once; E beats D once. */
const ISSUE_BATTLES: BattleRecord[] = [
  ...Array.from({ length: 3 }, () => ({ model_a: 'A', model_b: 'B', winner: 'model_a' as const })),
  ...Array.from({ length: 2 }, () => ({ model_a: 'B', model_b: 'C', winner: 'model_a' as const })),
  { model_a: 'B', model_b: 'C', winner: 'model_b' },
  { model_a: 'D', model_b: 'E', winner: 'model_a' },
  { model_a: 'D', model_b: 'E', winner: 'model_b' },
];

describe('separate comparison components', () => {
  it('rates {B, C} and {D, E} each on its own: B − C = 400·log10 2, D − E = 0', () => {
    const r = computeArenaRatings(arenaFromBattles(ISSUE_BATTLES), createRng(0), {
      bootstrapRounds: 0,
    });
    const row = (m: string) => r.rows.find((x) => x.model === m)!;
    expect(row('B').rating - row('C').rating).toBeCloseTo(400 * Math.log10(2), 9);
    expect((row('B').rating - row('C').rating).toFixed(2)).toBe('120.41');
    expect(row('D').rating - row('E').rating).toBeCloseTo(0, 9);
    expect(row('B').component).toBe(1);
    expect(row('C').component).toBe(1);
    expect(row('D').component).toBe(2);
    expect(row('E').component).toBe(2);
    // Each component has its own gauge (mean 1000) and its own ranks.
    expect((row('B').rating + row('C').rating) / 2).toBeCloseTo(1000, 9);
    expect(row('D').rating).toBeCloseTo(1000, 9);
    expect(row('D').rank).toBe(1);
    expect(row('E').rank).toBe(1);
    expect(r.components.map((c) => [c.component, [...c.members], c.numVotes])).toEqual([
      [1, ['A', 'B', 'C'], 6],
      [2, ['D', 'E'], 2],
    ]);
    expect(r.excluded.map((e) => [e.model, e.reason, e.component])).toEqual([
      ['A', 'unbounded_above', 1],
    ]);
    // No predicted win rate across components.
    const b = r.rows.indexOf(row('B'));
    const d = r.rows.indexOf(row('D'));
    expect(Number.isNaN(r.winRates[b]![d]!)).toBe(true);
    expect(r.winRates[b]![r.rows.indexOf(row('C'))]).toBeCloseTo(2 / 3, 9);
  });

  it('a round in which C never wins counts as −∞ for C (≈ 30 % of rounds): its lower bound is unbounded', () => {
    const r = computeArenaRatings(arenaFromBattles(ISSUE_BATTLES), createRng(0), {
      bootstrapRounds: 1000,
    });
    const row = (m: string) => r.rows.find((x) => x.model === m)!;
    expect(row('C').ratingLo).toBe(Number.NEGATIVE_INFINITY);
    // B wins every vote in those rounds: +∞ for B.
    expect(row('B').ratingHi).toBe(Number.POSITIVE_INFINITY);
    // D and E are one-sided in half the rounds each way.
    for (const m of ['D', 'E']) {
      expect(row(m).ratingLo).toBe(Number.NEGATIVE_INFINITY);
      expect(row(m).ratingHi).toBe(Number.POSITIVE_INFINITY);
    }
    // The samples themselves: C is −∞ in the rounds where it never won, never its point estimate.
    const boot = r.components[0]!.bootstrap!;
    const c = r.components[0]!.fit.models.indexOf('C');
    const m = r.components[0]!.fit.models.length;
    let minusInf = 0;
    for (let k = 0; k < boot.rounds; k++) {
      if (boot.samples[k * m + c] === Number.NEGATIVE_INFINITY) minusInf++;
    }
    expect(minusInf / boot.rounds).toBeGreaterThan(0.25);
    expect(minusInf / boot.rounds).toBeLessThan(0.35);
  });

  it('a pair with only one-sided votes is its own component with no rating, each side with its reason', () => {
    const r = computeArenaRatings(
      arenaFromPairCounts([
        { model_a: 'x', model_b: 'y', model_a_wins: 5, model_b_wins: 5, tie: 0, tie_bothbad: 0 },
        { model_a: 'p', model_b: 'q', model_a_wins: 2, model_b_wins: 0, tie: 0, tie_bothbad: 0 },
      ]),
      createRng(0),
      { bootstrapRounds: 0 },
    );
    expect(r.rows.map((x) => x.model)).toEqual(['x', 'y']);
    expect(r.excluded.map((e) => [e.model, e.reason])).toEqual([
      ['p', 'unbounded_above'],
      ['q', 'unbounded_below'],
    ]);
  });

  it('a single component gives the same result as before (one rng stream)', () => {
    const battles: BattleRecord[] = [];
    const rng = createRng(3);
    for (let k = 0; k < 300; k++) {
      const a = ['m0', 'm1', 'm2'][rng.int(3)]!;
      const b = ['m0', 'm1', 'm2'].filter((x) => x !== a)[rng.int(2)]!;
      battles.push({ model_a: a, model_b: b, winner: rng.int(2) ? 'model_a' : 'model_b' });
    }
    const r = computeArenaRatings(arenaFromBattles(battles), createRng(1), {
      bootstrapRounds: 50,
    });
    expect(r.components).toHaveLength(1);
    expect(r.fit).toBe(r.components[0]!.fit);
    for (const row of r.rows) expect(Number.isFinite(row.ratingLo!)).toBe(true);
  });

  it('an anchor shifts only its own component', () => {
    const r = computeArenaRatings(arenaFromBattles(ISSUE_BATTLES), createRng(0), {
      bootstrapRounds: 0,
      anchor: { model: 'E', rating: 1200 },
    });
    const row = (m: string) => r.rows.find((x) => x.model === m)!;
    expect(row('E').rating).toBe(1200);
    expect(row('D').rating).toBeCloseTo(1200, 9);
    expect((row('B').rating + row('C').rating) / 2).toBeCloseTo(1000, 9);
    expect(() =>
      computeArenaRatings(arenaFromBattles(ISSUE_BATTLES), createRng(0), {
        bootstrapRounds: 0,
        anchor: { model: 'A', rating: 1 },
      }),
    ).toThrow(/anchor model "A" has no finite rating/);
  });
});

describe('quantiles next to an infinite sample', () => {
  it('interpolating between −∞ and a finite value gives −∞, not NaN', () => {
    expect(quantileSorted([Number.NEGATIVE_INFINITY, 5, 6, 7], 0.1)).toBe(Number.NEGATIVE_INFINITY);
    expect(quantileSorted([1, 2, 3, Number.POSITIVE_INFINITY], 0.9)).toBe(Number.POSITIVE_INFINITY);
    expect(quantileSorted([Number.NEGATIVE_INFINITY, 5, 6, 7], 0.5)).toBe(5.5);
    // 1,000 rounds: 25 at −∞ → the 2.5 % quantile is −∞; 24 → finite.
    const s = (k: number) => [
      ...Array.from({ length: k }, () => Number.NEGATIVE_INFINITY),
      ...Array.from({ length: 1000 - k }, (_, i) => i),
    ];
    expect(quantileSorted(s(25), 0.025)).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isFinite(quantileSorted(s(24), 0.025))).toBe(true);
  });
});

describe('zhujiu ratings on separate components', () => {
  it('reports D and E as a rated separate component, in JSON and in the table', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runRatings } = await import('../../../src/cli/ratings.ts');
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-components-'));
    try {
      const f = join(dir, 'issue-8-7.jsonl');
      writeFileSync(f, ISSUE_BATTLES.map((b) => JSON.stringify(b)).join('\n'));
      let json = '';
      await runRatings({ battles: f, json: true }, { out: (s) => (json += s) });
      const parsed = JSON.parse(json) as {
        models: Record<string, unknown>[];
        components: Record<string, unknown>[];
      };
      const by = Object.fromEntries(parsed.models.map((m) => [m.model, m]));
      expect((by.B!.rating as number) - (by.C!.rating as number)).toBeCloseTo(120.41, 2);
      expect(by.D!.rating).toBeCloseTo(1000, 9);
      expect(by.E!.rating).toBeCloseTo(1000, 9);
      expect(by.D).toMatchObject({ component: 2, rank: 1 });
      expect(by.B).toMatchObject({ component: 1 });
      expect(String(by.D!.note)).toMatch(/component 2.*must not be compared with component 1/);
      expect(by.A).toMatchObject({ rating: null, component: 1 });
      expect(String(by.A!.note)).toMatch(/never lost.*needs a loss or a tie/);
      // C never won in ~30 % of the rounds: unbounded lower bound, said so.
      expect(by.C).toMatchObject({ rating_lo: null });
      expect(String(by.C!.note)).toMatch(/rating_lo unbounded \(−∞\).*collect more votes/);
      expect(parsed.components).toEqual([
        { component: 1, models: ['A', 'B', 'C'], num_votes: 6 },
        {
          component: 2,
          models: ['D', 'E'],
          num_votes: 2,
          note: expect.stringMatching(/not be compared with component 1/),
        },
      ]);
      let text = '';
      await runRatings({ battles: f }, { out: (s) => (text += s) });
      expect(text).toMatch(/Separate component 2: rated only against D, E/);
      expect(text).toMatch(/2 separate comparison components/);
      expect(text).not.toMatch(/disconnected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('zhujiu ratings --json on a model one-sided in exactly 25 of 1,000 rounds', () => {
  it('says rating_lo is unbounded and what to do, never "rated in no bootstrap round"', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { runRatings } = await import('../../../src/cli/ratings.ts');
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-components-'));
    try {
      const f = join(dir, 'pairs.jsonl');
      // With seed 0, 25 of the 1,000 rounds give claude-2 no win: the 2.5 % quantile sits between −∞ and a
      // finite sample (it used to come out NaN, reported as "rated in no bootstrap round").
      writeFileSync(
        f,
        '{"model_a":"claude-2","model_b":"gpt-4","model_a_wins":4,"model_b_wins":96,"tie":0,"tie_bothbad":0}\n',
      );
      let json = '';
      await runRatings({ battles: f, json: true, seed: 0 }, { out: (s) => (json += s) });
      const { models } = JSON.parse(json) as { models: Record<string, unknown>[] };
      const c = models.find((m) => m.model === 'claude-2')!;
      expect(c.rating_lo).toBeNull();
      expect(typeof c.rating_hi).toBe('number');
      expect(String(c.note)).toMatch(/^rating_lo unbounded \(−∞\): .*collect more votes for it$/);
      expect(String(c.note)).not.toMatch(/no bootstrap round/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
