/** Property tests of the Bradley–Terry fit and bootstrap on simulated votes (seeded). */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import type { Rng } from '../../../src/core/rng.ts';
import { createRng } from '../../../src/core/rng.ts';
import type { BattleRecord, Winner } from '../../../src/rating/index.ts';
import {
  arenaFromBattles,
  arenaFromPairCounts,
  bootstrapBradleyTerry,
  computeArenaRatings,
  fitBradleyTerry,
} from '../../../src/rating/index.ts';

const TRUE: Record<string, number> = {
  alpha: 1200,
  bravo: 1150,
  charlie: 1100,
  delta: 1040,
  echo: 1000,
  foxtrot: 960,
  golf: 900,
  hotel: 850,
};

/** Simulates votes whose expected score (win + tie/2) is the BT probability, random sides and order. */
function simulate(rng: Rng, truth: Record<string, number>, perPair: number): BattleRecord[] {
  const names = Object.keys(truth);
  const out: BattleRecord[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const p = 1 / (1 + 10 ** ((truth[names[j]!]! - truth[names[i]!]!) / 400));
      const tie = 0.4 * Math.min(p, 1 - p);
      for (let n = 0; n < perPair; n++) {
        const u = rng.next();
        const w: 'i' | 'j' | 't' = u < p - tie / 2 ? 'i' : u < p + tie / 2 ? 't' : 'j';
        const swap = rng.next() < 0.5;
        const a = swap ? names[j]! : names[i]!;
        const b = swap ? names[i]! : names[j]!;
        const winner: Winner =
          w === 't'
            ? rng.next() < 0.5
              ? 'tie'
              : 'tie (bothbad)'
            : (w === 'i') !== swap
              ? 'model_a'
              : 'model_b';
        out.push({ model_a: a, model_b: b, winner });
      }
    }
  }
  for (let k = out.length - 1; k > 0; k--) {
    const r = rng.int(k + 1);
    [out[k], out[r]] = [out[r]!, out[k]!];
  }
  return out;
}

const flip = (b: BattleRecord): BattleRecord => ({
  model_a: b.model_b,
  model_b: b.model_a,
  winner: b.winner === 'model_a' ? 'model_b' : b.winner === 'model_b' ? 'model_a' : b.winner,
});

describe('Bradley–Terry on simulated votes', () => {
  const battles = simulate(createRng(7), TRUE, 2000);
  const data = arenaFromBattles(battles);
  const fit = fitBradleyTerry(data);

  it('recovers the true strengths (mean-centred) within 4 standard errors', () => {
    const trueMean = Object.values(TRUE).reduce((a, b) => a + b, 0) / 8;
    let mean = 0;
    for (const r of fit.ratings) mean += r / fit.ratings.length;
    expect(mean).toBeCloseTo(1000, 9);
    fit.models.forEach((m, i) => {
      expect(Math.abs(fit.ratings[i]! - (TRUE[m]! - trueMean + 1000))).toBeLessThan(12);
    });
  });

  it('bootstrap 95 % intervals cover most true strengths', () => {
    const trueMean = Object.values(TRUE).reduce((a, b) => a + b, 0) / 8;
    const boot = bootstrapBradleyTerry(fit, createRng(1), { rounds: 300 });
    let covered = 0;
    fit.models.forEach((m, i) => {
      const t = TRUE[m]! - trueMean + 1000;
      expect(boot.lo[i]!).toBeLessThan(fit.ratings[i]!);
      expect(boot.hi[i]!).toBeGreaterThan(fit.ratings[i]!);
      if (boot.lo[i]! <= t && t <= boot.hi[i]!) covered++;
    });
    expect(covered).toBeGreaterThanOrEqual(6);
  });

  it('is invariant to swapping sides (model_a/model_b and winner flipped) and to order', () => {
    const flipped = fitBradleyTerry(arenaFromBattles([...battles].reverse().map(flip)));
    fit.models.forEach((m, i) => {
      const j = flipped.models.indexOf(m);
      expect(Math.abs(flipped.ratings[j]! - fit.ratings[i]!)).toBeLessThan(1e-9);
    });
  });

  it('battles and their pair counts give the same ratings', () => {
    const counts = new Map<
      string,
      { a: string; b: string; aw: number; bw: number; t: number; tb: number }
    >();
    for (const r of battles) {
      const key = `${r.model_a}|${r.model_b}`;
      const c = counts.get(key) ?? { a: r.model_a, b: r.model_b, aw: 0, bw: 0, t: 0, tb: 0 };
      if (r.winner === 'model_a') c.aw++;
      else if (r.winner === 'model_b') c.bw++;
      else if (r.winner === 'tie') c.t++;
      else c.tb++;
      counts.set(key, c);
    }
    const pairFit = fitBradleyTerry(
      arenaFromPairCounts(
        [...counts.values()].map((c) => ({
          model_a: c.a,
          model_b: c.b,
          model_a_wins: c.aw,
          model_b_wins: c.bw,
          tie: c.t,
          tie_bothbad: c.tb,
        })),
      ),
    );
    fit.models.forEach((m, i) => {
      expect(pairFit.ratings[pairFit.models.indexOf(m)]).toBeCloseTo(fit.ratings[i]!, 8);
    });
  });

  it('anchors: the anchor model gets its rating and differences are unchanged', () => {
    const anchored = fitBradleyTerry(data, { anchor: { model: 'echo', rating: 1234 } });
    const e = anchored.models.indexOf('echo');
    expect(anchored.ratings[e]).toBe(1234);
    const d = anchored.ratings[0]! - fit.ratings[0]!;
    fit.ratings.forEach((r, i) => {
      expect(anchored.ratings[i]! - r).toBeCloseTo(d, 8);
    });
  });

  it('seeded bootstrap: same seed → identical, different seed → different', () => {
    const a = bootstrapBradleyTerry(fit, createRng(42), { rounds: 50 });
    const b = bootstrapBradleyTerry(fit, createRng(42), { rounds: 50 });
    const c = bootstrapBradleyTerry(fit, createRng(43), { rounds: 50 });
    expect(Array.from(b.samples)).toEqual(Array.from(a.samples));
    expect(Array.from(b.lo)).toEqual(Array.from(a.lo));
    expect(Array.from(c.samples)).not.toEqual(Array.from(a.samples));
  });

  it('computeArenaRatings: rows sorted by rating, ranks from intervals, win-rate matrix consistent', () => {
    const r = computeArenaRatings(data, createRng(0), { bootstrapRounds: 100 });
    expect(r.rows.map((x) => x.model)).toEqual(
      Object.entries(TRUE)
        .sort((x, y) => y[1] - x[1])
        .map((x) => x[0]),
    );
    for (let i = 1; i < r.rows.length; i++)
      expect(r.rows[i]!.rating).toBeLessThan(r.rows[i - 1]!.rating);
    expect(r.rows[0]!.rank).toBe(1);
    for (const row of r.rows) expect(row.elo).not.toBeNull();
    const w = r.winRates;
    expect(Number.isNaN(w[0]![0]!)).toBe(true);
    expect(w[0]![1]! + w[1]![0]!).toBeCloseTo(1, 12);
    const avg0 = w[0]!.filter((_, j) => j !== 0).reduce((s, x) => s + x, 0) / 7;
    expect(r.rows[0]!.avgWinRate).toBeCloseTo(avg0, 12);
  });
});

describe('degenerate comparison graphs', () => {
  const base = simulate(createRng(3), { a: 1100, b: 1000, c: 900 }, 200);

  it('reports a disconnected group instead of rating it', () => {
    const other = simulate(createRng(4), { x: 1000, y: 950 }, 50);
    const data = arenaFromBattles([...base, ...other]);
    const fit = fitBradleyTerry(data);
    expect(fit.models).toEqual(expect.arrayContaining(['a', 'b', 'c']));
    expect(fit.models).toHaveLength(3);
    expect(fit.excluded.map((e) => [e.model, e.reason])).toEqual([
      ['x', 'disconnected'],
      ['y', 'disconnected'],
    ]);
    let err: unknown;
    try {
      fitBradleyTerry(data, { onDegenerate: 'error' });
    } catch (e) {
      err = e;
    }
    expect(isAppError(err, 'rating_disconnected')).toBe(true);
    expect((err as Error).message).toMatch(
      /x \(disconnected, 50 votes\), y \(disconnected, 50 votes\)/,
    );
  });

  it('excludes a model with only wins (MLE +∞) and one with only losses (MLE −∞)', () => {
    const extra: BattleRecord[] = [
      { model_a: 'champ', model_b: 'a', winner: 'model_a' },
      { model_a: 'b', model_b: 'champ', winner: 'model_b' },
      { model_a: 'loser', model_b: 'c', winner: 'model_b' },
      { model_a: 'a', model_b: 'loser', winner: 'model_a' },
    ];
    const fit = fitBradleyTerry(arenaFromBattles([...base, ...extra]));
    const reasons = Object.fromEntries(fit.excluded.map((e) => [e.model, e.reason]));
    expect(reasons).toEqual({ champ: 'unbounded_above', loser: 'unbounded_below' });
    const ref = fitBradleyTerry(arenaFromBattles(base));
    for (const m of ['a', 'b', 'c']) {
      expect(fit.ratings[fit.models.indexOf(m)]).toBeCloseTo(
        ref.ratings[ref.models.indexOf(m)]!,
        8,
      );
    }
    // The anchor cannot be an unrated model.
    expect(() =>
      fitBradleyTerry(arenaFromBattles([...base, ...extra]), {
        anchor: { model: 'champ', rating: 1 },
      }),
    ).toThrow(/champ.*unbounded above/);
    expect(() =>
      fitBradleyTerry(arenaFromBattles(base), { anchor: { model: 'nobody', rating: 1 } }),
    ).toThrow(/anchor model "nobody" has no battles/);
  });

  it('bootstrap survives resamples where a thin model draws only wins or only losses', () => {
    const thin: BattleRecord[] = [
      { model_a: 'thin', model_b: 'b', winner: 'model_a' },
      { model_a: 'thin', model_b: 'b', winner: 'model_b' },
    ];
    const fit = fitBradleyTerry(arenaFromBattles([...base, ...thin]));
    expect(fit.models).toContain('thin');
    const boot = bootstrapBradleyTerry(fit, createRng(5), { rounds: 200 });
    expect(boot.degenerateRounds).toBeGreaterThan(0);
    const t = fit.models.indexOf('thin');
    expect(boot.lo[t]).toBe(Number.NEGATIVE_INFINITY);
    expect(boot.hi[t]).toBe(Number.POSITIVE_INFINITY);
    for (const m of ['a', 'b', 'c']) {
      const i = fit.models.indexOf(m);
      expect(Number.isFinite(boot.lo[i]!) && Number.isFinite(boot.hi[i]!)).toBe(true);
      expect(boot.lo[i]!).toBeLessThan(fit.ratings[i]!);
    }
  });
});
