import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  arenaFromPairCounts,
  type BattleCluster,
  clusterBootstrapBradleyTerry,
  computeArenaRatings,
  createClusterBootstrap,
} from '../../../src/rating/index.ts';

/** Battles between 4 models of known strength; each battle's votes all copy one judgement (`copies` votes). */
function simulate(seed: number, battles: number, copies: number): BattleCluster[] {
  const rng = createRng(seed);
  const strength = [1200, 1100, 1000, 900];
  const out: BattleCluster[] = [];
  for (let k = 0; k < battles; k++) {
    const a = rng.int(4);
    const b = (a + 1 + rng.int(3)) % 4;
    const p = 1 / (1 + 10 ** (((strength[b] as number) - (strength[a] as number)) / 400));
    const u = rng.next();
    const outcome = u < 0.1 ? 'tie' : rng.next() < p ? 'a' : 'b';
    out.push({
      model_a: `m${a}`,
      model_b: `m${b}`,
      a_wins: outcome === 'a' ? copies : 0,
      b_wins: outcome === 'b' ? copies : 0,
      ties: outcome === 'tie' ? copies : 0,
    });
  }
  return out;
}

function toPairs(bs: readonly BattleCluster[]) {
  return arenaFromPairCounts(
    bs.map((b) => ({
      model_a: b.model_a,
      model_b: b.model_b,
      model_a_wins: b.a_wins,
      model_b_wins: b.b_wins,
      tie: b.ties,
      tie_bothbad: 0,
    })),
  );
}

const width = (m: Map<string, { lo: number; hi: number }>) =>
  [...m.values()].reduce((s, x) => s + (x.hi - x.lo), 0) / m.size;

describe('bootstrap over battles (cluster bootstrap)', () => {
  it('with one vote per battle it agrees with the per-vote bootstrap', () => {
    const bs = simulate(1, 3000, 1);
    const cluster = clusterBootstrapBradleyTerry(bs, createRng(7), { rounds: 300 });
    const perVote = computeArenaRatings(toPairs(bs), createRng(7), { bootstrapRounds: 300 });
    const pv = new Map(
      perVote.rows.map((r) => [r.model, { lo: r.ratingLo as number, hi: r.ratingHi as number }]),
    );
    expect(width(cluster) / width(pv)).toBeGreaterThan(0.8);
    expect(width(cluster) / width(pv)).toBeLessThan(1.25);
  });

  it('keeps correlated votes together: 40 copies of each judgement widen the interval about √40 times', () => {
    const bs = simulate(2, 300, 40);
    const cluster = clusterBootstrapBradleyTerry(bs, createRng(3), { rounds: 300 });
    const naive = computeArenaRatings(toPairs(bs), createRng(3), { bootstrapRounds: 300 });
    const nv = new Map(
      naive.rows.map((r) => [r.model, { lo: r.ratingLo as number, hi: r.ratingHi as number }]),
    );
    const ratio = width(cluster) / width(nv);
    expect(ratio).toBeGreaterThan(4); // √40 ≈ 6.3
    expect(ratio).toBeLessThan(9);
    // computeArenaRatings with clusters uses the same bootstrap.
    const viaClusters = computeArenaRatings(toPairs(bs), createRng(3), {
      bootstrapRounds: 300,
      clusters: bs,
    });
    for (const r of viaClusters.rows) {
      expect(r.ratingLo).toBeCloseTo(cluster.get(r.model)?.lo as number, 9);
      expect(r.ratingHi).toBeCloseTo(cluster.get(r.model)?.hi as number, 9);
    }
  });

  it('is reproducible from its seed and honours the anchor', () => {
    const bs = simulate(4, 200, 5);
    const a = clusterBootstrapBradleyTerry(bs, createRng(11), {
      rounds: 50,
      anchor: { model: 'm2', rating: 1000 },
    });
    const b = clusterBootstrapBradleyTerry(bs, createRng(11), {
      rounds: 50,
      anchor: { model: 'm2', rating: 1000 },
    });
    expect([...a]).toEqual([...b]);
    expect(a.get('m2')).toMatchObject({ lo: 1000, hi: 1000 });
    const c = clusterBootstrapBradleyTerry(bs, createRng(12), { rounds: 50 });
    expect([...c]).not.toEqual([...a]);
    expect(() => clusterBootstrapBradleyTerry(bs, createRng(1), { rounds: -1 })).toThrow(
      RangeError,
    );
  });

  it('battles grouped by type with a count give the same intervals as listing them one by one', () => {
    const bs = simulate(5, 2000, 3);
    const types = new Map<string, BattleCluster & { count: number }>();
    for (const b of bs) {
      const key = `${b.model_a}|${b.model_b}|${b.a_wins}|${b.b_wins}|${b.ties}`;
      const t = types.get(key);
      if (t) t.count++;
      else types.set(key, { ...b, count: 1 });
    }
    expect(types.size).toBeLessThan(40);
    const one = clusterBootstrapBradleyTerry(bs, createRng(8), { rounds: 100 });
    const grouped = clusterBootstrapBradleyTerry([...types.values()], createRng(8), {
      rounds: 100,
    });
    expect([...grouped]).toEqual([...one]);
  });

  it('runs incrementally: any split into run() calls gives the one-shot result', () => {
    const bs = simulate(6, 500, 2);
    const whole = clusterBootstrapBradleyTerry(bs, createRng(4), { rounds: 60 });
    const boot = createClusterBootstrap(bs, createRng(4), { rounds: 60 });
    expect(boot.run(7)).toBe(7);
    expect(boot.done).toBe(7);
    while (boot.done < boot.total) boot.run(13);
    expect(boot.run(5)).toBe(0); // never past the total
    expect([...boot.intervals()]).toEqual([...whole]);
  });

  it('gives an infinite bound when resamples leave a thin model one-sided', () => {
    const bs = [
      ...simulate(7, 400, 1),
      { model_a: 'thin', model_b: 'm1', a_wins: 1, b_wins: 0, ties: 0 },
      { model_a: 'thin', model_b: 'm2', a_wins: 1, b_wins: 0, ties: 0 },
      { model_a: 'thin', model_b: 'm3', a_wins: 0, b_wins: 1, ties: 0 },
    ];
    const iv = clusterBootstrapBradleyTerry(bs, createRng(2), { rounds: 200 });
    const thin = iv.get('thin');
    expect(thin?.hi).toBe(Number.POSITIVE_INFINITY);
    expect(thin?.rounds).toBeLessThan(200);
    for (const m of ['m0', 'm1', 'm2', 'm3']) {
      expect(Number.isFinite(iv.get(m)?.lo as number)).toBe(true);
      expect(Number.isFinite(iv.get(m)?.hi as number)).toBe(true);
    }
  });

  it('is fast on many single-vote battles (grouped into few types)', () => {
    const bs = simulate(8, 100_000, 1);
    // Resampling the few battle types instead of 100,000 battles is what makes it fast (the per-battle resampling
    // took ~20 s here); the time itself is a figure for bench/, not an assertion that depends on the machine.
    const iv = clusterBootstrapBradleyTerry(bs, createRng(1), { rounds: 200 });
    expect(iv.size).toBe(4);
  });

  it('nothing to rate: an empty result, not an error', () => {
    expect(clusterBootstrapBradleyTerry([], createRng(1), { rounds: 10 }).size).toBe(0);
    const one = [{ model_a: 'a', model_b: 'b', a_wins: 2, b_wins: 0, ties: 0 }];
    expect(clusterBootstrapBradleyTerry(one, createRng(1), { rounds: 10 }).size).toBe(0);
  });
});
