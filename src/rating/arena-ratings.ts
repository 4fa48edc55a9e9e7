/**
 * @module rating/arena-ratings
 * The whole arena rating pipeline in one call: online Elo, Bradley–Terry MLE, bootstrap intervals, ranks and
 * predicted win rates (SCORING.md §4; Chiang et al. 2024 "Chatbot Arena", arXiv:2403.04132).
 */
import type { Rng } from '../core/rng.ts';
import type { BootstrapResult } from './bootstrap.ts';
import { bootstrapBradleyTerry } from './bootstrap.ts';
import type { BradleyTerryFit } from './bradley-terry.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import {
  type BattleCluster,
  type ClusterBootstrap,
  createClusterBootstrap,
} from './cluster-bootstrap.ts';
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

/** One rated model. Ratings are on the Elo scale. */
export interface ArenaRatingRow {
  readonly model: string;
  /** BT MLE rating. */
  readonly rating: number;
  /** Bootstrap 2.5 % / 97.5 % quantiles and median, null without bootstrap. */
  readonly ratingLo: number | null;
  readonly ratingHi: number | null;
  readonly ratingMedian: number | null;
  /** Online Elo (K = 4) over the input order, null when the input has no order (pair counts). */
  readonly elo: number | null;
  /** 1 + number of models whose lower bound is above this model's upper bound. */
  readonly rank: number;
  readonly numBattles: number;
  /** Mean over the other rated models of the predicted win probability, in (0, 1). */
  readonly avgWinRate: number;
}

/** Result of {@link computeArenaRatings}. */
export interface ArenaRatings {
  /** Rated models, sorted by rating descending (then name). */
  readonly rows: readonly ArenaRatingRow[];
  /** Models without a finite BT rating, with reason and their online Elo (null without order). */
  readonly excluded: readonly (ExcludedModel & { readonly elo: number | null })[];
  /** W[i][j] = P(rows[i] beats rows[j]); diagonal NaN. */
  readonly winRates: readonly (readonly number[])[];
  readonly fit: BradleyTerryFit;
  readonly bootstrap: BootstrapResult | null;
}

/**
 * Rates every model of `data`.
 * @param rng seeded randomness for the bootstrap (see `bootstrapBradleyTerry`).
 * @throws AppError `rating_disconnected` / `rating_input_invalid` from `fitBradleyTerry`; RangeError for a
 *   negative or non-integer `bootstrapRounds`.
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
  const fit = fitBradleyTerry(data, {
    ...(opts.anchor ? { anchor: opts.anchor } : {}),
    ...(opts.onDegenerate ? { onDegenerate: opts.onDegenerate } : {}),
  });
  const boot =
    rounds === 0
      ? null
      : opts.clusters
        ? clusterBootstrapAsResult(fit, opts.clusters, rng, rounds, opts.anchor)
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
      rating: fit.ratings[i]!,
      ratingLo: boot ? boot.lo[i]! : null,
      ratingHi: boot ? boot.hi[i]! : null,
      ratingMedian: boot ? boot.median[i]! : null,
      elo: elo ? elo[fit.dataIndex[i]!]! : null,
      rank: ranks[i]!,
      numBattles: fit.numBattles[i]!,
      avgWinRate: avg[i]!,
    }),
  );
  const sortedRatings = order.map((i) => fit.ratings[i]!);
  const excluded = fit.excluded.map((e) => ({
    ...e,
    elo: elo ? elo[data.models.indexOf(e.model)]! : null,
  }));
  return {
    rows,
    excluded,
    winRates: predictedWinRateMatrix(sortedRatings, fit.scale),
    fit,
    bootstrap: boot,
  };
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
