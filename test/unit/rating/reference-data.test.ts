/**
 * Reproduces FastChat's numbers on real Chatbot Arena votes (../shared/data/arena, see its README and
 * expected_ratings.meta.json for tolerances).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import { parseArenaLines } from '../../../src/import/formats/index.ts';
import type { ArenaData, BradleyTerryFit } from '../../../src/rating/index.ts';
import {
  averagePredictedWinRate,
  bootstrapBradleyTerry,
  computeOnlineElo,
  fitBradleyTerry,
  rankByIntervals,
} from '../../../src/rating/index.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

interface Expected {
  elo: number | null;
  bt: number;
  bt_lo: number;
  bt_hi: number;
  bt_exact: number;
  rank_ub: number;
  num_battles: number;
  avg_pred_win_rate: number;
}

const ANCHOR = { model: 'mixtral-8x7b-instruct-v0.1', rating: 1114 };

function load(file: string, expected: string): { data: ArenaData; exp: Record<string, Expected> } {
  const data = parseArenaLines(readFileSync(sharedData('arena', file), 'utf8').split('\n'), file);
  const exp = JSON.parse(readFileSync(sharedData('arena', expected), 'utf8')) as Record<
    string,
    Expected
  >;
  return { data, exp };
}

describe.skipIf(!hasSharedData('arena', 'battles.jsonl'))('battles.jsonl (200k votes)', () => {
  let data: ArenaData;
  let exp: Record<string, Expected>;
  let fit: BradleyTerryFit;
  beforeAll(() => {
    ({ data, exp } = load('battles.jsonl', 'expected_ratings.json'));
    fit = fitBradleyTerry(data, { anchor: ANCHOR });
  });

  it('parses 129 models and 200,000 votes', () => {
    expect(data.models).toHaveLength(129);
    expect(data.totalVotes).toBe(200_000);
    expect(data.sequence?.a.length).toBe(200_000);
    for (let i = 0; i < data.models.length; i++) {
      expect(data.numBattles[i]).toBe(exp[data.models[i]!]!.num_battles);
    }
  });

  it('online Elo matches FastChat within 1e-6', () => {
    const elo = computeOnlineElo(data)!;
    let worst = 0;
    data.models.forEach((m, i) => {
      worst = Math.max(worst, Math.abs(elo[i]! - exp[m]!.elo!));
    });
    expect(worst, 'max |elo − FastChat|').toBeLessThan(1e-6);
  });

  it('BT rating matches bt_exact within 1e-3, anchor exact', () => {
    expect(fit.excluded).toEqual([]);
    let worst = 0;
    fit.models.forEach((m, i) => {
      worst = Math.max(worst, Math.abs(fit.ratings[i]! - exp[m]!.bt_exact));
    });
    expect(worst, 'max |rating − bt_exact|').toBeLessThan(1e-3);
    expect(fit.ratings[fit.models.indexOf(ANCHOR.model)]).toBe(1114);
    expect(fit.maxAbsGradient).toBeLessThan(1e-10);
  });

  it('average predicted win rate matches FastChat (which uses its early-stopped bt) within 1e-3', () => {
    const avg = averagePredictedWinRate(fit.ratings);
    fit.models.forEach((m, i) => {
      expect(Math.abs(avg[i]! - exp[m]!.avg_pred_win_rate)).toBeLessThan(1e-3);
    });
  });

  it('bootstrap bounds within max(3, 0.6 × half-width) of FastChat for ≥ 95 % of models', () => {
    const boot = bootstrapBradleyTerry(fit, createRng(0), { rounds: 200 });
    let within = 0;
    fit.models.forEach((m, i) => {
      const e = exp[m]!;
      const tol = Math.max(3, 0.6 * ((e.bt_hi - e.bt_lo) / 2));
      if (Math.abs(boot.lo[i]! - e.bt_lo) <= tol && Math.abs(boot.hi[i]! - e.bt_hi) <= tol)
        within++;
    });
    expect(
      within / fit.models.length,
      `bootstrap bounds within tolerance: ${within}/${fit.models.length}`,
    ).toBeGreaterThanOrEqual(0.95);
    const a = fit.models.indexOf(ANCHOR.model);
    expect(boot.lo[a]).toBe(1114);
    expect(boot.hi[a]).toBe(1114);
    expect(boot.degenerateRounds).toBe(0);
    // The rank rule reproduces FastChat's rank_ub exactly from FastChat's own bounds.
    const ranks = rankByIntervals(
      fit.models.map((m) => exp[m]!.bt_lo),
      fit.models.map((m) => exp[m]!.bt_hi),
    );
    expect(ranks).toEqual(fit.models.map((m) => exp[m]!.rank_ub));
  });
});

describe.skipIf(!hasSharedData('arena', 'arena_20240814_pair_counts.jsonl'))(
  'arena_20240814_pair_counts.jsonl (1.67 M votes)',
  () => {
    it('BT rating matches bt_exact within 1e-3; Elo is unavailable', () => {
      const { data, exp } = load(
        'arena_20240814_pair_counts.jsonl',
        'expected_ratings_arena_20240814_full.json',
      );
      expect(data.totalVotes).toBe(1_670_250);
      expect(computeOnlineElo(data)).toBeNull();
      const fit = fitBradleyTerry(data, { anchor: ANCHOR });
      expect(fit.models).toHaveLength(129);
      let worst = 0;
      fit.models.forEach((m, i) => {
        worst = Math.max(worst, Math.abs(fit.ratings[i]! - exp[m]!.bt_exact));
        expect(fit.numBattles[i]).toBe(exp[m]!.num_battles);
      });
      expect(worst, 'max |rating − bt_exact| (pair counts)').toBeLessThan(1e-3);
    });
  },
);
