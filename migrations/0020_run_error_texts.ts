/**
 * A failed run's error in the readers' languages (docs/architecture.md "Languages"): `eval_runs.error` keeps the
 * English text (logs, `--json`); `error_texts` holds the same error in each other language of the catalogue
 * (`{"zh-CN": "…"}`) when the runner could say it there (a run that could not start: an unknown model or suite, a
 * bad rubric file, `judge.model` naming no model …), so the bot's report and `zhujiu eval` show it in their
 * reader's language. Null for older runs and for errors of no catalogue wording (shown as recorded).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE eval_runs ADD COLUMN IF NOT EXISTS error_texts jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE eval_runs DROP COLUMN IF EXISTS error_texts`.execute(db);
}
