/**
 * @module rating/conditional-refit
 * The Bradley–Terry maximum-likelihood estimate of a few "free" models with the ratings of all the others held
 * fixed (docs/scoring.md §5 "Uncertainty", large arena components with a thin tail). Model as in
 * `bradley-terry.ts` (Chiang et al. 2024, arXiv:2403.04132 §4; FastChat `compute_mle_elo`): P(a beats b) =
 * 1 / (1 + 10^(θ_b − θ_a)), θ in log10-odds units, a tie half a win for each side. The likelihood restricted to
 * the free θ is strictly concave when every free model is linked to the fixed ones by the directed "scored
 * against" graph both ways (Ford 1957; Hunter 2004, "MM algorithms for generalized Bradley–Terry models",
 * Ann. Statist. 32(1), assumption 1, with the fixed models as one node); Newton's method with a backtracking
 * line search then converges to it.
 */

const LN10 = Math.LN10;

/**
 * The pairs that touch the free models: pair k is free model `a[k]` (0..free−1) against free model `b[k]`, or,
 * when `b[k]` is −1, against the fixed model `opp[k]` (an index into the fixed θ array).
 */
export interface ConditionalPairs {
  readonly free: number;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly opp: Int32Array;
}

/** Scratch memory for {@link solveConditionalBradleyTerry}. */
export interface ConditionalWorkspace {
  readonly g: Float64Array;
  readonly h: Float64Array;
  readonly step: Float64Array;
  readonly trial: Float64Array;
  readonly kept: Uint8Array;
  readonly up: Uint8Array;
  readonly down: Uint8Array;
  readonly stack: Int32Array;
  readonly si: Float64Array;
  readonly sj: Float64Array;
  readonly votes: Float64Array;
}

/** Allocates a workspace for the free models and pairs of `pairs`. */
export function createConditionalWorkspace(pairs: ConditionalPairs): ConditionalWorkspace {
  const free = pairs.free;
  return {
    g: new Float64Array(free),
    h: new Float64Array(free * free),
    step: new Float64Array(free),
    trial: new Float64Array(free),
    kept: new Uint8Array(free),
    up: new Uint8Array(free + 1),
    down: new Uint8Array(free + 1),
    stack: new Int32Array(free + 1),
    si: new Float64Array(pairs.a.length),
    sj: new Float64Array(pairs.a.length),
    votes: new Float64Array(free),
  };
}

/**
 * Which free models reach the fixed ones (node `free`) along "scored against" edges (a → b when a won or tied
 * against b at least once), and which the fixed ones reach: `up[s]` = s →* fixed, `down[s]` = fixed →* s.
 */
function reach(
  pairs: ConditionalPairs,
  si: Float64Array,
  sj: Float64Array,
  ws: ConditionalWorkspace,
): void {
  const { free, a, b } = pairs;
  const { up, down, stack } = ws;
  up.fill(0);
  down.fill(0);
  const node = (k: number) => (b[k]! < 0 ? free : b[k]!);
  // Fixed-point passes over the pairs: the free models are few, so a BFS with edge lists is not worth building.
  for (const [mark, forward] of [
    [down, true],
    [up, false],
  ] as const) {
    mark[free] = 1;
    let top = 0;
    stack[top++] = free;
    while (top > 0) {
      const x = stack[--top]!;
      for (let k = 0; k < a.length; k++) {
        const u = a[k]!;
        const v = node(k);
        // forward: x scored against y (edge x → y); backward: y scored against x.
        const uv = forward ? si[k]! > 0 : sj[k]! > 0; // u → v (forward) or v → u (backward)
        const vu = forward ? sj[k]! > 0 : si[k]! > 0;
        if (u === x && uv && !mark[v]) {
          mark[v] = 1;
          stack[top++] = v;
        } else if (v === x && vu && !mark[u]) {
          mark[u] = 1;
          stack[top++] = u;
        }
      }
    }
  }
}

/**
 * The common case of {@link reach} in one pass: every free model scored against a fixed model and was scored
 * against by one (a direct edge to the fixed models each way), so all reach the fixed ones and back. Sets `up`
 * and `down` and returns true then; false (marks unspecified) otherwise.
 */
function linkedDirectly(
  pairs: ConditionalPairs,
  si: Float64Array,
  sj: Float64Array,
  ws: ConditionalWorkspace,
): boolean {
  const { free, a, b } = pairs;
  const { up, down } = ws;
  up.fill(0);
  down.fill(0);
  for (let k = 0; k < a.length; k++) {
    if (b[k]! >= 0) continue;
    if (si[k]! > 0) up[a[k]!] = 1;
    if (sj[k]! > 0) down[a[k]!] = 1;
  }
  for (let s = 0; s < free; s++) if (!up[s] || !down[s]) return false;
  return true;
}

/** NLL over the kept free models' pairs at free θ `x` (fixed θ from `fixed`). */
function nll(
  pairs: ConditionalPairs,
  si: Float64Array,
  sj: Float64Array,
  fixed: ArrayLike<number>,
  x: Float64Array,
  kept: Uint8Array,
): number {
  const { a, b, opp } = pairs;
  let loss = 0;
  for (let k = 0; k < a.length; k++) {
    const i = a[k]!;
    const j = b[k]!;
    if (!kept[i] || (j >= 0 && !kept[j])) continue;
    const d = LN10 * (x[i]! - (j >= 0 ? x[j]! : fixed[opp[k]!]!));
    // −si·log σ(d) − sj·log σ(−d), without overflow.
    const l1 = d >= 0 ? Math.log1p(Math.exp(-d)) : -d + Math.log1p(Math.exp(d));
    loss += si[k]! * l1 + sj[k]! * (l1 + d);
  }
  return loss;
}

/**
 * Maximises the Bradley–Terry likelihood over the free models' θ with the other models' θ fixed, in place on
 * `theta` (length `pairs.free`, log10 units), warm-started from its current values.
 *
 * A free model that the resample leaves one-sided against the fixed models' group gets +Infinity (it scored
 * against them, through some chain, but was never beaten back: the MLE is +∞) or −Infinity (the reverse), and
 * NaN when it has no vote at all; pairs touching such a model are left out of the fit of the others (as
 * `solveBradleyTerry` leaves out the models outside the largest strongly connected group).
 *
 * @param wi, wj, t votes per pair for a[k], for b[k] (or the fixed opponent) and ties (non-negative).
 * @param fixed θ of the fixed models (log10 units), indexed by `pairs.opp`.
 * @param tol stop when max over free models of |∂ NLL/∂θ_s| / (votes of s) < tol (default 1e-10).
 * @returns the Newton iterations used.
 */
export function solveConditionalBradleyTerry(
  pairs: ConditionalPairs,
  wi: Float64Array,
  wj: Float64Array,
  t: Float64Array,
  fixed: ArrayLike<number>,
  theta: Float64Array,
  ws: ConditionalWorkspace,
  tol = 1e-10,
): number {
  const { free, a, b } = pairs;
  const { g, h, step, trial: x, kept, up, down, si, sj, votes } = ws;
  votes.fill(0);
  for (let k = 0; k < a.length; k++) {
    si[k] = wi[k]! + 0.5 * t[k]!;
    sj[k] = wj[k]! + 0.5 * t[k]!;
    votes[a[k]!]! += si[k]! + sj[k]!;
    if (b[k]! >= 0) votes[b[k]!]! += si[k]! + sj[k]!;
  }
  if (!linkedDirectly(pairs, si, sj, ws)) reach(pairs, si, sj, ws);
  for (let s = 0; s < free; s++) {
    kept[s] = up[s] && down[s] ? 1 : 0;
    if (!kept[s]) theta[s] = up[s] ? Infinity : down[s] ? -Infinity : Number.NaN;
  }
  let it = 0;
  for (; it < 100; it++) {
    gradHessConditional(pairs, si, sj, fixed, theta, ws);
    let worst = 0;
    for (let s = 0; s < free; s++)
      if (kept[s]) worst = Math.max(worst, Math.abs(g[s]!) / Math.max(votes[s]!, 1));
    if (worst < tol) break;
    choleskyNewtonStep(h, g, step, free);
    // Backtracking (Armijo) line search on the NLL.
    let slope = 0;
    for (let s = 0; s < free; s++) slope += g[s]! * step[s]!;
    let big = 0;
    for (let s = 0; s < free; s++) if (kept[s]) big = Math.max(big, Math.abs(step[s]!));
    // A short step (at most 0.25 in log10 units, 100 Elo points) is taken whole: from a warm start the Newton
    // steps are short and converge quadratically. A longer one is guarded by the line search.
    const base = big <= 0.25 ? 0 : nll(pairs, si, sj, fixed, theta, kept);
    let alpha = 1;
    // Near the optimum the decrease is below the NLL's rounding: take the full Newton step there.
    const tiny = big <= 0.25 || -slope <= 1e-12 * Math.max(1, base);
    for (let ls = 0; ls < (tiny ? 1 : 60); ls++) {
      for (let s = 0; s < free; s++) x[s] = kept[s] ? theta[s]! + alpha * step[s]! : theta[s]!;
      if (tiny || nll(pairs, si, sj, fixed, x, kept) <= base + 1e-4 * alpha * slope) break;
      alpha *= 0.5;
    }
    for (let s = 0; s < free; s++) if (kept[s]) theta[s] = x[s]!;
  }
  return it;
}

/**
 * Gradient `ws.g` and Hessian `ws.h` (free × free) of the NLL over the kept free models at `theta`; the rows and
 * columns of models not kept are those of the identity (their step is 0).
 */
function gradHessConditional(
  pairs: ConditionalPairs,
  si: Float64Array,
  sj: Float64Array,
  fixed: ArrayLike<number>,
  theta: Float64Array,
  ws: ConditionalWorkspace,
): void {
  const { free, a, b, opp } = pairs;
  const { g, h, kept } = ws;
  g.fill(0);
  h.fill(0);
  for (let k = 0; k < a.length; k++) {
    const i = a[k]!;
    const j = b[k]!;
    if (!kept[i] || (j >= 0 && !kept[j])) continue;
    const tj = j >= 0 ? theta[j]! : fixed[opp[k]!]!;
    const p = 1 / (1 + Math.exp(LN10 * (tj - theta[i]!)));
    const n = si[k]! + sj[k]!;
    const r = LN10 * (si[k]! - n * p);
    const hk = LN10 * LN10 * n * p * (1 - p);
    g[i]! -= r;
    h[i * free + i]! += hk;
    if (j >= 0) {
      g[j]! += r;
      h[j * free + j]! += hk;
      h[i * free + j]! -= hk;
      h[j * free + i]! -= hk;
    }
  }
  for (let s = 0; s < free; s++) {
    if (kept[s]) continue;
    for (let q = 0; q < free; q++) {
      h[s * free + q] = 0;
      h[q * free + s] = 0;
    }
    h[s * free + s] = 1;
    g[s] = 0;
  }
}

/** step = −H⁻¹g for a symmetric positive definite H (free × free, overwritten by its Cholesky factor). */
function choleskyNewtonStep(h: Float64Array, g: Float64Array, step: Float64Array, m: number): void {
  for (let j = 0; j < m; j++) {
    let d = h[j * m + j]!;
    for (let q = 0; q < j; q++) d -= h[j * m + q]! ** 2;
    d = Math.sqrt(Math.max(d, 1e-300));
    h[j * m + j] = d;
    for (let i = j + 1; i < m; i++) {
      let v = h[i * m + j]!;
      for (let q = 0; q < j; q++) v -= h[i * m + q]! * h[j * m + q]!;
      h[i * m + j] = v / d;
    }
  }
  for (let i = 0; i < m; i++) {
    let v = -g[i]!;
    for (let q = 0; q < i; q++) v -= h[i * m + q]! * step[q]!;
    step[i] = v / h[i * m + i]!;
  }
  for (let i = m - 1; i >= 0; i--) {
    let v = step[i]!;
    for (let q = i + 1; q < m; q++) v -= h[q * m + i]! * step[q]!;
    step[i] = v / h[i * m + i]!;
  }
}
