/**
 * Shared periodic work done once: one row per task that several processes on one database might otherwise all do
 * (building the board for a change of its inputs, closing due battles in a loop tick, posting a channel's scheduled
 * battle for an interval). A process claims the row for a `key` (the board's input fingerprint, a tick's slot) with
 * one `INSERT … ON CONFLICT DO UPDATE … WHERE`, so exactly one claimer wins each key; a claim whose process died
 * is taken over once its `lease_until` has passed (docs/architecture.md, "Shared work").
 * - `task`: what the work is (`board.build:arena`, `arena.close`, `arena.schedule:discord:123`).
 * - `key`: which occurrence of it was claimed last; `done_at` is set when that occurrence is finished.
 * - `holder`: the claiming process (host, pid and a random tag), for logs and for renewing its own lease.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
CREATE TABLE task_leases (
  task text PRIMARY KEY,
  key text NOT NULL,
  holder text NOT NULL,
  claimed_at timestamptz NOT NULL,
  lease_until timestamptz NOT NULL,
  done_at timestamptz
)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS task_leases`.execute(db);
}
