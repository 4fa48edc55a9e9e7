/** The lane pool (eval/lane-pool): lanes share one supply; the first error stops every lane and is handed back. */
import { describe, expect, it } from 'vitest';
import { runLanes } from '../../../src/eval/lane-pool.ts';

/** A supply of 1..n that stops handing out work once `stop` is aborted. */
function supply(n: number, stop: AbortController) {
  let k = 0;
  return async () => (stop.signal.aborted || k >= n ? undefined : ++k);
}

describe('runLanes', () => {
  it('works every piece once, with at most `count` pieces at once', async () => {
    const stop = new AbortController();
    const done: number[] = [];
    let busy = 0;
    let most = 0;
    const err = await runLanes(
      3,
      {
        next: supply(10, stop),
        work: async (p) => {
          busy++;
          most = Math.max(most, busy);
          await new Promise((r) => setImmediate(r));
          done.push(p);
          busy--;
        },
      },
      stop,
    );
    expect(err).toBeUndefined();
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBe(3);
    expect(stop.signal.aborted).toBe(false);
  });

  it('stops every lane at the first error and returns it (never rejects)', async () => {
    const stop = new AbortController();
    const done: number[] = [];
    const boom = new Error('database refused the claim');
    const err = await runLanes(
      2,
      {
        next: supply(100, stop),
        work: async (p) => {
          await new Promise((r) => setImmediate(r));
          if (p === 3) throw boom;
          if (p === 4) throw new Error('second');
          done.push(p);
        },
      },
      stop,
    );
    expect(err).toBe(boom);
    expect(stop.signal.aborted).toBe(true);
    expect(done.length).toBeLessThan(5);
  });

  it('an error of the supply itself stops the pool too', async () => {
    const stop = new AbortController();
    const err = await runLanes(
      4,
      {
        next: async () => {
          throw new Error('claim failed');
        },
        work: async () => undefined,
      },
      stop,
    );
    expect((err as Error).message).toBe('claim failed');
    expect(stop.signal.aborted).toBe(true);
  });
});
