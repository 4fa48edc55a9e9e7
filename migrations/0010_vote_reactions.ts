/**
 * Vote state that converges whatever order its events arrive in (docs/scoring.md §4.1).
 *
 * A platform keeps, per message, a set of reactions per user: each emoji is on or off, and what a person sees is
 * that set. `vote_reactions` keeps the same set per voter and battle: one row per emoji the voter touched, with
 * whether it is on (`present`) and the order key of the latest event applied to it (`event_at`, then
 * `event_seq`, the platform's own order where it has one: Slack's `event_ts` to the microsecond, Discord's gateway
 * sequence within a session). The live vote is derived from the set: the most recently added emoji still present
 * (no vote when none is present, or when two present emoji share the latest key: the order is unknown, so no
 * guess). `votes` keeps that derived vote, as before, for everything that reads votes.
 *
 * Each emoji's state is a last-writer-wins register: an event replaces it only when its key (`event_at`,
 * `event_seq`, then removal over addition on an exact tie) is greater than the stored one. The greatest key wins
 * whichever event was applied first, so the set, and the vote derived from it, are the same for every order of one
 * voter's events (a removal of ⬅️ never undoes a later ➡️; a late Slack retry changes nothing). Before this
 * migration one key per voter decided, and an add older than the voter's last event of any emoji was dropped.
 *
 * The events of one voter on one battle apply one at a time across processes (a transaction-scoped advisory lock
 * on the pair, taken after the battle's row lock of the vote cap, migration 0008, so the locks are always taken
 * in the same order); the vote cap and the append-only event log are as in migration 0008. Existing votes seed
 * the set: a live vote is its emoji, present at its last event; a retracted one is its emoji, removed when it was
 * retracted.
 *
 * Named votes: `battles.named` marks an imported battle whose voter saw the models' names before voting (Chatbot
 * Arena's `"anony": false`). It is kept, and left out of ratings unless asked (`--include-named`), as FastChat's
 * `elo_analysis` keeps anonymous votes only (docs/scoring.md §4.3).
 */
import { type Kysely, sql } from 'kysely';

const APPLY_VOTE_EVENT = `
CREATE FUNCTION zj_apply_vote_event(
  p_battle bigint, p_voter text, p_platform text, p_event_id text, p_kind text,
  p_choice text, p_emoji text, p_event_at timestamptz, p_payload jsonb, p_cap integer, p_seq bigint
) RETURNS TABLE (effect text, live_choice text, closed_by_cap boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_event_id bigint;
  v_status   text;
  v_vote     votes%ROWTYPE;
  v_found    boolean;
  v_effect   text;
  v_live     text;
  v_after    text;
  v_after_at timestamptz;
  v_count    bigint := 0;
  v_close    boolean := false;
  v_seq      bigint := coalesce(p_seq, 0);
  v_rank     integer := CASE WHEN p_kind = 'remove' THEN 1 ELSE 0 END;
  v_choices  text[] := '{}';
  v_present  boolean[] := '{}';
  v_at       timestamptz[] := '{}';
  v_sq       bigint[] := '{}';
  v_touched  integer[] := '{}';
  v_best     integer;
  v_tie      boolean := false;
  r          record;
  i          integer;
BEGIN
  IF p_cap > 0 THEN
    -- With a cap the battle's row is locked: events of one battle apply one at a time (migration 0008).
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
      v_status := 'closed';
      v_close := true;
    END IF;
  END IF;
  -- The events of one voter on one battle apply one at a time (their set is read, changed and written back).
  PERFORM pg_advisory_xact_lock(hashtext('zj_apply_vote_event'), hashtext(p_battle::text || ':' || p_voter));
  SELECT * INTO v_vote FROM votes v WHERE v.battle_id = p_battle AND v.voter_hash = p_voter;
  v_found := FOUND;
  v_live := CASE WHEN v_found AND v_vote.retracted_at IS NULL THEN v_vote.choice END;

  -- Decide the effect before writing anything, so a replay can return without side effects.
  IF v_status <> 'open' THEN
    v_effect := 'ignored_closed';
  ELSE
    FOR r IN SELECT x.choice, x.present, x.event_at, x.event_seq FROM vote_reactions x
              WHERE x.battle_id = p_battle AND x.voter_hash = p_voter LOOP
      v_choices := v_choices || r.choice;
      v_present := v_present || r.present;
      v_at := v_at || r.event_at;
      v_sq := v_sq || r.event_seq;
    END LOOP;
    -- The event replaces the state of its emoji (a removal without a choice: of every emoji) when its key is
    -- greater: (time, platform sequence, removal over addition).
    FOR i IN 1 .. coalesce(array_length(v_choices, 1), 0) LOOP
      IF (p_choice IS NULL OR v_choices[i] = p_choice)
         AND ROW(p_event_at, v_seq, v_rank) > ROW(v_at[i], v_sq[i], CASE WHEN v_present[i] THEN 0 ELSE 1 END) THEN
        v_present[i] := (p_kind = 'add');
        v_at[i] := p_event_at;
        v_sq[i] := v_seq;
        v_touched := v_touched || i;
      END IF;
    END LOOP;
    IF p_choice IS NOT NULL AND NOT (p_choice = ANY (v_choices)) THEN
      v_choices := v_choices || p_choice;
      v_present := v_present || (p_kind = 'add');
      v_at := v_at || p_event_at;
      v_sq := v_sq || v_seq;
      v_touched := v_touched || coalesce(array_length(v_choices, 1), 0);
    END IF;
    -- The live vote: the present emoji with the greatest key; none when two share it (order unknown).
    FOR i IN 1 .. coalesce(array_length(v_choices, 1), 0) LOOP
      IF v_present[i] THEN
        IF v_best IS NULL OR ROW(v_at[i], v_sq[i]) > ROW(v_at[v_best], v_sq[v_best]) THEN
          v_best := i;
          v_tie := false;
        ELSIF ROW(v_at[i], v_sq[i]) = ROW(v_at[v_best], v_sq[v_best]) THEN
          v_tie := true;
        END IF;
      END IF;
    END LOOP;
    IF v_best IS NOT NULL AND NOT v_tie THEN
      v_after := v_choices[v_best];
      v_after_at := v_at[v_best];
    END IF;

    IF cardinality(v_touched) = 0 THEN
      v_effect := CASE WHEN p_kind = 'remove' AND NOT v_found AND cardinality(v_choices) = 0
                       THEN 'ignored_no_vote' ELSE 'ignored_stale' END;
    ELSIF v_after IS DISTINCT FROM v_live THEN
      v_effect := CASE WHEN v_live IS NULL THEN 'cast' WHEN v_after IS NULL THEN 'retracted' ELSE 'changed' END;
    ELSIF p_kind = 'add' THEN
      -- An add that is not the live vote was overtaken by a later add still present.
      v_effect := CASE WHEN v_after = p_choice THEN 'unchanged' ELSE 'ignored_stale' END;
    ELSE
      v_effect := CASE WHEN v_found THEN 'ignored_not_live' ELSE 'ignored_no_vote' END;
    END IF;
  END IF;

  INSERT INTO vote_events (battle_id, voter_hash, platform, platform_event_id, kind, choice, emoji, event_at, effect, payload)
  VALUES (p_battle, p_voter, p_platform, p_event_id, p_kind, p_choice, p_emoji, p_event_at, v_effect, p_payload)
  ON CONFLICT (platform, platform_event_id) DO NOTHING
  RETURNING id INTO v_event_id;
  IF v_event_id IS NULL THEN
    RETURN QUERY SELECT 'replayed'::text, v_live, false;
    RETURN;
  END IF;
  IF v_status <> 'open' THEN
    IF v_close THEN
      UPDATE battles SET status = 'closed', closed_at = p_event_at, close_reason = 'vote_cap', close_cap = p_cap
       WHERE id = p_battle AND status = 'open';
    END IF;
    RETURN QUERY SELECT v_effect, v_live, v_close;
    RETURN;
  END IF;

  FOREACH i IN ARRAY v_touched LOOP
    INSERT INTO vote_reactions AS x (battle_id, voter_hash, choice, present, event_at, event_seq)
    VALUES (p_battle, p_voter, v_choices[i], v_present[i], v_at[i], v_sq[i])
    ON CONFLICT (battle_id, voter_hash, choice) DO UPDATE
      SET present = EXCLUDED.present, event_at = EXCLUDED.event_at, event_seq = EXCLUDED.event_seq;
  END LOOP;

  IF v_effect = 'cast' AND NOT v_found THEN
    INSERT INTO votes (battle_id, voter_hash, choice, cast_at, updated_at, last_event_at)
    VALUES (p_battle, p_voter, v_after, v_after_at, now(), p_event_at);
  ELSIF v_effect = 'cast' THEN
    UPDATE votes SET choice = v_after, retracted_at = NULL, updated_at = now(), cast_at = v_after_at,
           last_event_at = greatest(last_event_at, p_event_at)
     WHERE id = v_vote.id;
  ELSIF v_effect = 'changed' THEN
    UPDATE votes SET choice = v_after, updated_at = now(), last_event_at = greatest(last_event_at, p_event_at)
     WHERE id = v_vote.id;
  ELSIF v_effect = 'retracted' THEN
    UPDATE votes SET retracted_at = p_event_at, updated_at = now(),
           last_event_at = greatest(last_event_at, p_event_at)
     WHERE id = v_vote.id;
  ELSIF v_effect = 'unchanged' AND p_event_at > v_vote.last_event_at THEN
    UPDATE votes SET last_event_at = p_event_at WHERE id = v_vote.id;
  END IF;

  -- The vote that brings the live votes to the cap closes the battle, in this transaction.
  IF p_cap > 0 AND v_effect = 'cast' AND v_count + 1 >= p_cap THEN
    UPDATE battles SET status = 'closed', closed_at = p_event_at, close_reason = 'vote_cap', close_cap = p_cap
     WHERE id = p_battle AND status = 'open';
    v_close := true;
  END IF;

  RETURN QUERY SELECT v_effect, v_after, v_close;
END;
$fn$;
`;

/** Migration 0008's vote function, restored by `down`. */
const APPLY_VOTE_EVENT_0008 = `
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
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE battles ADD COLUMN named boolean NOT NULL DEFAULT false`.execute(db);
  await sql`
CREATE TABLE vote_reactions (
  battle_id   bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  voter_hash  text NOT NULL,
  choice      text NOT NULL CHECK (choice IN ('left','equal','right')),
  present     boolean NOT NULL,
  event_at    timestamptz NOT NULL,
  event_seq   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (battle_id, voter_hash, choice)
)`.execute(db);
  await sql`
INSERT INTO vote_reactions (battle_id, voter_hash, choice, present, event_at)
SELECT battle_id, voter_hash, choice, retracted_at IS NULL, coalesce(retracted_at, last_event_at) FROM votes`.execute(
    db,
  );
  await sql`DROP FUNCTION zj_apply_vote_event(bigint, text, text, text, text, text, text, timestamptz, jsonb, integer)`.execute(
    db,
  );
  await sql.raw(APPLY_VOTE_EVENT).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS zj_apply_vote_event(bigint, text, text, text, text, text, text, timestamptz, jsonb, integer, bigint)`.execute(
    db,
  );
  await sql.raw(APPLY_VOTE_EVENT_0008).execute(db);
  await sql`DROP TABLE IF EXISTS vote_reactions`.execute(db);
  await sql`ALTER TABLE battles DROP COLUMN IF EXISTS named`.execute(db);
}
