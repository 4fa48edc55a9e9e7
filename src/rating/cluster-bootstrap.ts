/**
 * @module rating/cluster-bootstrap
 * Bootstrap over battles when a battle carries several votes (a chat arena message that many people vote on).
 *
 * Chatbot Arena's bootstrap (Chiang et al. 2024, arXiv:2403.04132 §5; FastChat `compute_bootstrap_bt`) resamples
 * single votes, which is right when every battle has exactly one vote. In our chat arena one posted battle gathers
 * many votes on the same prompt and the same two answers; those votes are strongly correlated (often unanimous),
 * and resampling them one by one treats 40 copies of one judgement as 40 independent observations, giving
 * intervals that are far too narrow. docs/scoring.md §4 asks for a "bootstrap over battles": each round draws as many
 * battles as there are, with replacement, keeping all of a drawn battle's votes together (a cluster bootstrap,
 * Davison & Hinkley 1997 §3.8), and refits Bradley–Terry. With one vote per battle it is the ordinary bootstrap.
 *
 * Fast form. Battles with the same (pair, left wins, right wins, ties), up to swapping the sides, are
 * exchangeable: drawing n battles with replacement is the same, for the likelihood, as drawing
 * Multinomial(n, count_t / n) over the distinct battle *types* t. Battles are grouped into types once; each round
 * draws the multinomial with the exact sampler of `binomial.ts`, adds count × votes per type into the pair cells
 * (O(types)), and refits warm-started from the point estimate like the vote bootstrap (`ResampleRefitter`).
 * 200,000 single-vote battles over 129 models collapse to ≤ 3 × pairs types.
 */

import { isAppError } from '../core/errors.ts';
import type { Rng } from '../core/rng.ts';
import { arenaFromPairCounts } from './arena-data.ts';
import { multinomialConditionals, sampleMultinomialInto } from './binomial.ts';
import { ResampleRefitter, summarizeBootstrapSamples } from './bootstrap.ts';
import type { BradleyTerryFit, BtProblem } from './bradley-terry.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import type { PairCountRecord } from './types.ts';

/** The live votes of one battle: `a_wins` for the left model (model_a), `b_wins` for the right, `ties` Equal. */
export interface BattleCluster {
  readonly model_a: string;
  readonly model_b: string;
  readonly a_wins: number;
  readonly b_wins: number;
  readonly ties: number;
  /**
   * How many battles had exactly these votes (a non-negative integer, default 1). Lets a caller hand over
   * battles already grouped by type (see the module doc); the result is the same as listing them one by one.
   */
  readonly count?: number;
}

/** A model's bootstrap interval (Elo scale). */
export interface ClusterInterval {
  /**
   * Lower / upper quantile. −Infinity / +Infinity when at least that share of the rounds left the model
   * one-sided (only losses / only wins against the others: no finite bound from these votes).
   */
  readonly lo: number;
  readonly median: number;
  readonly hi: number;
  /** Rounds in which the model had a finite rating (a resample can leave a thin model one-sided). */
  readonly rounds: number;
}

/** Options of {@link clusterBootstrapBradleyTerry} and {@link createClusterBootstrap}. */
export interface ClusterBootstrapOptions {
  readonly rounds: number;
  /** Same anchor as the point estimate, so the intervals are on the same scale. */
  readonly anchor?: { readonly model: string; readonly rating: number };
  /** Quantiles; default 0.025 and 0.975. */
  readonly lower?: number;
  readonly upper?: number;
  /**
   * The point estimate to warm-start from (`fitBradleyTerry` on the same votes, with the same anchor), e.g.
   * `computeArenaRatings(...).fit`. Without it the battles are aggregated and fitted once here. Battles touching
   * a model that the fit does not rate still count in n (each round draws as many battles as there are) but
   * add no votes, as in the fit.
   */
  readonly fit?: BradleyTerryFit;
  /** Newton tolerance per refit (default 1e-10). */
  readonly tolerance?: number;
}

/** An incremental bootstrap over battles: run a few rounds at a time (e.g. between event-loop turns). */
export interface ClusterBootstrap {
  /** Rounds asked for (`opts.rounds`). */
  readonly total: number;
  /** Rounds run so far. */
  readonly done: number;
  /** Runs up to `rounds` more rounds (never past `total`); returns how many it ran. */
  run(rounds: number): number;
  /** Runs every remaining round. */
  finish(): void;
  /** Rated models (the fit's), the index space of {@link ClusterBootstrap.summary}; empty when unfittable. */
  readonly models: readonly string[];
  /** Quantiles over the rounds run so far, indexed like `models`; NaN for a model with no defined sample. */
  summary(): {
    readonly lo: Float64Array;
    readonly hi: Float64Array;
    readonly median: Float64Array;
    /** Rounds with a finite rating, per model. */
    readonly finite: Int32Array;
    /** Rounds whose resample was not strongly connected. */
    readonly degenerateRounds: number;
  };
  /** model → interval over the rounds run so far (models without any defined sample are absent). */
  intervals(): Map<string, ClusterInterval>;
}

/** Battle types (canonical side order) and the pair structure over the fit's models. */
interface TypeTable {
  /** Battles per type; the last cell collects battles that add no votes (unrated model, no votes). */
  readonly counts: Float64Array;
  /** Pair index of each type (types only, not the last cell). */
  readonly pair: Int32Array;
  /** Votes for pi / pj and ties, per type. */
  readonly wi: Float64Array;
  readonly wj: Float64Array;
  readonly t: Float64Array;
  readonly prob: BtProblem;
  /** Total number of battles n. */
  readonly n: number;
}

function checkCount(v: number, what: string, b: BattleCluster): void {
  if (!Number.isSafeInteger(v) || v < 0) {
    throw new RangeError(
      `battle ${b.model_a} vs ${b.model_b}: ${what} must be a non-negative integer, got ${String(v)}`,
    );
  }
}

function groupTypes(battles: readonly BattleCluster[], fit: BradleyTerryFit): TypeTable {
  const local = new Map<string, number>();
  fit.models.forEach((name, i) => {
    local.set(name, i);
  });
  const m = fit.models.length;
  const pairOf = new Map<number, number>();
  const pi: number[] = [];
  const pj: number[] = [];
  const typeOf = new Map<string, number>();
  const counts: number[] = [];
  const tPair: number[] = [];
  const tWi: number[] = [];
  const tWj: number[] = [];
  const tT: number[] = [];
  let skipped = 0;
  let n = 0;
  for (const b of battles) {
    const c = b.count ?? 1;
    checkCount(c, 'count', b);
    checkCount(b.a_wins, 'a_wins', b);
    checkCount(b.b_wins, 'b_wins', b);
    checkCount(b.ties, 'ties', b);
    n += c;
    const a = local.get(b.model_a);
    const z = local.get(b.model_b);
    if (a === undefined || z === undefined || a === z || b.a_wins + b.b_wins + b.ties === 0) {
      skipped += c;
      continue;
    }
    const swap = a > z;
    const i = swap ? z : a;
    const j = swap ? a : z;
    const wi = swap ? b.b_wins : b.a_wins;
    const wj = swap ? b.a_wins : b.b_wins;
    let p = pairOf.get(i * m + j);
    if (p === undefined) {
      p = pi.length;
      pairOf.set(i * m + j, p);
      pi.push(i);
      pj.push(j);
    }
    const key = `${p},${wi},${wj},${b.ties}`;
    let ty = typeOf.get(key);
    if (ty === undefined) {
      ty = counts.length;
      typeOf.set(key, ty);
      counts.push(0);
      tPair.push(p);
      tWi.push(wi);
      tWj.push(wj);
      tT.push(b.ties);
    }
    counts[ty]! += c;
  }
  counts.push(skipped);
  let total = 0;
  for (let k = 0; k < tPair.length; k++) total += counts[k]! * (tWi[k]! + tWj[k]! + tT[k]!);
  const P = pi.length;
  const zeros = new Float64Array(P);
  return {
    counts: Float64Array.from(counts),
    pair: Int32Array.from(tPair),
    wi: Float64Array.from(tWi),
    wj: Float64Array.from(tWj),
    t: Float64Array.from(tT),
    // Only the structure (m, pi, pj) is read by the refits; counts come per round.
    prob: {
      m,
      pi: Int32Array.from(pi),
      pj: Int32Array.from(pj),
      wi: zeros,
      wj: zeros,
      t: zeros,
      total,
    },
    n,
  };
}

/** Pair-count records of all the battles (the point-estimate input when no fit is given). */
function aggregate(battles: readonly BattleCluster[]): PairCountRecord[] {
  const acc = new Map<
    string,
    { model_a: string; model_b: string; model_a_wins: number; model_b_wins: number; tie: number }
  >();
  for (const b of battles) {
    const c = b.count ?? 1;
    if (b.model_a === b.model_b || c === 0) continue;
    const key = `${b.model_a}\u0000${b.model_b}`;
    let rec = acc.get(key);
    if (!rec) {
      rec = { model_a: b.model_a, model_b: b.model_b, model_a_wins: 0, model_b_wins: 0, tie: 0 };
      acc.set(key, rec);
    }
    rec.model_a_wins += c * b.a_wins;
    rec.model_b_wins += c * b.b_wins;
    rec.tie += c * b.ties;
  }
  return [...acc.values()].map((r) => ({ ...r, tie_bothbad: 0 }));
}

/** Fits the battles' votes, or null when they cannot be rated (too few models, anchor not rateable...). */
function pointEstimate(
  battles: readonly BattleCluster[],
  anchor: ClusterBootstrapOptions['anchor'],
): BradleyTerryFit | null {
  try {
    const data = arenaFromPairCounts(aggregate(battles));
    if (anchor && !data.models.includes(anchor.model)) return null;
    return fitBradleyTerry(data, anchor ? { anchor } : {});
  } catch (err) {
    if (isAppError(err)) return null;
    throw err;
  }
}

/** The pair counts (`wi`, `wj`, `t`, overwritten) of one draw: `drawn[ty]` copies of each battle type `ty`. */
function pairCountsOfDraw(
  drawn: Float64Array,
  table: TypeTable,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
): void {
  wi.fill(0);
  wj.fill(0);
  t.fill(0);
  for (let ty = 0; ty < table.pair.length; ty++) {
    const c = drawn[ty]!;
    if (c === 0) continue;
    const p = table.pair[ty]!;
    wi[p]! += c * table.wi[ty]!;
    wj[p]! += c * table.wj[ty]!;
    t[p]! += c * table.t[ty]!;
  }
}

/**
 * The bootstrap over battles in incremental form (see the module doc): construction groups the battles into
 * types (O(battles)); each {@link ClusterBootstrap.run} round costs O(types + pairs) plus a warm-started refit.
 * Results depend only on the battles, the options and the rng's seed, not on how the rounds are split into
 * `run` calls.
 *
 * Degenerate resamples are treated as in `bootstrapBradleyTerry`: a model left with only wins (losses) against
 * the largest strongly connected group gets +Infinity (−Infinity) in that round, so a bound is infinite when at
 * least 2.5 % of the rounds left the model one-sided; a model neither above nor below the group gets no sample
 * that round; with an anchor, rounds where the anchor is not rateable give no samples.
 *
 * @param battles one entry per battle (or per battle type with `count`).
 * @param rng seeded randomness (`createRng(seed)`), so intervals are reproducible.
 * @throws RangeError for a negative or non-integer `rounds`, or a bad count.
 */
export function createClusterBootstrap(
  battles: readonly BattleCluster[],
  rng: Rng,
  opts: ClusterBootstrapOptions,
): ClusterBootstrap {
  const total = opts.rounds;
  if (!Number.isSafeInteger(total) || total < 0) {
    throw new RangeError(`bootstrap rounds must be a non-negative integer, got ${total}`);
  }
  const fit = opts.fit ?? pointEstimate(battles, opts.anchor);
  const qLo = opts.lower ?? 0.025;
  const qHi = opts.upper ?? 0.975;
  const models = fit ? fit.models : [];
  const m = models.length;
  const table = fit ? groupTypes(battles, fit) : null;
  const live = fit !== null && table !== null && table.n > 0;
  const samples = new Float64Array((live ? total : 0) * m);
  let done = 0;
  let degenerate = 0;
  let run: (rounds: number) => number = (rounds) => {
    const k = Math.max(0, Math.min(Math.floor(rounds), total - done));
    done += k; // nothing to resample: rounds give no samples
    return k;
  };
  if (live) {
    const { counts, prob } = table;
    const P = prob.pi.length;
    const cond = multinomialConditionals(counts);
    const drawn = new Float64Array(counts.length);
    const wi = new Float64Array(P);
    const wj = new Float64Array(P);
    const t = new Float64Array(P);
    const refitter = new ResampleRefitter(fit, prob, opts.tolerance ?? 1e-10);
    run = (rounds) => {
      const end = Math.min(total, done + Math.max(0, Math.floor(rounds)));
      const start = done;
      for (; done < end; done++) {
        sampleMultinomialInto(rng, table.n, cond, drawn);
        pairCountsOfDraw(drawn, table, wi, wj, t);
        if (refitter.refit(wi, wj, t, samples.subarray(done * m, (done + 1) * m))) degenerate++;
      }
      return end - start;
    };
  }
  const summary = () => {
    const q = summarizeBootstrapSamples(samples, live ? done : 0, m, qLo, qHi);
    return { ...q, degenerateRounds: degenerate };
  };
  return {
    total,
    get done() {
      return done;
    },
    run: (rounds) => run(rounds),
    finish: () => {
      run(total - done);
    },
    models,
    summary,
    intervals: () => {
      const q = summary();
      const out = new Map<string, ClusterInterval>();
      models.forEach((name, i) => {
        if (Number.isNaN(q.median[i]!)) return;
        out.set(name, { lo: q.lo[i]!, median: q.median[i]!, hi: q.hi[i]!, rounds: q.finite[i]! });
      });
      return out;
    },
  };
}

/**
 * Percentile intervals of each model's Bradley–Terry rating from a bootstrap over battles (see the module doc and
 * {@link createClusterBootstrap}, which this runs to the end in one go). Models never rated (not in the point
 * estimate's strongly connected group, or no defined sample) are absent from the result; so is everything when
 * the battles cannot be fitted at all (fewer than two rateable models, anchor not rateable).
 * @param battles one entry per battle, or per battle type with `count` (battles with no votes may be left out).
 * @param rng seeded randomness (`createRng(seed)`), so intervals are reproducible.
 * @returns model → interval. Cost: one grouping pass, then `rounds` × (O(types) + a warm refit).
 * @throws RangeError for a negative or non-integer `rounds`.
 */
export function clusterBootstrapBradleyTerry(
  battles: readonly BattleCluster[],
  rng: Rng,
  opts: ClusterBootstrapOptions,
): Map<string, ClusterInterval> {
  const boot = createClusterBootstrap(battles, rng, opts);
  boot.finish();
  return boot.intervals();
}
