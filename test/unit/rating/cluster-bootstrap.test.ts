import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  arenaFromPairCounts,
  type BattleCluster,
  clusterBootstrapBradleyTerry,
  computeArenaRatings,
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
});
