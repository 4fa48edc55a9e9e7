/**
 * The board's views put a comparable ranked figure first (headline, first row, first bar) and show unranked rows
 * apart with the reason; rows with no score in any method are left out (counted); the hint for battles without an
 * ability names the fix of each origin (docs/scoring.md §4–5).
 */
import { describe, expect, it } from 'vitest';
import { type BattleType, computeBoard } from '../../../src/aggregate/index.ts';
import { renderTable } from '../../../src/chat/render/table.ts';
import { createRng } from '../../../src/core/rng.ts';
import { boardChartSpec } from '../../../src/leaderboard/chart.ts';
import { overallPage } from '../../../src/leaderboard/page.ts';
import {
  boardJson,
  chartNotes,
  chartRows,
  modelContent,
  overallContent,
  overallTable,
  withoutAbilityText,
} from '../../../src/leaderboard/views.ts';
import { communityBoard, snapshotOf, votes } from '../../helpers/board-fixtures.ts';

const now = new Date('2026-12-01T10:00:24Z');

describe('the community mix (one row has every method)', () => {
  const board = communityBoard();
  const snap = snapshotOf(board);

  it('the board ranks only good-7b; the others are unranked with the method they lack', () => {
    expect(board.rows.map((r) => [r.model, r.rank])).toEqual([
      ['good-7b', 1],
      ['ep-1', null],
      ['rec-a', null],
      ['ep-2', null],
      ['rec-b', null],
      ['judge-x', null],
    ]);
  });

  it('headline: the ranked figure, said to be the only one, with the count of unranked rows', () => {
    const c = overallContent(snap, { now });
    expect(c.text).toMatch(
      /^ZhuJiu board: good-7b is the only model with every method, final \d\.\d\d \(.+\); 4 more models are not ranked \(a method missing, so not comparable\)$/,
    );
  });

  it('table: ranked rows, a divider, unranked rows with the reason; the judge left out and counted', () => {
    const c = overallContent(snap, { now });
    const rows = c.table!.rows;
    expect(rows.map((r) => [r[0], r[1], r.at(-1)])).toEqual([
      ['1', 'good-7b', '*'],
      ['', '— not ranked —', ''],
      ['—', 'ep-1', 'not ranked: no comparative score (fewer than 20 votes in every ability)'],
      ['—', 'rec-a', 'not ranked: no metrics results and no scoring results'],
      ['—', 'ep-2', 'not ranked: no comparative score (fewer than 20 votes in every ability)'],
      ['—', 'rec-b', 'not ranked: no metrics results and no scoring results'],
    ]);
    expect(c.footer).toContain(
      '1 model with no score in any method left out (`/leaderboard model NAME` shows one; `zhujiu leaderboard --all` lists them)',
    );
    expect(overallContent(snap, { now, surface: 'cli' }).footer).toContain(
      '1 model with no score in any method left out (`--all` shows them)',
    );
    expect(overallContent(snap, { now, all: true }).table!.rows.at(-1)![1]).toBe('judge-x');
  });

  it('the last column, the marker or why a row is not ranked, has a header in both languages', () => {
    expect(overallTable(board).columns.at(-1)).toBe('notes');
    expect(overallTable(board, false, 'zh-CN').columns.at(-1)).toBe('备注');
    const text = renderTable(overallTable(board));
    expect(text.split('\n')[0]).toMatch(/ {2}votes {2}notes$/u);
    // A board where no row has a note shows no empty column under it.
    const good = board.rows.find((r) => r.model === 'good-7b')!;
    const plain = overallTable({ ...board, rows: [{ ...good, incomplete: false }] });
    expect(plain.columns.at(-1)).toBe('votes');
    expect(plain.rows.every((r) => r.length === plain.columns.length)).toBe(true);
    expect(plain.align).toHaveLength(plain.columns.length);
  });

  it('JSON: ranked first, each unranked row with its reason (every row, the judge too)', () => {
    const j = boardJson(board);
    expect(j.models.map((m) => [m.model, m.rank, m.unranked_reason])).toEqual([
      ['good-7b', 1, null],
      ['ep-1', null, 'no comparative score (fewer than 20 votes in every ability)'],
      ['rec-a', null, 'no metrics results and no scoring results'],
      ['ep-2', null, 'no comparative score (fewer than 20 votes in every ability)'],
      ['rec-b', null, 'no metrics results and no scoring results'],
      ['judge-x', null, 'no scores'],
    ]);
  });

  it('chart: the ranked bar in its own panel first; unranked bars apart, grey, with the reason; no judge row', () => {
    const spec = boardChartSpec(chartRows(board), { title: 't' }) as unknown as {
      vconcat: { title?: { text: string }; data: { values: { model: string; label: string }[] } }[];
    };
    expect(spec.vconcat).toHaveLength(3);
    const [ranked, unranked, heat] = spec.vconcat;
    expect(ranked!.title!.text).toBe('Ranked: finals over every method');
    expect(ranked!.data.values.map((v) => v.model)).toEqual(['good-7b']);
    expect(unranked!.title!.text).toMatch(/^Not ranked/);
    expect(unranked!.data.values.map((v) => v.label.replace(/^\d+\.\d\d · /, ''))).toEqual([
      'not ranked: no comparative score (fewer than 20 votes in every ability)',
      'not ranked: no metrics results and no scoring results',
      'not ranked: no comparative score (fewer than 20 votes in every ability)',
      'not ranked: no metrics results and no scoring results',
    ]);
    const heatModels = new Set(heat!.data.values.map((v) => v.model));
    expect([...heatModels]).toEqual([
      'good-7b',
      'ep-1 (not ranked)',
      'rec-a (not ranked)',
      'ep-2 (not ranked)',
      'rec-b (not ranked)',
    ]);
  });

  it('page: headline, ranked rows, a "Not ranked" divider, unranked rows with the reason, left-out count', () => {
    const html = overallPage(snap, now);
    expect(html).toContain('<p id="headline">good-7b is the only model with every method');
    const order = [...html.matchAll(/<tr (?:data-model="([^"]+)"|class="divider")/g)].map(
      (m) => m[1] ?? 'DIVIDER',
    );
    expect(order).toEqual(['good-7b', 'DIVIDER', 'ep-1', 'rec-a', 'ep-2', 'rec-b']);
    expect(html).toContain(
      '<td class="inc" data-col="note">not ranked: no metrics results and no scoring results</td>',
    );
    expect(html).toContain('1 model with no score in any method left out');
  });
});

describe('arena votes only, four models within noise (5.69 vs 5.68 was "leads with 10.00 (0.00–10.00)")', () => {
  const models = ['m1', 'm2', 'm3', 'm4'];
  const battles: BattleType[] = [];
  for (let i = 0; i < 4; i++)
    for (let j = i + 1; j < 4; j++)
      battles.push(...votes('reasoning', models[i]!, models[j]!, 31, 61));
  const board = computeBoard({ models, datasets: [], battles }, createRng(2), {
    minVotes: 20,
    rounds: 200,
  });
  const snap = snapshotOf(board);

  it('no leader and no 10.00: the headline says the scores are within their uncertainty', () => {
    const c = overallContent(snap, { now });
    expect(c.text).toMatch(
      /^ZhuJiu board: no final is ranked: comparative scores \(\d\.\d\d–\d\.\d\d\) are within their uncertainty \(best and worst not separated at 95%\): not normalised, in no final$/,
    );
    expect(c.text).not.toContain('10.00');
    for (const r of c.table!.rows) expect(r[2]).toBe('—');
    expect(chartNotes(board)).toHaveLength(1);
    const spec = boardChartSpec(chartRows(board), {
      title: 't',
      notes: chartNotes(board),
    }) as unknown as {
      title: { subtitle: string[] };
      vconcat: { title?: { text: string }; data: { values: unknown[] } }[];
    };
    expect(spec.title.subtitle).toEqual(chartNotes(board));
    expect(spec.vconcat[0]!.title!.text).toBe('No ranked final');
    expect(spec.vconcat[0]!.data.values).toEqual([]);
    expect(boardJson(board).models[0]!.unranked_reason).toBe(
      'its scores are within their uncertainty',
    );
  });
});

describe('battles without an ability: the fix of each origin, singular and plural', () => {
  const inputs = snapshotOf(communityBoard()).inputs;
  it.each([
    [
      1,
      1,
      '1 battle without an ability counts as votes but in no comparative score (it is a live battle: tag it with `/arena ability <battle> <ability>`, listed by `/arena unclassified`)',
    ],
    [
      3,
      0,
      '3 battles without an ability count as votes but in no comparative score (they were imported: import them again with `--ability` under a new `--source`)',
    ],
    [
      3,
      1,
      '3 battles without an ability count as votes but in no comparative score (1 live: tag it with `/arena ability <battle> <ability>`, listed by `/arena unclassified`; 2 imported: import them again with `--ability` under a new `--source`)',
    ],
  ])('%i battles, %i live', (n, live, text) => {
    expect(
      withoutAbilityText({ ...inputs, battlesWithoutAbility: n, liveBattlesWithoutAbility: live }),
    ).toBe(text);
  });
});

describe('counts in words', () => {
  /** Models a and b, one vote between them (fewer than the board's minimum: nobody ranked). */
  const oneVoteBoard = () =>
    computeBoard(
      {
        models: ['a', 'b'],
        datasets: [],
        battles: [],
        unassignedBattles: [{ modelA: 'a', modelB: 'b', aWins: 1, bWins: 0, ties: 0, count: 1 }],
      },
      createRng(0),
      { minVotes: 20, rounds: 0 },
    );

  it('a model card with one vote says "over 1 vote"', () => {
    const board = oneVoteBoard();
    const card = modelContent(snapshotOf(board), 'a', { now });
    expect(card.sections?.[0]?.body).toContain('arena record 1–0–0 (W–L–T) over 1 vote');
  });

  it('a model not on the board lists those that are, joined as the language joins a list', () => {
    const board = oneVoteBoard();
    expect(modelContent(snapshotOf(board), 'x', { now }).text).toMatch(/Models: [ab], [ab]\.$/u);
    expect(modelContent(snapshotOf(board), 'x', { now, locale: 'zh-CN' }).text).toMatch(
      /现有模型：[ab]、[ab]。$/u,
    );
  });
});

describe('a board with metrics only (one model)', () => {
  it('headline: "the only ranked model (metrics only)", never "every method"', () => {
    const board = computeBoard(
      {
        models: ['fake'],
        datasets: [
          {
            dataset: 'm',
            ability: 'knowledge',
            method: 'metrics',
            items: 4,
            scores: new Map([['fake', Float64Array.from([10, 0, 10, 10])]]),
          },
        ],
        battles: [],
      },
      createRng(1),
      { minVotes: 20, rounds: 50 },
    );
    const c = overallContent(snapshotOf(board), { now });
    expect(c.text).toMatch(/^ZhuJiu board: fake is the only ranked model \(metrics only\), final /);
    expect(c.text).not.toContain('every method');
  });
});
