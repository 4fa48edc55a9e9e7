/**
 * Battle numbers per source: the number people see and type (`#12`, `/arena void 12`, `vote 12 left`) is the
 * battle's place in its source (`battles.number`, 1, 2, … per source), not its internal id. The community's own
 * battles (`arena`) are numbered 1, 2, … however many public votes were imported, and a number typed in chat
 * names one of them only (chat resolves numbers within `arena`); internal ids stay internal.
 *
 * - `battle_numbers` holds the last number given per source. A row trigger numbers each battle inserted without
 *   a number: an upsert of its source's counter row, which that row's lock serialises until the inserting
 *   transaction ends, so concurrent inserts by several processes get distinct, consecutive numbers, and a
 *   rolled-back insert gives its number back (the counter is transactional, unlike a sequence).
 * - A bulk import numbers its rows itself under the same row lock and moves the counter once
 *   (storage/battles `insertImportedBattles`): one row trigger per imported vote would update one counter row
 *   200,000 times in one transaction.
 * - Existing battles are numbered per source in id order (the order they were stored), with the arena counts'
 *   update trigger (migration 0007) off meanwhile: numbering changes no status, so it has nothing to count.
 *
 * Why voting on a battle ended (`battles.close_reason`, with `close_cap`, the vote cap it reached): `window` (its
 * voting window ended), `vote_cap`, `import` (an imported vote, closed as imported), `withdrawn` (its message was
 * deleted), `post_failed` (never posted) or `voided` (a maintainer voided it while it took votes). Chat says the
 * right one when a vote arrives too late. Existing rows get the reason their state implies (closed before its
 * window ended: the vote cap).
 *
 * The vote cap is enforced in the vote function (`zj_apply_vote_event`, now with the cap as an argument): with a
 * cap, each event locks its battle's row, so the events of one battle apply one at a time across processes; the
 * vote that brings the live votes to the cap closes the battle in the same transaction, and no event after it is
 * applied (closed is closed: nothing is cast, changed or taken back). A battle that already holds the cap or more
 * (the cap was lowered) is closed by the next event, which is refused. docs/scoring.md §4.
 */
import { type Kysely, sql } from 'kysely';

/** The vote function with the cap (see the module doc); the rules are those of migration 0001 otherwise. */
const APPLY_VOTE_EVENT = `
CREATE FUNCTION zj_apply_vote_event(
  p_battle bigint, p_voter text, p_platform text, p_event_id text, p_kind text,
  p_choice text, p_emoji text, p_event_at timestamptz, p_payload jsonb, p_cap integer
) RETURNS TABLE (effect text, live_choice text, closed_by_cap boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_event_id bigint;
  v_status   text;
  v_row      votes%ROWTYPE;
  v_found    boolean;
  v_effect   text;
  v_live     text;
  v_count    bigint := 0;
  v_close    boolean := false;
BEGIN
  IF p_cap > 0 THEN
    -- With a cap the battle's row is locked: events of one battle apply one at a time (each sees the others'
    -- committed votes and the status they left), so the count below is exact and the cap cannot be overshot.
    SELECT b.status INTO v_status FROM battles b WHERE b.id = p_battle FOR NO KEY UPDATE;
  ELSE
    SELECT b.status INTO v_status FROM battles b WHERE b.id = p_battle;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'battle % does not exist', p_battle USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF p_cap > 0 AND v_status = 'open' THEN
    SELECT count(*) INTO v_count FROM votes v WHERE v.battle_id = p_battle AND v.retracted_at IS NULL;
    IF v_count >= p_cap THEN
      -- Already at the cap (it was lowered): closed now, and this event is refused like any on a closed battle.
      v_status := 'closed';
      v_close := true;
    END IF;
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
    RETURN QUERY SELECT 'replayed'::text, v_live, false;
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

  -- The vote that brings the live votes to the cap closes the battle, in this transaction.
  IF p_cap > 0 AND v_effect = 'cast' AND v_count + 1 >= p_cap THEN
    v_close := true;
  END IF;
  IF v_close THEN
    UPDATE battles SET status = 'closed', closed_at = p_event_at, close_reason = 'vote_cap', close_cap = p_cap
     WHERE id = p_battle AND status = 'open';
  END IF;

  RETURN QUERY SELECT v_effect, v_live, v_close;
END;
$fn$;
`;

/** Migration 0001's vote function, restored by `down`. */
const APPLY_VOTE_EVENT_0001 = `
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
`;

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const stmt of script.split(/;\s*\n(?=(?:CREATE|DROP|ALTER|UPDATE|INSERT) )/)) {
    if (stmt.trim() !== '') await sql.raw(stmt).execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
CREATE TABLE battle_numbers (
  source       text PRIMARY KEY,
  last_number  bigint NOT NULL CHECK (last_number >= 0)
);
ALTER TABLE battles ADD COLUMN number bigint CHECK (number >= 1);
ALTER TABLE battles ADD COLUMN close_reason text
  CHECK (close_reason IN ('window','vote_cap','import','withdrawn','post_failed','voided'));
ALTER TABLE battles ADD COLUMN close_cap integer CHECK (close_cap >= 1);
ALTER TABLE battles DISABLE TRIGGER zj_battles_updated;
UPDATE battles b SET number = n.rn,
       close_reason = CASE
         WHEN b.status NOT IN ('closed', 'void') THEN NULL
         WHEN b.import_key IS NOT NULL THEN 'import'
         WHEN b.status = 'closed' AND b.closed_at < b.closes_at THEN 'vote_cap'
         WHEN b.status = 'closed' THEN 'window'
         WHEN b.voided_by IS NOT NULL THEN 'voided'
         WHEN b.message_id IS NOT NULL THEN 'withdrawn'
         ELSE 'post_failed' END
  FROM (SELECT id, row_number() OVER (PARTITION BY source ORDER BY id) AS rn FROM battles) n
 WHERE n.id = b.id;
ALTER TABLE battles ENABLE TRIGGER zj_battles_updated;
ALTER TABLE battles ALTER COLUMN number SET NOT NULL;
CREATE UNIQUE INDEX battles_number_idx ON battles (source, number);
INSERT INTO battle_numbers (source, last_number) SELECT source, max(number) FROM battles GROUP BY source;
CREATE FUNCTION zj_battle_number() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO battle_numbers AS c (source, last_number) VALUES (NEW.source, 1)
  ON CONFLICT (source) DO UPDATE SET last_number = c.last_number + 1
  RETURNING c.last_number INTO NEW.number;
  RETURN NEW;
END;
$fn$;
CREATE TRIGGER zj_battle_number BEFORE INSERT ON battles
  FOR EACH ROW WHEN (NEW.number IS NULL) EXECUTE FUNCTION zj_battle_number();
DROP FUNCTION zj_apply_vote_event(bigint, text, text, text, text, text, text, timestamptz, jsonb);
`,
  );
  await sql.raw(APPLY_VOTE_EVENT).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS zj_apply_vote_event(bigint, text, text, text, text, text, text, timestamptz, jsonb, integer)`.execute(
    db,
  );
  await sql.raw(APPLY_VOTE_EVENT_0001).execute(db);
  await run(
    db,
    `
DROP TRIGGER IF EXISTS zj_battle_number ON battles;
DROP FUNCTION IF EXISTS zj_battle_number();
DROP INDEX IF EXISTS battles_number_idx;
ALTER TABLE battles DROP COLUMN IF EXISTS number, DROP COLUMN IF EXISTS close_reason,
  DROP COLUMN IF EXISTS close_cap;
DROP TABLE IF EXISTS battle_numbers;
`,
  );
}
