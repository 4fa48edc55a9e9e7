/**
 * Evaluation runs as resumable queued work (issue 9):
 * - `responses.item_id` may be NULL (a cached answer to a request that answers no stored item, e.g. a live battle or
 *   a judge call on free text), unique per (model, request hash) then; lookups by (model, request hash) are indexed.
 * - `eval_runs` keeps its config snapshot (datasets, template versions, profiles, sampling parameters, code
 *   version), the item limit, failures, tokens, a heartbeat, and when its summary was posted. One active run per
 *   model + suite (partial unique index).
 * - `eval_run_items`: one row per (run, item), the unit of work: pending → claimed (with an owner and a lease that
 *   its worker renews) → done | failed. A worker claims rows with `FOR UPDATE SKIP LOCKED`; a claim whose lease ran
 *   out (its worker died) is claimed again. A finished row is never claimed again, so no item is asked twice.
 * - `item_scores.detail`: what the scorer extracted or compared (audit).
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
ALTER TABLE responses ALTER COLUMN item_id DROP NOT NULL;
CREATE UNIQUE INDEX responses_free_request_idx ON responses (model_id, request_hash) WHERE item_id IS NULL;
CREATE INDEX responses_request_idx ON responses (model_id, request_hash);

ALTER TABLE eval_runs ADD COLUMN config jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE eval_runs ADD COLUMN item_limit integer CHECK (item_limit > 0);
ALTER TABLE eval_runs ADD COLUMN progress_failed integer NOT NULL DEFAULT 0 CHECK (progress_failed >= 0);
ALTER TABLE eval_runs ADD COLUMN prompt_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE eval_runs ADD COLUMN completion_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE eval_runs ADD COLUMN heartbeat_at timestamptz;
ALTER TABLE eval_runs ADD COLUMN summary_posted_at timestamptz;
CREATE UNIQUE INDEX eval_runs_one_active_idx ON eval_runs (model_id, suite) WHERE status IN ('queued','running');
CREATE INDEX eval_runs_active_idx ON eval_runs (status) WHERE status IN ('queued','running');

CREATE TABLE eval_run_items (
  run_id            bigint NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  item_id           bigint NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  dataset           text NOT NULL,
  seq               integer NOT NULL,
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','claimed','done','failed')),
  owner             text,
  lease_until       timestamptz,
  response_id       bigint REFERENCES responses(id) ON DELETE SET NULL,
  cached            boolean,
  latency_ms        integer CHECK (latency_ms >= 0),
  prompt_tokens     integer CHECK (prompt_tokens >= 0),
  completion_tokens integer CHECK (completion_tokens >= 0),
  failure_code      text,
  failure_message   text,
  finished_at       timestamptz,
  PRIMARY KEY (run_id, item_id),
  CHECK (status <> 'failed' OR failure_code IS NOT NULL)
);
CREATE INDEX eval_run_items_todo_idx ON eval_run_items (run_id, seq) WHERE status IN ('pending','claimed');

ALTER TABLE item_scores ADD COLUMN detail jsonb;
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
ALTER TABLE item_scores DROP COLUMN IF EXISTS detail;
DROP TABLE IF EXISTS eval_run_items;
DROP INDEX IF EXISTS eval_runs_active_idx;
DROP INDEX IF EXISTS eval_runs_one_active_idx;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS summary_posted_at;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS heartbeat_at;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS completion_tokens;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS prompt_tokens;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS progress_failed;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS item_limit;
ALTER TABLE eval_runs DROP COLUMN IF EXISTS config;
DROP INDEX IF EXISTS responses_request_idx;
DROP INDEX IF EXISTS responses_free_request_idx;
DELETE FROM responses WHERE item_id IS NULL;
ALTER TABLE responses ALTER COLUMN item_id SET NOT NULL;
`,
  );
}
