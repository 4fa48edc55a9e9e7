/**
 * @module rating/bradley-terry
 * Bradley–Terry maximum likelihood on aggregated pair counts, on the Elo scale (docs/scoring.md §4).
 *
 * Model (Chiang et al. 2024 "Chatbot Arena", arXiv:2403.04132, §4; lm-sys FastChat
 * `fastchat/serve/monitor/rating_systems.py` `compute_bt`): P(i beats j) = 1 / (1 + 10^(θ_j − θ_i)), θ in
 * log10-odds units, reported rating R = 400·θ + 1000, so P(i beats j) = 1 / (1 + 10^((R_j − R_i)/400)).
 * A tie counts as half a win for each side. FastChat stops L-BFGS early; here Newton's method with a
 * backtracking line search runs to max|∇| < 1e-10 (gradient of the mean negative log-likelihood per vote).
 */
import type { AppError, Said, SaidTexts } from '../core/errors.ts';
import { type CliMessageKey, listSaidOf, said, saidError } from '../i18n/cli.ts';
import { analyzeComparisonGraph } from './comparison-graph.ts';
import type { ArenaData, ExcludedModel } from './types.ts';

const LN10 = Math.LN10;

/** The reduced problem over the rated models (local indices 0..m−1); counts per unordered pair. */
export interface BtProblem {
  readonly m: number;
  readonly pi: Int32Array;
  readonly pj: Int32Array;
  readonly wi: Float64Array;
  readonly wj: Float64Array;
  readonly t: Float64Array;
  /** Sum of all counts. */
  readonly total: number;
}

/** Scratch memory for {@link solveBradleyTerry}; reuse it across bootstrap rounds. */
export interface BtWorkspace {
  readonly h: Float64Array;
  readonly g: Float64Array;
  readonly delta: Float64Array;
  readonly trial: Float64Array;
}

/** Allocates a workspace for m models. */
export function createBtWorkspace(m: number): BtWorkspace {
  return {
    h: new Float64Array(m * m),
    g: new Float64Array(m),
    delta: new Float64Array(m),
    trial: new Float64Array(m),
  };
}

/** Result of one Newton solve. */
export interface BtSolveInfo {
  readonly iterations: number;
  readonly maxAbsGradient: number;
  readonly converged: boolean;
}

/** log σ(x) = −log(1 + e^(−x)), computed without overflow. */
function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

function meanNll(
  prob: BtProblem,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  theta: Float64Array,
  active: Uint8Array | null,
  invN: number,
): number {
  const { pi, pj } = prob;
  let loss = 0;
  for (let k = 0; k < pi.length; k++) {
    const i = pi[k]!;
    const j = pj[k]!;
    if (active !== null && !(active[i] && active[j])) continue;
    const half = 0.5 * t[k]!;
    const si = wi[k]! + half;
    const sj = wj[k]! + half;
    if (si + sj === 0) continue;
    const d = LN10 * (theta[i]! - theta[j]!);
    if (si > 0) loss -= si * logSigmoid(d);
    if (sj > 0) loss -= sj * logSigmoid(-d);
  }
  return loss * invN;
}

/** Fills g (and h's lower triangle when given) with the gradient / Hessian of the mean NLL. */
function gradHess(
  prob: BtProblem,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  theta: Float64Array,
  active: Uint8Array | null,
  invN: number,
  g: Float64Array,
  h: Float64Array | null,
): void {
  const { pi, pj, m } = prob;
  const a2 = LN10 * LN10 * invN;
  const aN = LN10 * invN;
  g.fill(0);
  if (h !== null) h.fill(0);
  for (let k = 0; k < pi.length; k++) {
    const i = pi[k]!;
    const j = pj[k]!;
    if (active !== null && !(active[i] && active[j])) continue;
    const half = 0.5 * t[k]!;
    const si = wi[k]! + half;
    const n = si + wj[k]! + half;
    if (n === 0) continue;
    const p = 1 / (1 + Math.exp(LN10 * (theta[j]! - theta[i]!)));
    const r = (si - n * p) * aN;
    g[i]! -= r;
    g[j]! += r;
    if (h !== null) {
      const hk = n * p * (1 - p) * a2;
      h[i * m + i]! += hk;
      h[j * m + j]! += hk;
      if (i > j) h[i * m + j]! -= hk;
      else h[j * m + i]! -= hk;
    }
  }
  if (active !== null) for (let i = 0; i < m; i++) if (!active[i]) g[i] = 0;
}

/**
 * Adds c·uuᵀ (u = active indicator, c = mean active diagonal) to the Hessian's lower triangle, makes inactive
 * rows identity, and overwrites it with its Cholesky factor L (lower, row-major).
 */
function regularizeAndFactor(h: Float64Array, m: number, active: Uint8Array | null): void {
  let trace = 0;
  let nAct = 0;
  for (let i = 0; i < m; i++) {
    if (active === null || active[i]) {
      trace += h[i * m + i]!;
      nAct++;
    }
  }
  const c = trace / Math.max(nAct, 1);
  for (let i = 0; i < m; i++) {
    const ri = i * m;
    if (active !== null && !active[i]) {
      for (let j = 0; j < i; j++) h[ri + j] = 0;
      h[ri + i] = 1;
      continue;
    }
    for (let j = 0; j <= i; j++) {
      if (active === null || active[j]) h[ri + j]! += c;
      else h[ri + j] = 0;
    }
  }
  for (let j = 0; j < m; j++) {
    const rj = j * m;
    let s = h[rj + j]!;
    for (let q = 0; q < j; q++) s -= h[rj + q]! * h[rj + q]!;
    if (!(s > 0)) s = 1e-300; // numerically singular: the line search guards the step
    const d = Math.sqrt(s);
    h[rj + j] = d;
    const inv = 1 / d;
    for (let i = j + 1; i < m; i++) {
      const ri = i * m;
      let v = h[ri + j]!;
      for (let q = 0; q < j; q++) v -= h[ri + q]! * h[rj + q]!;
      h[ri + j] = v * inv;
    }
  }
}

/** Solves L Lᵀ δ = −g. */
function choleskySolve(l: Float64Array, m: number, g: Float64Array, delta: Float64Array): void {
  for (let i = 0; i < m; i++) {
    const ri = i * m;
    let v = -g[i]!;
    for (let q = 0; q < i; q++) v -= l[ri + q]! * delta[q]!;
    delta[i] = v / l[ri + i]!;
  }
  for (let i = m - 1; i >= 0; i--) {
    let v = delta[i]!;
    for (let q = i + 1; q < m; q++) v -= l[q * m + i]! * delta[q]!;
    delta[i] = v / l[i * m + i]!;
  }
}

function maxAbsActive(g: Float64Array, active: Uint8Array | null): number {
  let mx = 0;
  for (let i = 0; i < g.length; i++) {
    if (active !== null && !active[i]) continue;
    const a = Math.abs(g[i]!);
    if (a > mx) mx = a;
  }
  return mx;
}

/**
 * Cholesky factor of the regularised Hessian (H + c·uuᵀ) of the mean NLL at `theta`, for the chord iterations
 * of {@link solveBradleyTerry} (`fixedFactor`). Returns an m×m row-major lower-triangular matrix.
 */
export function factorBtHessian(
  prob: BtProblem,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  theta: Float64Array,
): Float64Array {
  let total = 0;
  for (let k = 0; k < prob.pi.length; k++) total += wi[k]! + wj[k]! + t[k]!;
  const h = new Float64Array(prob.m * prob.m);
  gradHess(prob, wi, wj, t, theta, null, 1 / total, new Float64Array(prob.m), h);
  regularizeAndFactor(h, prob.m, null);
  return h;
}

/**
 * Newton's method for the BT MLE on given counts, in place on `theta` (log10 units), warm-started from its
 * current value. The Hessian's null direction (a common shift) is removed by adding c·uuᵀ (u = indicator of the
 * active models), so each step keeps the active models' mean θ; the result is re-centred to the starting mean.
 * Steps use a backtracking (Armijo) line search until the Newton decrement is below 1e-14.
 *
 * With `fixedFactor` (from {@link factorBtHessian} at a nearby point, e.g. the point estimate for bootstrap
 * refits), it first runs chord iterations θ ← θ − H₀⁻¹∇ (O(pairs + m²) each, no refactorisation) while they
 * shrink the gradient at least 4× per step, then falls back to full Newton.
 *
 * @param prob pair structure (only `pi`, `pj`, `m` are read; counts come from `wi`, `wj`, `t`).
 * @param active null for all models, or a 0/1 mask: pairs touching an inactive model are ignored and inactive
 *   θ are left unchanged. The active subgraph must be strongly connected (see `analyzeComparisonGraph`),
 *   otherwise the MLE is infinite and the solve stops at `maxIterations` with `converged: false`.
 * @param tol stop when max over active models of |∂/∂θ_i mean NLL| < tol (default 1e-10).
 */
export function solveBradleyTerry(
  prob: BtProblem,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  theta: Float64Array,
  opts: {
    tol?: number;
    maxIterations?: number;
    active?: Uint8Array | null;
    workspace?: BtWorkspace;
    fixedFactor?: Float64Array | null;
  } = {},
): BtSolveInfo {
  const m = prob.m;
  const { pi, pj } = prob;
  const tol = opts.tol ?? 1e-10;
  const maxIt = opts.maxIterations ?? 100;
  const active = opts.active ?? null;
  const ws = opts.workspace ?? createBtWorkspace(m);
  const { h, g, delta, trial } = ws;
  let nAct = 0;
  let mean0 = 0;
  for (let i = 0; i < m; i++) {
    if (active === null || active[i]) {
      nAct++;
      mean0 += theta[i]!;
    }
  }
  mean0 /= nAct;
  let total = 0;
  for (let k = 0; k < pi.length; k++) {
    if (active !== null && !(active[pi[k]!] && active[pj[k]!])) continue;
    total += wi[k]! + wj[k]! + t[k]!;
  }
  if (total === 0 || nAct < 2) return { iterations: 0, maxAbsGradient: 0, converged: nAct <= 1 };
  const invN = 1 / total;
  let it = 0;
  let maxG = Number.POSITIVE_INFINITY;
  // Chord phase.
  const chord = active === null ? (opts.fixedFactor ?? null) : null;
  if (chord !== null)
    ({ it, maxG } = chordPhase(prob, wi, wj, t, theta, chord, invN, tol, maxIt, ws));
  // Newton phase.
  while (it < maxIt) {
    gradHess(prob, wi, wj, t, theta, active, invN, g, h);
    maxG = maxAbsActive(g, active);
    if (maxG < tol) break;
    it++;
    regularizeAndFactor(h, m, active);
    choleskySolve(h, m, g, delta);
    let gd = 0;
    for (let i = 0; i < m; i++) gd += g[i]! * delta[i]!;
    if (-gd < 1e-14) {
      for (let i = 0; i < m; i++) theta[i]! += delta[i]!;
      continue;
    }
    const loss = meanNll(prob, wi, wj, t, theta, active, invN);
    let step = 1;
    for (let ls = 0; ls < 60; ls++) {
      for (let i = 0; i < m; i++) trial[i] = theta[i]! + step * delta[i]!;
      const lt = meanNll(prob, wi, wj, t, trial, active, invN);
      if (lt <= loss + 1e-4 * step * gd) break;
      step *= 0.5;
    }
    theta.set(trial);
  }
  if (it >= maxIt) {
    gradHess(prob, wi, wj, t, theta, active, invN, g, null);
    maxG = maxAbsActive(g, active);
  }
  // Re-centre the active models to their starting mean (removes drift from rounding).
  recentre(theta, m, active, mean0, nAct);
  return { iterations: it, maxAbsGradient: maxG, converged: maxG < tol };
}

/**
 * The chord iterations of {@link solveBradleyTerry}: θ ← θ − H₀⁻¹∇ with the fixed factor `chord`, while each step
 * shrinks the largest gradient at least 4×; a step that does not shrink it at all is undone.
 * @returns the iterations done and the largest gradient left.
 */
function chordPhase(
  prob: BtProblem,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  theta: Float64Array,
  chord: Float64Array,
  invN: number,
  tol: number,
  maxIt: number,
  ws: BtWorkspace,
): { it: number; maxG: number } {
  const m = prob.m;
  const { g, delta, trial } = ws;
  let it = 0;
  gradHess(prob, wi, wj, t, theta, null, invN, g, null);
  let maxG = maxAbsActive(g, null);
  while (maxG >= tol && it < maxIt) {
    choleskySolve(chord, m, g, delta);
    trial.set(theta);
    for (let i = 0; i < m; i++) theta[i]! += delta[i]!;
    it++;
    gradHess(prob, wi, wj, t, theta, null, invN, g, null);
    const next = maxAbsActive(g, null);
    if (!(next < 0.25 * maxG)) {
      if (!(next < maxG)) {
        theta.set(trial); // the chord step did not help: undo it, Newton takes over
      } else {
        maxG = next;
      }
      break;
    }
    maxG = next;
  }
  return { it, maxG };
}

/**
 * Shifts the active θ of the `m` models (all with `active` null) so that their mean is `mean0` again (`nAct` of
 * them).
 */
function recentre(
  theta: Float64Array,
  m: number,
  active: Uint8Array | null,
  mean0: number,
  nAct: number,
): void {
  let mean = 0;
  for (let i = 0; i < m; i++) if (active === null || active[i]) mean += theta[i]!;
  const shift = mean0 - mean / nAct;
  for (let i = 0; i < m; i++) if (active === null || active[i]) theta[i]! += shift;
}

/** Options of {@link fitBradleyTerry}. */
export interface BradleyTerryOptions {
  /** Shift ratings so this model has this rating (FastChat: mixtral-8x7b-instruct-v0.1 = 1114). */
  readonly anchor?: { readonly model: string; readonly rating: number };
  /**
   * What to do when some models have no finite MLE (see `ExclusionReason`): `'exclude'` (default) rates the
   * largest strongly connected group and lists the others in `excluded`; `'error'` throws AppError
   * `rating_disconnected` naming them.
   */
  readonly onDegenerate?: 'exclude' | 'error';
  /** Convergence threshold on max|∇ mean NLL| (default 1e-10). */
  readonly tolerance?: number;
  /** Newton iteration cap (default 100). */
  readonly maxIterations?: number;
  /** Rating = scale·θ + initial (defaults 400 and 1000). */
  readonly scale?: number;
  readonly initial?: number;
}

/** A fitted BT model. Arrays are indexed by rated model (0..models.length−1). */
export interface BradleyTerryFit {
  /** Rated models, in `data.models` order. */
  readonly models: readonly string[];
  /** Index of each rated model in `data.models`. */
  readonly dataIndex: Int32Array;
  /** Ratings on the Elo scale: scale·θ + offset. */
  readonly ratings: Float64Array;
  /** θ in log10-odds units, mean 0 over the rated models. */
  readonly theta: Float64Array;
  /** Additive offset: `initial` without anchor (mean rating = initial), else anchor.rating − scale·θ_anchor. */
  readonly offset: number;
  readonly scale: number;
  /** Local index of the anchor model, or −1. */
  readonly anchorIndex: number;
  /** Models without a finite rating, with the reason. */
  readonly excluded: readonly ExcludedModel[];
  /** Votes per rated model (all of its votes in the input, as FastChat's num_battles). */
  readonly numBattles: Float64Array;
  readonly iterations: number;
  readonly maxAbsGradient: number;
  /** The reduced problem (used by the bootstrap). */
  readonly problem: BtProblem;
  /** Cholesky factor of the regularised Hessian at the estimate (see `factorBtHessian`), for warm refits. */
  readonly hessianFactor: Float64Array;
  /** Initial rating used for the un-anchored gauge. */
  readonly initial: number;
}

/**
 * Fits Bradley–Terry by maximum likelihood (ties = half a win each) and maps θ to the Elo scale.
 *
 * @param data aggregated votes ({@link ArenaData}).
 * @returns ratings with mean `initial` (default 1000) over rated models, or anchored when `opts.anchor` is set.
 * @throws AppError `rating_disconnected` when `onDegenerate: 'error'` and some model has no finite MLE, when
 *   fewer than two models can be rated, or when the anchor model is excluded; AppError `rating_input_invalid`
 *   when the anchor model has no battles in the data or its rating is not finite.
 */
export function fitBradleyTerry(data: ArenaData, opts: BradleyTerryOptions = {}): BradleyTerryFit {
  const scale = opts.scale ?? 400;
  const initial = opts.initial ?? 1000;
  const M = data.models.length;
  const si = new Float64Array(data.pairI.length);
  const sj = new Float64Array(data.pairI.length);
  for (let k = 0; k < si.length; k++) {
    si[k] = data.winsI[k]! + 0.5 * data.ties[k]!;
    sj[k] = data.winsJ[k]! + 0.5 * data.ties[k]!;
  }
  const graph = analyzeComparisonGraph(M, data.pairI, data.pairJ, si, sj);
  const excluded: ExcludedModel[] = [];
  for (let i = 0; i < M; i++) {
    const r = graph.reasons[i];
    if (r) excluded.push({ model: data.models[i]!, reason: r, numBattles: data.numBattles[i]! });
  }
  const describe = (): Said | SaidTexts =>
    excluded.length === 0
      ? said('cli.rating.excludedNone')
      : listSaidOf(
          excluded.map((e) =>
            said('cli.rating.excludedModel', {
              model: e.model,
              reason: exclusionSaid(e.reason),
              n: e.numBattles,
            }),
          ),
        );
  const anchorData = checkFitInput(data, opts, excluded, describe);
  const { dataIndex, local } = keptIndex(graph.kept);
  const m = dataIndex.length;
  if (m < 2) {
    throw saidError(
      'rating_disconnected',
      said('cli.rating.fewerThanTwo', { n: m, excluded: describe() }),
    );
  }
  if (anchorData >= 0 && local[anchorData] === -1) {
    const e = excluded.find((x) => x.model === opts.anchor?.model);
    throw saidError(
      'rating_disconnected',
      said('cli.rating.anchorUnrated', {
        model: opts.anchor?.model ?? '',
        reason: exclusionSaid(e?.reason ?? ''),
      }),
    );
  }
  const problem = ratedProblem(data, local, m);
  const theta = new Float64Array(m);
  const info = solveBradleyTerry(problem, problem.wi, problem.wj, problem.t, theta, {
    tol: opts.tolerance ?? 1e-10,
    maxIterations: opts.maxIterations ?? 100,
  });
  const anchorIndex = anchorData >= 0 ? local[anchorData]! : -1;
  const offset =
    opts.anchor && anchorIndex >= 0 ? opts.anchor.rating - scale * theta[anchorIndex]! : initial;
  const ratings = new Float64Array(m);
  for (let i = 0; i < m; i++) ratings[i] = scale * theta[i]! + offset;
  if (anchorIndex >= 0 && opts.anchor) ratings[anchorIndex] = opts.anchor.rating;
  return {
    models: dataIndex.map((i) => data.models[i]!),
    dataIndex: Int32Array.from(dataIndex),
    ratings,
    theta,
    offset,
    scale,
    anchorIndex,
    excluded,
    numBattles: Float64Array.from(dataIndex, (i) => data.numBattles[i]!),
    iterations: info.iterations,
    maxAbsGradient: info.maxAbsGradient,
    problem,
    hessianFactor: factorBtHessian(problem, problem.wi, problem.wj, problem.t, theta),
    initial,
  };
}

/** The catalogue's short name of each exclusion reason (`cli.ratings.exclName.*`), by reason. */
const EXCLUSION_NAMES: Readonly<Record<string, CliMessageKey>> = {
  disconnected: 'cli.ratings.exclName.disconnected',
  unbounded_above: 'cli.ratings.exclName.above',
  unbounded_below: 'cli.ratings.exclName.below',
  unbounded: 'cli.ratings.exclName.unbounded',
};

/** Why a model has no finite rating, as catalogue data (`unbounded above`; a reason it does not name, as it is). */
function exclusionSaid(reason: string): Said | string {
  const key = EXCLUSION_NAMES[reason];
  return key === undefined ? reason.replace('_', ' ') : said(key);
}

/**
 * The refusal of an anchor model that has no battles in the data (AppError `rating_input_invalid`, as catalogue
 * data: the command line says it in its language).
 */
export function anchorWithoutBattles(model: string): AppError {
  return saidError('rating_input_invalid', said('cli.rating.anchorNoBattles', { model }));
}

/**
 * The checks of {@link fitBradleyTerry} before fitting: a finite anchor rating, an anchor model in the data, and no
 * excluded model under `onDegenerate: 'error'`.
 * @returns the anchor's data index, −1 without an anchor.
 */
function checkFitInput(
  data: ArenaData,
  opts: BradleyTerryOptions,
  excluded: readonly ExcludedModel[],
  describe: () => Said | SaidTexts,
): number {
  if (opts.anchor && !Number.isFinite(opts.anchor.rating)) {
    throw saidError(
      'rating_input_invalid',
      said('cli.rating.anchorNotFinite', { rating: String(opts.anchor.rating) }),
    );
  }
  const anchorData = opts.anchor ? data.models.indexOf(opts.anchor.model) : -1;
  if (opts.anchor && anchorData < 0) throw anchorWithoutBattles(opts.anchor.model);
  if (excluded.length > 0 && (opts.onDegenerate ?? 'exclude') === 'error') {
    throw saidError(
      'rating_disconnected',
      said('cli.rating.notConnected', { excluded: describe() }),
    );
  }
  return anchorData;
}

/** The kept models' data indices (in data order), and each data index's local index (−1 when not kept). */
function keptIndex(kept: Uint8Array): { dataIndex: number[]; local: Int32Array } {
  const M = kept.length;
  const dataIndex: number[] = [];
  const local = new Int32Array(M).fill(-1);
  for (let i = 0; i < M; i++) {
    if (kept[i]) {
      local[i] = dataIndex.length;
      dataIndex.push(i);
    }
  }
  return { dataIndex, local };
}

/** The fitting problem over the `m` kept models (`local` maps data to local indices): their pairs with votes. */
function ratedProblem(data: ArenaData, local: Int32Array, m: number): BtProblem {
  const pi: number[] = [];
  const pj: number[] = [];
  const wi: number[] = [];
  const wj: number[] = [];
  const tt: number[] = [];
  let total = 0;
  for (let k = 0; k < data.pairI.length; k++) {
    const a = local[data.pairI[k]!]!;
    const b = local[data.pairJ[k]!]!;
    const n = data.winsI[k]! + data.winsJ[k]! + data.ties[k]!;
    if (a < 0 || b < 0 || n === 0) continue;
    pi.push(a);
    pj.push(b);
    wi.push(data.winsI[k]!);
    wj.push(data.winsJ[k]!);
    tt.push(data.ties[k]!);
    total += n;
  }
  return {
    m,
    pi: Int32Array.from(pi),
    pj: Int32Array.from(pj),
    wi: Float64Array.from(wi),
    wj: Float64Array.from(wj),
    t: Float64Array.from(tt),
    total,
  };
}
