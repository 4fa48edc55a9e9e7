/**
 * What the board is ranked by (docs/scoring.md §5 "Ranking", config `aggregation.rank_by`): by default the overall
 * (the mean of the seven ability columns), which reproduces the published ZhuJiu board's order; `final` ranks by
 * App. A's normalised final. Intervals, "separated" and the views follow the key.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BOARD_ABILITIES,
  type BoardAbility,
  computeBoard,
  type DatasetScores,
} from '../../../src/aggregate/index.ts';
import { appConfigSchema } from '../../../src/config/schema.ts';
import { createRng } from '../../../src/core/rng.ts';
import {
  boardJson,
  chartRows,
  overallTable,
  significantMoves,
  unrankedReason,
} from '../../../src/leaderboard/views.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

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

const TSV = 'zhujiu_leaderboard.tsv';

/** The published board's rows: order, model, total and the seven ability scores. */
function paperRows(): Record<string, string>[] {
  const lines = readFileSync(sharedData(TSV), 'utf8').trim().split('\n');
  const header = lines[0]!.split('\t');
  return lines.slice(1).map((l) => {
    const cells = l.split('\t');
    return Object.fromEntries(header.map((h, i) => [h, cells[i]!]));
  });
}

/**
 * The paper's ability scores as single-item datasets: knowledge and language under metrics, the other five under
 * scoring, so App. A's final (two normalised methods) orders differently from the overall (moss before belle).
 */
function paperBoard(rankBy?: 'overall' | 'final') {
  const rows = paperRows();
  const metrics: readonly BoardAbility[] = ['knowledge', 'language'];
  const datasets = BOARD_ABILITIES.map((a) =>
    ds(
      `paper-${a}`,
      a,
      metrics.includes(a) ? 'metrics' : 'scoring',
      Object.fromEntries(rows.map((r) => [r.model_name!, [Number(r[a])]])),
    ),
  );
  return computeBoard(
    { models: rows.map((r) => r.model_name!).sort(), datasets, battles: [] },
    createRng(0),
    { minVotes: 20, rounds: 0, ...(rankBy ? { rankBy } : {}) },
  );
}

describe('rank_by', () => {
  it('defaults to overall in the configuration', () => {
    expect(appConfigSchema.parse({}).aggregation.rank_by).toBe('overall');
    expect(appConfigSchema.safeParse({ aggregation: { rank_by: 'elo' } }).success).toBe(false);
  });

  it.skipIf(!hasSharedData(TSV))(
    "overall reproduces the published board's order and totals; final orders by App. A's final",
    () => {
      const paper = paperRows();
      const byOrder = [...paper].sort((a, b) => Number(a.order) - Number(b.order));
      const board = paperBoard('overall');
      expect(board.rankBy).toBe('overall');
      expect(board.rows.map((r) => r.model)).toEqual(byOrder.map((r) => r.model_name));
      expect(board.rows.map((r) => r.rank)).toEqual(byOrder.map((r) => Number(r.order)));
      expect(board.rows.map((r) => r.overall?.toFixed(2))).toEqual(
        byOrder.map((r) => Number(r.total_score).toFixed(2)),
      );

      const final = paperBoard('final');
      expect(final.rankBy).toBe('final');
      const finals = final.rows.map((r) => r.final as number);
      expect(finals.every((f, i) => i === 0 || finals[i - 1]! >= f)).toBe(true);
      // The two keys really order these models differently, and both keep the other score as a column.
      expect(final.rows.map((r) => r.model)).not.toEqual(board.rows.map((r) => r.model));
      for (const r of board.rows) {
        expect(r.final).toBe(final.rows.find((x) => x.model === r.model)?.final);
      }
    },
  );

  it.skipIf(!hasSharedData(TSV))(
    'without rankBy the pure function ranks by final (older boards)',
    () => {
      const b = paperBoard();
      expect(b.rankBy).toBe('final');
      expect(b.rows.map((r) => r.model)).toEqual(paperBoard('final').rows.map((r) => r.model));
    },
  );

  it('the interval and "separated" follow the ranking key', () => {
    // x: language 9, reasoning 4; y: language 1, reasoning 5. Overall 6.5 vs 3; finals 5 and 5 (each best once).
    const input = {
      models: ['x', 'y'],
      datasets: [
        ds('lang', 'language', 'metrics', { x: Array(20).fill(9), y: Array(20).fill(1) }),
        ds('reas', 'reasoning', 'scoring', { x: Array(20).fill(4), y: Array(20).fill(5) }),
      ],
      battles: [],
    };
    const overall = computeBoard(input, createRng(1), {
      minVotes: 20,
      rounds: 200,
      rankBy: 'overall',
    });
    expect(overall.rows.map((r) => [r.model, r.rank, r.overall, r.final])).toEqual([
      ['x', 1, 6.5, 5],
      ['y', 2, 3, 5],
    ]);
    expect(overall.rows[0]).toMatchObject({
      overallLo: 6.5,
      overallHi: 6.5,
      separatedFromNext: true,
    });
    const final = computeBoard(input, createRng(1), { minVotes: 20, rounds: 200, rankBy: 'final' });
    expect(final.rows.map((r) => [r.model, r.rank])).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
    expect(final.rows[0]?.separatedFromNext).toBe(false);

    // Views: the key first with its interval, App. A's final as its own column; JSON says what ranks.
    const table = overallTable(overall);
    expect(table.columns.slice(0, 5)).toEqual(['rank', 'model', 'overall', '95% CI', 'final']);
    expect(table.rows[0]?.slice(0, 5)).toEqual(['1', 'x', '6.50', '6.50–6.50', '5.00']);
    expect(overallTable(final).columns.slice(0, 5)).toEqual([
      'rank',
      'model',
      'final',
      '95% CI',
      'metr',
    ]);
    const json = boardJson(overall);
    expect(json.rank_by).toBe('overall');
    expect(json.models[0]).toMatchObject({ rank: 1, overall: 6.5, overall_lo: 6.5, final: 5 });
    expect(chartRows(overall)[1]).toMatchObject({ key: 'overall', final: 3, lo: 3, hi: 3 });
    // The daily post's significant moves compare the current key's intervals (overall here: 3 vs 6.5).
    expect(significantMoves(final, overall)).toEqual([{ model: 'y', from: 1, to: 2, past: ['x'] }]);
  });

  it('by overall, a row without an ability column that others have is not ranked, and says which', () => {
    const board = computeBoard(
      {
        models: ['full', 'part'],
        datasets: [
          ds('lang', 'language', 'metrics', { full: [6], part: [9] }),
          ds('safe', 'safety', 'scoring', { full: [6] }),
        ],
        battles: [],
      },
      createRng(0),
      { minVotes: 20, rounds: 0, rankBy: 'overall' },
    );
    expect(board.rows.map((r) => [r.model, r.rank, r.overall])).toEqual([
      ['full', 1, 6],
      ['part', null, 9],
    ]);
    expect(unrankedReason(board, board.rows[1]!)).toBe('no safety score');
  });
});
