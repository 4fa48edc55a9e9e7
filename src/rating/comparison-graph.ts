/**
 * @module rating/comparison-graph
 * Which models have a finite Bradley–Terry maximum-likelihood rating. The BT likelihood has a finite maximiser
 * (unique up to a common shift) iff the directed "scored against" graph is strongly connected, where i → j when
 * i won at least once against j or they tied at least once (a tie is half a win each way). Ford 1957; Hunter
 * 2004, "MM algorithms for generalized Bradley–Terry models", Ann. Statist. 32(1), assumption 1.
 */
import type { ExclusionReason } from './types.ts';

/** The outcome of {@link analyzeComparisonGraph}. */
export interface ComparisonGraphAnalysis {
  /** 1 for models in the kept (rated) group, 0 otherwise; length m. */
  readonly kept: Uint8Array;
  /** Reason per model (null when kept); length m. */
  readonly reasons: (ExclusionReason | null)[];
  /** True when every model with battles is kept and no model lacks battles. */
  readonly allKept: boolean;
}

/**
 * Finds the largest group of models with finite BT MLE and why each other model is out.
 *
 * Rule: among undirected connected components (pairs with at least one vote), take the one with most models
 * (ties: more votes, then lowest model index); inside it, take the largest strongly connected component of the
 * directed graph (same tie-breaks) when it has two models or more (otherwise nothing is kept). Every other model
 * gets a reason: `unbounded_above` when it has votes and no loss at all (only wins, a tie being half a win each
 * way) or when a directed path leads from it into the kept group but none back (never beaten by the group, MLE
 * +∞); `unbounded_below` for the reverse (only losses, or beaten by the group and never beating it back, MLE
 * −∞); `disconnected` (another component, or no votes); `unbounded` (in the kept group's component but neither
 * above nor below it). Callers that rate every component separately use {@link undirectedComponents}.
 *
 * @param m number of models (indices 0..m−1).
 * @param pi, pj pair endpoints; si[k] = score of pi[k] against pj[k] (wins + ties/2), sj[k] likewise.
 *   Scores are ≥ 0; a pair with si + sj = 0 has no vote.
 */
export function analyzeComparisonGraph(
  m: number,
  pi: Int32Array,
  pj: Int32Array,
  si: ArrayLike<number>,
  sj: ArrayLike<number>,
): ComparisonGraphAnalysis {
  const g = scoredAgainstGraph(m, pi, pj, si, sj);
  const { comp, best } = largestComponent(g);
  const { scc, sccSize, bestScc } = largestStrongComponent(g, comp, best);
  const kept = new Uint8Array(m);
  // A rated group needs two models at least: a lone model (a strongly connected component of size 1, e.g. when
  // every pair of the group is one-sided) has no rating relative to anything, so nothing is kept then and every
  // model gets a reason below.
  if (sccSize.length > 0 && sccSize[bestScc]! >= 2) {
    for (let i = 0; i < m; i++)
      if (scc[i] === bestScc && comp[i] === best && g.votes[i]! > 0) kept[i] = 1;
  }
  const below = reachFrom(kept, g.outDeg, g.outAdj); // kept → … → y: y is beaten by the group
  const above = reachFrom(kept, g.inDeg, g.inAdj); // y → … → kept: y beats into the group
  const { outDeg, inDeg, votes } = g;
  const reasons: (ExclusionReason | null)[] = [];
  let allKept = true;
  for (let i = 0; i < m; i++) {
    if (kept[i]) {
      reasons.push(null);
      continue;
    }
    allKept = false;
    const wins = outDeg[i + 1]! - outDeg[i]!;
    const losses = inDeg[i + 1]! - inDeg[i]!;
    // A model with votes but only wins (only losses) has MLE +∞ (−∞) against every model it is compared with,
    // whatever the rated group is (docs/scoring.md, "One-sided models").
    if (votes[i]! > 0 && losses === 0) reasons.push('unbounded_above');
    else if (votes[i]! > 0 && wins === 0) reasons.push('unbounded_below');
    else if (comp[i] !== best || votes[i] === 0) reasons.push('disconnected');
    else if (above[i] && !below[i]) reasons.push('unbounded_above');
    else if (below[i] && !above[i]) reasons.push('unbounded_below');
    else reasons.push('unbounded');
  }
  return { kept, reasons, allKept };
}

/** The directed "scored against" graph as adjacency lists (CSR) of out- and in-edges, and each model's votes. */
interface ScoredGraph {
  readonly m: number;
  readonly outDeg: Int32Array;
  readonly inDeg: Int32Array;
  readonly outAdj: Int32Array;
  readonly inAdj: Int32Array;
  readonly votes: Float64Array;
}

/** Builds the {@link ScoredGraph} of the pairs (see {@link analyzeComparisonGraph} for the arguments). */
function scoredAgainstGraph(
  m: number,
  pi: Int32Array,
  pj: Int32Array,
  si: ArrayLike<number>,
  sj: ArrayLike<number>,
): ScoredGraph {
  const outDeg = new Int32Array(m + 1);
  const inDeg = new Int32Array(m + 1);
  const votes = new Float64Array(m);
  const P = pi.length;
  for (let k = 0; k < P; k++) {
    const i = pi[k]!;
    const j = pj[k]!;
    const a = si[k]!;
    const b = sj[k]!;
    votes[i]! += a + b;
    votes[j]! += a + b;
    if (a > 0) {
      outDeg[i + 1]!++;
      inDeg[j + 1]!++;
    }
    if (b > 0) {
      outDeg[j + 1]!++;
      inDeg[i + 1]!++;
    }
  }
  for (let i = 0; i < m; i++) {
    outDeg[i + 1]! += outDeg[i]!;
    inDeg[i + 1]! += inDeg[i]!;
  }
  const outAdj = new Int32Array(outDeg[m]!);
  const inAdj = new Int32Array(inDeg[m]!);
  const oFill = outDeg.slice(0, m);
  const iFill = inDeg.slice(0, m);
  for (let k = 0; k < P; k++) {
    const i = pi[k]!;
    const j = pj[k]!;
    if (si[k]! > 0) {
      outAdj[oFill[i]!++] = j;
      inAdj[iFill[j]!++] = i;
    }
    if (sj[k]! > 0) {
      outAdj[oFill[j]!++] = i;
      inAdj[iFill[i]!++] = j;
    }
  }

  return { m, outDeg, inDeg, outAdj, inAdj, votes };
}

/**
 * Undirected components (BFS over in ∪ out edges): each model's component, and the largest one (most models, then
 * most votes, then the lowest index).
 */
function largestComponent(g: ScoredGraph): { comp: Int32Array; best: number } {
  const { m, outDeg, outAdj, inDeg, inAdj, votes } = g;
  const comp = new Int32Array(m).fill(-1);
  const stack = new Int32Array(m);
  let nComp = 0;
  const compSize: number[] = [];
  const compVotes: number[] = [];
  for (let s = 0; s < m; s++) {
    if (comp[s] !== -1) continue;
    let top = 0;
    stack[top++] = s;
    comp[s] = nComp;
    let size = 0;
    let v = 0;
    while (top > 0) {
      const x = stack[--top]!;
      size++;
      v += votes[x]!;
      for (const [deg, adj] of [
        [outDeg, outAdj],
        [inDeg, inAdj],
      ] as const) {
        for (let e = deg[x]!; e < deg[x + 1]!; e++) {
          const y = adj[e]!;
          if (comp[y] === -1) {
            comp[y] = nComp;
            stack[top++] = y;
          }
        }
      }
    }
    compSize.push(size);
    compVotes.push(v);
    nComp++;
  }
  let best = 0;
  for (let c = 1; c < nComp; c++) {
    if (
      compSize[c]! > compSize[best]! ||
      (compSize[c] === compSize[best] && compVotes[c]! > compVotes[best]!)
    ) {
      best = c;
    }
  }

  return { comp, best };
}

/**
 * Strongly connected components inside component `best` (iterative Tarjan): each model's component (−1 outside
 * `best`), their sizes, and the largest (same tie-breaks as {@link largestComponent}).
 */
function largestStrongComponent(
  g: ScoredGraph,
  comp: Int32Array,
  best: number,
): { scc: Int32Array; sccSize: number[]; bestScc: number } {
  const { m, outDeg, outAdj, votes } = g;
  const index = new Int32Array(m).fill(-1);
  const low = new Int32Array(m);
  const onStack = new Uint8Array(m);
  const scc = new Int32Array(m).fill(-1);
  const tStack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  let nScc = 0;
  const sccSize: number[] = [];
  const sccVotes: number[] = [];
  for (let s = 0; s < m; s++) {
    if (comp[s] !== best || index[s] !== -1) continue;
    callNode.push(s);
    callEdge.push(outDeg[s]!);
    index[s] = low[s] = counter++;
    tStack.push(s);
    onStack[s] = 1;
    while (callNode.length > 0) {
      const x = callNode[callNode.length - 1]!;
      const e = callEdge[callEdge.length - 1]!;
      if (e < outDeg[x + 1]!) {
        callEdge[callEdge.length - 1] = e + 1;
        const y = outAdj[e]!;
        if (index[y] === -1) {
          index[y] = low[y] = counter++;
          tStack.push(y);
          onStack[y] = 1;
          callNode.push(y);
          callEdge.push(outDeg[y]!);
        } else if (onStack[y]) {
          if (index[y]! < low[x]!) low[x] = index[y]!;
        }
      } else {
        callNode.pop();
        callEdge.pop();
        if (callNode.length > 0) {
          const parent = callNode[callNode.length - 1]!;
          if (low[x]! < low[parent]!) low[parent] = low[x]!;
        }
        if (low[x] === index[x]) {
          let size = 0;
          let v = 0;
          for (;;) {
            const y = tStack.pop()!;
            onStack[y] = 0;
            scc[y] = nScc;
            size++;
            v += votes[y]!;
            if (y === x) break;
          }
          sccSize.push(size);
          sccVotes.push(v);
          nScc++;
        }
      }
    }
  }
  let bestScc = 0;
  for (let c = 1; c < nScc; c++) {
    if (
      sccSize[c]! > sccSize[bestScc]! ||
      (sccSize[c] === sccSize[bestScc] && sccVotes[c]! > sccVotes[bestScc]!)
    ) {
      bestScc = c;
    }
  }

  return { scc, sccSize, bestScc };
}

/** The models reachable from the `kept` ones along the edges of (`deg`, `adj`), the kept ones included. */
function reachFrom(kept: Uint8Array, deg: Int32Array, adj: Int32Array): Uint8Array {
  const m = kept.length;
  const seen = new Uint8Array(m);
  const stack = new Int32Array(m);
  let top = 0;
  for (let i = 0; i < m; i++) {
    if (kept[i]) {
      seen[i] = 1;
      stack[top++] = i;
    }
  }
  while (top > 0) {
    const x = stack[--top]!;
    for (let e = deg[x]!; e < deg[x + 1]!; e++) {
      const y = adj[e]!;
      if (!seen[y]) {
        seen[y] = 1;
        stack[top++] = y;
      }
    }
  }
  return seen;
}

/**
 * Fast repeated test of strong connectivity over a fixed pair structure with changing counts (used once per
 * bootstrap round). Build once; {@link PairAdjacency.stronglyConnected} is O(models + pairs).
 */
export class PairAdjacency {
  readonly #m: number;
  readonly #start: Int32Array;
  readonly #other: Int32Array;
  readonly #pair: Int32Array;
  readonly #isI: Uint8Array;
  readonly #seen: Uint8Array;
  readonly #stack: Int32Array;

  /** @param m models; pi, pj the pair endpoints (local indices). */
  constructor(m: number, pi: Int32Array, pj: Int32Array) {
    this.#m = m;
    const deg = new Int32Array(m + 1);
    for (let k = 0; k < pi.length; k++) {
      deg[pi[k]! + 1]!++;
      deg[pj[k]! + 1]!++;
    }
    for (let i = 0; i < m; i++) deg[i + 1]! += deg[i]!;
    const fill = deg.slice(0, m);
    this.#other = new Int32Array(deg[m]!);
    this.#pair = new Int32Array(deg[m]!);
    this.#isI = new Uint8Array(deg[m]!);
    for (let k = 0; k < pi.length; k++) {
      const i = pi[k]!;
      const j = pj[k]!;
      let e = fill[i]!++;
      this.#other[e] = j;
      this.#pair[e] = k;
      this.#isI[e] = 1;
      e = fill[j]!++;
      this.#other[e] = i;
      this.#pair[e] = k;
      this.#isI[e] = 0;
    }
    this.#start = deg;
    this.#seen = new Uint8Array(m);
    this.#stack = new Int32Array(m);
  }

  /**
   * True when every model reaches every other along edges x → y with score(x against y) > 0 (forward and
   * backward search from model 0). si/sj are the pair scores (wins + ties/2) for pi/pj.
   */
  stronglyConnected(si: ArrayLike<number>, sj: ArrayLike<number>): boolean {
    return this.#reachesAll(si, sj, true) && this.#reachesAll(si, sj, false);
  }

  #reachesAll(si: ArrayLike<number>, sj: ArrayLike<number>, forward: boolean): boolean {
    const m = this.#m;
    if (m === 0) return true;
    const seen = this.#seen;
    const stack = this.#stack;
    seen.fill(0);
    let top = 0;
    let count = 1;
    seen[0] = 1;
    stack[top++] = 0;
    while (top > 0) {
      const x = stack[--top]!;
      for (let e = this.#start[x]!; e < this.#start[x + 1]!; e++) {
        const y = this.#other[e]!;
        if (seen[y]) continue;
        const k = this.#pair[e]!;
        // x is pi[k] when isI: score of x is si[k]; edge x→y needs score(x)>0 going forward,
        // and score(y)>0 (edge y→x) going backward.
        const sx = this.#isI[e] ? si[k]! : sj[k]!;
        const sy = this.#isI[e] ? sj[k]! : si[k]!;
        if ((forward ? sx : sy) > 0) {
          seen[y] = 1;
          count++;
          stack[top++] = y;
        }
      }
    }
    return count === m;
  }
}

/**
 * Undirected connected components of the comparison graph: two models are linked when at least one vote was
 * cast between them (`n[k] > 0` for pair k). Models in different components were never compared, directly or
 * through a chain, so their Bradley–Terry ratings share no scale (docs/scoring.md, "Separate comparison
 * components").
 *
 * @param m number of models (indices 0..m−1).
 * @param pi, pj pair endpoints; n[k] = votes in pair k (≥ 0).
 * @returns `component[i]` ∈ 0..count−1, numbered in order of each component's lowest model index, or −1 for a
 *   model without any vote; `count` the number of components.
 */
export function undirectedComponents(
  m: number,
  pi: Int32Array,
  pj: Int32Array,
  n: ArrayLike<number>,
): { component: Int32Array; count: number } {
  const parent = new Int32Array(m);
  for (let i = 0; i < m; i++) parent[i] = i;
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[x] !== r) {
      const next = parent[x]!;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  const voted = new Uint8Array(m);
  for (let k = 0; k < pi.length; k++) {
    if (!(n[k]! > 0)) continue;
    const a = pi[k]!;
    const b = pj[k]!;
    voted[a] = 1;
    voted[b] = 1;
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const component = new Int32Array(m).fill(-1);
  const idOfRoot = new Int32Array(m).fill(-1);
  let count = 0;
  for (let i = 0; i < m; i++) {
    if (!voted[i]) continue;
    const r = find(i);
    if (idOfRoot[r] === -1) idOfRoot[r] = count++;
    component[i] = idOfRoot[r]!;
  }
  return { component, count };
}
