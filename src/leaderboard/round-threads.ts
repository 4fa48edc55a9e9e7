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

/** How often a waiting caller looks whether the thread's module failed to load. */
const LOAD_CHECK_MS = 50;

/** A round thread and the flag its start sets to -1 when its module cannot be loaded (core/worker-thread.ts). */
interface RoundThread {
  readonly worker: Worker;
  readonly loadFailed: Int32Array;
}

/**
 * Waits for a share's `flag` (1: given, -1: failed) for up to {@link WAIT_MS}, returning false at once when the
 * thread's module could not be loaded (it will never answer: an incomplete installation).
 */
function awaitShare(flag: Int32Array, loadFailed: Int32Array): boolean {
  const until = performance.now() + WAIT_MS;
  for (;;) {
    if (Atomics.load(loadFailed, 0) === -1) return false;
    const left = until - performance.now();
    if (left <= 0) return false;
    if (Atomics.wait(flag, 0, 0, Math.min(left, LOAD_CHECK_MS)) !== 'timed-out')
      return Atomics.load(flag, 0) === 1;
  }
}

/** One worker thread computing one share of rounds, once given the inputs. */
function roundHelper(t: RoundThread, input: BoardInput, opts: BoardOptions): RoundHelper {
  t.worker.postMessage({ input, opts });
  return {
    start(seeds, from, to, out) {
      const flag = new Int32Array(new SharedArrayBuffer(4));
      t.worker.postMessage({ seeds, from, to, out, flag });
      return () => awaitShare(flag, t.loadFailed);
    },
  };
}

/** {@link spawnRoundThreads}' options. */
export interface RoundThreadOptions {
  /**
   * Called with a thread's error (its module could not be loaded, or it failed later); its shares are computed by
   * the caller. Called from the event loop, so after a board computed meanwhile.
   */
  readonly onError?: (err: Error) => void;
  /** The threads' module (default `rounds-worker`, beside this one); a test names a missing one. */
  readonly module?: string;
}

/** `count` round threads (default {@link defaultRoundThreads}), started now, loading their modules. */
export function spawnRoundThreads(
  count = defaultRoundThreads(),
  o: RoundThreadOptions = {},
): SpawnedRoundThreads {
  const threads = Array.from({ length: Math.max(0, count) }, (): RoundThread => {
    const loadFailed = new Int32Array(new SharedArrayBuffer(4));
    const worker = startWorkerBeside(import.meta.url, o.module ?? 'rounds-worker', { loadFailed });
    worker.unref();
    // A thread that fails answers nothing: the caller computes its share itself (at once when its module could not
    // be loaded, `loadFailed`; else after WAIT_MS).
    worker.on('error', (err) => o.onError?.(err));
    return { worker, loadFailed };
  });
  const close = async () => {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  };
  return {
    use(input, opts, minWork = THREADED_ROUNDS_MIN) {
      if (threads.length === 0 || opts.rounds * input.models.length < minWork) {
        void close();
        return { helpers: [], close: async () => {} };
      }
      return { helpers: threads.map((t) => roundHelper(t, input, opts)), close };
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
  o: RoundThreadOptions = {},
): RoundThreads {
  if (count <= 0 || opts.rounds * input.models.length < minWork)
    return { helpers: [], close: async () => {} };
  return spawnRoundThreads(count, o).use(input, opts, minWork);
}
