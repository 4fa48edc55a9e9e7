/**
 * @module chat/commands/leaderboard
 * The comparative (arena) leaderboard from stored votes: Bradley–Terry ratings on the Elo scale with a 95 %
 * bootstrap interval (SCORING.md §4; src/rating), votes per model, rank by intervals among the listed models.
 * Models with fewer than `aggregation.min_votes` live votes are listed as "not enough votes" (they still take part
 * in the fit, as in Chatbot Arena, but get no rating or rank on the board).
 *
 * Intervals come from a bootstrap over *battles* (SCORING.md §4; rating/cluster-bootstrap.ts), where a battle is
 * one posted message with all of its votes.
 */
import type { Kysely } from 'kysely';
import { isAppError } from '../../core/errors.ts';
import { createRng } from '../../core/rng.ts';
import { arenaFromPairCounts, computeArenaRatings, rankByIntervals } from '../../rating/index.ts';
import { battleVoteCounts, liveVotesPerModel } from '../../storage/arena-queries.ts';
import { listModels } from '../../storage/models.ts';
import type { Database } from '../../storage/schema.ts';
import { pairVoteCounts } from '../../storage/votes.ts';
import type { MessageContent, TableContent } from '../port.ts';

/** One leaderboard line. */
export interface LeaderboardRow {
  readonly model: string;
  readonly votes: number;
  /** null: not enough votes (or no finite rating). */
  readonly rating: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly rank: number | null;
  /** Why there is no rating, when there is none. */
  readonly note?: string;
}

/** Options of {@link computeLeaderboard}. */
export interface LeaderboardOptions {
  readonly ability?: string;
  /** Bootstrap rounds (default 200). */
  readonly rounds?: number;
  readonly seed: number;
  readonly minVotes: number;
  /** Shift so this model has this rating (config `ratings.anchor`), when the model is in the data. */
  readonly anchor?: { readonly model: string; readonly rating: number } | null;
}

/** Rated rows first (rating descending), then the rest by votes. */
export async function computeLeaderboard(
  db: Kysely<Database>,
  o: LeaderboardOptions,
): Promise<LeaderboardRow[]> {
  const rounds = o.rounds ?? 200;
  const pairs = await pairVoteCounts(db, o.ability);
  const votes = await liveVotesPerModel(db, o.ability);
  const names = (await listModels(db)).map((m) => m.name);
  const rated = new Map<string, { rating: number; lo: number | null; hi: number | null }>();
  const notes = new Map<string, string>();
  const data = arenaFromPairCounts(
    pairs.map((p) => ({
      model_a: p.model_a,
      model_b: p.model_b,
      model_a_wins: p.a_wins,
      model_b_wins: p.b_wins,
      tie: p.ties,
      tie_bothbad: 0,
    })),
  );
  if (data.models.length >= 2 && data.totalVotes > 0) {
    try {
      const anchor = o.anchor && data.models.includes(o.anchor.model) ? { anchor: o.anchor } : {};
      // Intervals from a bootstrap over battles (rating/cluster-bootstrap.ts): votes on one message are
      // correlated, so resampling single votes would make the intervals far too narrow.
      const clusters = (await battleVoteCounts(db, o.ability)).map((b) => ({
        model_a: b.leftModel,
        model_b: b.rightModel,
        a_wins: b.left,
        b_wins: b.right,
        ties: b.equal,
      }));
      const r = computeArenaRatings(data, createRng(o.seed), {
        bootstrapRounds: rounds,
        clusters,
        ...anchor,
      });
      for (const row of r.rows) {
        rated.set(row.model, { rating: row.rating, lo: row.ratingLo, hi: row.ratingHi });
      }
      for (const e of r.excluded)
        notes.set(e.model, `no finite rating (${e.reason.replace('_', ' ')})`);
    } catch (err) {
      if (!isAppError(err)) throw err;
      for (const m of data.models) notes.set(m, `not rated: ${err.message}`);
    }
  }
  const shown: LeaderboardRow[] = [];
  const rest: LeaderboardRow[] = [];
  for (const model of names) {
    const n = votes.get(model) ?? 0;
    const r = rated.get(model);
    if (n >= o.minVotes && r) {
      shown.push({ model, votes: n, rating: r.rating, lo: r.lo, hi: r.hi, rank: null });
    } else {
      rest.push({
        model,
        votes: n,
        rating: null,
        lo: null,
        hi: null,
        rank: null,
        note:
          n < o.minVotes
            ? `not enough votes (${n} < ${o.minVotes})`
            : (notes.get(model) ?? 'not rated'),
      });
    }
  }
  shown.sort((a, b) => (b.rating ?? 0) - (a.rating ?? 0) || a.model.localeCompare(b.model));
  // Rank by intervals among the listed models: 1 + models whose lower bound is above this upper bound.
  const ranks = rankByIntervals(
    shown.map((r) => r.lo ?? r.rating ?? 0),
    shown.map((r) => r.hi ?? r.rating ?? 0),
  );
  const ranked = shown.map((row, i) => ({ ...row, rank: ranks[i] ?? null }));
  rest.sort((a, b) => b.votes - a.votes || a.model.localeCompare(b.model));
  return [...ranked, ...rest];
}

/** The leaderboard as a message with a table. */
export function leaderboardContent(
  rows: readonly LeaderboardRow[],
  o: LeaderboardOptions,
): MessageContent {
  const table: TableContent = {
    columns: ['rank', 'model', 'rating', '95% CI', 'votes'],
    align: ['right', 'left', 'right', 'right', 'right'],
    rows: rows.map((r) =>
      r.rating === null
        ? ['—', r.model, r.note ?? 'not rated', '', String(r.votes)]
        : [
            String(r.rank),
            r.model,
            r.rating.toFixed(0),
            r.lo === null || r.hi === null ? '—' : `${r.lo.toFixed(0)} – ${r.hi.toFixed(0)}`,
            String(r.votes),
          ],
    ),
  };
  const scope = o.ability ? ` (${o.ability})` : '';
  return {
    text: rows.some((r) => r.rating !== null)
      ? `Arena leaderboard${scope}`
      : `Arena leaderboard${scope}: not enough votes yet`,
    title: `Arena leaderboard${scope}`,
    table,
    footer: `Bradley–Terry ratings (Elo scale, mean 1000), 95% interval from ${o.rounds ?? 200} bootstrap rounds over battles (seed ${o.seed}); rank = 1 + models clearly above. Models need ${o.minVotes} votes to be rated.`,
  };
}
