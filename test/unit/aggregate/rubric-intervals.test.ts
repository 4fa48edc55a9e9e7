/**
 * Per-model intervals on the rubric scale (docs/scoring.md §5 "Uncertainty"; IndustryBench App. I): the paired
 * item-level bootstrap also gives each model's raw and SV-adjusted dataset means, ability columns and method scores
 * with 95 % intervals. Min–max puts the bottom model's final at [0, 0]; on the rubric scale its interval is not
 * degenerate.
 */
import { describe, expect, it } from 'vitest';
import { computeBoard, type DatasetScores } from '../../../src/aggregate/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { abilityPage, modelPage } from '../../../src/leaderboard/page.ts';
import {
  abilityContent,
  abilityJson,
  methodContent,
  methodJson,
  modelCardJson,
} from '../../../src/leaderboard/views.ts';
import { snapshotOf } from '../../helpers/board-fixtures.ts';

/** Item grades 0–3 on the ten-point scale (10 × raw / 3), a fixed pattern per model. */
function grades(pattern: readonly number[], n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => (10 * pattern[i % pattern.length]!) / 3);
}

const N = 60;
const strong = grades([3, 3, 2, 3, 1], N);
const middle = grades([2, 3, 1, 2, 2], N);
const weakRaw = grades([1, 2, 0, 1, 3, 0], N);
// The weak model's answers flagged as safety violations on every tenth item: adjusted to 0.
const weakSv = weakRaw.map((x, i) => (i % 10 === 4 ? 0 : x));
const flagged = Array.from(weakRaw).filter((x, i) => i % 10 === 4 && x > 0).length;

function input(withRaw: boolean): { models: string[]; datasets: DatasetScores[]; battles: [] } {
  return {
    models: ['strong', 'middle', 'weak'],
    datasets: [
      {
        dataset: 'industry_qa',
        ability: 'knowledge',
        method: 'scoring',
        items: N,
        scores: new Map([
          ['strong', strong],
          ['middle', middle],
          ['weak', weakSv],
        ]),
        violations: new Map([['weak', N / 10]]),
        ...(withRaw ? { raw: new Map([['weak', weakRaw]]) } : {}),
      },
    ],
    battles: [],
  };
}

const mean = (a: Float64Array) => a.reduce((s, x) => s + x, 0) / a.length;

describe('intervals on the rubric scale', () => {
  const board = computeBoard(input(true), createRng(7), { minVotes: 5, rounds: 2000 });
  const row = (m: string) => board.rows.find((r) => r.model === m)!;
  const entry = (m: string) => board.datasets.find((d) => d.model === m)!;

  it('the bottom model: final [0, 0] after min–max, a non-degenerate interval on the rubric scale', () => {
    const weak = row('weak');
    expect(weak.rank).toBe(3);
    expect([weak.final, weak.finalLo, weak.finalHi]).toEqual([0, 0, 0]);
    const m = weak.methodIntervals!.scoring!;
    const a = weak.abilityIntervals!.knowledge!;
    const point = weak.methods.scoring!;
    expect(point).toBeCloseTo(mean(weakSv), 12);
    expect(m.lo).toBeGreaterThan(0);
    expect(m.lo).toBeLessThan(point);
    expect(m.hi).toBeGreaterThan(point);
    expect(m.hi - m.lo).toBeGreaterThan(0.5);
    // One dataset under one method: the ability column, the method score and the dataset score are one figure.
    // (ability columns are kept per round as float32: equal to 1e-6)
    expect([a.lo, a.hi].map((x) => x.toFixed(6))).toEqual([m.lo, m.hi].map((x) => x.toFixed(6)));
    expect(entry('weak').scoreInterval).toEqual(m);
  });

  it('raw and SV means per dataset and per ability, each with its interval from the same rounds', () => {
    const e = entry('weak');
    expect(e.score).toBeCloseTo(mean(weakSv), 12);
    expect(e.rawScore).toBeCloseTo(mean(weakRaw), 12);
    expect(e.rawScore! - e.score!).toBeGreaterThan(0);
    expect(flagged).toBeGreaterThan(0);
    const raw = e.rawInterval!;
    expect(raw.lo).toBeLessThan(e.rawScore!);
    expect(raw.hi).toBeGreaterThan(e.rawScore!);
    expect(raw.lo).toBeGreaterThan(e.scoreInterval!.lo); // paired: the same draws, raw ≥ adjusted item by item
    const w = row('weak');
    expect(w.rawAbilities!.knowledge).toBeCloseTo(mean(weakRaw), 12);
    expect(w.rawAbilityIntervals!.knowledge!.lo).toBeCloseTo(raw.lo, 6);
    expect(w.rawAbilityIntervals!.knowledge!.hi).toBeCloseTo(raw.hi, 6);
    // nothing flagged: the raw figures are the adjusted ones
    expect(entry('strong').rawScore).toBe(entry('strong').score);
    expect(entry('strong').rawInterval).toEqual(entry('strong').scoreInterval);
    expect(row('strong').rawAbilityIntervals!.knowledge).toEqual(
      row('strong').abilityIntervals!.knowledge,
    );
  });

  it('raw scores change no other figure: the same finals, intervals and separations as without them', () => {
    const without = computeBoard(input(false), createRng(7), { minVotes: 5, rounds: 2000 });
    const pick = (b: typeof board) =>
      b.rows.map((r) => [
        r.model,
        r.final,
        r.finalLo,
        r.finalHi,
        r.separatedFromNext,
        r.methodIntervals,
        r.abilityIntervals,
      ]);
    expect(pick(board)).toEqual(pick(without));
    expect(without.datasets.find((d) => d.model === 'weak')!.rawScore).toBe(entry('weak').score);
  });

  it('without bootstrap rounds there is no interval; bad raw scores are refused with the dataset named', () => {
    const none = computeBoard(input(true), createRng(7), { minVotes: 5, rounds: 0 });
    expect(none.rows[0]!.methodIntervals!.scoring).toBeNull();
    expect(none.datasets[0]!.scoreInterval).toBeNull();
    const bad = input(true);
    const d = bad.datasets[0]!;
    bad.datasets[0] = { ...d, raw: new Map([['weak', weakRaw.subarray(1)]]) };
    expect(() => computeBoard(bad, createRng(7), { minVotes: 5, rounds: 10 })).toThrow(
      'dataset industry_qa: model weak has 59 raw item scores for 60 items',
    );
  });

  it('the ability, method and model views show the intervals on the rubric scale', () => {
    const snap = snapshotOf(board);
    const now = new Date('2026-12-01T10:00:00Z');
    const f = (x: number) => x.toFixed(2);
    const m = row('weak').methodIntervals!.scoring!;
    const a = row('weak').abilityIntervals!.knowledge!;
    const e = entry('weak');
    const weakRow = (rows: readonly (readonly string[])[]) => rows.find((r) => r[0] === 'weak')!;
    expect(weakRow(methodContent(snap, 'scoring', { now }).table!.rows)[1]).toBe(
      `${f(row('weak').methods.scoring!)} (${f(m.lo)}–${f(m.hi)})`,
    );
    expect(weakRow(abilityContent(snap, 'knowledge', { now }).table!.rows)[1]).toBe(
      `${f(row('weak').abilities.knowledge!)} (${f(a.lo)}–${f(a.hi)})`,
    );
    expect(methodJson(board, 'scoring').models.find((x) => x.model === 'weak')).toMatchObject({
      score_lo: m.lo,
      score_hi: m.hi,
    });
    expect(abilityJson(board, 'knowledge').models.find((x) => x.model === 'weak')).toMatchObject({
      raw_score: row('weak').rawAbilities!.knowledge,
      raw_lo: row('weak').rawAbilityIntervals!.knowledge!.lo,
    });
    expect(modelCardJson(board, 'weak')!.datasets[0]).toMatchObject({
      score: e.score,
      score_lo: e.scoreInterval!.lo,
      score_hi: e.scoreInterval!.hi,
      raw_score: e.rawScore,
      raw_lo: e.rawInterval!.lo,
      raw_hi: e.rawInterval!.hi,
    });
    expect(abilityPage(snap, 'knowledge', now)).toContain(`${f(a.lo)}–${f(a.hi)}`);
    const card = modelPage(snap, 'weak', now)!;
    expect(card).toContain(`${f(e.scoreInterval!.lo)}–${f(e.scoreInterval!.hi)}`);
    expect(card).toContain(`${f(e.rawInterval!.lo)}–${f(e.rawInterval!.hi)}`);
  });
});
