/**
 * @module rating/bootstrap
 * Bootstrap confidence intervals for Bradley–Terry ratings (docs/scoring.md §4; Chiang et al. 2024 "Chatbot Arena",
 * arXiv:2403.04132, §4; lm-sys FastChat `fastchat/serve/monitor/rating_systems.py` `compute_bootstrap_bt`).
 */
import type { Rng } from '../core/rng.ts';
import { multinomialConditionals, sampleMultinomialInto } from './binomial.ts';
import type { BradleyTerryFit, BtProblem, BtWorkspace } from './bradley-terry.ts';
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
  const { m } = prob;
  const P = prob.pi.length;
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
  const refit = new ResampleRefitter(fit, prob, opts.tolerance ?? 1e-10);
  const samples = new Float64Array(rounds * m);
  let degenerate = 0;
  for (let r = 0; r < rounds; r++) {
    sampleMultinomialInto(rng, prob.total, cond, drawn);
    for (let k = 0; k < P; k++) {
      wi[k] = drawn[3 * k]!;
      wj[k] = drawn[3 * k + 1]!;
      t[k] = drawn[3 * k + 2]!;
    }
    if (refit.refit(wi, wj, t, samples.subarray(r * m, (r + 1) * m))) degenerate++;
  }
  const q = summarizeBootstrapSamples(samples, rounds, m, opts.lower ?? 0.025, opts.upper ?? 0.975);
  return { rounds, lo: q.lo, hi: q.hi, median: q.median, samples, degenerateRounds: degenerate };
}

/**
 * Refits the BT MLE of one resample, warm-started from a point estimate (shared by the vote bootstrap above and
 * the bootstrap over battles in `cluster-bootstrap.ts`). The resample's counts are given per pair of `prob`
 * (a pair structure over `fit.models`, local indices; it need not be `fit.problem`'s).
 *
 * Strongly connected resample: chord iterations with the estimate's Hessian factor, then Newton; ratings in the
 * fit's gauge (anchor fixed, or mean θ kept at the estimate's, i.e. mean rating = `fit.initial`). Otherwise
 * (degenerate): the largest strongly connected group is refit with its mean θ kept at the estimate's (or the
 * anchor fixed when it is in the group; NaN for every model when it is not); models above it get +Infinity,
 * below it −Infinity, the others NaN.
 */
export class ResampleRefitter {
  readonly #fit: BradleyTerryFit;
  readonly #prob: BtProblem;
  readonly #tol: number;
  readonly #si: Float64Array;
  readonly #sj: Float64Array;
  readonly #theta: Float64Array;
  readonly #ws: BtWorkspace;
  readonly #adj: PairAdjacency;

  constructor(fit: BradleyTerryFit, prob: BtProblem, tol: number) {
    this.#fit = fit;
    this.#prob = prob;
    this.#tol = tol;
    this.#si = new Float64Array(prob.pi.length);
    this.#sj = new Float64Array(prob.pi.length);
    this.#theta = new Float64Array(prob.m);
    this.#ws = createBtWorkspace(prob.m);
    this.#adj = new PairAdjacency(prob.m, prob.pi, prob.pj);
  }

  /**
   * Refits the counts wi/wj/t (per pair of `prob`) and writes the ratings into `out` (length m, indexed like
   * `fit.models`). Returns true for a degenerate (not strongly connected) resample.
   */
  refit(wi: Float64Array, wj: Float64Array, t: Float64Array, out: Float64Array): boolean {
    const fit = this.#fit;
    const prob = this.#prob;
    const { m, pi, pj } = prob;
    const si = this.#si;
    const sj = this.#sj;
    const theta = this.#theta;
    for (let k = 0; k < pi.length; k++) {
      si[k] = wi[k]! + 0.5 * t[k]!;
      sj[k] = wj[k]! + 0.5 * t[k]!;
    }
    const scale = fit.scale;
    const anchor = fit.anchorIndex;
    const anchorRating = anchor >= 0 ? fit.ratings[anchor]! : 0;
    const tol = this.#tol;
    theta.set(fit.theta);
    if (this.#adj.stronglyConnected(si, sj)) {
      solveBradleyTerry(prob, wi, wj, t, theta, {
        tol,
        workspace: this.#ws,
        fixedFactor: fit.hessianFactor,
      });
      const offset = anchor >= 0 ? anchorRating - scale * theta[anchor]! : fit.initial;
      for (let i = 0; i < m; i++) out[i] = scale * theta[i]! + offset;
      if (anchor >= 0) out[anchor] = anchorRating;
      return false;
    }
    const g = analyzeComparisonGraph(m, pi, pj, si, sj);
    solveBradleyTerry(prob, wi, wj, t, theta, { tol, workspace: this.#ws, active: g.kept });
    const anchorOk = anchor < 0 || g.kept[anchor] === 1;
    const offset = anchor >= 0 ? anchorRating - scale * theta[anchor]! : fit.offset;
    for (let i = 0; i < m; i++) {
      const reason = g.reasons[i];
      out[i] = !anchorOk
        ? Number.NaN
        : reason === null
          ? scale * theta[i]! + offset
          : reason === 'unbounded_above'
            ? Number.POSITIVE_INFINITY
            : reason === 'unbounded_below'
              ? Number.NEGATIVE_INFINITY
              : Number.NaN;
    }
    if (anchor >= 0 && anchorOk) out[anchor] = anchorRating;
    return true;
  }
}

/**
 * Per-model quantiles of bootstrap samples (row-major samples[r·m + i], first `rounds` rows), ignoring NaN;
 * ±Infinity samples count (so a bound is infinite when enough rounds left the model one-sided). A model with no
 * non-NaN sample gets NaN for all three.
 */
export function summarizeBootstrapSamples(
  samples: Float64Array,
  rounds: number,
  m: number,
  qLo: number,
  qHi: number,
): { lo: Float64Array; hi: Float64Array; median: Float64Array; finite: Int32Array } {
  const lo = new Float64Array(m);
  const hi = new Float64Array(m);
  const median = new Float64Array(m);
  const finite = new Int32Array(m);
  const col = new Float64Array(rounds);
  for (let i = 0; i < m; i++) {
    let n = 0;
    let f = 0;
    for (let r = 0; r < rounds; r++) {
      const v = samples[r * m + i]!;
      if (!Number.isNaN(v)) col[n++] = v;
      if (Number.isFinite(v)) f++;
    }
    const sorted = col.subarray(0, n).sort();
    lo[i] = quantileSorted(sorted, qLo);
    hi[i] = quantileSorted(sorted, qHi);
    median[i] = quantileSorted(sorted, 0.5);
    finite[i] = f;
  }
  return { lo, hi, median, finite };
}
