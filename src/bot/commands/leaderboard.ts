/**
 * @module bot/commands/leaderboard
 * The comparative (arena) leaderboard from stored votes: Bradley–Terry ratings on the Elo scale with a 95 %
 * bootstrap interval (SCORING.md §4; src/rating), votes per model, rank by intervals among the listed models.
 * Models with fewer than `aggregation.min_votes` live votes are listed as "not enough votes" (they still take part
 * in the fit, as in Chatbot Arena, but get no rating or rank on the board).
 *
 * Intervals come from a bootstrap over *battles* (SCORING.md §4; rating/cluster-bootstrap.ts), where a battle is
 * one posted message with all of its votes.
 *
 * The bot serves votes, health checks and gateway heartbeats on the same event loop, so the computation never
 * holds it for long: the stored battles are read once, folded into battle types and pair counts in time slices,
 * and the bootstrap runs a few rounds per slice ({@link createClusterBootstrap}), yielding with `setImmediate`
 * between slices (~{@link SLICE_MS} ms each). The database query itself is not sliced.
 */
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { MessageContent, TableContent } from '../../chat/port.ts';
import { isAppError } from '../../core/errors.ts';
import { createRng } from '../../core/rng.ts';
import {
  arenaFromPairCounts,
  type BattleCluster,
  clustersWithin,
  computeArenaRatings,
  createClusterBootstrap,
  type PairCountRecord,
  rankByIntervals,
} from '../../rating/index.ts';
import { battleVoteTypes, modelResponseCounts } from '../../storage/arena-queries.ts';
import type { Database } from '../../storage/schema.ts';
import { DEFAULT_SOURCES, type VoteSources } from '../../storage/sources.ts';

/** One leaderboard line. */
export interface LeaderboardRow {
  readonly model: string;
  readonly votes: number;
  /** null: not enough votes (or no finite rating). */
  readonly rating: number | null;
  /**
   * 95 % bootstrap bounds (null without a rating). `lo` is −Infinity / `hi` +Infinity when too many bootstrap
   * rounds left the model with only losses / only wins (too few votes for a finite bound).
   */
  readonly lo: number | null;
  readonly hi: number | null;
  readonly rank: number | null;
  /** Why there is no rating, when there is none. */
  readonly note?: string;
  /**
   * The model's comparison component when it is rated (1 = main; 2, 3… = separate groups that share no battle
   * with component 1, rated and ranked on their own scale; see `ArenaComponent` in rating/arena-ratings.ts).
   */
  readonly component?: number;
  /**
   * The model took part in the Bradley–Terry fit (also when it is listed without a rating for having too few
   * votes): the ratings' mean of 1000 is over these models.
   */
  readonly inFit?: boolean;
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
  /** Whose votes count (default: the community's own, `arena`; see storage/sources.ts). */
  readonly sources?: VoteSources;
}

/** Longest stretch of synchronous work between two event-loop turns, in ms (a target, not a hard bound). */
export const SLICE_MS = 15;

/** A checkpoint for long loops: yields to the event loop once the current slice has used {@link SLICE_MS}. */
function timeSlicer(): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    start = performance.now();
  };
}

/** Stored battles folded into live votes per model, pair counts and battle types (identical vote counts). */
async function foldBattles(
  battles: readonly {
    leftModel: string;
    rightModel: string;
    left: number;
    equal: number;
    right: number;
    /** Battles with these counts (default 1). */
    count?: number;
  }[],
  checkpoint: () => Promise<void>,
): Promise<{
  votes: Map<string, number>;
  pairs: PairCountRecord[];
  types: BattleCluster[];
}> {
  const votes = new Map<string, number>();
  const pairs = new Map<string, { -readonly [K in keyof PairCountRecord]: PairCountRecord[K] }>();
  const types = new Map<string, BattleCluster & { count: number }>();
  for (let k = 0; k < battles.length; k++) {
    if ((k & 255) === 255) await checkpoint();
    const b = battles[k]!;
    const c = b.count ?? 1;
    const n = (b.left + b.equal + b.right) * c;
    if (n === 0) continue;
    votes.set(b.leftModel, (votes.get(b.leftModel) ?? 0) + n);
    if (b.rightModel === b.leftModel) continue; // a self-battle says nothing about ratings
    votes.set(b.rightModel, (votes.get(b.rightModel) ?? 0) + n);
    const pairKey = `${b.leftModel}\u0000${b.rightModel}`;
    const pair = pairs.get(pairKey);
    if (pair) {
      pair.model_a_wins += b.left * c;
      pair.model_b_wins += b.right * c;
      pair.tie += b.equal * c;
    } else {
      pairs.set(pairKey, {
        model_a: b.leftModel,
        model_b: b.rightModel,
        model_a_wins: b.left * c,
        model_b_wins: b.right * c,
        tie: b.equal * c,
        tie_bothbad: 0,
      });
    }
    const typeKey = `${pairKey}\u0000${b.left},${b.right},${b.equal}`;
    const type = types.get(typeKey);
    if (type) type.count += c;
    else {
      types.set(typeKey, {
        model_a: b.leftModel,
        model_b: b.rightModel,
        a_wins: b.left,
        b_wins: b.right,
        ties: b.equal,
        count: c,
      });
    }
  }
  return { votes, pairs: [...pairs.values()], types: [...types.values()] };
}

/**
 * Rated rows first (rating descending), then the rest by votes. With no live votes (in `o.ability`) every
 * model is listed with 0 votes and no rating; {@link leaderboardContent} then answers "No votes yet".
 * Runs in time slices (see the module doc), so the event loop keeps serving other work meanwhile.
 */
export async function computeLeaderboard(
  db: Kysely<Database>,
  o: LeaderboardOptions,
): Promise<LeaderboardRow[]> {
  const rounds = o.rounds ?? 200;
  const sources = o.sources ?? DEFAULT_SOURCES;
  const battles = await battleVoteTypes(db, o.ability, sources);
  // The models that can battle, and those that appear in the counted votes: names known only from imported
  // votes that are not counted are not on this board.
  const names = [
    ...new Set([
      ...(await modelResponseCounts(db)).map((m) => m.name),
      ...battles.flatMap((b) => [b.leftModel, b.rightModel]),
    ]),
  ].sort((a, b) => a.localeCompare(b));
  const checkpoint = timeSlicer();
  const { votes, pairs, types } = await foldBattles(battles, checkpoint);
  const rated = new Map<
    string,
    { rating: number; lo: number | null; hi: number | null; component: number }
  >();
  const notes = new Map<string, string>();
  if (pairs.length > 0) {
    const data = arenaFromPairCounts(pairs);
    await checkpoint();
    try {
      const anchor = o.anchor && data.models.includes(o.anchor.model) ? o.anchor : undefined;
      const r = computeArenaRatings(data, createRng(o.seed), {
        bootstrapRounds: 0,
        ...(anchor ? { anchor } : {}),
      });
      for (const e of r.excluded) {
        notes.set(e.model, `no finite rating (${e.reason.replace('_', ' ')})`);
      }
      await checkpoint();
      // Intervals from a bootstrap over battles (rating/cluster-bootstrap.ts): votes on one message are
      // correlated, so resampling single votes would make the intervals far too narrow. Battles with the same
      // votes are handed over as one type with a count; a few rounds per slice. Each comparison component is
      // bootstrapped on its own battles (one rng stream, main component first).
      const rng = createRng(o.seed);
      for (const comp of r.components) {
        const boot = createClusterBootstrap(clustersWithin(types, comp.members), rng, {
          rounds,
          fit: comp.fit,
          ...(anchor && comp.members.includes(anchor.model) ? { anchor } : {}),
        });
        await checkpoint();
        while (boot.done < rounds) {
          boot.run(1);
          await checkpoint();
        }
        const q = boot.summary();
        const index = new Map(boot.models.map((m, i) => [m, i]));
        for (const row of r.rows) {
          if (row.component !== comp.component) continue;
          const i = index.get(row.model);
          const none = rounds === 0 || i === undefined || Number.isNaN(q.median[i]!);
          rated.set(row.model, {
            rating: row.rating,
            lo: none ? null : q.lo[i]!,
            hi: none ? null : q.hi[i]!,
            component: row.component,
          });
        }
      }
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
      shown.push({
        model,
        votes: n,
        rating: r.rating,
        lo: r.lo,
        hi: r.hi,
        rank: null,
        component: r.component,
        inFit: true,
      });
    } else {
      rest.push({
        model,
        votes: n,
        rating: null,
        lo: null,
        hi: null,
        rank: null,
        inFit: r !== undefined,
        note:
          n < o.minVotes
            ? `not enough votes (${n} < ${o.minVotes})`
            : (notes.get(model) ?? 'not rated'),
      });
    }
  }
  shown.sort(
    (a, b) =>
      (a.component ?? 1) - (b.component ?? 1) ||
      (b.rating ?? 0) - (a.rating ?? 0) ||
      a.model.localeCompare(b.model),
  );
  // Rank by intervals among the listed models of the same component: 1 + models whose lower bound is above
  // this upper bound (separate components share no scale).
  const ranked: LeaderboardRow[] = [];
  for (const c of new Set(shown.map((r) => r.component ?? 1))) {
    const group = shown.filter((r) => (r.component ?? 1) === c);
    const ranks = rankByIntervals(
      group.map((r) => r.lo ?? r.rating ?? 0),
      group.map((r) => r.hi ?? r.rating ?? 0),
    );
    for (const [i, row] of group.entries()) ranked.push({ ...row, rank: ranks[i] ?? null });
  }
  rest.sort((a, b) => b.votes - a.votes || a.model.localeCompare(b.model));
  return [...ranked, ...rest];
}

/** A bound for display: rounded, or ∞ / −∞ for an unbounded one. */
function bound(v: number): string {
  if (v === Number.POSITIVE_INFINITY) return '∞';
  if (v === Number.NEGATIVE_INFINITY) return '−∞';
  return v.toFixed(0);
}

/**
 * The leaderboard as a message with a table, or a plain "No votes yet" (per ability: "No votes in reasoning
 * yet") when there is no live vote at all. Unrated models show their reason in the rating column; ratings are
 * right-aligned under the header inside that (left-aligned) column. Unbounded interval ends show as ∞ with a
 * footnote.
 */
export function leaderboardContent(
  rows: readonly LeaderboardRow[],
  o: LeaderboardOptions,
): MessageContent {
  const scope = o.ability ? ` (${o.ability})` : '';
  if (!rows.some((r) => r.votes > 0)) {
    return {
      text: `${o.ability ? `No votes in ${o.ability} yet` : 'No votes yet'}. Vote on an arena battle by reacting to it; the leaderboard fills in as votes come.`,
    };
  }
  const ratingHeader = 'rating';
  const ratingWidth = Math.max(
    ratingHeader.length,
    ...rows.map((r) => (r.rating === null ? 0 : r.rating.toFixed(0).length)),
  );
  const unbounded = rows.some(
    (r) =>
      r.rating !== null &&
      ((r.lo !== null && !Number.isFinite(r.lo)) || (r.hi !== null && !Number.isFinite(r.hi))),
  );
  const table: TableContent = {
    columns: ['rank', 'model', ratingHeader, '95% CI', 'votes'],
    // The rating column holds numbers and (for unrated models) reasons: left-aligned, with the numbers padded
    // so they line up right under the header.
    align: ['right', 'left', 'left', 'right', 'right'],
    rows: rows.map((r) =>
      r.rating === null
        ? ['—', r.model, r.note ?? 'not rated', '', String(r.votes)]
        : [
            String(r.rank),
            (r.component ?? 1) > 1 ? `${r.model} [group ${r.component}]` : r.model,
            r.rating.toFixed(0).padStart(ratingWidth),
            r.lo === null || r.hi === null ? '—' : `${bound(r.lo)} – ${bound(r.hi)}`,
            String(r.votes),
          ],
    ),
  };
  // The mean of 1000 is over every model in the fit, also those listed without a rating (too few votes): say
  // so, or "rank 1, 970" under "mean 1000" reads as a mistake.
  const fittedUnlisted = rows.filter((r) => r.rating === null && r.inFit === true).length;
  const scale = o.anchor
    ? `anchored at ${o.anchor.model} = ${o.anchor.rating} when it is rated`
    : fittedUnlisted > 0
      ? `mean 1000 over the models in the fit, including the ${fittedUnlisted} listed without a rating for too few votes`
      : 'mean 1000';
  const sources = o.sources ?? DEFAULT_SOURCES;
  const whose =
    sources.length === 1
      ? "Votes: the community's own (arena)."
      : `Votes: the community's own (arena) plus imported ${sources.filter((x) => x !== 'arena').join(', ')}.`;
  const groups = new Map<number, string[]>();
  for (const r of rows) {
    if (r.rating === null || (r.component ?? 1) === 1) continue;
    groups.set(r.component!, [...(groups.get(r.component!) ?? []), r.model]);
  }
  const separate = [...groups]
    .map(
      ([c, models]) =>
        ` Group ${c} (${models.join(', ')}) shares no battle with the other models: its ratings and ranks are on its own scale, not comparable with the rest.`,
    )
    .join('');
  const footnote =
    separate +
    (unbounded
      ? ' ∞: in more than 2.5 % of the bootstrap rounds the model had only wins (or only losses), too few votes for a finite bound; more votes narrow it.'
      : '');
  return {
    text: rows.some((r) => r.rating !== null)
      ? `Arena leaderboard${scope}`
      : `Arena leaderboard${scope}: not enough votes yet`,
    title: `Arena leaderboard${scope}`,
    table,
    footer: `${whose} Bradley–Terry ratings (Elo scale, ${scale}), 95% interval from ${o.rounds ?? 200} bootstrap rounds over battles (seed ${o.seed}); rank = 1 + models clearly above. Models need ${o.minVotes} votes to be rated.${footnote}`,
  };
}
