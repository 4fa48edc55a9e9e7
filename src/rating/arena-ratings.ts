/**
 * @module rating/arena-ratings
 * The whole arena rating pipeline in one call: online Elo, Bradley–Terry MLE, bootstrap intervals, ranks and
 * predicted win rates (docs/scoring.md §4; Chiang et al. 2024 "Chatbot Arena", arXiv:2403.04132).
 */
import { isAppError } from '../core/errors.ts';
import type { Rng } from '../core/rng.ts';
import type { BootstrapResult } from './bootstrap.ts';
import { bootstrapBradleyTerry } from './bootstrap.ts';
import type { BradleyTerryFit } from './bradley-terry.ts';
import { anchorWithoutBattles, fitBradleyTerry } from './bradley-terry.ts';
import {
  type BattleCluster,
  type ClusterBootstrap,
  createClusterBootstrap,
} from './cluster-bootstrap.ts';
import { analyzeComparisonGraph } from './comparison-graph.ts';
import { splitComponents } from './components.ts';
import { computeOnlineElo } from './online-elo.ts';
import { rankByIntervals } from './rank-by-intervals.ts';
import type { ArenaData, ExcludedModel } from './types.ts';
import { averagePredictedWinRate, predictedWinRateMatrix } from './win-rate.ts';

/** Options of {@link computeArenaRatings}. */
export interface ArenaRatingsOptions {
  /** Bootstrap rounds; 0 skips the bootstrap (intervals null, rank from point ratings). Default 1000. */
  readonly bootstrapRounds?: number;
  /** Shift so this model has this rating (e.g. mixtral-8x7b-instruct-v0.1 = 1114). */
  readonly anchor?: { readonly model: string; readonly rating: number };
  /** See `BradleyTerryOptions.onDegenerate` (default 'exclude'). */
  readonly onDegenerate?: 'exclude' | 'error';
  /**
   * The same votes grouped by battle. When given, intervals come from a bootstrap over these battles
   * ({@link createClusterBootstrap}) instead of over single votes: use it when battles carry several votes.
   */
  readonly clusters?: readonly BattleCluster[];
}

/** One rated model. Ratings are on the Elo scale, comparable only with rows of the same `component`. */
export interface ArenaRatingRow {
  readonly model: string;
  /**
   * The model's comparison component: 1 = the main one (most models), 2, 3… = separate groups never compared
   * with it (see {@link ArenaComponent}). `rating`, the bounds, `rank` and `avgWinRate` are relative to the
   * models of this component only.
   */
  readonly component: number;
  /** BT MLE rating (mean 1000 over the component's rated models, or anchored in the anchor's component). */
  readonly rating: number;
  /**
   * Bootstrap 2.5 % / 97.5 % quantiles and median, null without bootstrap. −Infinity / +Infinity when more than
   * ⌊0.025·(rounds − 1)⌋ rounds (≈ 2.5 %) left the model with only losses / only wins in its component (such a
   * round counts as −∞ / +∞, docs/scoring.md "One-sided models"); NaN only when no round rated the model.
   */
  readonly ratingLo: number | null;
  readonly ratingHi: number | null;
  readonly ratingMedian: number | null;
  /**
   * True when the bootstrap gave every round the same rating (a zero-width interval) for a model that is not the
   * anchor: the resamples could not vary (e.g. only ties between two models), which is not certainty. Such an
   * interval must not be shown as one: callers say "too few votes" (docs/scoring.md §4.2). False without bootstrap.
   */
  readonly noSpread: boolean;
  /** Online Elo (K = 4) over the input order, null when the input has no order (pair counts). */
  readonly elo: number | null;
  /** 1 + number of models of the same component whose lower bound is above this model's upper bound. */
  readonly rank: number;
  readonly numBattles: number;
  /** Mean over the other rated models of the same component of the predicted win probability, in (0, 1). */
  readonly avgWinRate: number;
}

/**
 * A separate comparison component: models linked to each other by a chain of battles and to no model outside
 * (docs/scoring.md, "Separate comparison components"). Each component is fitted and bootstrapped on its own
 * votes; ratings of different components are on unrelated scales (each has mean 1000, or the anchor) and must
 * never be compared or ranked together.
 */
export interface ArenaComponent {
  /** 1 = the main component (most models, then most votes), then 2, 3… in the same order. */
  readonly component: number;
  /** Its rated models, by rating descending (then name): the `rows` with this `component`. */
  readonly models: readonly string[];
  /** Every model of the component, rated or not (unbounded ones are in `ArenaRatings.excluded`). */
  readonly members: readonly string[];
  /** Votes among the component's models. */
  readonly numVotes: number;
  readonly fit: BradleyTerryFit;
  readonly bootstrap: BootstrapResult | null;
  /** W[i][j] = P(models[i] beats models[j]) within the component; diagonal NaN. */
  readonly winRates: readonly (readonly number[])[];
}

/** Result of {@link computeArenaRatings}. */
export interface ArenaRatings {
  /**
   * Rated models of every component: component 1 first, each by rating descending (then name). Compare rows
   * only within one `component`.
   */
  readonly rows: readonly ArenaRatingRow[];
  /**
   * Models without a finite BT rating, with reason and their online Elo (null without order). `component` is
   * the component they belong to, or null for a model without votes or in a component where no two models
   * can be rated (e.g. a pair with only one-sided votes). `disconnected` now only means "no votes".
   */
  readonly excluded: readonly (ExcludedModel & {
    readonly elo: number | null;
    readonly component: number | null;
  })[];
  /** The rated components, main first (`components[k].component === k + 1`). */
  readonly components: readonly ArenaComponent[];
  /** W[i][j] = P(rows[i] beats rows[j]); NaN on the diagonal and between rows of different components. */
  readonly winRates: readonly (readonly number[])[];
  /** The main component's fit (`components[0].fit`); null when no two models can be rated (no rows). */
  readonly fit: BradleyTerryFit | null;
  /** The main component's bootstrap (`components[0].bootstrap`); null without one or without a component. */
  readonly bootstrap: BootstrapResult | null;
}

/**
 * Rates every model of `data`, each comparison component on its own (see {@link ArenaComponent}).
 *
 * Components are found from the votes ({@link splitComponents}); each with two rateable models or more is fitted
 * by `fitBradleyTerry` (its largest strongly connected group; the others of the component are excluded as
 * unbounded) and bootstrapped on its own votes, main component first, all from the one `rng` (so a single
 * component gives exactly the former single-group result). The anchor applies to the component that holds it.
 * With `onDegenerate: 'error'` the whole data must form one rateable group. When no two models can be rated
 * (no votes, or e.g. one vote between two models) the result has no rows and no components, and every model
 * is in `excluded` with its reason: a listing with nothing rated is not an error.
 *
 * @param rng seeded randomness for the bootstrap (see `bootstrapBradleyTerry`).
 * @throws AppError `rating_disconnected` when `onDegenerate: 'error'` and some model has no finite rating, or
 *   the anchor model has no finite rating; `rating_input_invalid` from
 *   `fitBradleyTerry`; RangeError for a negative or non-integer `bootstrapRounds`.
 */
export function computeArenaRatings(
  data: ArenaData,
  rng: Rng,
  opts: ArenaRatingsOptions = {},
): ArenaRatings {
  const rounds = opts.bootstrapRounds ?? 1000;
  if (!Number.isSafeInteger(rounds) || rounds < 0) {
    throw new RangeError(`bootstrap rounds must be a non-negative integer, got ${rounds}`);
  }
  const elo = computeOnlineElo(data);
  checkRatingsInput(data, opts);
  const eloOf = (model: string): number | null => (elo ? elo[data.models.indexOf(model)]! : null);
  const parts = splitComponents(data);
  const components: ArenaComponent[] = [];
  const rows: ArenaRatingRow[] = [];
  const excluded: ArenaRatings['excluded'][number][] = [];
  const inComponent = new Set<string>();
  for (const part of parts) {
    const sub = part.data;
    for (const name of sub.models) inComponent.add(name);
    const anchor = opts.anchor && sub.models.includes(opts.anchor.model) ? opts.anchor : undefined;
    let fit: BradleyTerryFit;
    try {
      fit = fitBradleyTerry(sub, anchor ? { anchor } : {});
    } catch (err) {
      // An anchor that cannot be rated is the caller's mistake: say so rather than drop its component.
      if (!isAppError(err, 'rating_disconnected') || anchor) throw err;
      // No two models of this component can be rated: list them with their reasons.
      for (const e of unratedReasons(sub))
        excluded.push({ ...e, elo: eloOf(e.model), component: null });
      continue;
    }
    const rated = rateComponent(sub, fit, anchor, rng, {
      component: components.length + 1,
      rounds,
      clusters: opts.clusters,
      eloOf,
    });
    rows.push(...rated.rows);
    for (const e of fit.excluded)
      excluded.push({ ...e, elo: eloOf(e.model), component: rated.component.component });
    components.push(rated.component);
  }
  const main = components[0];
  for (let i = 0; i < data.models.length; i++) {
    const name = data.models[i]!;
    if (!inComponent.has(name)) {
      excluded.push({
        model: name,
        reason: 'disconnected',
        numBattles: data.numBattles[i]!,
        elo: eloOf(name),
        component: null,
      });
    }
  }
  // The win-rate matrix over all rows: NaN between components (no common scale).
  const winRates = rows.map((ri) =>
    rows.map((rj) =>
      ri === rj || ri.component !== rj.component
        ? Number.NaN
        : predictedWinRateMatrix([ri.rating, rj.rating], main!.fit.scale)[0]![1]!,
    ),
  );
  return {
    rows,
    excluded,
    components,
    winRates,
    fit: main?.fit ?? null,
    bootstrap: main?.bootstrap ?? null,
  };
}

/**
 * Rejects what cannot be rated: with `onDegenerate: 'error'`, data that is not one rateable group; an anchor
 * model without battles.
 */
function checkRatingsInput(data: ArenaData, opts: ArenaRatingsOptions): void {
  if (opts.onDegenerate === 'error') {
    // The whole data must form one rateable group: fitBradleyTerry names every model that does not.
    fitBradleyTerry(data, {
      ...(opts.anchor ? { anchor: opts.anchor } : {}),
      onDegenerate: 'error',
    });
  }
  if (opts.anchor) {
    const a = data.models.indexOf(opts.anchor.model);
    if (a < 0 || !(data.numBattles[a]! > 0)) throw anchorWithoutBattles(opts.anchor.model);
  }
}

/**
 * One fitted component's rows (by rating, best first) and its {@link ArenaComponent}: bootstrapped from `rng`
 * (by clusters when given) unless `o.rounds` is 0, ranked by the intervals, with each row's online Elo.
 */
function rateComponent(
  sub: ArenaData,
  fit: BradleyTerryFit,
  anchor: ArenaRatingsOptions['anchor'],
  rng: Rng,
  o: {
    readonly component: number;
    readonly rounds: number;
    readonly clusters: ArenaRatingsOptions['clusters'];
    readonly eloOf: (model: string) => number | null;
  },
): { rows: ArenaRatingRow[]; component: ArenaComponent } {
  const { component, rounds, clusters, eloOf } = o;
  const boot =
    rounds === 0
      ? null
      : clusters
        ? clusterBootstrapAsResult(fit, clustersWithin(clusters, sub.models), rng, rounds, anchor)
        : bootstrapBradleyTerry(fit, rng, { rounds });
  const ranks = boot
    ? rankByIntervals(boot.lo, boot.hi)
    : rankByIntervals(fit.ratings, fit.ratings);
  const avg = averagePredictedWinRate(fit.ratings, fit.scale);
  const order = fit.models
    .map((_, i) => i)
    .sort(
      (a, b) => fit.ratings[b]! - fit.ratings[a]! || (fit.models[a]! < fit.models[b]! ? -1 : 1),
    );
  const rows = order.map(
    (i): ArenaRatingRow => ({
      model: fit.models[i]!,
      component,
      rating: fit.ratings[i]!,
      ratingLo: boot ? boot.lo[i]! : null,
      ratingHi: boot ? boot.hi[i]! : null,
      ratingMedian: boot ? boot.median[i]! : null,
      noSpread:
        boot !== null &&
        fit.models[i] !== anchor?.model &&
        Number.isFinite(boot.lo[i]!) &&
        boot.lo[i] === boot.hi[i],
      elo: eloOf(fit.models[i]!),
      rank: ranks[i]!,
      numBattles: fit.numBattles[i]!,
      avgWinRate: avg[i]!,
    }),
  );
  return {
    rows,
    component: {
      component,
      models: order.map((i) => fit.models[i]!),
      members: sub.models,
      numVotes: sub.totalVotes,
      fit,
      bootstrap: boot,
      winRates: predictedWinRateMatrix(
        order.map((i) => fit.ratings[i]!),
        fit.scale,
      ),
    },
  };
}

/** Reasons for every model of a component in which no two models can be rated. */
function unratedReasons(sub: ArenaData): ExcludedModel[] {
  const si = new Float64Array(sub.pairI.length);
  const sj = new Float64Array(sub.pairI.length);
  for (let k = 0; k < si.length; k++) {
    si[k] = sub.winsI[k]! + 0.5 * sub.ties[k]!;
    sj[k] = sub.winsJ[k]! + 0.5 * sub.ties[k]!;
  }
  const g = analyzeComparisonGraph(sub.models.length, sub.pairI, sub.pairJ, si, sj);
  return sub.models.map((model, i) => ({
    model,
    reason: g.reasons[i] ?? 'unbounded',
    numBattles: sub.numBattles[i]!,
  }));
}

/**
 * The battles whose two models are both among `models` (one comparison component's battles), so that a
 * component's bootstrap over battles draws only its own battles.
 */
export function clustersWithin(
  clusters: readonly BattleCluster[],
  models: readonly string[],
): BattleCluster[] {
  const set = new Set(models);
  return clusters.filter((c) => set.has(c.model_a) && set.has(c.model_b));
}

/**
 * The bootstrap over battles ({@link createClusterBootstrap}, warm-started from `fit`) run to the end, in the
 * shape of {@link BootstrapResult} (aligned with `fit.models`; no samples kept). Callers that must not block
 * (the chat `/leaderboard`) run {@link createClusterBootstrap} a few rounds at a time instead.
 */
export function clusterBootstrapAsResult(
  fit: BradleyTerryFit,
  clusters: readonly BattleCluster[],
  rng: Rng,
  rounds: number,
  anchor: { readonly model: string; readonly rating: number } | undefined,
): BootstrapResult {
  const boot = createClusterBootstrap(clusters, rng, {
    rounds,
    fit,
    ...(anchor ? { anchor } : {}),
  });
  boot.finish();
  return clusterBootstrapResult(boot);
}

/**
 * A (finished or partly run) {@link ClusterBootstrap} in the shape of {@link BootstrapResult}, aligned with the
 * fit it was created with (`boot.models`). A model with no defined sample gets (−∞, +∞) and a NaN median.
 */
export function clusterBootstrapResult(boot: ClusterBootstrap): BootstrapResult {
  const q = boot.summary();
  const m = boot.models.length;
  const lo = new Float64Array(m);
  const hi = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const none = Number.isNaN(q.median[i]!);
    lo[i] = none ? Number.NEGATIVE_INFINITY : q.lo[i]!;
    hi[i] = none ? Number.POSITIVE_INFINITY : q.hi[i]!;
  }
  return {
    rounds: boot.done,
    lo,
    hi,
    median: q.median,
    samples: new Float64Array(0),
    degenerateRounds: q.degenerateRounds,
  };
}
