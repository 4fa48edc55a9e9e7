/** The run's plan (eval/run-plan): the item limit per dataset, and plan rows numbered in the order of work. */
import { describe, expect, it } from 'vitest';
import { limited, planDataset } from '../../../src/eval/run-plan.ts';
import { dataset } from './fakes.ts';

describe('run plan', () => {
  const ds = dataset('d', ['a', 'b', 'c']);

  it('limits each dataset to its first items, in its own order; null keeps all', () => {
    expect(limited(ds, 2).map((i) => i.key)).toEqual(['a', 'b']);
    expect(limited(ds, null).map((i) => i.key)).toEqual(['a', 'b', 'c']);
    expect(limited(ds, 10)).toHaveLength(3);
  });

  it('numbers the planned items from the given sequence number and indexes them by stored id', () => {
    const ids = new Map([
      ['a', 11],
      ['b', 12],
      ['c', 13],
    ]);
    const { planned, entries } = planDataset(ds, ds.items, ids, 5);
    expect(planned).toEqual([
      { itemId: 11, dataset: 'd', seq: 5 },
      { itemId: 12, dataset: 'd', seq: 6 },
      { itemId: 13, dataset: 'd', seq: 7 },
    ]);
    expect(entries.map(([id, e]) => [id, e.item.key, e.ds.name])).toEqual([
      [11, 'a', 'd'],
      [12, 'b', 'd'],
      [13, 'c', 'd'],
    ]);
  });

  it('leaves out an item that has no stored id, without a gap in the numbering', () => {
    const { planned } = planDataset(
      ds,
      ds.items,
      new Map([
        ['a', 1],
        ['c', 3],
      ]),
      0,
    );
    expect(planned).toEqual([
      { itemId: 1, dataset: 'd', seq: 0 },
      { itemId: 3, dataset: 'd', seq: 1 },
    ]);
  });
});
