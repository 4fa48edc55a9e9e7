/**
 * Initial schema: every table of ARCHITECTURE.md "Data". Constraints do the integrity work: one vote row per voter
 * per battle (so at most one live vote), unique responses per model + item + request hash, foreign keys, and
 * CHECK constraints on enums and score ranges.
 */
import { type Kysely, sql } from 'kysely';

const ABILITIES = `('knowledge','chinese_specific','language','reasoning','refusal','safety','robustness')`;
const METHODS = `('metrics','scoring','comparative')`;
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
CREATE TABLE models (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
  provider    text NOT NULL CHECK (provider IN ('openai','recorded','external')),
  config      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE datasets (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
  ability     text NOT NULL CHECK (ability IN ${ABILITIES}),
  method      text NOT NULL CHECK (method IN ${METHODS}),
  language    text NOT NULL DEFAULT 'zh',
  source      text,
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE items (
  id          bigserial PRIMARY KEY,
  dataset_id  bigint NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 500),
  ability     text NOT NULL CHECK (ability IN ${ABILITIES}),
  method      text NOT NULL CHECK (method IN ${METHODS}),
  language    text NOT NULL DEFAULT 'zh',
  prompt      text NOT NULL,
  reference   jsonb,
  metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (dataset_id, key)
);

CREATE TABLE responses (
  id                bigserial PRIMARY KEY,
  model_id          bigint NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  item_id           bigint NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  request_hash      text NOT NULL CHECK (length(request_hash) BETWEEN 1 AND 128),
  output            text NOT NULL,
  latency_ms        integer CHECK (latency_ms >= 0),
  prompt_tokens     integer CHECK (prompt_tokens >= 0),
  completion_tokens integer CHECK (completion_tokens >= 0),
  source            text NOT NULL DEFAULT 'live',
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (model_id, item_id, request_hash)
);
CREATE INDEX responses_item_idx ON responses (item_id);

CREATE TABLE eval_runs (
  id              bigserial PRIMARY KEY,
  model_id        bigint NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  suite           text NOT NULL,
  status          text NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued','running','succeeded','failed','cancelled')),
  requested_by    text,
  report_platform text CHECK (report_platform IN ${PLATFORMS}),
  report_channel  text,
  report_message  text,
  progress_done   integer NOT NULL DEFAULT 0 CHECK (progress_done >= 0),
  progress_total  integer NOT NULL DEFAULT 0 CHECK (progress_total >= 0),
  seed            bigint NOT NULL DEFAULT 0,
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  finished_at     timestamptz,
  CHECK (progress_done <= progress_total OR progress_total = 0)
);

CREATE TABLE item_scores (
  id            bigserial PRIMARY KEY,
  run_id        bigint NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
  item_id       bigint NOT NULL REFERENCES items(id) ON DELETE CASCADE,
  response_id   bigint REFERENCES responses(id) ON DELETE SET NULL,
  method        text NOT NULL CHECK (method IN ${METHODS}),
  metric        text NOT NULL,
  profile       text NOT NULL DEFAULT 'default',
  raw_score     double precision NOT NULL,
  max_score     double precision NOT NULL CHECK (max_score > 0),
  safety_flag   boolean NOT NULL DEFAULT false,
  judge_output  jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (raw_score >= 0 AND raw_score <= max_score),
  UNIQUE (run_id, item_id, metric)
);

CREATE TABLE battles (
  id               bigserial PRIMARY KEY,
  item_id          bigint REFERENCES items(id) ON DELETE SET NULL,
  ability          text CHECK (ability IN ${ABILITIES}),
  model_left_id    bigint NOT NULL REFERENCES models(id),
  model_right_id   bigint NOT NULL REFERENCES models(id),
  response_left_id  bigint REFERENCES responses(id) ON DELETE SET NULL,
  response_right_id bigint REFERENCES responses(id) ON DELETE SET NULL,
  source           text NOT NULL DEFAULT 'arena',
  import_key       text,
  platform         text CHECK (platform IN ${PLATFORMS}),
  channel_id       text,
  message_id       text,
  part_ids         jsonb NOT NULL DEFAULT '[]'::jsonb,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','open','closed','void')),
  seed             bigint,
  created_at       timestamptz NOT NULL DEFAULT now(),
  posted_at        timestamptz,
  closes_at        timestamptz,
  closed_at        timestamptz,
  revealed_at      timestamptz,
  CHECK (model_left_id <> model_right_id),
  CHECK (status <> 'open' OR (platform IS NOT NULL AND message_id IS NOT NULL))
);
CREATE UNIQUE INDEX battles_import_key_idx ON battles (source, import_key) WHERE import_key IS NOT NULL;
CREATE UNIQUE INDEX battles_message_idx ON battles (platform, channel_id, message_id) WHERE message_id IS NOT NULL;
CREATE INDEX battles_open_idx ON battles (status, closes_at) WHERE status = 'open';
CREATE INDEX battles_pair_idx ON battles (model_left_id, model_right_id);

CREATE TABLE votes (
  id             bigserial PRIMARY KEY,
  battle_id      bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  voter_hash     text NOT NULL CHECK (length(voter_hash) BETWEEN 8 AND 128),
  choice         text NOT NULL CHECK (choice IN ('left','equal','right')),
  cast_at        timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  retracted_at   timestamptz,
  last_event_at  timestamptz NOT NULL,
  UNIQUE (battle_id, voter_hash)
);
CREATE INDEX votes_live_idx ON votes (battle_id) WHERE retracted_at IS NULL;

CREATE TABLE vote_events (
  id                 bigserial PRIMARY KEY,
  battle_id          bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  voter_hash         text NOT NULL,
  platform           text NOT NULL,
  platform_event_id  text NOT NULL CHECK (length(platform_event_id) BETWEEN 1 AND 256),
  kind               text NOT NULL CHECK (kind IN ('add','remove','import')),
  choice             text CHECK (choice IN ('left','equal','right')),
  emoji              text,
  event_at           timestamptz NOT NULL,
  received_at        timestamptz NOT NULL DEFAULT now(),
  effect             text NOT NULL DEFAULT 'pending',
  payload            jsonb,
  UNIQUE (platform, platform_event_id)
);
CREATE INDEX vote_events_battle_idx ON vote_events (battle_id);

CREATE TABLE posts (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL DEFAULT 'leaderboard',
  platform    text NOT NULL CHECK (platform IN ${PLATFORMS}),
  channel_id  text NOT NULL,
  message_id  text,
  posted_at   timestamptz NOT NULL DEFAULT now(),
  snapshot    jsonb NOT NULL DEFAULT '{}'::jsonb
);
`,
  );

  // One round trip per vote event, with row locks, so a burst of reactions stays fast and correct. The effect is
  // decided under the voter's row lock, the event is appended with it (a replayed platform event id changes
  // nothing and writes nothing), then the voter's single vote row is created, changed or retracted per
  // SCORING.md §4. Out-of-order deliveries (a Slack retry arriving after a later event) are ignored by comparing
  // event times.
  await sql
    .raw(`
CREATE FUNCTION zj_apply_vote_event(
  p_battle bigint, p_voter text, p_platform text, p_event_id text, p_kind text,
  p_choice text, p_emoji text, p_event_at timestamptz, p_payload jsonb
) RETURNS TABLE (effect text, live_choice text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_event_id bigint;
  v_status   text;
  v_row      votes%ROWTYPE;
  v_found    boolean;
  v_effect   text;
  v_live     text;
BEGIN
  SELECT b.status INTO v_status FROM battles b WHERE b.id = p_battle;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'battle % does not exist', p_battle USING ERRCODE = 'foreign_key_violation';
  END IF;
  -- Lock the voter's row (if any) so concurrent events of one voter apply one at a time.
  SELECT * INTO v_row FROM votes v WHERE v.battle_id = p_battle AND v.voter_hash = p_voter FOR UPDATE;
  v_found := FOUND;
  v_live := CASE WHEN v_found AND v_row.retracted_at IS NULL THEN v_row.choice END;

  -- Decide the effect before writing anything, so a replay can return without side effects.
  IF v_status <> 'open' THEN
    v_effect := 'ignored_closed';
  ELSIF NOT v_found THEN
    v_effect := CASE WHEN p_kind = 'add' THEN 'cast' ELSE 'ignored_no_vote' END;
  ELSIF v_row.last_event_at > p_event_at THEN
    v_effect := 'ignored_stale';
  ELSIF p_kind = 'add' THEN
    v_effect := CASE WHEN v_live IS NULL THEN 'cast' WHEN v_live = p_choice THEN 'unchanged' ELSE 'changed' END;
  ELSE
    v_effect := CASE WHEN v_live IS NOT NULL AND (p_choice IS NULL OR v_live = p_choice)
                     THEN 'retracted' ELSE 'ignored_not_live' END;
  END IF;

  INSERT INTO vote_events (battle_id, voter_hash, platform, platform_event_id, kind, choice, emoji, event_at, effect, payload)
  VALUES (p_battle, p_voter, p_platform, p_event_id, p_kind, p_choice, p_emoji, p_event_at, v_effect, p_payload)
  ON CONFLICT (platform, platform_event_id) DO NOTHING
  RETURNING id INTO v_event_id;
  IF v_event_id IS NULL THEN
    RETURN QUERY SELECT 'replayed'::text, v_live;
    RETURN;
  END IF;

  IF v_effect = 'cast' AND NOT v_found THEN
    INSERT INTO votes (battle_id, voter_hash, choice, cast_at, updated_at, last_event_at)
    VALUES (p_battle, p_voter, p_choice, p_event_at, now(), p_event_at)
    ON CONFLICT (battle_id, voter_hash) DO NOTHING;
    IF NOT FOUND THEN
      -- Lost a race with a concurrent first vote of the same voter: wait for its row, then apply as a change.
      SELECT * INTO v_row FROM votes v WHERE v.battle_id = p_battle AND v.voter_hash = p_voter FOR UPDATE;
      v_live := CASE WHEN v_row.retracted_at IS NULL THEN v_row.choice END;
      IF v_row.last_event_at > p_event_at THEN
        v_effect := 'ignored_stale';
      ELSE
        v_effect := CASE WHEN v_live IS NULL THEN 'cast' WHEN v_live = p_choice THEN 'unchanged' ELSE 'changed' END;
        UPDATE votes SET choice = p_choice, retracted_at = NULL, updated_at = now(), last_event_at = p_event_at
         WHERE id = v_row.id;
        v_live := p_choice;
      END IF;
      UPDATE vote_events SET effect = v_effect WHERE id = v_event_id;
    ELSE
      v_live := p_choice;
    END IF;
  ELSIF v_effect IN ('cast', 'changed') THEN
    UPDATE votes SET choice = p_choice, retracted_at = NULL, updated_at = now(), last_event_at = p_event_at,
           cast_at = CASE WHEN v_effect = 'cast' THEN p_event_at ELSE cast_at END
     WHERE id = v_row.id;
    v_live := p_choice;
  ELSIF v_effect = 'unchanged' THEN
    UPDATE votes SET last_event_at = p_event_at WHERE id = v_row.id;
  ELSIF v_effect = 'retracted' THEN
    UPDATE votes SET retracted_at = p_event_at, updated_at = now(), last_event_at = p_event_at WHERE id = v_row.id;
    v_live := NULL;
  END IF;

  RETURN QUERY SELECT v_effect, v_live;
END;
$fn$;
`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
DROP FUNCTION IF EXISTS zj_apply_vote_event(bigint, text, text, text, text, text, text, timestamptz, jsonb);
DROP TABLE IF EXISTS posts, vote_events, votes, battles, item_scores, eval_runs, responses, items, datasets, models CASCADE;
`,
  );
}
