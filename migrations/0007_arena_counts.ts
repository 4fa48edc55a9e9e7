/**
 * Counts the arena's battle selection reads, kept up to date by triggers, so `/arena` costs the same with a
 * thousand or a million stored votes, the community's own included (issue 7 item 2):
 * - `arena_pair_load`: per unordered model pair (ids ascending), the community's (`arena`) battles that are not
 *   void and the live votes on them. `/arena` favours the pairs with the fewest votes; it used to count them from
 *   every arena battle and vote on each call.
 * - `item_battle_counts`: per item, the battles of any source that are not void. `/arena` favours the least
 *   battled items of a pair; it used to count every battle of each candidate item on each call.
 *
 * Statement-level triggers with transition tables keep both: one upsert per statement, whatever its row count, and
 * an import of public votes (their battles have another source and no item) adds nothing to either table. The
 * vote triggers look each new or changed vote's battle up by primary key (a lateral subquery with `OFFSET 0`, so
 * the planner cannot turn it into a scan of every battle). A battle's models, source and item never change after
 * it is inserted; its status does (void leaves both counts, with its live votes). Deleting battles (no command
 * does) recounts both tables from scratch at the end of the statement; deleting votes directly subtracts them.
 */
import { type Kysely, sql } from 'kysely';

async function run(db: Kysely<unknown>, script: string): Promise<void> {
  for (const stmt of script.split(/;\s*\n(?=(?:CREATE|DROP|SELECT) )/)) {
    if (stmt.trim() !== '') await sql.raw(stmt).execute(db);
  }
}

/**
 * The vote triggers' shared step: adds each row of `d` (a vote's `battle_id` and its `sign`, +1 or -1) to its
 * battle's pair in `arena_pair_load`, counting only the community's battles that are not void.
 */
const ADD_VOTE_DELTAS = `  INSERT INTO arena_pair_load AS p (model_low, model_high, votes)
  SELECT least(b.model_left_id, b.model_right_id), greatest(b.model_left_id, b.model_right_id), sum(d.sign)
    FROM d, LATERAL (SELECT x.model_left_id, x.model_right_id FROM battles x
                      WHERE x.id = d.battle_id AND x.source = 'arena' AND x.status <> 'void' OFFSET 0) b
   GROUP BY 1, 2
  ON CONFLICT (model_low, model_high) DO UPDATE SET votes = p.votes + EXCLUDED.votes;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
CREATE TABLE arena_pair_load (
  model_low   bigint NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  model_high  bigint NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  battles     bigint NOT NULL DEFAULT 0,
  votes       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (model_low, model_high),
  CHECK (model_low < model_high)
);

CREATE TABLE item_battle_counts (
  item_id  bigint PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
  battles  bigint NOT NULL DEFAULT 0
);

CREATE FUNCTION zj_recount_arena_counts() RETURNS void LANGUAGE sql AS $fn$
  DELETE FROM arena_pair_load;
  DELETE FROM item_battle_counts;
  INSERT INTO arena_pair_load (model_low, model_high, battles, votes)
  SELECT least(b.model_left_id, b.model_right_id), greatest(b.model_left_id, b.model_right_id),
         count(DISTINCT b.id), count(v.id)
    FROM battles b LEFT JOIN votes v ON v.battle_id = b.id AND v.retracted_at IS NULL
   WHERE b.source = 'arena' AND b.status <> 'void'
   GROUP BY 1, 2;
  INSERT INTO item_battle_counts (item_id, battles)
  SELECT item_id, count(*) FROM battles WHERE item_id IS NOT NULL AND status <> 'void' GROUP BY 1;
$fn$;

CREATE FUNCTION zj_battles_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO arena_pair_load AS p (model_low, model_high, battles)
  SELECT least(model_left_id, model_right_id), greatest(model_left_id, model_right_id), count(*)
    FROM nb WHERE source = 'arena' AND status <> 'void' GROUP BY 1, 2
  ON CONFLICT (model_low, model_high) DO UPDATE SET battles = p.battles + EXCLUDED.battles;
  INSERT INTO item_battle_counts AS c (item_id, battles)
  SELECT item_id, count(*) FROM nb WHERE item_id IS NOT NULL AND status <> 'void' GROUP BY 1
  ON CONFLICT (item_id) DO UPDATE SET battles = c.battles + EXCLUDED.battles;
  RETURN NULL;
END;
$fn$;

CREATE FUNCTION zj_battles_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- +1 for a battle that starts counting (its status left void), -1 for one that stops (voided).
  WITH d AS (
    SELECT n.id, n.model_left_id, n.model_right_id, n.source, n.item_id,
           CASE WHEN n.status <> 'void' THEN 1 ELSE -1 END AS sign
      FROM nb n JOIN ob o ON o.id = n.id
     WHERE (n.status <> 'void') <> (o.status <> 'void')
  ), pairs AS (
    SELECT least(d.model_left_id, d.model_right_id) AS lo, greatest(d.model_left_id, d.model_right_id) AS hi,
           sum(d.sign) AS battles,
           sum(d.sign * (SELECT count(*) FROM votes v WHERE v.battle_id = d.id AND v.retracted_at IS NULL)) AS votes
      FROM d WHERE d.source = 'arena' GROUP BY 1, 2
  )
  INSERT INTO arena_pair_load AS p (model_low, model_high, battles, votes)
  SELECT lo, hi, battles, votes FROM pairs
  ON CONFLICT (model_low, model_high) DO UPDATE
    SET battles = p.battles + EXCLUDED.battles, votes = p.votes + EXCLUDED.votes;
  INSERT INTO item_battle_counts AS c (item_id, battles)
  SELECT n.item_id, sum(CASE WHEN n.status <> 'void' THEN 1 ELSE -1 END)
    FROM nb n JOIN ob o ON o.id = n.id
   WHERE n.item_id IS NOT NULL AND (n.status <> 'void') <> (o.status <> 'void')
   GROUP BY 1
  ON CONFLICT (item_id) DO UPDATE SET battles = c.battles + EXCLUDED.battles;
  RETURN NULL;
END;
$fn$;

CREATE FUNCTION zj_battles_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM zj_recount_arena_counts();
  RETURN NULL;
END;
$fn$;

CREATE FUNCTION zj_votes_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- +1 per vote inserted live.
  WITH d AS (
    SELECT battle_id, 1 AS sign FROM nv WHERE retracted_at IS NULL
  )
${ADD_VOTE_DELTAS}
  RETURN NULL;
END;
$fn$;

CREATE FUNCTION zj_votes_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- +1 per vote un-retracted (cast again), -1 per vote retracted.
  WITH d AS (
    SELECT n.battle_id, CASE WHEN n.retracted_at IS NULL THEN 1 ELSE -1 END AS sign
      FROM nv n JOIN ov o ON o.id = n.id
     WHERE (n.retracted_at IS NULL) <> (o.retracted_at IS NULL)
  )
${ADD_VOTE_DELTAS}
  RETURN NULL;
END;
$fn$;

CREATE FUNCTION zj_votes_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- -1 per live vote deleted (none when its battle is gone: that recounts).
  WITH d AS (
    SELECT battle_id, -1 AS sign FROM ov WHERE retracted_at IS NULL
  )
${ADD_VOTE_DELTAS}
  RETURN NULL;
END;
$fn$;

CREATE TRIGGER zj_battles_inserted AFTER INSERT ON battles REFERENCING NEW TABLE AS nb
  FOR EACH STATEMENT EXECUTE FUNCTION zj_battles_inserted();
CREATE TRIGGER zj_battles_updated AFTER UPDATE ON battles REFERENCING OLD TABLE AS ob NEW TABLE AS nb
  FOR EACH STATEMENT EXECUTE FUNCTION zj_battles_updated();
CREATE TRIGGER zj_battles_deleted AFTER DELETE ON battles
  FOR EACH STATEMENT EXECUTE FUNCTION zj_battles_deleted();
CREATE TRIGGER zj_votes_inserted AFTER INSERT ON votes REFERENCING NEW TABLE AS nv
  FOR EACH STATEMENT EXECUTE FUNCTION zj_votes_inserted();
CREATE TRIGGER zj_votes_updated AFTER UPDATE ON votes REFERENCING OLD TABLE AS ov NEW TABLE AS nv
  FOR EACH STATEMENT EXECUTE FUNCTION zj_votes_updated();
CREATE TRIGGER zj_votes_deleted AFTER DELETE ON votes REFERENCING OLD TABLE AS ov
  FOR EACH STATEMENT EXECUTE FUNCTION zj_votes_deleted();

SELECT zj_recount_arena_counts();
`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    `
DROP TRIGGER IF EXISTS zj_votes_deleted ON votes;
DROP TRIGGER IF EXISTS zj_votes_updated ON votes;
DROP TRIGGER IF EXISTS zj_votes_inserted ON votes;
DROP TRIGGER IF EXISTS zj_battles_deleted ON battles;
DROP TRIGGER IF EXISTS zj_battles_updated ON battles;
DROP TRIGGER IF EXISTS zj_battles_inserted ON battles;
DROP FUNCTION IF EXISTS zj_votes_deleted();
DROP FUNCTION IF EXISTS zj_votes_updated();
DROP FUNCTION IF EXISTS zj_votes_inserted();
DROP FUNCTION IF EXISTS zj_battles_deleted();
DROP FUNCTION IF EXISTS zj_battles_updated();
DROP FUNCTION IF EXISTS zj_battles_inserted();
DROP FUNCTION IF EXISTS zj_recount_arena_counts();
DROP TABLE IF EXISTS item_battle_counts, arena_pair_load;
`,
  );
}
