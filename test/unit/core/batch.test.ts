import { describe, expect, it, vi } from 'vitest';
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

  it('with gatherMs, holds a batch for more only while calls come in company; a lone caller is not held', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // setImmediate stays real: only the gathering wait is faked
    try {
      const batches: number[][] = [];
      const f = batched(
        async (xs: readonly number[]) => {
          batches.push([...xs]);
          return xs;
        },
        { gatherMs: 1000 },
      );
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
      };
      // Alone: sent at the next turn, no timer involved.
      expect(await f(1)).toBe(1);
      // In company (a batch of two), then the next batch waits for the gathering time and takes the late comer.
      expect(await Promise.all([f(2), f(3)])).toEqual([2, 3]);
      const held = f(4);
      await turns(5);
      const late = f(5);
      await turns(5);
      expect(batches).toEqual([[1], [2, 3]]);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await Promise.all([held, late])).toEqual([4, 5]);
      expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with gatherMs, holds the calls that came while a gathered batch ran, instead of sending them at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // only the gathering wait is faked
    try {
      const batches: number[][] = [];
      let arrive: (() => void) | undefined;
      const f = batched(
        async (xs: readonly number[]) => {
          batches.push([...xs]);
          arrive?.(); // a call comes while this batch is being written
          arrive = undefined;
          return xs;
        },
        { gatherMs: 1000 },
      );
      expect(await Promise.all([f(1), f(2)])).toEqual([1, 2]); // in company
      const calls: Promise<number>[] = [];
      arrive = () => calls.push(f(5));
      calls.push(f(3), f(4));
      await vi.advanceTimersByTimeAsync(1000); // [3, 4] gathered; 5 comes while it is written
      expect(batches).toEqual([
        [1, 2],
        [3, 4],
      ]);
      calls.push(f(6));
      await vi.advanceTimersByTimeAsync(999);
      expect(batches).toEqual([
        [1, 2],
        [3, 4],
      ]); // 5 is held for company, not sent alone
      await vi.advanceTimersByTimeAsync(1);
      expect(await Promise.all(calls)).toEqual([3, 4, 5, 6]);
      expect(batches).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drain sends a batch being held at once, and holds none after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // only the gathering wait is faked
    try {
      const batches: number[][] = [];
      const f = batched(
        async (xs: readonly number[]) => {
          batches.push([...xs]);
          return xs;
        },
        { gatherMs: 1000 },
      );
      const turns = async (n: number) => {
        for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
      };
      expect(await Promise.all([f(1), f(2)])).toEqual([1, 2]); // in company
      const held = f(3);
      await turns(5);
      expect(batches).toEqual([[1, 2]]); // held for the gathering time
      f.drain();
      expect(await held).toBe(3); // no timer advanced
      expect(await Promise.all([f(4), f(5)])).toEqual([4, 5]);
      const next = f(6);
      await turns(5);
      expect(await next).toBe(6); // not held although the last batch came in company
      expect(batches).toEqual([[1, 2], [3], [4, 5], [6]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
