/**
 * @module eval/run-lease
 * One worker's hold on a run: the items it claims (with leases, storage/eval-runs) and the heartbeat that keeps
 * those leases alive, notices a cancellation and stores the run's progress.
 *
 * Claims are taken in batches (one query for up to `batch` items) ahead of need: the next batch is claimed as soon
 * as fewer than `refillBelow` claimed items wait, so a lane seldom waits for a claim even when a claim takes as long
 * as a model call. The heartbeat runs every `beatEveryMs`; a heartbeat that fails is logged and the next one tries
 * again (a lease outlives two missed beats, see eval/runner).
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../core/logger.ts';
import {
  claimRunItems,
  getRun,
  renewLeases,
  runCounts,
  storeProgress,
} from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';

/** What a lease needs of the database, for one run and one owner. */
export interface LeaseStore {
  /** Claims up to `limit` items (pending, or whose lease ran out); the ids claimed, none when nothing is left. */
  claim(limit: number): Promise<readonly number[]>;
  /** Extends the leases of every item this owner holds. */
  renew(): Promise<void>;
  /** Whether the run has been cancelled. */
  cancelled(): Promise<boolean>;
  /** Stores the run's current counts as its progress. */
  storeProgress(): Promise<void>;
}

/** The {@link LeaseStore} of run `runId` held by `owner`, with leases of `leaseMs` (storage/eval-runs). */
export function runLeaseStore(
  db: Kysely<Database>,
  runId: number,
  owner: string,
  leaseMs: number,
): LeaseStore {
  return {
    claim: (limit) => claimRunItems(db, runId, owner, limit, leaseMs),
    renew: () => renewLeases(db, runId, owner, leaseMs),
    cancelled: async () => (await getRun(db, runId))?.status === 'cancelled',
    storeProgress: async () => storeProgress(db, runId, await runCounts(db, runId)),
  };
}

/**
 * `store` for a run whose plan's rest is still being stored (`rest`, eval/run-plan `startPlan`): a claim that finds nothing waits for the rest
 * and claims again (a failed rest is that claim's error), and the progress is stored once the whole plan is (its
 * total counts every planned item).
 */
export function afterPlan(store: LeaseStore, rest: Promise<unknown>): LeaseStore {
  let planned = false;
  const done = rest.then(() => {
    planned = true;
  });
  done.catch(() => undefined);
  return {
    ...store,
    claim: async (limit) => {
      const ids = await store.claim(limit);
      if (ids.length > 0 || planned) return ids;
      await done;
      return store.claim(limit);
    },
    storeProgress: async () => {
      await done.catch(() => undefined);
      await store.storeProgress();
    },
  };
}

/** Options of {@link RunLease}. */
export interface RunLeaseOptions {
  /** Items claimed per query (≥ 1). */
  readonly batch: number;
  /** A new batch is claimed ahead of need when fewer than this many claimed items wait. */
  readonly refillBelow: number;
  /** Time between heartbeats, ms. */
  readonly beatEveryMs: number;
  /** Once aborted, {@link RunLease.next} hands out nothing more and no claim is taken ahead of need. */
  readonly signal: AbortSignal;
  /** Called (once) when a heartbeat finds the run cancelled. */
  readonly onCancel: () => void;
  readonly log: Logger;
}

/** Claims ahead of need and a heartbeat, for one worker on one run; {@link close} when done. */
export class RunLease {
  readonly #store: LeaseStore;
  readonly #o: RunLeaseOptions;
  readonly #claimed: number[] = [];
  #claiming: Promise<void> | undefined;
  #exhausted = false;
  #cancelled = false;
  #beating: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(store: LeaseStore, o: RunLeaseOptions) {
    this.#store = store;
    this.#o = o;
    this.#timer = setInterval(() => {
      this.#beating = this.#beat();
    }, o.beatEveryMs);
    this.#timer.unref?.();
  }

  /** True once a heartbeat found the run cancelled. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /**
   * The next claimed item, claiming more when none waits; `undefined` when nothing is left to claim or the signal
   * is aborted. A failed claim is thrown to the caller that awaits it.
   */
  async next(): Promise<number | undefined> {
    for (;;) {
      if (this.#o.signal.aborted) return undefined;
      const id = this.#claimed.shift();
      if (id !== undefined) {
        if (
          this.#claimed.length < this.#o.refillBelow &&
          !this.#exhausted &&
          !this.#o.signal.aborted
        ) {
          // Failures surface to the caller that awaits the next claim.
          this.#claimMore().catch(() => undefined);
        }
        return id;
      }
      if (this.#exhausted) return undefined;
      await this.#claimMore();
    }
  }

  /** Stops the heartbeat and waits for a heartbeat or a claim in flight (a claim's error is dropped here). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.#beating; // a heartbeat in flight must not land after the run is left
    await this.#claiming?.catch(() => undefined);
  }

  #claimMore(): Promise<void> {
    this.#claiming ??= this.#store
      .claim(this.#o.batch)
      .then((ids) => {
        if (ids.length === 0) this.#exhausted = true;
        this.#claimed.push(...ids);
      })
      .finally(() => {
        this.#claiming = undefined;
      });
    return this.#claiming;
  }

  async #beat(): Promise<void> {
    try {
      await this.#store.renew();
      if (!this.#cancelled && (await this.#store.cancelled())) {
        this.#cancelled = true;
        this.#o.onCancel();
      }
      await this.#store.storeProgress();
    } catch (err) {
      this.#o.log.warn({ err }, 'heartbeat failed');
    }
  }
}
