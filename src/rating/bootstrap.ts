/**
 * @module rating/bootstrap
 * Bootstrap confidence intervals for Bradley–Terry ratings (SCORING.md §4; Chiang et al. 2024 "Chatbot Arena",
 * arXiv:2403.04132, §4; lm-sys FastChat `fastchat/serve/monitor/rating_systems.py` `compute_bootstrap_bt`).
 */
import type { Rng } from '../core/rng.ts';
import { multinomialConditionals, sampleMultinomialInto } from './binomial.ts';
import type { BradleyTerryFit } from './bradley-terry.ts';
import { createBtWorkspace, solveBradleyTerry } from './bradley-terry.ts';
import { analyzeComparisonGraph, PairAdjacency } from './comparison-graph.ts';
import { quantileSorted } from './quantile.ts';

/** Options of {@link bootstrapBradleyTerry}. */
export interface BootstrapOptions {
  /** Number of resamples (default 1000; FastChat publishes 100). Must be a positive integer. */
  readonly rounds?: number;
  /** Newton tolerance per refit on max|∇ mean NLL| (default 1e-10). */
  readonly tolerance?: number;
  /** Lower and upper quantile levels (default 0.025 and 0.975). */
  readonly lower?: number;
  readonly upper?: number;
}

/** Bootstrap summary; arrays are indexed like `fit.models`. */
export interface BootstrapResult {
  readonly rounds: number;
  /** The `lower`-quantile (default 2.5 %) of each model's bootstrap ratings (Elo scale). */
  readonly lo: Float64Array;
  /** The `upper`-quantile (default 97.5 %). */
  readonly hi: Float64Array;
  /** The median. */
  readonly median: Float64Array;
  /** Every round's ratings, row-major: samples[r·m + i]; ±Infinity/NaN in degenerate rounds (see below). */
  readonly samples: Float64Array;
  /** Rounds whose resample was not strongly connected (see {@link bootstrapBradleyTerry}). */
  readonly degenerateRounds: number;
}

/**
 * Bootstrap of the BT fit over votes: each round draws N votes with replacement from the rated votes, i.e.
 * cell counts ~ Multinomial(N, count/N) over the (pair, outcome) cells (wins of either side, ties), refits
 * the BT MLE warm-started from the point estimate (chord iterations with the estimate's Hessian, then Newton), and maps θ to ratings with the fit's gauge
 * (anchored model fixed, zero-width interval; otherwise mean = fit.initial). Quantiles use linear interpolation
 * (pandas default). Merging FastChat's oriented cells (a, b, outcome) into unordered cells leaves the
 * multinomial's law of the likelihood-relevant counts unchanged.
 *
 * Degenerate rounds (a thin model draws only wins or only losses, so the resample's MLE is infinite): the
 * largest strongly connected group is refit with its mean θ kept at the point estimate's (or the anchor
 * fixed, when it is in the group; NaN for every model otherwise); models above it get +Infinity, below it
 * −Infinity, others NaN. NaN samples are ignored by the quantiles; the count is in `degenerateRounds`.
 *
 * @param fit a fit from `fitBradleyTerry`.
 * @param rng seeded source of randomness (same seed → identical result).
 * @throws RangeError when `rounds` is not a positive integer.
 */
export function bootstrapBradleyTerry(
  fit: BradleyTerryFit,
  rng: Rng,
  opts: BootstrapOptions = {},
): BootstrapResult {
  const rounds = opts.rounds ?? 1000;
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    throw new RangeError(`bootstrap rounds must be a positive integer, got ${rounds}`);
  }
  const prob = fit.problem;
  const { m, pi, pj } = prob;
  const P = pi.length;
  const cells = new Float64Array(3 * P);
  for (let k = 0; k < P; k++) {
    cells[3 * k] = prob.wi[k]!;
    cells[3 * k + 1] = prob.wj[k]!;
    cells[3 * k + 2] = prob.t[k]!;
  }
  const cond = multinomialConditionals(cells);
  const drawn = new Float64Array(3 * P);
  const wi = new Float64Array(P);
  const wj = new Float64Array(P);
  const t = new Float64Array(P);
  const si = new Float64Array(P);
  const sj = new Float64Array(P);
  const theta = new Float64Array(m);
  const ws = createBtWorkspace(m);
  const adj = new PairAdjacency(m, pi, pj);
  const samples = new Float64Array(rounds * m);
  const scale = fit.scale;
  const anchor = fit.anchorIndex;
  const anchorRating = anchor >= 0 ? fit.ratings[anchor]! : 0;
  const tol = opts.tolerance ?? 1e-10;
  let degenerate = 0;
  for (let r = 0; r < rounds; r++) {
    sampleMultinomialInto(rng, prob.total, cond, drawn);
    for (let k = 0; k < P; k++) {
      wi[k] = drawn[3 * k]!;
      wj[k] = drawn[3 * k + 1]!;
      t[k] = drawn[3 * k + 2]!;
      si[k] = wi[k]! + 0.5 * t[k]!;
      sj[k] = wj[k]! + 0.5 * t[k]!;
    }
    theta.set(fit.theta);
    const row = r * m;
    if (adj.stronglyConnected(si, sj)) {
      solveBradleyTerry(prob, wi, wj, t, theta, {
        tol,
        workspace: ws,
        fixedFactor: fit.hessianFactor,
      });
      const offset = anchor >= 0 ? anchorRating - scale * theta[anchor]! : fit.initial;
      for (let i = 0; i < m; i++) samples[row + i] = scale * theta[i]! + offset;
      if (anchor >= 0) samples[row + anchor] = anchorRating;
      continue;
    }
    degenerate++;
    const g = analyzeComparisonGraph(m, pi, pj, si, sj);
    solveBradleyTerry(prob, wi, wj, t, theta, { tol, workspace: ws, active: g.kept });
    const anchorOk = anchor < 0 || g.kept[anchor] === 1;
    const offset = anchor >= 0 ? anchorRating - scale * theta[anchor]! : fit.offset;
    for (let i = 0; i < m; i++) {
      const reason = g.reasons[i];
      samples[row + i] = !anchorOk
        ? Number.NaN
        : reason === null
          ? scale * theta[i]! + offset
          : reason === 'unbounded_above'
            ? Number.POSITIVE_INFINITY
            : reason === 'unbounded_below'
              ? Number.NEGATIVE_INFINITY
              : Number.NaN;
    }
    if (anchor >= 0 && anchorOk) samples[row + anchor] = anchorRating;
  }
  const lo = new Float64Array(m);
  const hi = new Float64Array(m);
  const median = new Float64Array(m);
  const col = new Float64Array(rounds);
  const qLo = opts.lower ?? 0.025;
  const qHi = opts.upper ?? 0.975;
  for (let i = 0; i < m; i++) {
    let n = 0;
    for (let r = 0; r < rounds; r++) {
      const v = samples[r * m + i]!;
      if (!Number.isNaN(v)) col[n++] = v;
    }
    const sorted = col.subarray(0, n).sort();
    lo[i] = quantileSorted(sorted, qLo);
    hi[i] = quantileSorted(sorted, qHi);
    median[i] = quantileSorted(sorted, 0.5);
  }
  return { rounds, lo, hi, median, samples, degenerateRounds: degenerate };
}
