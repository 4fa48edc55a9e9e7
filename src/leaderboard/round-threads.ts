/**
 * @module leaderboard/round-threads
 * Worker threads that compute shares of a board's bootstrap rounds while the calling thread computes its own
 * (aggregate `RoundHelper`, docs/scoring.md §5 "Uncertainty"). Round r draws from its own seed, so the board is
 * the same, bit for bit, however its rounds are split; a share a thread cannot give (it failed, or did not answer
 * within {@link WAIT_MS}) is computed by the caller instead.
 *
 * The board is computed synchronously: the caller waits for a share with `Atomics.wait` and takes it with
 * `receiveMessageOnPort`, so this is for threads that may block (a one-shot command's main thread, the board
 * worker), never for the chat event loop. The threads start (and load their modules, and read the inputs) as
 * soon as they are made, in parallel with the caller's own preparation.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import type { BoardInput, BoardOptions, BoardRounds, RoundHelper } from '../aggregate/index.ts';
import { startWorkerBeside } from '../core/worker-thread.ts';

/** The longest the caller waits for one thread's share before computing it itself. */
const WAIT_MS = 120_000;

/**
 * Rounds × models from which extra threads pay: below it the board takes well under a second of CPU and a
 * thread's start (~50 ms of CPU, its modules and a copy of the inputs) is a large share of what it would save.
 * 10,000 rounds of 20 models is 200,000.
 */
export const THREADED_ROUNDS_MIN = 200_000;

/** Round helpers on worker threads, with `close()` to stop them (always call it, after the board). */
export interface RoundThreads {
  readonly helpers: readonly RoundHelper[];
  close(): Promise<void>;
}

/** One worker thread computing one share of rounds. */
function roundThread(
  input: BoardInput,
  opts: BoardOptions,
): { helper: RoundHelper; worker: Worker } {
  const worker = startWorkerBeside(import.meta.url, 'rounds-worker');
  worker.unref();
  // An error is answered on the port like a result; the caller then computes the share itself.
  worker.on('error', () => {});
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ input, opts, port: port2 }, [port2]);
  const helper: RoundHelper = {
    start(seeds, from, to) {
      const flag = new Int32Array(new SharedArrayBuffer(4));
      worker.postMessage({ seeds, from, to, flag });
      return () => {
        if (Atomics.wait(flag, 0, 0, WAIT_MS) === 'timed-out') return null;
        const got = receiveMessageOnPort(port1)?.message as
          | BoardRounds
          | { error: string }
          | undefined;
        return got && !('error' in got) ? got : null;
      };
    },
  };
  return { helper, worker };
}

/**
 * Threads for the rounds of one board of `input` with `opts`: `count` of them (default one fewer than the
 * machine's cores, at most 3), none when the board is small (rounds × models below `minWork`, default
 * {@link THREADED_ROUNDS_MIN}).
 */
export function startRoundThreads(
  input: BoardInput,
  opts: BoardOptions,
  count = Math.min(3, availableParallelism() - 1),
  minWork = THREADED_ROUNDS_MIN,
): RoundThreads {
  if (count <= 0 || opts.rounds * input.models.length < minWork)
    return { helpers: [], close: async () => {} };
  const threads = Array.from({ length: count }, () => roundThread(input, opts));
  return {
    helpers: threads.map((t) => t.helper),
    close: async () => {
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
