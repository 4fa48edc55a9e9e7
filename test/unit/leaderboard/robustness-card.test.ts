/** The model card's robustness drops in chat, in the JSON and on the results page (docs/scoring.md §2.7). */
import { describe, expect, it } from 'vitest';
import { computeBoard } from '../../../src/aggregate/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { modelPage } from '../../../src/leaderboard/page.ts';
import { modelCardJson, modelContent } from '../../../src/leaderboard/views.ts';
import { snapshotOf } from '../../helpers/board-fixtures.ts';

const now = new Date('2026-12-01T10:00:24Z');
const drop = {
  model: 'a',
  dataset: 'robust_dialect_cmrc2018',
  base: 'cmrc2018',
  n: 40,
  perturbed: 6,
  clean: 8,
  pdr: 0.25,
};
const board = {
  ...computeBoard(
    {
      models: ['a', 'b'],
      datasets: [
        {
          dataset: 'robust_dialect_cmrc2018',
          ability: 'robustness',
          method: 'metrics',
          items: 2,
          scores: new Map([
            ['a', Float64Array.from([10, 0])],
            ['b', Float64Array.from([10, 10])],
          ]),
        },
      ],
      battles: [],
    },
    createRng(0),
    { minVotes: 20, rounds: 0 },
  ),
  robustness: [drop, { ...drop, model: 'b', perturbed: 8, pdr: 0 }],
};

describe('robustness on the model card', () => {
  it("shows each robustness dataset's score, its clean base score and the drop, for that model only", () => {
    const c = modelContent(snapshotOf(board), 'a', { now });
    const s = c.sections?.find((x) => x.heading?.startsWith('Robustness'));
    expect(s?.body).toBe(
      'robust_dialect_cmrc2018: 6.00 vs clean cmrc2018 8.00, drop 25.0% (40 items)',
    );
    expect(modelCardJson(board, 'a')?.robustness).toEqual([
      {
        dataset: 'robust_dialect_cmrc2018',
        base: 'cmrc2018',
        n: 40,
        perturbed: 6,
        clean: 8,
        pdr: 0.25,
      },
    ]);
    const html = modelPage(snapshotOf(board), 'a', now) ?? '';
    expect(html).toContain('<table id="robustness">');
    expect(html).toContain('<td class="n pdr">25.0%</td>');
  });

  it('a board stored before drops were recorded shows none', () => {
    const { robustness: _, ...old } = board;
    expect(modelCardJson(old, 'a')?.robustness).toEqual([]);
    expect(modelPage(snapshotOf(old), 'a', now)).not.toContain('id="robustness"');
  });
});
