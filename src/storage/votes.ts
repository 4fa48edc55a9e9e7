/**
 * @module storage/votes
 * Votes and their append-only event log, with the vote rules of docs/scoring.md §4: each voter's reactions on a
 * battle are kept as a set, one state per emoji with the key of its latest event (time, then the platform's
 * sequence); an event replaces its emoji's state only when its key is greater, so the set is the same whatever
 * order the events arrive in. The live vote is the most recently added emoji still present (none when none is, or
 * when two share the latest key); `votes` holds it. Every event is appended to `vote_events` in the same
 * transaction; a replayed platform event id changes nothing.
 * The rules run in one SQL function (migration 0010; the vote cap since migration 0008) so each event costs one
 * round trip.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../core/errors.ts';
import type { Database, VoteChoice } from './schema.ts';
import { DEFAULT_SOURCES, sourceCondition, type VoteSources } from './sources.ts';
import { type VoteFilter, voteFilterSql } from './vote-flags.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** What an event did. */
export type VoteEffect =
  | 'cast'
  | 'changed'
  | 'unchanged'
  | 'retracted'
  | 'replayed'
  | 'ignored_closed'
  | 'ignored_stale'
  | 'ignored_no_vote'
  | 'ignored_not_live';

/** One vote event as received from a platform (already mapped to a battle and a hashed voter). */
export interface VoteEventInput {
  readonly battleId: number;
  readonly voterHash: string;
  readonly platform: string;
  /** Unique per logical platform event: a replay with the same id is a no-op. */
  readonly eventId: string;
  readonly kind: 'add' | 'remove';
  /** For `remove`, the choice whose emoji was removed; null retracts whatever is live. */
  readonly choice: VoteChoice | null;
  readonly emoji?: string | null;
  readonly at: Date;
  /**
   * The platform's order among events with the same `at` (an integer ≥ 0; absent: 0): Discord's gateway sequence
   * within a session, the microseconds of Slack's `event_ts` below the millisecond. Events of one emoji are
   * ordered by (`at`, `seq`), a removal after an add on an exact tie.
   */
  readonly seq?: number;
  readonly payload?: unknown;
  /**
   * `arena.vote_cap`: the most live votes a battle takes (0 or absent: no cap). The vote that reaches it closes the
   * battle in the same transaction (`close_reason` `vote_cap`) and every later event is `ignored_closed`, however
   * many arrive at once from however many processes (the battle's row is locked per event). Closed is closed: a
   * voter who already voted can neither change nor take back their vote once the cap closed the battle; below the
   * cap, changing a vote is not a new vote (the count stays). A battle already holding the cap or more (the cap was
   * lowered) is closed by the next event, which is refused.
   */
  readonly cap?: number;
}

/** The outcome of one event. */
export interface VoteEventResult {
  readonly effect: VoteEffect;
  /** The voter's live choice after the event (null when none). */
  readonly liveChoice: VoteChoice | null;
  /** Present (true) when this event closed the battle at its vote cap (the caller reveals it). */
  readonly closedByCap?: true;
}

/**
 * Applies one vote event atomically (append event, update the voter's reaction set, cast/change/retract the live
 * vote derived from it, and the vote cap's close). Effects: `cast`/`changed`/`retracted` when the live vote
 * changed; `unchanged` (an add of the live emoji); `ignored_stale` (older than its emoji's state, or an add
 * overtaken by a later add still present); `ignored_not_live`/`ignored_no_vote` (a removal that leaves the live
 * vote as it was, with or without a vote row); `ignored_closed`; `replayed`.
 * @throws AppError `not_found` when the battle does not exist; a Postgres error when an argument violates a CHECK.
 */
export async function applyVoteEvent(db: Conn, ev: VoteEventInput): Promise<VoteEventResult> {
  if (ev.kind === 'add' && ev.choice === null) throw new TypeError('an add event needs a choice');
  const cap = Math.max(0, Math.floor(ev.cap ?? 0));
  const r = await sql<{
    effect: VoteEffect;
    live_choice: VoteChoice | null;
    closed_by_cap: boolean;
  }>`/* prepared:zj_apply_vote_event */
    SELECT effect, live_choice, closed_by_cap FROM zj_apply_vote_event(
      ${ev.battleId}::bigint, ${ev.voterHash}::text, ${ev.platform}::text, ${ev.eventId}::text, ${ev.kind}::text,
      ${ev.choice}::text, ${ev.emoji ?? null}::text, ${ev.at.toISOString()}::timestamptz,
      ${ev.payload === undefined ? null : JSON.stringify(ev.payload)}::jsonb, ${cap}::integer,
      ${ev.seq === undefined ? 0 : Math.max(0, Math.floor(ev.seq))}::bigint)`
    .execute(db)
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '23503') {
        throw new AppError('not_found', `battle ${ev.battleId} does not exist`, { cause: err });
      }
      throw err;
    });
  const row = r.rows[0];
  if (!row) throw new Error('zj_apply_vote_event returned no row');
  return {
    effect: row.effect,
    liveChoice: row.live_choice,
    ...(row.closed_by_cap === true ? { closedByCap: true as const } : {}),
  };
}

/** A live vote. */
export interface LiveVote {
  readonly voterHash: string;
  readonly choice: VoteChoice;
  readonly castAt: Date;
}

/** The live votes of a battle, oldest first; with `voterHash`, only that voter's (at most one). */
export async function liveVotes(
  db: Conn,
  battleId: number,
  voterHash?: string,
): Promise<LiveVote[]> {
  let q = db
    .selectFrom('votes')
    .select(['voter_hash', 'choice', 'cast_at'])
    .where('battle_id', '=', battleId)
    .where('retracted_at', 'is', null);
  if (voterHash !== undefined) q = q.where('voter_hash', '=', voterHash);
  const rows = await q.orderBy('cast_at').orderBy('id').execute();
  return rows.map((r) => ({
    voterHash: r.voter_hash,
    choice: r.choice,
    castAt: new Date(r.cast_at),
  }));
}

/** Counts of live votes by choice (`bothbad`: both answers are bad). */
export interface Tally {
  readonly left: number;
  readonly equal: number;
  readonly right: number;
  readonly bothbad: number;
}

/** The live-vote tally of a battle. */
export async function tally(db: Conn, battleId: number): Promise<Tally> {
  const rows = await db
    .selectFrom('votes')
    .select(['choice', (eb) => eb.fn.countAll<number>().as('n')])
    .where('battle_id', '=', battleId)
    .where('retracted_at', 'is', null)
    .groupBy('choice')
    .execute();
  const t = { left: 0, equal: 0, right: 0, bothbad: 0 };
  for (const r of rows) t[r.choice] = Number(r.n);
  return t;
}

/**
 * Each voter's emoji present on a battle as the vote rules hold them (`vote_reactions`, migration 0010): voter
 * hash → the choices whose emoji is on. Voters with none are left out.
 */
export async function heldReactions(
  db: Conn,
  battleId: number,
): Promise<Map<string, Set<VoteChoice>>> {
  const rows = await db
    .selectFrom('vote_reactions')
    .select(['voter_hash', 'choice'])
    .where('battle_id', '=', battleId)
    .where('present', '=', true)
    .execute();
  const out = new Map<string, Set<VoteChoice>>();
  for (const r of rows) {
    const set = out.get(r.voter_hash) ?? new Set<VoteChoice>();
    set.add(r.choice);
    out.set(r.voter_hash, set);
  }
  return out;
}

/** A logged event (audit, replay). */
export interface VoteEventRow {
  readonly voterHash: string;
  readonly platform: string;
  readonly eventId: string;
  readonly kind: string;
  readonly choice: VoteChoice | null;
  readonly effect: string;
  readonly eventAt: Date;
}

/** Every event logged for a battle, in arrival order. */
export async function listVoteEvents(db: Conn, battleId: number): Promise<VoteEventRow[]> {
  const rows = await db
    .selectFrom('vote_events')
    .select(['voter_hash', 'platform', 'platform_event_id', 'kind', 'choice', 'effect', 'event_at'])
    .where('battle_id', '=', battleId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    voterHash: r.voter_hash,
    platform: r.platform,
    eventId: r.platform_event_id,
    kind: r.kind,
    choice: r.choice,
    effect: r.effect,
    eventAt: new Date(r.event_at),
  }));
}

/**
 * Live votes aggregated per ordered (left model, right model) pair, the input of the rating module: `left_wins`
 * are votes for the left side, `right_wins` for the right, `ties` for Equal. Void battles are excluded.
 * @param ability only battles of this ability (undefined: all).
 * @param sources only battles of these sources (default: the community's own, `arena`; see storage/sources.ts).
 * @param include also imported votes cast with the models' names shown (`true`, or `includeNamed`:
 *   `"anony": false`, docs/scoring.md §4.3) and flagged votes (`includeFlagged`, §4.3); default: both left out.
 *   Both-bad votes count as ties (§4.1).
 */
export async function pairVoteCounts(
  db: Conn,
  ability?: string,
  sources: VoteSources = DEFAULT_SOURCES,
  include: boolean | VoteFilter = false,
): Promise<{ model_a: string; model_b: string; a_wins: number; b_wins: number; ties: number }[]> {
  const filter = typeof include === 'boolean' ? { includeNamed: include } : include;
  let q = db
    .selectFrom('votes as v')
    .innerJoin('battles as b', 'b.id', 'v.battle_id')
    .innerJoin('models as ml', 'ml.id', 'b.model_left_id')
    .innerJoin('models as mr', 'mr.id', 'b.model_right_id')
    .where('v.retracted_at', 'is', null)
    .where('b.status', '<>', 'void')
    .where(sourceCondition('b.source', sources))
    .select([
      'ml.name as model_a',
      'mr.name as model_b',
      sql<number>`count(*) filter (where v.choice = 'left')`.as('a_wins'),
      sql<number>`count(*) filter (where v.choice = 'right')`.as('b_wins'),
      // Both bad counts as a tie (docs/scoring.md §4.1).
      sql<number>`count(*) filter (where v.choice in ('equal', 'bothbad'))`.as('ties'),
    ])
    .groupBy(['ml.name', 'mr.name'])
    .orderBy('ml.name')
    .orderBy('mr.name');
  if (ability !== undefined) q = q.where('b.ability', '=', ability);
  q = q.where(voteFilterSql(filter));
  const rows = await q.execute();
  return rows.map((r) => ({
    model_a: r.model_a,
    model_b: r.model_b,
    a_wins: Number(r.a_wins),
    b_wins: Number(r.b_wins),
    ties: Number(r.ties),
  }));
}
