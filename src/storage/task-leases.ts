/**
 * @module storage/task-leases
 * Claims of shared periodic work (migration 0016): each task (`board.build:arena`, `arena.close`, …) has one row,
 * and each occurrence of it (a `key`: an input fingerprint, a tick's slot) is claimed by exactly one process.
 *
 * A claim of `key` succeeds when the task has no row yet, or its row holds another key that is finished or whose
 * lease ran out, or holds the same key unfinished with its lease run out (its process died). A finished key is
 * never claimed again, and a live lease blocks every other claim, so at most one process works a task at a time.
 * Every check and write is one statement (`INSERT … ON CONFLICT DO UPDATE … WHERE`), so concurrent claimers
 * never both win, on PostgreSQL and PGlite alike.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A claim request: who claims which occurrence of a task, at `now`, for `leaseMs` ms. */
export interface TaskClaim {
  readonly task: string;
  readonly key: string;
  readonly holder: string;
  readonly now: Date;
  readonly leaseMs: number;
}

/**
 * Claims occurrence `key` of `task` for `holder` until `now + leaseMs`.
 * @returns true when this call won the claim (do the work, then {@link finishTask}); false when the occurrence is
 *   finished already or another process holds the task.
 */
export async function claimTask(db: Conn, c: TaskClaim): Promise<boolean> {
  const until = new Date(c.now.getTime() + c.leaseMs);
  const r = await sql<{ task: string }>`
    INSERT INTO task_leases AS t (task, key, holder, claimed_at, lease_until, done_at)
    VALUES (${c.task}, ${c.key}, ${c.holder}, ${c.now}, ${until}, NULL)
    ON CONFLICT (task) DO UPDATE
       SET key = excluded.key, holder = excluded.holder, claimed_at = excluded.claimed_at,
           lease_until = excluded.lease_until, done_at = NULL
     WHERE (t.key <> excluded.key AND (t.done_at IS NOT NULL OR t.lease_until <= excluded.claimed_at))
        OR (t.key = excluded.key AND t.done_at IS NULL AND t.lease_until <= excluded.claimed_at)
    RETURNING t.task`.execute(db);
  return r.rows.length === 1;
}

/** Extends `holder`'s claim of `key` to `until` (a long piece of work keeps its lease). @returns false when lost. */
export async function renewTask(
  db: Conn,
  c: { readonly task: string; readonly key: string; readonly holder: string; readonly until: Date },
): Promise<boolean> {
  const r = await db
    .updateTable('task_leases')
    .set({ lease_until: c.until })
    .where('task', '=', c.task)
    .where('key', '=', c.key)
    .where('holder', '=', c.holder)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Ends `holder`'s claim of `key`: `done` true marks the occurrence finished (never claimed again); false gives it
 * back (its work failed), so the next claimer of the same key may try at once.
 */
export async function finishTask(
  db: Conn,
  c: {
    readonly task: string;
    readonly key: string;
    readonly holder: string;
    readonly now: Date;
    readonly done: boolean;
  },
): Promise<void> {
  await db
    .updateTable('task_leases')
    .set(c.done ? { done_at: c.now } : { lease_until: c.now })
    .where('task', '=', c.task)
    .where('key', '=', c.key)
    .where('holder', '=', c.holder)
    .execute();
}

/** The row of a task (tests, status). */
export async function getTask(
  db: Conn,
  task: string,
): Promise<
  | { key: string; holder: string; claimedAt: Date; leaseUntil: Date; doneAt: Date | null }
  | undefined
> {
  const r = await db
    .selectFrom('task_leases')
    .selectAll()
    .where('task', '=', task)
    .executeTakeFirst();
  return r
    ? {
        key: r.key,
        holder: r.holder,
        claimedAt: new Date(r.claimed_at),
        leaseUntil: new Date(r.lease_until),
        doneAt: r.done_at === null ? null : new Date(r.done_at),
      }
    : undefined;
}
