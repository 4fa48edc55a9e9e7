/**
 * The board's worker threads when their module cannot be loaded (an incomplete installation: a bundle chunk
 * deleted, a build interrupted). The board worker (src/leaderboard/off-thread.ts) fails its jobs with
 * `install_broken`, naming the file and the fix; a round thread (src/leaderboard/round-threads.ts) gives no share,
 * and the caller computes it at once (before, it waited two minutes for each thread's answer, blocked in
 * `Atomics.wait`) and is told the error. The process-level cases (the embedded database's thread, the command
 * line's chunks): test/process/cli/broken-install.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type BoardInput, computeBoard } from '../../../src/aggregate/index.ts';
import { isAppError } from '../../../src/core/errors.ts';
import { createRng } from '../../../src/core/rng.ts';
import { installBrokenError } from '../../../src/i18n/cli.ts';
import { BoardWorker } from '../../../src/leaderboard/off-thread.ts';
import { startRoundThreads } from '../../../src/leaderboard/round-threads.ts';

const models = ['a', 'b', 'c'];
const input: BoardInput = {
  models,
  datasets: [
    {
      dataset: 'ds',
      ability: 'knowledge',
      method: 'metrics',
      items: 10,
      scores: new Map(
        models.map((m, k) => [m, Float64Array.from({ length: 10 }, (_, i) => ((i + k) % 3) / 2)]),
      ),
    },
  ],
  battles: [],
};
const opts = { minVotes: 5, rounds: 60 };

describe('board threads whose module cannot be loaded', () => {
  it('the board worker fails its job with install_broken, naming the file and the fix', async () => {
    const w = new BoardWorker('no-such-board-worker');
    try {
      const err = await w.compute(input, 1, opts, 'title').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAppError(err, 'install_broken'), String(err)).toBe(true);
      expect((err as Error).message).toMatch(
        /^zhujiu's installation is incomplete: \S+\/no-such-board-worker\.ts cannot be loaded\. Run `npm run build` in the zhujiu folder/u,
      );
    } finally {
      await w.close();
    }
  });

  it('round threads give no share and the caller computes the rounds at once, told of the error', async () => {
    const alone = computeBoard(input, createRng(4), opts);
    const errors: Error[] = [];
    const threads = startRoundThreads(input, opts, 2, 0, {
      module: 'no-such-rounds-worker',
      onError: (e) => errors.push(e),
    });
    try {
      expect(threads.helpers).toHaveLength(2);
      const t0 = performance.now();
      expect(computeBoard(input, createRng(4), opts, threads.helpers)).toEqual(alone);
      // Not the 120 s a share is waited for: the threads' start said at once that their module is missing.
      expect(performance.now() - t0).toBeLessThan(20_000);
      // The threads' error events arrive through the event loop, after the board (generous on a busy machine),
      // and only while the threads exist: closing them first could drop one not yet delivered.
      await expect.poll(() => errors.length, { timeout: 30_000 }).toBe(2);
    } finally {
      await threads.close();
    }
    expect(errors.map((e) => installBrokenError(e)?.code)).toEqual([
      'install_broken',
      'install_broken',
    ]);
  }, 60_000);
});
