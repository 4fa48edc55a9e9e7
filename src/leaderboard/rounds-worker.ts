/**
 * @module leaderboard/rounds-worker
 * Worker-thread entry computing a share of a board's bootstrap rounds (aggregate `computeBoardRounds`; see
 * ./round-threads.ts). Receives `{ input, opts, port }` once (the board's inputs, and the port answers go to),
 * then `{ seeds, from, to, flag }`: computes rounds [from, to), posts the `BoardRounds` (its buffers transferred) on
 * the port, or `{ error }`, then sets `flag[0]` to 1 and wakes the waiting thread (`Atomics.notify`).
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import { type BoardInput, type BoardOptions, computeBoardRounds } from '../aggregate/index.ts';

let job: { input: BoardInput; opts: BoardOptions; port: MessagePort } | undefined;

parentPort?.on(
  'message',
  (
    m:
      | { input: BoardInput; opts: BoardOptions; port: MessagePort }
      | { seeds: Float64Array; from: number; to: number; flag: Int32Array },
  ) => {
    if ('input' in m) {
      job = m;
      return;
    }
    try {
      if (!job) throw new Error('rounds asked for before the board inputs');
      const b = computeBoardRounds(job.input, job.opts, m.seeds, m.from, m.to);
      const buffers = [b.methods, b.abilities, b.overall, b.rawAbilities, ...b.ds].map(
        (x) => x.buffer as ArrayBuffer,
      );
      job.port.postMessage(b, buffers);
    } catch (err) {
      job?.port.postMessage({ error: err instanceof Error ? err.message : String(err) });
    } finally {
      Atomics.store(m.flag, 0, 1);
      Atomics.notify(m.flag, 0);
    }
  },
);
