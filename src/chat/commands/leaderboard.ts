/**
 * @module chat/commands/leaderboard
 * The comparative (arena) leaderboard from stored votes: Bradley–Terry ratings on the Elo scale with a 95 %
 * bootstrap interval (SCORING.md §4; src/rating), votes per model, rank by intervals among the listed models.
 * Models with fewer than `aggregation.min_votes` live votes are listed as "not enough votes" (they still take part
 * in the fit, as in Chatbot Arena, but get no rating or rank on the board).
 *
 * Intervals come from a bootstrap over *battles* (SCORING.md §4), where a battle is one posted message with all
 * of its votes, not over single votes as in Chatbot Arena (where every battle has exactly one vote). The votes on
 * one message share the same prompt and answers and are strongly correlated (often unanimous), so resampling
 * single votes treats 40 copies of one judgement as 40 independent observations and gives intervals that are
 * far too narrow; resampling whole battles keeps that correlation (a cluster bootstrap). Each round draws as many
 * battles as there are, with replacement, and refits Bradley–Terry (rating/fitBradleyTerry); a model left without
 * a finite rating in a round (e.g. all its battles missed) simply has no value for that round.
 */
import type { Kysely } from 'kysely';
import { isAppError } from '../../core/errors.ts';
import type { Rng } from '../../core/rng.ts';
import { createRng } from '../../core/rng.ts';
import type { PairCountRecord } from '../../rating/index.ts';
import {
  arenaFromPairCounts,
  computeArenaRatings,
  fitBradleyTerry,
  quantileSorted,
} from '../../rating/index.ts';
import {
  type BattleVoteCounts,
  battleVoteCounts,
  liveVotesPerModel,
} from '../../storage/arena-queries.ts';
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
      const r = computeArenaRatings(data, createRng(o.seed), { bootstrapRounds: 0, ...anchor });
      const ci =
        rounds > 0
          ? battleBootstrap(
              await battleVoteCounts(db, o.ability),
              createRng(o.seed),
              rounds,
              anchor,
            )
          : new Map();
      for (const row of r.rows) {
        const iv = ci.get(row.model);
        rated.set(row.model, { rating: row.rating, lo: iv?.lo ?? null, hi: iv?.hi ?? null });
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
  const ranked = shown.map((row) => ({
    ...row,
    // Rank by intervals among the listed models: 1 + models whose lower bound is above this upper bound.
    rank: 1 + shown.filter((o2) => (o2.lo ?? o2.rating ?? 0) > (row.hi ?? row.rating ?? 0)).length,
  }));
  rest.sort((a, b) => b.votes - a.votes || a.model.localeCompare(b.model));
  return [...ranked, ...rest];
}

/** Pair-count records of a multiset of battles (given by index, repeats allowed). */
function pairRecords(
  battles: readonly BattleVoteCounts[],
  picks: Iterable<number>,
): PairCountRecord[] {
  const acc = new Map<
    string,
    {
      model_a: string;
      model_b: string;
      model_a_wins: number;
      model_b_wins: number;
      tie: number;
      tie_bothbad: number;
    }
  >();
  for (const i of picks) {
    const b = battles[i] as BattleVoteCounts;
    const key = `${b.leftModel}\u0000${b.rightModel}`;
    const rec = acc.get(key) ?? {
      model_a: b.leftModel,
      model_b: b.rightModel,
      model_a_wins: 0,
      model_b_wins: 0,
      tie: 0,
      tie_bothbad: 0,
    };
    acc.set(key, rec);
    rec.model_a_wins += b.left;
    rec.model_b_wins += b.right;
    rec.tie += b.equal;
  }
  return [...acc.values()];
}

/**
 * 95 % intervals (2.5 % / 97.5 % quantiles) of each model's BT rating from a bootstrap over battles (see the
 * module doc). Pure given the Rng.
 */
export function battleBootstrap(
  battles: readonly BattleVoteCounts[],
  rng: Rng,
  rounds: number,
  anchor: { anchor?: { readonly model: string; readonly rating: number } } = {},
): Map<string, { lo: number; hi: number }> {
  const samples = new Map<string, number[]>();
  const n = battles.length;
  if (n === 0) return new Map();
  for (let round = 0; round < rounds; round++) {
    const picks = Array.from({ length: n }, () => rng.int(n));
    const data = arenaFromPairCounts(pairRecords(battles, picks));
    if (data.models.length < 2) continue;
    let fit: ReturnType<typeof fitBradleyTerry>;
    try {
      fit = fitBradleyTerry(
        data,
        anchor.anchor && data.models.includes(anchor.anchor.model) ? anchor : {},
      );
    } catch (err) {
      if (isAppError(err)) continue; // a degenerate resample (disconnected): no values this round
      throw err;
    }
    fit.models.forEach((m, i) => {
      const xs = samples.get(m) ?? [];
      samples.set(m, xs);
      xs.push(fit.ratings[i] as number);
    });
  }
  const out = new Map<string, { lo: number; hi: number }>();
  for (const [m, xs] of samples) {
    xs.sort((a, b) => a - b);
    out.set(m, { lo: quantileSorted(xs, 0.025), hi: quantileSorted(xs, 0.975) });
  }
  return out;
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
