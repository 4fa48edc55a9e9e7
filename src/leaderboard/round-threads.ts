/**
 * @module leaderboard/round-threads
 * Worker threads that compute shares of a board's bootstrap rounds while the calling thread computes its own
 * (aggregate `RoundHelper`, docs/scoring.md §5 "Uncertainty"). Round r draws from its own seed, so the board is
 * the same, bit for bit, however its rounds are split; each thread writes its rounds in place into arrays on
 * shared memory (no copy); a share a thread cannot give (it failed, or did not answer within {@link WAIT_MS}) is
 * computed by the caller instead.
 *
 * The board is computed synchronously: the caller waits for a share with `Atomics.wait`, so this is for threads
 * that may block (a one-shot command's main thread, the board worker), never for the chat event loop. The threads
 * can be started before the board's inputs are read ({@link spawnRoundThreads}), so that they load their modules
 * while the inputs are read; given the inputs, each prepares the rounds (the arena fit) while the caller prepares
 * its own.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { BoardInput, BoardOptions, RoundHelper } from '../aggregate/index.ts';
import { startWorkerBeside } from '../core/worker-thread.ts';

/** The longest the caller waits for one thread's share before computing it itself. */
const WAIT_MS = 120_000;

/**
 * Rounds × models from which extra threads pay: below it the board takes well under a second of CPU and a
 * thread's start (~50 ms of CPU, its modules and a copy of the inputs) is a large share of what it would save.
 * 10,000 rounds of 20 models is 200,000.
 */
export const THREADED_ROUNDS_MIN = 200_000;

/** The default number of round threads: one fewer than the machine's cores, at most 3. */
export const defaultRoundThreads = (): number => Math.min(3, availableParallelism() - 1);

/** Round helpers on worker threads, with `close()` to stop them (always call it, after the board). */
export interface RoundThreads {
  readonly helpers: readonly RoundHelper[];
  close(): Promise<void>;
}

/** Worker threads started before the board's inputs are known; `use` gives them the inputs. */
export interface SpawnedRoundThreads {
  /**
   * Round helpers for the board of `input` with `opts`, on the spawned threads; none (and the threads stopped)
   * when the board is small (rounds × models below `minWork`, default {@link THREADED_ROUNDS_MIN}). Call once.
   */
  use(input: BoardInput, opts: BoardOptions, minWork?: number): RoundThreads;
  /** Stops the threads (when `use` is never called). */
  close(): Promise<void>;
}

/** One worker thread computing one share of rounds, once given the inputs. */
function roundHelper(worker: Worker, input: BoardInput, opts: BoardOptions): RoundHelper {
  worker.postMessage({ input, opts });
  return {
    start(seeds, from, to, out) {
      const flag = new Int32Array(new SharedArrayBuffer(4));
      worker.postMessage({ seeds, from, to, out, flag });
      return () => Atomics.wait(flag, 0, 0, WAIT_MS) !== 'timed-out' && Atomics.load(flag, 0) === 1;
    },
  };
}

/** `count` round threads (default {@link defaultRoundThreads}), started now, loading their modules. */
export function spawnRoundThreads(count = defaultRoundThreads()): SpawnedRoundThreads {
  const workers = Array.from({ length: Math.max(0, count) }, () => {
    const w = startWorkerBeside(import.meta.url, 'rounds-worker');
    w.unref();
    // A thread that fails to start answers nothing: the caller computes its share itself after WAIT_MS.
    w.on('error', () => {});
    return w;
  });
  const close = async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  return {
    use(input, opts, minWork = THREADED_ROUNDS_MIN) {
      if (workers.length === 0 || opts.rounds * input.models.length < minWork) {
        void close();
        return { helpers: [], close: async () => {} };
      }
      return { helpers: workers.map((w) => roundHelper(w, input, opts)), close };
    },
    close,
  };
}

/**
 * Threads for the rounds of one board of `input` with `opts`: `count` of them (default
 * {@link defaultRoundThreads}), none when the board is small (rounds × models below `minWork`, default
 * {@link THREADED_ROUNDS_MIN}).
 */
export function startRoundThreads(
  input: BoardInput,
  opts: BoardOptions,
  count = defaultRoundThreads(),
  minWork = THREADED_ROUNDS_MIN,
): RoundThreads {
  if (count <= 0 || opts.rounds * input.models.length < minWork)
    return { helpers: [], close: async () => {} };
  return spawnRoundThreads(count).use(input, opts, minWork);
}
