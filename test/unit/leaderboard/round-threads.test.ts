/**
 * Shares of a board's bootstrap rounds computed in worker threads (src/leaderboard/round-threads.ts): the board is
 * the one computed in one thread, bit for bit; small boards start no thread.
 */
import { describe, expect, it } from 'vitest';
import { type BoardInput, type BoardRounds, computeBoard } from '../../../src/aggregate/index.ts';
import { createRng } from '../../../src/core/rng.ts';
import { spawnRoundThreads, startRoundThreads } from '../../../src/leaderboard/round-threads.ts';

const models = ['a', 'b', 'c', 'd', 'e'];
const input: BoardInput = {
  models,
  datasets: [
    {
      dataset: 'ds',
      ability: 'knowledge',
      method: 'metrics',
      items: 40,
      scores: new Map(
        models.map((m, k) => [
          m,
          Float64Array.from({ length: 40 }, (_, i) => ((i * 7 + k * 3) % 11) / 1.1),
        ]),
      ),
    },
  ],
  battles: models.slice(1).flatMap((m, k) => [
    {
      ability: 'reasoning' as const,
      modelA: models[k]!,
      modelB: m,
      aWins: 1,
      bWins: 0,
      ties: 0,
      count: 12 + k,
    },
    {
      ability: 'reasoning' as const,
      modelA: models[k]!,
      modelB: m,
      aWins: 0,
      bWins: 1,
      ties: 0,
      count: 7,
    },
  ]),
};
const opts = { minVotes: 5, rounds: 150 };

describe('round threads', () => {
  it('two worker threads computing shares give the board of one thread, bit for bit', async () => {
    const alone = computeBoard(input, createRng(9), opts);
    const threads = startRoundThreads(input, opts, 2, 0);
    try {
      expect(threads.helpers).toHaveLength(2);
      // Each thread's share is given (not computed here instead, which would give the same board).
      const given: [number, boolean][] = [];
      const seen = threads.helpers.map((h) => ({
        start: (seeds: Float64Array, from: number, to: number, out: BoardRounds) => {
          const take = h.start(seeds, from, to, out);
          return () => {
            const ok = take();
            given.push([to - from, ok]);
            return ok;
          };
        },
      }));
      expect(computeBoard(input, createRng(9), opts, seen)).toEqual(alone);
      expect(given).toEqual([
        [50, true],
        [50, true],
      ]);
    } finally {
      await threads.close();
    }
    // Two threads start and load their modules: generous on a busy machine.
  }, 120_000);

  it('threads started before the inputs are known give the same board; a small board stops them', async () => {
    const alone = computeBoard(input, createRng(9), opts);
    const spawned = spawnRoundThreads(1);
    const threads = spawned.use(input, opts, 0);
    try {
      expect(threads.helpers).toHaveLength(1);
      expect(computeBoard(input, createRng(9), opts, threads.helpers)).toEqual(alone);
    } finally {
      await threads.close();
    }
    const small = spawnRoundThreads(1).use(input, opts);
    expect(small.helpers).toHaveLength(0);
    await small.close();
  }, 120_000);

  it('a small board starts no thread', async () => {
    const threads = startRoundThreads(input, opts, 2);
    expect(threads.helpers).toHaveLength(0);
    await threads.close();
  });
});
