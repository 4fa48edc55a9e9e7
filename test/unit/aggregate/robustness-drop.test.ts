/** PromptBench's performance drop rate per model and robustness dataset (aggregate/robustness, scoring.md §2.7). */
import { describe, expect, it } from 'vitest';
import { robustnessDrops } from '../../../src/aggregate/robustness.ts';

const s = (model: string, dataset: string, itemId: number, score: number, method = 'metrics') => ({
  model,
  dataset,
  method,
  itemId,
  score,
});

describe('robustnessDrops', () => {
  it('PDR = 1 − perturbed / clean over the base items the model has both scores for', () => {
    const links = [
      { itemId: 11, baseItemId: 1, baseDataset: 'c3' },
      { itemId: 12, baseItemId: 2, baseDataset: 'c3' },
      { itemId: 13, baseItemId: 3, baseDataset: 'c3' },
    ];
    const drops = robustnessDrops(
      [
        s('m', 'c3', 1, 10),
        s('m', 'c3', 2, 10),
        s('m', 'c3', 4, 0), // not a base of any derived item
        s('m', 'r', 11, 5),
        s('m', 'r', 12, 10),
        s('m', 'r', 13, 0), // its base item 3 has no clean score: left out
        s('n', 'r', 11, 10),
      ],
      links,
    );
    expect(drops).toEqual([
      { model: 'm', dataset: 'r', base: 'c3', n: 2, perturbed: 7.5, clean: 10, pdr: 0.25 },
      { model: 'n', dataset: 'r', base: 'c3', n: 0, perturbed: null, clean: null, pdr: null },
    ]);
  });

  it('a clean mean of 0 has no rate; doing better perturbed is a negative drop', () => {
    const links = [{ itemId: 5, baseItemId: 1, baseDataset: 'b' }];
    expect(robustnessDrops([s('m', 'b', 1, 0), s('m', 'r', 5, 4)], links)[0]?.pdr).toBeNull();
    expect(robustnessDrops([s('m', 'b', 1, 4), s('m', 'r', 5, 8)], links)[0]?.pdr).toBe(-1);
  });
});
