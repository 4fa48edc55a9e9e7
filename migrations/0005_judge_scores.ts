/**
 * Judge scores (Scoring Evaluation, docs/scoring.md §3): one row per judged model × item × judge × rubric version
 * (and baseline, for pairwise judging), holding a verdict or a judge failure (never a made-up score), the
 * safety-violation flag, and the judge's replies for audit. Judge verdicts on arena battles ("judge votes") get
 * their own table so they can never be counted as the crowd's votes.
 */
import { type Kysely, sql } from 'kysely';

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
CREATE TABLE judge_scores (
  id                bigserial PRIMARY KEY,
  model_id          bigint NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  item_id           bigint NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  kind              text NOT NULL CHECK (kind IN ('single','pairwise')),
  baseline_model_id bigint REFERENCES models(id) ON DELETE CASCADE,
  judge             text NOT NULL CHECK (length(judge) BETWEEN 1 AND 200),
  rubric            text NOT NULL CHECK (length(rubric) BETWEEN 1 AND 100),
  rubric_version    text NOT NULL CHECK (length(rubric_version) BETWEEN 1 AND 100),
  response_id       bigint REFERENCES responses(id) ON DELETE SET NULL,
  run_id            bigint REFERENCES eval_runs(id) ON DELETE SET NULL,
  status            text NOT NULL CHECK (status IN ('judged','failed')),
  raw_score         double precision,
  max_score         double precision CHECK (max_score > 0),
  preference        double precision CHECK (preference >= 1 AND preference <= 2),
  safety_flag       boolean,
  failure_code      text,
  failure_message   text,
  attempts          integer NOT NULL DEFAULT 1 CHECK (attempts >= 0),
  judge_output      jsonb,
  source            text NOT NULL DEFAULT 'live' CHECK (source IN ('live','import')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'pairwise') = (baseline_model_id IS NOT NULL)),
  CHECK (baseline_model_id IS NULL OR baseline_model_id <> model_id),
  -- Recorded judges are stored as published, quirks included (GAOKAO-Bench credits 3 answers above their points),
  -- a live judge's score is always within the rubric's range.
  CHECK (raw_score IS NULL OR (max_score IS NOT NULL AND raw_score >= 0
                               AND (raw_score <= max_score OR source = 'import'))),
  CHECK (status <> 'judged' OR (kind = 'single' AND raw_score IS NOT NULL)
                            OR (kind = 'pairwise' AND preference IS NOT NULL)),
  CHECK (status <> 'failed' OR (failure_code IS NOT NULL AND raw_score IS NULL AND preference IS NULL))
);
CREATE UNIQUE INDEX judge_scores_single_key ON judge_scores (model_id, item_id, judge, rubric, rubric_version)
  WHERE baseline_model_id IS NULL;
CREATE UNIQUE INDEX judge_scores_pairwise_key
  ON judge_scores (model_id, item_id, baseline_model_id, judge, rubric, rubric_version)
  WHERE baseline_model_id IS NOT NULL;
CREATE INDEX judge_scores_failed_idx ON judge_scores (model_id, judge) WHERE status = 'failed';

CREATE TABLE battle_judgments (
  id               bigserial PRIMARY KEY,
  battle_id        bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  judge            text NOT NULL CHECK (length(judge) BETWEEN 1 AND 200),
  rubric_version   text NOT NULL CHECK (length(rubric_version) BETWEEN 1 AND 100),
  status           text NOT NULL CHECK (status IN ('judged','failed')),
  choice           text CHECK (choice IN ('left','equal','right')),
  failure_code     text,
  failure_message  text,
  attempts         integer NOT NULL DEFAULT 1 CHECK (attempts >= 0),
  judge_output     jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (battle_id, judge, rubric_version),
  CHECK (status <> 'judged' OR choice IS NOT NULL),
  CHECK (status <> 'failed' OR (failure_code IS NOT NULL AND choice IS NULL))
);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(db, 'DROP TABLE IF EXISTS battle_judgments, judge_scores CASCADE;\n');
}
