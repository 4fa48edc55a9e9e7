/**
 * Model submissions (the ZhuJiu platform's "Submission of Evaluation Model", Zhang et al., "ZhuJiu", §3): anyone
 * submits an OpenAI-compatible endpoint in chat; it waits as `pending` until a maintainer approves it (it then has a
 * `models` row, `model_id`, and the endpoint below is its configuration: src/eval/service.ts merges approved
 * submissions with config/models.yaml) or rejects it with a reason. No key is stored: `api_key_env` names the
 * environment variable the maintainers set.
 *
 * One name is held by at most one submission that is not rejected (a partial unique index: a rejected name may be
 * submitted again). `notified_status` is the last status the submitter was told of; a status not yet told is
 * delivered by the bot that holds the submitter's platform (src/bot/submission-notices.ts), so a decision taken on
 * the command line reaches them too.
 */
import { type Kysely, sql } from 'kysely';

const PLATFORMS = `('discord','slack','shell')`;

/** Runs statements one by one (PGlite's extended protocol takes one command per query). */
async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const stmt of script.split(/;\s*\n/)) {
    if (stmt.trim() !== '') await sql.raw(stmt).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
CREATE TABLE submissions (
  id                 bigserial PRIMARY KEY,
  name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  base_url           text NOT NULL CHECK (base_url ~* '^https?://' AND length(base_url) <= 2000),
  model              text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
  description        text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
  organisation       text NOT NULL DEFAULT '' CHECK (length(organisation) <= 200),
  licence            text NOT NULL DEFAULT '' CHECK (length(licence) <= 200),
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
  submitter_platform text CHECK (submitter_platform IN ${PLATFORMS}),
  submitter_id       text NOT NULL,
  submitter_channel  text,
  submitted_at       timestamptz NOT NULL DEFAULT now(),
  decided_by         text,
  decided_at         timestamptz,
  reason             text,
  api_key_env        text CHECK (api_key_env ~ '^[A-Z_][A-Z0-9_]*$'),
  model_id           bigint REFERENCES models(id) ON DELETE SET NULL,
  run_ids            jsonb NOT NULL DEFAULT '[]'::jsonb,
  notified_status    text,
  CHECK ((status = 'pending') = (decided_at IS NULL)),
  CHECK (status <> 'approved' OR model_id IS NOT NULL),
  CHECK (status <> 'rejected' OR (reason IS NOT NULL AND length(reason) > 0))
);
CREATE UNIQUE INDEX submissions_name_held ON submissions (name) WHERE status <> 'rejected';
CREATE INDEX submissions_status_idx ON submissions (status, id)
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS submissions`.execute(db);
}
