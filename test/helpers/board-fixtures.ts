/**
 * Boards for the view tests, computed from plain inputs (no database): the usual community mix and a snapshot
 * around a board.
 */
import {
  type BattleType,
  type Board,
  type BoardAbility,
  computeBoard,
  type DatasetScores,
} from '../../src/aggregate/index.ts';
import { createRng } from '../../src/core/rng.ts';
import type { Snapshot } from '../../src/leaderboard/service.ts';

/** n right/wrong items, the first k right. */
const right = (k: number, n: number) =>
  Float64Array.from({ length: n }, (_, i) => (i < k ? 10 : 0));

/** A dataset of the given scores. */
function ds(
  dataset: string,
  ability: BoardAbility,
  method: 'metrics' | 'scoring',
  scores: Record<string, Float64Array>,
): DatasetScores {
  return {
    dataset,
    ability,
    method,
    items: Object.values(scores)[0]!.length,
    scores: new Map(Object.entries(scores)),
  };
}

/** `a` beats `b` in `w` of `n` one-vote battles of `ability`. */
export function votes(
  ability: BoardAbility,
  a: string,
  b: string,
  w: number,
  n: number,
): BattleType[] {
  const one = { ability, modelA: a, modelB: b, ties: 0 };
  return [
    { ...one, aWins: 1, bWins: 0, count: w },
    { ...one, aWins: 0, bWins: 1, count: n - w },
  ];
}

/**
 * The usual community mix: recorded models with arena votes only (rec-a, rec-b), endpoints with metrics and judge
 * scores (ep-1, ep-2), one model with every method (good-7b, weak), and a judge with nothing on it.
 */
export function communityBoard(): Board {
  return computeBoard(
    {
      models: ['ep-1', 'ep-2', 'good-7b', 'judge-x', 'rec-a', 'rec-b'],
      datasets: [
        ds('m', 'knowledge', 'metrics', {
          'ep-1': right(45, 50),
          'ep-2': right(20, 50),
          'good-7b': right(12, 50),
        }),
        ds('s', 'language', 'scoring', {
          'ep-1': right(40, 50),
          'ep-2': right(30, 50),
          'good-7b': right(10, 50),
        }),
      ],
      battles: [
        ...votes('reasoning', 'rec-a', 'rec-b', 40, 50),
        ...votes('reasoning', 'rec-a', 'good-7b', 45, 50),
        ...votes('reasoning', 'rec-b', 'good-7b', 30, 50),
      ],
    },
    createRng(1),
    { minVotes: 20, rounds: 200 },
  );
}

/** A stored snapshot around `board`. */
export function snapshotOf(board: Board, extra: Partial<Snapshot['inputs']> = {}): Snapshot {
  return {
    id: 1,
    createdAt: new Date('2026-12-01T10:00:00Z'),
    fingerprint: 'fixture',
    sources: ['arena'],
    board,
    inputs: {
      sources: ['arena'],
      models: board.rows.length,
      runs: [],
      itemScores: 0,
      battles: 0,
      votes: 0,
      battlesWithoutAbility: 0,
      seed: 1,
      rounds: board.rounds,
      ...extra,
    },
    buildMs: 1,
    chart: null,
  };
}
