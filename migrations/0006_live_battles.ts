/**
 * Live battles (issue 12, `/ask`): a person's own prompt answered now by two live models, possibly over several
 * turns. Adds to `battles` the kind (recorded answers or live), the asker (the same HMAC as voters' ids), the turn
 * count, where the ability came from (dataset, the asker's tag, the classifier with its name and version, a
 * maintainer's override, an import) and who voided a battle when (void battles leave every rating; their votes and
 * vote events stay as the audit log). `battle_turns` holds each turn's prompt and both answers (each model's own
 * history is the prompts plus its own answers); `battle_audit` records maintainer actions (void, ability override).
 */
import { type Kysely, sql } from 'kysely';

const ABILITIES = `('knowledge','chinese_specific','language','reasoning','refusal','safety','robustness')`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const stmt of script.split(/;\s*\n/)) {
    if (stmt.trim() !== '') await sql.raw(stmt).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
ALTER TABLE battles ADD COLUMN kind text NOT NULL DEFAULT 'recorded' CHECK (kind IN ('recorded','live'));
ALTER TABLE battles ADD COLUMN asker_hash text CHECK (asker_hash IS NULL OR length(asker_hash) BETWEEN 8 AND 128);
ALTER TABLE battles ADD COLUMN turns integer NOT NULL DEFAULT 1 CHECK (turns >= 1);
ALTER TABLE battles ADD COLUMN ability_source text
  CHECK (ability_source IN ('dataset','tag','classifier','maintainer','import'));
ALTER TABLE battles ADD COLUMN ability_classifier text;
ALTER TABLE battles ADD COLUMN ability_classifier_version text;
ALTER TABLE battles ADD COLUMN voided_at timestamptz;
ALTER TABLE battles ADD COLUMN voided_by text;
ALTER TABLE battles ADD COLUMN void_reason text;
CREATE INDEX battles_asker_idx ON battles (asker_hash, created_at) WHERE asker_hash IS NOT NULL;
CREATE INDEX battles_unclassified_idx ON battles (id) WHERE kind = 'live' AND ability IS NULL;

CREATE TABLE battle_turns (
  battle_id        bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  turn             integer NOT NULL CHECK (turn >= 1),
  prompt           text NOT NULL,
  answer_left      text NOT NULL,
  answer_right     text NOT NULL,
  latency_left_ms  integer CHECK (latency_left_ms >= 0),
  latency_right_ms integer CHECK (latency_right_ms >= 0),
  asker_hash       text,
  asked_at         timestamptz NOT NULL,
  answered_at      timestamptz NOT NULL,
  message_ids      jsonb NOT NULL DEFAULT '[]'::jsonb,
  PRIMARY KEY (battle_id, turn)
);

CREATE TABLE battle_audit (
  id          bigserial PRIMARY KEY,
  battle_id   bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  action      text NOT NULL CHECK (action IN ('void','ability_override')),
  actor_hash  text NOT NULL,
  ability     text CHECK (ability IN ${ABILITIES}),
  reason      text,
  at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX battle_audit_battle_idx ON battle_audit (battle_id);
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
DROP TABLE IF EXISTS battle_audit, battle_turns;
DROP INDEX IF EXISTS battles_unclassified_idx;
DROP INDEX IF EXISTS battles_asker_idx;
ALTER TABLE battles DROP COLUMN IF EXISTS kind, DROP COLUMN IF EXISTS asker_hash, DROP COLUMN IF EXISTS turns,
  DROP COLUMN IF EXISTS ability_source, DROP COLUMN IF EXISTS ability_classifier,
  DROP COLUMN IF EXISTS ability_classifier_version, DROP COLUMN IF EXISTS voided_at,
  DROP COLUMN IF EXISTS voided_by, DROP COLUMN IF EXISTS void_reason;
`,
  );
}
