/**
 * @module storage/arena-queries
 * Read queries the arena needs beyond the battle/vote repositories: which model pairs share answered items,
 * which items of a pair are least battled, the texts of a battle, response counts per model, schedule state.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { ARENA_SOURCE, DEFAULT_SOURCES, sourceCondition, type VoteSources } from './sources.ts';
import { type VoteFilter, voteFilterSql } from './vote-flags.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** An unordered pair of models (ids ascending) with the number of items both have answered. */
export interface SharedPair {
  readonly modelLow: number;
  readonly modelHigh: number;
  readonly items: number;
}

/** Model pairs that have both answered at least one item (optionally of one ability). */
export async function modelPairsWithSharedItems(db: Conn, ability?: string): Promise<SharedPair[]> {
  const r = await sql<{ lo: number; hi: number; items: number }>`
    WITH mi AS (
      SELECT DISTINCT r.model_id, r.item_id FROM responses r JOIN items i ON i.id = r.item_id
       WHERE ${ability === undefined ? sql`true` : sql`i.ability = ${ability}`}
    )
    SELECT a.model_id AS lo, b.model_id AS hi, count(*) AS items
      FROM mi a JOIN mi b ON a.item_id = b.item_id AND a.model_id < b.model_id
     GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
  return r.rows.map((x) => ({
    modelLow: Number(x.lo),
    modelHigh: Number(x.hi),
    items: Number(x.items),
  }));
}

/** An item both models answered, with how many (non-void) battles already used it (any pair). */
export interface CandidateItem {
  readonly itemId: number;
  readonly battles: number;
}

/**
 * Items answered by both models (optionally of one ability), least battled first, then by id. The battle counts
 * come from `item_battle_counts` (migration 0007, kept by triggers): one row per item, not one per battle.
 */
export async function candidateItemsForPair(
  db: Conn,
  modelA: number,
  modelB: number,
  ability?: string,
): Promise<CandidateItem[]> {
  const r = await sql<{ id: number; battles: number }>`
    SELECT i.id, coalesce(c.battles, 0) AS battles
      FROM items i LEFT JOIN item_battle_counts c ON c.item_id = i.id
     WHERE EXISTS (SELECT 1 FROM responses r WHERE r.item_id = i.id AND r.model_id = ${modelA})
       AND EXISTS (SELECT 1 FROM responses r WHERE r.item_id = i.id AND r.model_id = ${modelB})
       AND ${ability === undefined ? sql`true` : sql`i.ability = ${ability}`}
     ORDER BY 2, 1`.execute(db);
  return r.rows.map((x) => ({ itemId: Number(x.id), battles: Number(x.battles) }));
}

/** One item with the latest response of each of two models. */
export interface PairTexts {
  readonly itemId: number;
  readonly ability: string;
  readonly prompt: string;
  readonly responseA: { readonly id: number; readonly output: string };
  readonly responseB: { readonly id: number; readonly output: string };
}

/** Prompts and both models' latest responses for the given items (order of `itemIds`; missing ones skipped). */
export async function pairTexts(
  db: Conn,
  itemIds: readonly number[],
  modelA: number,
  modelB: number,
): Promise<PairTexts[]> {
  if (itemIds.length === 0) return [];
  const r = await sql<{
    id: number;
    ability: string;
    prompt: string;
    ra: number;
    oa: string;
    rb: number;
    ob: string;
  }>`
    SELECT i.id, i.ability, i.prompt, ra.id AS ra, ra.output AS oa, rb.id AS rb, rb.output AS ob
      FROM items i
      JOIN LATERAL (SELECT id, output FROM responses WHERE item_id = i.id AND model_id = ${modelA} ORDER BY id DESC LIMIT 1) ra ON true
      JOIN LATERAL (SELECT id, output FROM responses WHERE item_id = i.id AND model_id = ${modelB} ORDER BY id DESC LIMIT 1) rb ON true
     WHERE i.id = ANY(${[...itemIds]}::bigint[])`.execute(db);
  const byId = new Map(
    r.rows.map((x) => [
      Number(x.id),
      {
        itemId: Number(x.id),
        ability: x.ability,
        prompt: x.prompt,
        responseA: { id: Number(x.ra), output: x.oa },
        responseB: { id: Number(x.rb), output: x.ob },
      },
    ]),
  );
  return itemIds.flatMap((id) => {
    const t = byId.get(id);
    return t ? [t] : [];
  });
}

/** The prompt and the two answers of a stored battle (left, right as posted). */
export async function battleTexts(
  db: Conn,
  battleId: number,
): Promise<{ prompt: string; left: string; right: string } | undefined> {
  // Live battles (`/ask`) keep their texts in battle_turns: the first turn is what the battle message shows.
  const r = await sql<{ prompt: string | null; l: string | null; r: string | null }>`
    SELECT coalesce(i.prompt, t.prompt) AS prompt, coalesce(rl.output, t.answer_left) AS l,
           coalesce(rr.output, t.answer_right) AS r
      FROM battles b
      LEFT JOIN items i ON i.id = b.item_id
      LEFT JOIN responses rl ON rl.id = b.response_left_id
      LEFT JOIN responses rr ON rr.id = b.response_right_id
      LEFT JOIN battle_turns t ON t.battle_id = b.id AND t.turn = 1
     WHERE b.id = ${battleId}`.execute(db);
  const row = r.rows[0];
  if (!row || row.prompt === null || row.l === null || row.r === null) return undefined;
  return { prompt: row.prompt, left: row.l, right: row.r };
}

/**
 * The models that can battle (every provider but `external`: a model with recorded outputs or a live endpoint),
 * with their number of stored responses and distinct answered items, by name. Names known only from imported
 * votes (`external`) are left out; {@link importedOnlyModelCount} counts them.
 */
export async function modelResponseCounts(
  db: Conn,
): Promise<{ name: string; provider: string; responses: number; items: number }[]> {
  const r = await sql<{ name: string; provider: string; responses: number; items: number }>`
    SELECT m.name, m.provider, count(r.id) AS responses, count(DISTINCT r.item_id) AS items
      FROM models m LEFT JOIN responses r ON r.model_id = m.id
     WHERE m.provider <> 'external'
     GROUP BY m.id, m.name, m.provider ORDER BY m.name`.execute(db);
  return r.rows.map((x) => ({
    name: x.name,
    provider: x.provider,
    responses: Number(x.responses),
    items: Number(x.items),
  }));
}

/** How many model names are known only from imported votes (provider `external`: no answers, cannot battle). */
export async function importedOnlyModelCount(db: Conn): Promise<number> {
  const r = await sql<{ n: number }>`
    SELECT count(*) AS n FROM models WHERE provider = 'external'`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** When the last arena battle was posted to a channel (for the schedule), or null. */
export async function lastArenaPostAt(
  db: Conn,
  platform: string,
  channelId: string,
): Promise<Date | null> {
  const r = await sql<{ at: Date | string | null }>`
    SELECT max(posted_at) AS at FROM battles
     WHERE platform = ${platform} AND channel_id = ${channelId} AND source = ${ARENA_SOURCE} AND status <> 'void'`.execute(
    db,
  );
  const at = r.rows[0]?.at ?? null;
  return at === null ? null : new Date(at);
}

/** Ids of closed battles on these platforms whose reveal edit has not been made yet. */
export async function listClosedUnrevealed(
  db: Conn,
  platforms: readonly string[],
): Promise<number[]> {
  if (platforms.length === 0) return [];
  const r = await sql<{ id: number }>`
    SELECT id FROM battles
     WHERE status = 'closed' AND revealed_at IS NULL AND message_id IS NOT NULL
       AND platform = ANY(${[...platforms]}::text[])
     ORDER BY id`.execute(db);
  return r.rows.map((x) => Number(x.id));
}

/** Battles with identical live-vote counts on the same (left, right) pair, counted: a compact form for rating. */
export interface BattleVoteType {
  readonly leftModel: string;
  readonly rightModel: string;
  readonly left: number;
  readonly equal: number;
  readonly right: number;
  /** How many battles have exactly these counts. */
  readonly count: number;
}

/**
 * Live votes per battle, grouped into battle types (same pair, same counts) with a count. 200,000 imported
 * one-vote battles come back as ~17,000 rows instead of 200,000.
 * @param ability only battles of this ability (undefined: all).
 * @param sources only battles of these sources (default: the community's own, `arena`; see storage/sources.ts).
 * @param include named votes (`true` or `includeNamed`) and flagged ones (`includeFlagged`); default: left out
 *   (docs/scoring.md §4.3). Both bad counts in `equal` (a tie).
 */
export async function battleVoteTypes(
  db: Conn,
  ability?: string,
  sources: VoteSources = DEFAULT_SOURCES,
  include: boolean | VoteFilter = false,
): Promise<BattleVoteType[]> {
  const filter = typeof include === 'boolean' ? { includeNamed: include } : include;
  const r = await sql<{ lm: string; rm: string; l: number; e: number; r: number; n: number }>`
    SELECT ml.name AS lm, mr.name AS rm, t.l, t.e, t.r, count(*) AS n
      FROM (SELECT b.model_left_id AS lid, b.model_right_id AS rid,
                   count(*) FILTER (WHERE v.choice = 'left') AS l,
                   count(*) FILTER (WHERE v.choice IN ('equal', 'bothbad')) AS e,
                   count(*) FILTER (WHERE v.choice = 'right') AS r
              FROM votes v JOIN battles b ON b.id = v.battle_id
             WHERE v.retracted_at IS NULL AND b.status <> 'void' AND ${sourceCondition('b.source', sources)}
               AND ${ability === undefined ? sql`true` : sql`b.ability = ${ability}`}
               AND ${voteFilterSql(filter)}
             GROUP BY b.id) t
      JOIN models ml ON ml.id = t.lid JOIN models mr ON mr.id = t.rid
     GROUP BY ml.name, mr.name, t.l, t.e, t.r
     ORDER BY 1, 2, 3, 4, 5`.execute(db);
  return r.rows.map((x) => ({
    leftModel: x.lm,
    rightModel: x.rm,
    left: Number(x.l),
    equal: Number(x.e),
    right: Number(x.r),
    count: Number(x.n),
  }));
}
