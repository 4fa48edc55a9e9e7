/**
 * @module core/batch
 * Group commit for database round trips: single calls made while a batch is on its way are collected and sent
 * together as the next batch, so N concurrent callers cost about one round trip per batch instead of N, and a
 * lone caller waits no longer than one event-loop turn (nothing is held back by a timer, unless `gatherMs` asks
 * for it while the calls come in company).
 */

/** Options of {@link batched}. */
export interface BatchOptions {
  /** Most inputs per batch (default 500); more waiting inputs go in the following batches. */
  readonly maxBatch?: number;
  /**
   * While calls come in company (the last batch held more than one input), a batch that starts with fewer than
   * `maxBatch` inputs waiting is held this long (ms) for more to join (default 0: never held). For statements whose
   * fixed cost outweighs their rows' (an embedded database's statement, bench/eval), where the callers can wait a
   * little; a lone caller is never held.
   */
  readonly gatherMs?: number;
}

/** A function of one input that {@link batched} sends in batches. */
export interface Batched<I, O> {
  (input: I): Promise<O>;
  /**
   * No more company is coming (e.g. a run has nothing left to ask): a batch being held for others to join goes
   * now, and no later batch is held.
   */
  drain(): void;
}

/**
 * Wraps `run`, which handles many inputs in one call, as a function of one input. Calls made in the same
 * event-loop turn, or while an earlier batch is running, are sent together; one batch runs at a time, in call
 * order.
 * @param run takes 1..maxBatch inputs and resolves to one output per input, in the same order; when it rejects,
 *   every call of that batch rejects with its error (later batches still run).
 * @returns a function of one input resolving to its output, with {@link Batched.drain}.
 * @throws Error (through the returned promise) when `run` returns a different number of outputs than inputs.
 */
export function batched<I, O>(
  run: (inputs: readonly I[]) => Promise<readonly O[]>,
  opts: BatchOptions = {},
): Batched<I, O> {
  const maxBatch = Math.max(1, opts.maxBatch ?? 500);
  let gatherMs = Math.max(0, opts.gatherMs ?? 0);
  type Waiting = { input: I; resolve: (o: O) => void; reject: (e: unknown) => void };
  let queue: Waiting[] = [];
  let busy = false;
  let lastSize = 0;
  /** Ends the current gathering wait, if any. */
  let stopWaiting: (() => void) | undefined;
  const pump = async () => {
    while (queue.length > 0) {
      // Calls that came while the last batch ran are held too: were they sent at once, a stream of calls would
      // go out one or two at a time after each gathered batch (each small batch then ends the gathering).
      if (gatherMs > 0 && lastSize > 1 && queue.length < maxBatch)
        await new Promise<void>((r) => {
          const timer = setTimeout(r, gatherMs);
          stopWaiting = () => {
            clearTimeout(timer);
            r();
          };
        });
      stopWaiting = undefined;
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      lastSize = batch.length;
      try {
        const out = await run(batch.map((w) => w.input));
        if (out.length !== batch.length)
          throw new Error(`batched: ${out.length} outputs for ${batch.length} inputs`);
        for (let i = 0; i < batch.length; i++) batch[i]?.resolve(out[i] as O);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    busy = false;
  };
  const call = (input: I) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (busy) return;
      busy = true;
      setImmediate(() => void pump());
    });
  return Object.assign(call, {
    drain: () => {
      gatherMs = 0;
      stopWaiting?.();
    },
  });
}
