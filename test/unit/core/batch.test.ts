import { describe, expect, it } from 'vitest';
import { batched } from '../../../src/core/batch.ts';

describe('batched (group commit)', () => {
  it('sends calls of one turn together, and calls made during a batch as the next one, in order', async () => {
    const batches: number[][] = [];
    let release: (() => void) | undefined;
    const double = batched(async (xs: readonly number[]) => {
      batches.push([...xs]);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return xs.map((x) => 2 * x);
    });
    const first = [double(1), double(2), double(3)];
    while (!release) await new Promise((r) => setImmediate(r));
    const second = [double(4), double(5)];
    release();
    expect(await Promise.all([...first, ...second])).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('splits at maxBatch, and a failed batch rejects only its own calls', async () => {
    const sizes: number[] = [];
    const f = batched(
      async (xs: readonly number[]) => {
        sizes.push(xs.length);
        if (xs.includes(3)) throw new Error('boom');
        return xs;
      },
      { maxBatch: 2 },
    );
    const r = await Promise.allSettled([f(1), f(2), f(3), f(4), f(5)]);
    expect(r.map((x) => x.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects when the batch function returns the wrong number of outputs', async () => {
    const f = batched(async (_xs: readonly number[]) => [1, 2, 3]);
    await expect(f(1)).rejects.toThrow('3 outputs for 1 inputs');
  });
});
