/**
 * @module jobs/shared-work
 * Periodic work that every `bot` and `worker` process schedules but only one should do: building the board for one
 * change of its inputs, closing the due battles of one loop tick, posting a channel's scheduled battle for one
 * interval. Each occurrence is claimed in the database under a lease (storage/task-leases.ts): the same code runs on
 * a shared PostgreSQL (any number of processes, one winner per occurrence) and on the embedded database (one
 * process, which always wins). A winner renews its lease while it works, so a long build is not taken over; a
 * winner that dies is taken over when its lease runs out (docs/architecture.md, "Shared work").
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { type AppMetrics, noMetrics } from '../core/metrics.ts';
import type { Database } from '../storage/schema.ts';
import { claimTask, finishTask, getTask, renewTask } from '../storage/task-leases.ts';

/** Options of {@link SharedWork}. */
export interface SharedWorkOptions {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly metrics?: AppMetrics;
  /** This process's name in the claims (default host, pid and a random tag). */
  readonly holder?: string;
}

/** What {@link SharedWork.once} did: ran the work here (with its value), or left it to another process. */
export type OnceResult<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/** Claims of shared work for one process. */
export class SharedWork {
  readonly #o: SharedWorkOptions;
  /** This process's holder name. */
  readonly holder: string;

  constructor(o: SharedWorkOptions) {
    this.#o = o;
    this.holder = o.holder ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /**
   * Runs `work` when this process wins occurrence `key` of `task` (lease `leaseMs` ms, renewed every third of it
   * while `work` runs); otherwise does nothing. A `work` that throws gives the occurrence back (the next claimer may
   * try it at once) and the error is rethrown; so does a value for which `finished` says false (work that did not
   * happen, to be tried again).
   * @param task the task's name; its part before the first `:` is the metrics label (keep it a fixed word).
   */
  async once<T>(
    task: string,
    key: string,
    leaseMs: number,
    work: () => Promise<T>,
    finished: (value: T) => boolean = () => true,
  ): Promise<OnceResult<T>> {
    const { db, clock } = this.#o;
    const kind = task.split(':')[0] ?? task;
    const won = await claimTask(db, { task, key, holder: this.holder, now: clock.now(), leaseMs });
    (this.#o.metrics ?? noMetrics).sharedTask(kind, won ? 'ran' : 'skipped');
    if (!won) return { ran: false };
    const renew = setInterval(
      () => {
        const until = new Date(clock.now().getTime() + leaseMs);
        void renewTask(db, { task, key, holder: this.holder, until }).catch(() => undefined);
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    renew.unref?.();
    let done = false;
    try {
      const value = await work();
      done = finished(value);
      return { ran: true, value };
    } finally {
      clearInterval(renew);
      await finishTask(db, { task, key, holder: this.holder, now: clock.now(), done }).catch(
        () => undefined,
      );
    }
  }

  /** Whether another process holds `task` now (claimed, unfinished, its lease not run out), for any key. */
  async busy(task: string): Promise<boolean> {
    const row = await getTask(this.#o.db, task);
    return (
      row !== undefined &&
      row.doneAt === null &&
      row.holder !== this.holder &&
      row.leaseUntil.getTime() > this.#o.clock.now().getTime()
    );
  }

  /**
   * Waits while another process holds `task` (any key; see {@link SharedWork.busy}), polling every `pollMs` ms
   * (default 100). Ends when the holder finishes or gives the task back, or when its lease runs out by this
   * process's clock (a holder that died); it never waits on this process's own claim.
   */
  async waitWhileBusy(task: string, pollMs = 100): Promise<void> {
    while (await this.busy(task)) await new Promise((r) => setTimeout(r, pollMs));
  }

  /** The last claim of `task`: its key and when it was finished (null: not finished), or undefined when none. */
  async claimOf(task: string): Promise<{ key: string; doneAt: Date | null } | undefined> {
    const row = await getTask(this.#o.db, task);
    return row ? { key: row.key, doneAt: row.doneAt } : undefined;
  }
}
