/**
 * @module storage/vote-flags
 * Vote hygiene (docs/scoring.md §4.3, migration 0012): a live vote may carry a flag, the reason it is left out
 * of ratings and the board unless asked (`--include-flagged`):
 * - `daily_cap`: the voter had already cast `arena.hygiene.daily_vote_cap` live votes (on other battles) that
 *   UTC day when this one was cast;
 * - `too_fast`: it was cast (or last changed) sooner after the battle was posted than
 *   `arena.hygiene.read_ms_per_char` milliseconds per character of the two answers.
 * The vote itself is stored as any other (the tally a battle shows and reveals counts it); only the counting
 * queries leave it out, through {@link voteFilterSql}.
 */
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, VoteChoice, VoteFlag } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** Which stored votes a counting query takes besides the plain ones (both default false: left out). */
export interface VoteFilter {
  /** Imported votes cast with the models' names shown (`battles.named`, docs/scoring.md §4.3). */
  readonly includeNamed?: boolean;
  /** Flagged votes (`votes.flag`: `daily_cap`, `too_fast`). */
  readonly includeFlagged?: boolean;
}

/**
 * The SQL condition a counting query adds for `filter`, over the votes alias `v` and the battles alias `b`
 * (e.g. `NOT b.named AND v.flag IS NULL` by default; `true` when both are included).
 */
export function voteFilterSql(filter: VoteFilter = {}, v = 'v', b = 'b'): RawBuilder<boolean> {
  const named = filter.includeNamed === true ? sql`true` : sql`NOT ${sql.ref(`${b}.named`)}`;
  const flagged = filter.includeFlagged === true ? sql`true` : sql`${sql.ref(`${v}.flag`)} IS NULL`;
  return sql<boolean>`(${named} AND ${flagged})`;
}

/** The hygiene rules of `arena.hygiene` (both 0: no check). */
export interface HygieneRules {
  /** Most live votes per voter per UTC day that count (0: no cap). */
  readonly dailyVoteCap: number;
  /** Least reading time in milliseconds per character of the two answers (0: no check). */
  readonly readMsPerChar: number;
}

/** What {@link flagVote} decided for the live vote. */
export interface FlagResult {
  readonly flag: VoteFlag | null;
  readonly detail: string | null;
}

/**
 * Sets (or clears) the flag of the live vote of `voterHash` on `battleId` after a vote event changed it, in one
 * statement:
 * - `cast` (a first vote, or one cast again after its retraction): the flag is decided afresh, `daily_cap` when
 *   the voter's live votes on other battles cast the same UTC day as `at`, before this one (its `cast_at`, then
 *   the vote id for votes cast at the same time), already number the cap, so flagging votes in another order than
 *   they were cast flags the same ones; else
 *   `too_fast` when `at` is sooner after the battle's `posted_at` than the reading time of its two answers;
 * - `changed`: a `daily_cap` flag stays (a change is not a new vote); `too_fast` is decided again at `at` (a
 *   voter who read on and changed their mind is no longer too fast).
 * Imported battles (no `posted_at`) are never `too_fast`. No live vote: nothing happens (returns null flag).
 * @param at when the vote was cast or changed (the platform's event time).
 */
export async function flagVote(
  db: Conn,
  battleId: number,
  voterHash: string,
  effect: 'cast' | 'changed',
  at: Date,
  rules: HygieneRules,
): Promise<FlagResult> {
  const cap = Math.max(0, Math.floor(rules.dailyVoteCap));
  const perChar = Math.max(0, rules.readMsPerChar);
  const iso = at.toISOString();
  const r = await sql<{ flag: VoteFlag | null; flag_detail: string | null }>`
    WITH me AS (
      SELECT v.id, v.flag, v.cast_at FROM votes v
       WHERE v.battle_id = ${battleId}::bigint AND v.voter_hash = ${voterHash} AND v.retracted_at IS NULL
    ), day AS (
      SELECT count(*)::int AS n FROM votes o
       WHERE ${cap}::int > 0 AND o.voter_hash = ${voterHash} AND o.retracted_at IS NULL
         -- (never true of a bot voter; it lets the planner use votes_voter_day_idx, which holds no imports: 0017)
         AND o.voter_hash NOT LIKE 'import:%'
         AND o.battle_id <> ${battleId}::bigint
         -- Only the votes cast before this one (in cast order, then storing order): what the voter "already had".
         AND (o.cast_at, o.id) < (SELECT m.cast_at, m.id FROM me m)
         AND o.cast_at >= date_trunc('day', ${iso}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
         AND o.cast_at < (date_trunc('day', ${iso}::timestamptz AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC'
    ), reading AS (
      SELECT b.posted_at,
             (coalesce(length(coalesce(rl.output, t.answer_left)), 0)
              + coalesce(length(coalesce(rr.output, t.answer_right)), 0)) AS chars
        FROM battles b
        LEFT JOIN responses rl ON rl.id = b.response_left_id
        LEFT JOIN responses rr ON rr.id = b.response_right_id
        LEFT JOIN battle_turns t ON t.battle_id = b.id AND t.turn = 1
       WHERE b.id = ${battleId}::bigint
    ), decided AS (
      SELECT me.id,
             CASE
               WHEN ${effect} = 'changed' AND me.flag = 'daily_cap' THEN 'daily_cap'
               WHEN ${effect} = 'cast' AND ${cap}::int > 0 AND day.n >= ${cap}::int THEN 'daily_cap'
               WHEN ${perChar}::float8 > 0 AND reading.posted_at IS NOT NULL
                    AND extract(epoch FROM (${iso}::timestamptz - reading.posted_at)) * 1000
                        < reading.chars * ${perChar}::float8 THEN 'too_fast'
             END AS flag,
             day.n AS day_votes, reading.chars,
             extract(epoch FROM (${iso}::timestamptz - reading.posted_at)) AS secs
        FROM me, day, reading
    )
    UPDATE votes v SET
      flag = d.flag,
      flag_detail = CASE d.flag
        WHEN 'daily_cap' THEN CASE WHEN ${effect} = 'changed' THEN v.flag_detail
          ELSE format('vote %s of the voter on %s UTC (cap %s)', d.day_votes + 1,
                      to_char(${iso}::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ${cap}::int) END
        WHEN 'too_fast' THEN format('cast %s s after posting; reading %s characters takes %s s',
                                    round(d.secs::numeric, 1), d.chars,
                                    round((d.chars * ${perChar}::float8 / 1000)::numeric, 1))
      END
      FROM decided d
     WHERE v.id = d.id
    RETURNING v.flag, v.flag_detail`.execute(db);
  const row = r.rows[0];
  return { flag: row?.flag ?? null, detail: row?.flag_detail ?? null };
}

/** One flagged live vote, for the maintainers' listing. */
export interface FlaggedVote {
  readonly battleId: number;
  /** The battle's number in the community's arena (null: an imported battle). */
  readonly battleNumber: number | null;
  readonly source: string;
  readonly platform: string | null;
  /** The stored voter id (an HMAC, never the platform's user id; docs/scoring.md §4). */
  readonly voterHash: string;
  readonly choice: VoteChoice;
  readonly flag: VoteFlag;
  readonly detail: string | null;
  readonly castAt: Date;
}

/**
 * The flagged live votes, newest first: at most `limit` (1–10,000), optionally only those cast at or after
 * `since`.
 */
export async function listFlaggedVotes(
  db: Conn,
  opts: { readonly limit?: number; readonly since?: Date } = {},
): Promise<FlaggedVote[]> {
  const limit = Math.min(10_000, Math.max(1, Math.floor(opts.limit ?? 100)));
  let q = (db as Kysely<Database>)
    .selectFrom('votes as v')
    .innerJoin('battles as b', 'b.id', 'v.battle_id')
    .select([
      'v.battle_id',
      'b.number',
      'b.source',
      'b.platform',
      'v.voter_hash',
      'v.choice',
      'v.flag',
      'v.flag_detail',
      'v.cast_at',
    ])
    .where('v.flag', 'is not', null)
    .where('v.retracted_at', 'is', null)
    .orderBy('v.cast_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(limit);
  if (opts.since) q = q.where('v.cast_at', '>=', opts.since);
  const rows = await q.execute();
  return rows.map((x) => ({
    battleId: Number(x.battle_id),
    battleNumber: x.number === null ? null : Number(x.number),
    source: x.source,
    platform: x.platform,
    voterHash: x.voter_hash,
    choice: x.choice,
    flag: x.flag as VoteFlag,
    detail: x.flag_detail,
    castAt: new Date(x.cast_at),
  }));
}
