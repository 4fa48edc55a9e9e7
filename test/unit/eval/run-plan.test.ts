/**
 * The run's plan (eval/run-plan): the item limit per dataset, the order of work (each dataset spread evenly over the
 * run, first items in suite order), and plan rows numbered in that order.
 */
import { describe, expect, it } from 'vitest';
import { limited, planItems, workOrder } from '../../../src/eval/run-plan.ts';
import { dataset } from './fakes.ts';

describe('run plan', () => {
  const ds = dataset('d', ['a', 'b', 'c']);

  it('limits each dataset to its first items, in its own order; null keeps all', () => {
    expect(limited(ds, 2).map((i) => i.key)).toEqual(['a', 'b']);
    expect(limited(ds, null).map((i) => i.key)).toEqual(['a', 'b', 'c']);
    expect(limited(ds, 10)).toHaveLength(3);
  });

  it('spreads each dataset evenly over the run, its items in their own order, first items in suite order', () => {
    // Sizes 4, 2, 1: fractions 0, 1/4, 2/4, 3/4 | 0, 1/2 | 0.
    expect(workOrder([4, 2, 1])).toEqual([[0, 3, 4, 6], [1, 5], [2]]);
    expect(workOrder([3])).toEqual([[0, 1, 2]]);
    expect(workOrder([0, 2])).toEqual([[], [0, 1]]);
    expect(workOrder([])).toEqual([]);
  });

  it('gives every position once, and keeps any stretch of the run close to each dataset’s share', () => {
    const sizes = [100, 50, 50, 300, 7];
    const order = workOrder(sizes);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(order.flat().sort((a, b) => a - b)).toEqual([...Array(total).keys()]);
    for (const [d, positions] of order.entries()) {
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      // Within the first half of the run, each dataset has about half of its items (one either way).
      const inFirstHalf = positions.filter((p) => p < total / 2).length;
      expect(Math.abs(inFirstHalf - (sizes[d] as number) / 2)).toBeLessThanOrEqual(1);
    }
  });

  it('numbers the planned items in the order of work and indexes them by stored id', () => {
    const other = dataset('e', ['x']);
    const ids = [
      new Map([
        ['a', 11],
        ['b', 12],
        ['c', 13],
      ]),
      new Map([['x', 21]]),
    ];
    const { planned, index } = planItems([ds, other], [ds.items, other.items], ids);
    expect(planned).toEqual([
      { itemId: 11, dataset: 'd', seq: 0 },
      { itemId: 21, dataset: 'e', seq: 1 },
      { itemId: 12, dataset: 'd', seq: 2 },
      { itemId: 13, dataset: 'd', seq: 3 },
    ]);
    expect([...index].map(([id, e]) => [id, e.item.key, e.ds.name])).toEqual([
      [11, 'a', 'd'],
      [12, 'b', 'd'],
      [13, 'c', 'd'],
      [21, 'x', 'e'],
    ]);
  });

  it('leaves out an item that has no stored id, without a gap in the numbering', () => {
    const { planned, index } = planItems(
      [ds],
      [ds.items],
      [
        new Map([
          ['a', 1],
          ['c', 3],
        ]),
      ],
    );
    expect(planned).toEqual([
      { itemId: 1, dataset: 'd', seq: 0 },
      { itemId: 3, dataset: 'd', seq: 1 },
    ]);
    expect([...index.keys()]).toEqual([1, 3]);
  });
});
