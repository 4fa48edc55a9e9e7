/**
 * quantilePair (selection) gives exactly the quantiles quantileSorted gives on the sorted values, ties and all.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import { quantilePair, quantileSorted } from '../../../src/rating/index.ts';

describe('quantilePair', () => {
  it('equals sort + quantileSorted on 2,000 seeded arrays (sizes 1–3,000, many ties, any quantiles)', () => {
    const rng = createRng(5);
    for (let t = 0; t < 2000; t++) {
      const n = 1 + rng.int(t < 1900 ? 60 : 3000);
      const distinct = 1 + rng.int(t % 3 === 0 ? 4 : 1000);
      const v = Float64Array.from({ length: n }, () => rng.int(distinct) / 7 - 3);
      const q = [rng.next(), rng.next()].sort((a, b) => a - b) as [number, number];
      if (t % 5 === 0) [q[0], q[1]] = [0.025, 0.975];
      if (t % 11 === 0) [q[0], q[1]] = [0, 1];
      const sorted = Float64Array.from(v).sort();
      const want = [quantileSorted(sorted, q[0]), quantileSorted(sorted, q[1])];
      expect(quantilePair(Float64Array.from(v), q[0], q[1])).toEqual(want);
    }
  });
});
