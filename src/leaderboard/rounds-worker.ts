/**
 * @module leaderboard/rounds-worker
 * Worker-thread entry computing a share of a board's bootstrap rounds (aggregate `prepareBoardRounds`; see
 * ./round-threads.ts). Receives `{ input, opts }` once (the board's inputs), and prepares the rounds at once (the
 * dense inputs and the arena fit), while the board's own thread prepares its own; then `{ seeds, from, to, out,
 * flag }`: computes rounds [from, to) into `out` (arrays on shared memory the board reads), sets `flag[0]` to 1
 * (written) or 2 (failed) and wakes the waiting thread (`Atomics.notify`).
 */
import { parentPort } from 'node:worker_threads';
import {
  type BoardInput,
  type BoardOptions,
  type BoardRounds,
  prepareBoardRounds,
} from '../aggregate/index.ts';

let prepared: ReturnType<typeof prepareBoardRounds> | Error | undefined;

parentPort?.on(
  'message',
  (
    m:
      | { input: BoardInput; opts: BoardOptions }
      | { seeds: Float64Array; from: number; to: number; out: BoardRounds; flag: Int32Array },
  ) => {
    if ('input' in m) {
      try {
        prepared = prepareBoardRounds(m.input, m.opts);
      } catch (err) {
        prepared = err instanceof Error ? err : new Error(String(err));
      }
      return;
    }
    let done = 2;
    try {
      if (prepared === undefined) throw new Error('rounds asked for before the board inputs');
      if (prepared instanceof Error) throw prepared;
      prepared.run(m.seeds, m.from, m.to, m.out);
      done = 1;
    } catch {
      // The board computes this share itself (./round-threads.ts).
    } finally {
      Atomics.store(m.flag, 0, done);
      Atomics.notify(m.flag, 0);
    }
  },
);
