/**
 * @module core/retry
 * Trying a start again while what it needs is not there yet (docs/architecture.md "Faults"): the database open and
 * the rest of a long-lived process's start share one backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Options of {@link retryWithBackoff}. */
export interface RetryOptions {
  /** How long, from the first attempt, a failure is tried again (ms; 0: once). */
  readonly budgetMs: number;
  /** Whether a failure is worth trying again (others end it at once). */
  readonly retryable: (err: unknown) => boolean;
  readonly logger: { warn(obj: object, msg: string): void };
  /** The log message of each failure tried again. */
  readonly message: string;
  /** The error as logged. */
  readonly describe: (err: unknown) => unknown;
  /** Aborted when the process is asked to stop: the wait ends and the last error is thrown. */
  readonly signal?: AbortSignal;
}

/**
 * Runs `attempt` until it succeeds; a failure `o.retryable` accepts is logged and tried again after 1 s, doubling
 * to 15 s between attempts, while `o.budgetMs` has not passed since the first one.
 * @throws the failure of the last attempt: one not retryable, one after the budget, or any once `o.signal` aborts.
 */
export async function retryWithBackoff<T>(attempt: () => Promise<T>, o: RetryOptions): Promise<T> {
  const t0 = Date.now();
  for (let n = 1, waitMs = 1000; ; n++, waitMs = Math.min(waitMs * 2, 15_000)) {
    try {
      return await attempt();
    } catch (err) {
      const left = o.budgetMs - (Date.now() - t0);
      if (!o.retryable(err) || left <= 0 || o.signal?.aborted) throw err;
      o.logger.warn(
        { attempt: n, retryInMs: Math.min(waitMs, left), err: o.describe(err) },
        o.message,
      );
      // A stop asked for meanwhile ends the wait, and the start, at once.
      await sleep(Math.min(waitMs, left), undefined, o.signal ? { signal: o.signal } : {}).catch(
        () => undefined,
      );
      if (o.signal?.aborted) throw err;
    }
  }
}
