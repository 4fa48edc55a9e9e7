/**
 * The one board (issue 11): stored board snapshots with the inputs they were built from, the daily post's
 * schedule state, and an idempotency key on posts so a scheduled post is made exactly once per channel and board
 * date however many processes run.
 * - `leaderboard_snapshots`: one row per built board. `fingerprint` identifies the inputs (latest runs, vote
 *   state, sources, options): a board is rebuilt only when it changes, and two processes building the same board
 *   store it once (unique). `inputs` records what it was built from; `board` is the computed board (JSON),
 *   `chart` its PNG.
 * - `schedules`: one row per named schedule (cron + time zone), with the last tick handled.
 * - `posts.idempotency_key`: unique per (kind, platform, channel); the daily post uses the board date.
 */
import { type Kysely, sql } from 'kysely';

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const stmt of script.split(/;\s*\n/)) {
    if (stmt.trim() !== '') await sql.raw(stmt).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
CREATE TABLE leaderboard_snapshots (
  id           bigserial PRIMARY KEY,
  fingerprint  text NOT NULL UNIQUE CHECK (length(fingerprint) BETWEEN 1 AND 200),
  sources      text NOT NULL CHECK (length(sources) BETWEEN 1 AND 2000),
  inputs       jsonb NOT NULL,
  board        jsonb NOT NULL,
  chart        bytea,
  build_ms     integer NOT NULL DEFAULT 0 CHECK (build_ms >= 0),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leaderboard_snapshots_latest_idx ON leaderboard_snapshots (sources, id DESC);

CREATE TABLE schedules (
  name          text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 200),
  cron          text NOT NULL,
  tz            text NOT NULL,
  last_tick_at  timestamptz,
  updated_at    timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE posts ADD COLUMN idempotency_key text;
ALTER TABLE posts ADD COLUMN snapshot_id bigint REFERENCES leaderboard_snapshots(id) ON DELETE SET NULL;
ALTER TABLE posts ADD COLUMN status text NOT NULL DEFAULT 'posted' CHECK (status IN ('claimed','posted','failed'));
ALTER TABLE posts ADD COLUMN error text;
CREATE UNIQUE INDEX posts_idempotency_idx ON posts (kind, platform, channel_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
DROP INDEX IF EXISTS posts_idempotency_idx;
ALTER TABLE posts DROP COLUMN IF EXISTS error;
ALTER TABLE posts DROP COLUMN IF EXISTS status;
ALTER TABLE posts DROP COLUMN IF EXISTS snapshot_id;
ALTER TABLE posts DROP COLUMN IF EXISTS idempotency_key;
DROP TABLE IF EXISTS schedules;
DROP TABLE IF EXISTS leaderboard_snapshots;
`,
  );
}
