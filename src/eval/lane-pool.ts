/**
 * @module eval/lane-pool
 * A fixed number of lanes working through a shared supply of work: each lane takes the next piece and works it,
 * until the supply runs out. An error a lane cannot handle stops every lane at once (through the shared
 * controller), so nothing more is taken, and it is handed back to the caller.
 */

/** What {@link runLanes} works through. */
export interface LaneWork<T> {
  /** The next piece of work; `undefined` when there is none left (or the pool is stopping). May throw. */
  next(): Promise<T | undefined>;
  /** Works one piece. May throw. */
  work(piece: T): Promise<void>;
}

/**
 * Runs `count` lanes (≥ 1) over `w` until each finds nothing left. The first error of any lane aborts `stop` (the
 * other lanes see it through `next`, which should then return `undefined`) and is returned once every lane has
 * ended; `undefined` when no lane failed. Never rejects.
 */
export async function runLanes<T>(
  count: number,
  w: LaneWork<T>,
  stop: AbortController,
): Promise<unknown> {
  let failure: { readonly err: unknown } | undefined;
  const lane = async (): Promise<void> => {
    try {
      for (;;) {
        const piece = await w.next();
        if (piece === undefined) return;
        await w.work(piece);
      }
    } catch (err) {
      failure ??= { err };
      stop.abort();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, count) }, lane));
  return failure?.err;
}
