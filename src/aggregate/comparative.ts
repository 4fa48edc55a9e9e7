/**
 * @module aggregate/comparative
 * The comparative fold-in (docs/scoring.md §4): arena battles grouped by the ability of their item, one
 * Bradley–Terry fit per ability and comparison component, and the comparative dataset score
 * `10 × mean over the other rated models j of P(m beats j)` (ZhuJiu App. A, comparative evaluation; Chiang et al.
 * 2024 for the Bradley–Terry model). For the paired bootstrap, each ability's battles are resampled as battle
 * types (as rating/cluster-bootstrap.ts does) and refitted warm-started from the point estimate.
 */
import { isAppError } from '../core/errors.ts';
import type { Rng } from '../core/rng.ts';
import {
  arenaFromPairCounts,
  type BradleyTerryFit,
  fitBradleyTerry,
  multinomialConditionals,
  type PairCountRecord,
  predictedWinProbability,
  ResampleRefitter,
  sampleMultinomialInto,
} from '../rating/index.ts';
import type { ArenaAbilityEntry, BattleType, BoardAbility } from './types.ts';

/** One fitted comparison component of one ability, ready to be resampled. */
interface ComponentFit {
  readonly fit: BradleyTerryFit;
  /** Board model index of each rated model (fit order). */
  readonly boardIndex: Int32Array;
  /** Per rated model: does it get a score (enough votes, at least one other rated model)? */
  readonly scored: Uint8Array;
  /** Battle types over rated pairs: pair index in fit.problem, votes for pi/pj and ties, battle count. */
  readonly typePair: Int32Array;
  readonly typeWi: Float64Array;
  readonly typeWj: Float64Array;
  readonly typeT: Float64Array;
  readonly cond: Float64Array;
  readonly n: number;
  readonly refitter: ResampleRefitter;
}

/** The comparative part of the board for all abilities. */
export interface ComparativeState {
  /** Point scores: score[a][m] (NaN = none), ability index a in `abilities` order, board model index m. */
  readonly score: Float64Array[];
  /** Live votes per ability and model. */
  readonly votes: Float64Array[];
  /** Votes per model over all abilities. */
  readonly totalVotes: Float64Array;
  readonly entries: ArenaAbilityEntry[][];
  readonly components: ComponentFit[][];
}

/** Undirected connected components (models with votes), largest first (ties: lowest first model index). */
function components(n: number, edges: readonly [number, number][]): number[][] {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[x] !== r) {
      const nx = parent[x]!;
      parent[x] = r;
      x = nx;
    }
    return r;
  };
  const seen = new Uint8Array(n);
  for (const [a, b] of edges) {
    seen[a] = 1;
    seen[b] = 1;
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (!seen[i]) continue;
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  }
  return [...groups.values()].sort((x, y) => y.length - x.length || x[0]! - y[0]!);
}

/**
 * Fits every ability's battles (docs/scoring.md §4) and computes the point comparative scores.
 * @param models board models (index space of the result).
 * @param abilities ability order of the result.
 * @param battles battle types (any ability; models not in `models` are ignored).
 * @param minVotes a model with fewer live votes in an ability gets no score there.
 */
export function fitComparative(
  models: readonly string[],
  abilities: readonly BoardAbility[],
  battles: readonly BattleType[],
  minVotes: number,
): ComparativeState {
  const M = models.length;
  const index = new Map(models.map((m, i) => [m, i]));
  const score: Float64Array[] = [];
  const votes: Float64Array[] = [];
  const totalVotes = new Float64Array(M);
  const entries: ArenaAbilityEntry[][] = [];
  const comps: ComponentFit[][] = [];
  for (const ability of abilities) {
    const s = new Float64Array(M).fill(Number.NaN);
    const v = new Float64Array(M);
    const mine = battles.filter(
      (b) =>
        b.ability === ability &&
        b.modelA !== b.modelB &&
        index.has(b.modelA) &&
        index.has(b.modelB) &&
        b.count > 0 &&
        b.aWins + b.bWins + b.ties > 0,
    );
    const edges: [number, number][] = [];
    for (const b of mine) {
      const ia = index.get(b.modelA)!;
      const ib = index.get(b.modelB)!;
      const n = (b.aWins + b.bWins + b.ties) * b.count;
      v[ia]! += n;
      v[ib]! += n;
      totalVotes[ia]! += n;
      totalVotes[ib]! += n;
      edges.push([ia, ib]);
    }
    const groups = components(M, edges);
    const componentOf = new Int32Array(M).fill(-1);
    groups.forEach((g, c) => {
      for (const m of g) componentOf[m] = c;
    });
    const ratings = new Float64Array(M).fill(Number.NaN);
    const notes = new Map<number, string>();
    const fits: ComponentFit[] = [];
    groups.forEach((g, c) => {
      const member = new Set(g);
      const pairs = new Map<string, PairCountRecord & { model_a_wins: number }>();
      for (const b of mine) {
        const ia = index.get(b.modelA)!;
        if (!member.has(ia)) continue;
        const key = `${b.modelA}\u0000${b.modelB}`;
        const p = pairs.get(key) as
          | { model_a_wins: number; model_b_wins: number; tie: number }
          | undefined;
        if (p) {
          p.model_a_wins += b.aWins * b.count;
          p.model_b_wins += b.bWins * b.count;
          p.tie += b.ties * b.count;
        } else {
          pairs.set(key, {
            model_a: b.modelA,
            model_b: b.modelB,
            model_a_wins: b.aWins * b.count,
            model_b_wins: b.bWins * b.count,
            tie: b.ties * b.count,
            tie_bothbad: 0,
          });
        }
      }
      let fit: BradleyTerryFit;
      try {
        fit = fitBradleyTerry(arenaFromPairCounts(pairs.values()));
      } catch (err) {
        if (!isAppError(err)) throw err;
        for (const m of g) notes.set(m, 'not estimable (only wins or only losses)');
        return;
      }
      for (const e of fit.excluded) {
        const m = index.get(e.model)!;
        notes.set(
          m,
          e.reason === 'unbounded_above'
            ? 'not estimable (only wins)'
            : e.reason === 'unbounded_below'
              ? 'not estimable (only losses)'
              : 'not estimable',
        );
      }
      const boardIndex = Int32Array.from(fit.models, (name) => index.get(name)!);
      fit.models.forEach((_, i) => {
        ratings[boardIndex[i]!] = fit.ratings[i]!;
      });
      const scored = new Uint8Array(fit.models.length);
      for (let i = 0; i < fit.models.length; i++) {
        const m = boardIndex[i]!;
        if (v[m]! < minVotes) {
          notes.set(m, `not enough votes (${v[m]} < ${minVotes})`);
          continue;
        }
        scored[i] = 1;
        s[m] = comparativeScore(fit.ratings, i, fit.scale);
      }
      // Battle types over rated pairs, for the bootstrap.
      const local = new Map(fit.models.map((name, i) => [name, i]));
      const pairIdx = new Map<number, number>();
      const prob = fit.problem;
      for (let k = 0; k < prob.pi.length; k++) pairIdx.set(prob.pi[k]! * 65536 + prob.pj[k]!, k);
      const tp: number[] = [];
      const twi: number[] = [];
      const twj: number[] = [];
      const tt: number[] = [];
      const cnt: number[] = [];
      let n = 0;
      for (const b of mine) {
        const la = local.get(b.modelA);
        const lb = local.get(b.modelB);
        if (la === undefined || lb === undefined) continue;
        const lo = Math.min(la, lb);
        const hi = Math.max(la, lb);
        const k = pairIdx.get(lo * 65536 + hi);
        if (k === undefined) continue;
        tp.push(k);
        twi.push(la === lo ? b.aWins : b.bWins);
        twj.push(la === lo ? b.bWins : b.aWins);
        tt.push(b.ties);
        cnt.push(b.count);
        n += b.count;
      }
      fits.push({
        fit,
        boardIndex,
        scored,
        typePair: Int32Array.from(tp),
        typeWi: Float64Array.from(twi),
        typeWj: Float64Array.from(twj),
        typeT: Float64Array.from(tt),
        cond: multinomialConditionals(cnt),
        n,
        refitter: new ResampleRefitter(fit, prob, 1e-8),
      });
      void c;
    });
    score.push(s);
    votes.push(v);
    comps.push(fits);
    const list: ArenaAbilityEntry[] = [];
    for (let m = 0; m < M; m++) {
      if (v[m] === 0) continue;
      const note = notes.get(m);
      list.push({
        model: models[m]!,
        votes: v[m]!,
        rating: Number.isNaN(ratings[m]!) ? null : ratings[m]!,
        component: componentOf[m]!,
        score: Number.isNaN(s[m]!) ? null : s[m]!,
        ...(note && Number.isNaN(s[m]!) ? { note } : {}),
      });
    }
    list.sort(
      (a, b) =>
        (b.score ?? -1) - (a.score ?? -1) || b.votes - a.votes || a.model.localeCompare(b.model),
    );
    entries.push(list);
  }
  return { score, votes, totalVotes, entries, components: comps };
}

/**
 * 10 × mean over the other rated models j of P(i beats j) (docs/scoring.md §4), NaN without another model.
 * Infinite ratings (a one-sided bootstrap round) give P = 1 or 0; two equal infinities count as a coin flip;
 * NaN ratings (no sample that round) are skipped.
 */
export function comparativeScore(ratings: ArrayLike<number>, i: number, scale = 400): number {
  const ri = ratings[i]!;
  if (Number.isNaN(ri)) return Number.NaN;
  let sum = 0;
  let k = 0;
  for (let j = 0; j < ratings.length; j++) {
    if (j === i) continue;
    const rj = ratings[j]!;
    if (Number.isNaN(rj)) continue;
    sum += ri === rj ? 0.5 : predictedWinProbability(ri, rj, scale);
    k++;
  }
  return k === 0 ? Number.NaN : (10 * sum) / k;
}

/**
 * One bootstrap round of the comparative part: per ability and component, draw as many battles as there are
 * (multinomial over battle types), refit, and write the round's comparative scores into `out[a]` (board model
 * index; models without a point score keep NaN; a model without a defined rating this round keeps its point
 * score).
 */
export function resampleComparative(state: ComparativeState, rng: Rng, out: Float64Array[]): void {
  for (let a = 0; a < state.components.length; a++) {
    const o = out[a]!;
    o.set(state.score[a]!);
    for (const c of state.components[a]!) {
      if (c.n === 0) continue;
      const drawn = new Float64Array(c.cond.length);
      sampleMultinomialInto(rng, c.n, c.cond, drawn);
      const P = c.fit.problem.pi.length;
      const wi = new Float64Array(P);
      const wj = new Float64Array(P);
      const t = new Float64Array(P);
      for (let ty = 0; ty < c.typePair.length; ty++) {
        const d = drawn[ty]!;
        if (d === 0) continue;
        const p = c.typePair[ty]!;
        wi[p]! += d * c.typeWi[ty]!;
        wj[p]! += d * c.typeWj[ty]!;
        t[p]! += d * c.typeT[ty]!;
      }
      const r = new Float64Array(c.fit.models.length);
      c.refitter.refit(wi, wj, t, r);
      for (let i = 0; i < r.length; i++) {
        if (!c.scored[i]) continue;
        const sc = comparativeScore(r, i, c.fit.scale);
        if (!Number.isNaN(sc)) o[c.boardIndex[i]!] = sc;
      }
    }
  }
}
