/**
 * @module aggregate/board
 * ZhuJiu's aggregation (docs/scoring.md §5; Zhang et al., "ZhuJiu", App. A) with the comparative fold-in of §4
 * and a paired item-level bootstrap interval for every final score (docs §5 "Uncertainty"; Bai et al.,
 * "IndustryBench", App. I). Pure: no I/O, no clock; randomness from the seeded {@link Rng} passed in.
 *
 * dataset score d (0–10) → ability score per method A[m][a] = mean of d over the datasets of ability a and method m
 * → method score E[m] = mean over the abilities the model has under m → each method min–max normalised across the
 * models that have it, final = 10 × mean of the normalised method scores present. Ability columns are the mean
 * over methods of A[m][a]; overall is the mean of the ability columns. Empty cells stay empty (null) and mark
 * the row incomplete; nothing is averaged as 0.
 */
import type { Rng } from '../core/rng.ts';
import { quantileSorted } from '../rating/index.ts';
import { type ComparativeState, fitComparative, resampleComparative } from './comparative.ts';
import {
  BOARD_ABILITIES,
  BOARD_METHODS,
  type Board,
  type BoardAbility,
  type BoardInput,
  type BoardMethod,
  type BoardOptions,
  type BoardRow,
  type DatasetEntry,
  type HeadToHead,
} from './types.ts';

const NA = BOARD_ABILITIES.length;
const NM = BOARD_METHODS.length;
const COMPARATIVE = 2;

/** Dense per-dataset arrays: item scores with NaN replaced by 0 plus a presence mask, per board model. */
interface DenseDataset {
  readonly ability: number;
  readonly method: number;
  readonly n: number;
  /** Per board model: scores (0 where absent) and presence (1/0), or null when the model has no score at all. */
  readonly s: (Float64Array | null)[];
  readonly p: (Float64Array | null)[];
}

/** Numeric result of one aggregation pass (every array indexed by board model). */
interface Pass {
  /** cells[(method·NA + ability)·M + m] */
  readonly cells: Float64Array;
  readonly methods: Float64Array; // [method·M + m]
  readonly normalized: Float64Array; // [method·M + m]
  readonly abilities: Float64Array; // [ability·M + m]
  readonly overall: Float64Array;
  readonly final: Float64Array;
  readonly unnormalized: boolean[];
}

/**
 * One aggregation pass (docs/scoring.md §5) from dataset scores and comparative scores.
 * @param ds ds[d][m] dataset score of model m on dataset d (NaN = none).
 * @param comp comp[a][m] comparative dataset score (NaN = none).
 */
function aggregatePass(
  M: number,
  datasets: readonly DenseDataset[],
  ds: readonly Float64Array[],
  comp: readonly Float64Array[],
  full: boolean,
): Pass {
  const sum = new Float64Array(NM * NA * M);
  const cnt = new Float64Array(NM * NA * M);
  for (let d = 0; d < datasets.length; d++) {
    const base = (datasets[d]!.method * NA + datasets[d]!.ability) * M;
    const v = ds[d]!;
    for (let m = 0; m < M; m++) {
      const x = v[m]!;
      if (Number.isNaN(x)) continue;
      sum[base + m]! += x;
      cnt[base + m]! += 1;
    }
  }
  for (let a = 0; a < NA; a++) {
    const base = (COMPARATIVE * NA + a) * M;
    const v = comp[a]!;
    for (let m = 0; m < M; m++) {
      const x = v[m]!;
      if (Number.isNaN(x)) continue;
      sum[base + m] = x;
      cnt[base + m] = 1;
    }
  }
  const cells = new Float64Array(NM * NA * M);
  for (let k = 0; k < cells.length; k++) cells[k] = cnt[k]! > 0 ? sum[k]! / cnt[k]! : Number.NaN;
  const methods = new Float64Array(NM * M).fill(Number.NaN);
  for (let me = 0; me < NM; me++) {
    for (let m = 0; m < M; m++) {
      let s = 0;
      let k = 0;
      for (let a = 0; a < NA; a++) {
        const x = cells[(me * NA + a) * M + m]!;
        if (Number.isNaN(x)) continue;
        s += x;
        k++;
      }
      if (k > 0) methods[me * M + m] = s / k;
    }
  }
  const normalized = new Float64Array(NM * M).fill(Number.NaN);
  const unnormalized: boolean[] = [];
  for (let me = 0; me < NM; me++) {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let k = 0;
    for (let m = 0; m < M; m++) {
      const x = methods[me * M + m]!;
      if (Number.isNaN(x)) continue;
      k++;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    // Min–max is undefined with fewer than two models or max = min: the method mean is shown instead (§5.3).
    const ok = k >= 2 && hi > lo;
    unnormalized.push(k > 0 && !ok);
    for (let m = 0; m < M; m++) {
      const x = methods[me * M + m]!;
      if (Number.isNaN(x)) continue;
      normalized[me * M + m] = ok ? ((x - lo) / (hi - lo)) * 10 : x;
    }
  }
  const final = new Float64Array(M).fill(Number.NaN);
  for (let m = 0; m < M; m++) {
    let s = 0;
    let k = 0;
    for (let me = 0; me < NM; me++) {
      const x = normalized[me * M + m]!;
      if (Number.isNaN(x)) continue;
      s += x;
      k++;
    }
    if (k > 0) final[m] = s / k;
  }
  const abilities = new Float64Array(full ? NA * M : 0).fill(Number.NaN);
  const overall = new Float64Array(full ? M : 0).fill(Number.NaN);
  if (full) {
    for (let a = 0; a < NA; a++) {
      for (let m = 0; m < M; m++) {
        let s = 0;
        let k = 0;
        for (let me = 0; me < NM; me++) {
          const x = cells[(me * NA + a) * M + m]!;
          if (Number.isNaN(x)) continue;
          s += x;
          k++;
        }
        if (k > 0) abilities[a * M + m] = s / k;
      }
    }
    for (let m = 0; m < M; m++) {
      let s = 0;
      let k = 0;
      for (let a = 0; a < NA; a++) {
        const x = abilities[a * M + m]!;
        if (Number.isNaN(x)) continue;
        s += x;
        k++;
      }
      if (k > 0) overall[m] = s / k;
    }
  }
  return { cells, methods, normalized, abilities, overall, final, unnormalized };
}

/** A fast seeded generator for the item draws (mulberry32), seeded from the board's Rng once per round. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function nullable(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}

function byMethodAbility<T>(
  f: (me: number, a: number) => T,
): Record<BoardMethod, Record<BoardAbility, T>> {
  const out = {} as Record<BoardMethod, Record<BoardAbility, T>>;
  BOARD_METHODS.forEach((me, i) => {
    const row = {} as Record<BoardAbility, T>;
    BOARD_ABILITIES.forEach((a, j) => {
      row[a] = f(i, j);
    });
    out[me] = row;
  });
  return out;
}

/**
 * Computes the board (docs/scoring.md §4–5).
 *
 * @param input models, item scores per dataset (latest finished run per suite, chosen by the caller) and arena
 *   battle types (the sources the caller selected).
 * @param rng seeded randomness for the paired bootstrap (`createRng(aggregation.seed)`).
 * @param opts `minVotes` (docs §4), `rounds` (0 = no interval), interval quantiles (default 2.5 % / 97.5 %).
 * @returns rows ranked by final score; every score on the ten-point scale; empty cells null.
 * @throws RangeError for negative or non-integer rounds, or a dataset whose score array has the wrong length or
 *   a score outside [0, 10].
 *
 * Paired bootstrap: each round draws, for every dataset, its n items with replacement (the same draw for every
 * model: that is the pairing), and for every ability its arena battles with replacement (as battle types, refit
 * warm-started); the whole aggregation, min–max normalisation included, is recomputed from the resample. The
 * interval is the 2.5–97.5 % quantile of a model's final score over the rounds; adjacent rows are "separated"
 * when fewer than 2.5 % of the rounds have the difference of their finals on the other side of 0 (and the
 * point difference is positive).
 */
export function computeBoard(input: BoardInput, rng: Rng, opts: BoardOptions): Board {
  const rounds = opts.rounds;
  if (!Number.isSafeInteger(rounds) || rounds < 0)
    throw new RangeError(`bootstrap rounds must be a non-negative integer, got ${rounds}`);
  const qLo = opts.lower ?? 0.025;
  const qHi = opts.upper ?? 0.975;
  const models = input.models;
  const M = models.length;
  const index = new Map(models.map((m, i) => [m, i]));

  // Dense item arrays per dataset.
  const dense: DenseDataset[] = [];
  const entries: DatasetEntry[] = [];
  const pointDs: Float64Array[] = [];
  for (const d of input.datasets) {
    const s: (Float64Array | null)[] = new Array(M).fill(null);
    const p: (Float64Array | null)[] = new Array(M).fill(null);
    const point = new Float64Array(M).fill(Number.NaN);
    for (const [model, scores] of d.scores) {
      const m = index.get(model);
      if (m === undefined) continue;
      if (scores.length !== d.items)
        throw new RangeError(
          `dataset ${d.dataset}: model ${model} has ${scores.length} item scores for ${d.items} items`,
        );
      const sv = new Float64Array(d.items);
      const pv = new Float64Array(d.items);
      let sum = 0;
      let n = 0;
      for (let i = 0; i < d.items; i++) {
        const x = scores[i]!;
        if (Number.isNaN(x)) continue;
        if (!(x >= 0 && x <= 10))
          throw new RangeError(
            `dataset ${d.dataset}: model ${model} item ${i} score ${x} is outside [0, 10]`,
          );
        sv[i] = x;
        pv[i] = 1;
        sum += x;
        n++;
      }
      if (n > 0) {
        s[m] = sv;
        p[m] = pv;
        point[m] = sum / n;
      }
      entries.push({
        dataset: d.dataset,
        ability: d.ability,
        method: d.method,
        model,
        n,
        failures: d.failures?.get(model) ?? 0,
        violations: d.violations?.get(model) ?? 0,
        score: n > 0 ? sum / n : null,
      });
    }
    dense.push({
      ability: BOARD_ABILITIES.indexOf(d.ability),
      method: BOARD_METHODS.indexOf(d.method),
      n: d.items,
      s,
      p,
    });
    pointDs.push(point);
  }

  const comp: ComparativeState = fitComparative(
    models,
    BOARD_ABILITIES,
    input.battles,
    opts.minVotes,
  );
  const point = aggregatePass(M, dense, pointDs, comp.score, true);

  // Ranking by final score (ties share a rank), then the paired bootstrap.
  const order = models
    .map((_, m) => m)
    .sort((x, y) => {
      const fx = point.final[x]!;
      const fy = point.final[y]!;
      const nx = Number.isNaN(fx);
      const ny = Number.isNaN(fy);
      if (nx !== ny) return nx ? 1 : -1;
      if (!nx && fx !== fy) return fy - fx;
      return models[x]!.localeCompare(models[y]!);
    });
  const finals = new Float64Array(rounds * M);
  if (rounds > 0) {
    const ds = dense.map(() => new Float64Array(M));
    const cs = BOARD_ABILITIES.map(() => new Float64Array(M));
    let maxN = 0;
    for (const d of dense) maxN = Math.max(maxN, d.n);
    const w = new Float64Array(maxN);
    for (let r = 0; r < rounds; r++) {
      const next = mulberry32(rng.int(0x100000000));
      for (let d = 0; d < dense.length; d++) {
        const dd = dense[d]!;
        const n = dd.n;
        w.fill(0, 0, n);
        for (let i = 0; i < n; i++) w[Math.floor(next() * n)]! += 1;
        const out = ds[d]!;
        for (let m = 0; m < M; m++) {
          const sv = dd.s[m];
          const pv = dd.p[m];
          if (!sv || !pv) {
            out[m] = Number.NaN;
            continue;
          }
          let num = 0;
          let den = 0;
          for (let i = 0; i < n; i++) {
            const wi = w[i]!;
            num += wi * sv[i]!;
            den += wi * pv[i]!;
          }
          // None of the model's items drawn this round: keep its point score (it cannot vanish from the board).
          out[m] = den > 0 ? num / den : pointDs[d]![m]!;
        }
      }
      resampleComparative(comp, rng, cs);
      const pass = aggregatePass(M, dense, ds, cs, false);
      finals.set(pass.final, r * M);
    }
  }

  const lo = new Float64Array(M).fill(Number.NaN);
  const hi = new Float64Array(M).fill(Number.NaN);
  if (rounds > 0) {
    const col = new Float64Array(rounds);
    for (let m = 0; m < M; m++) {
      if (Number.isNaN(point.final[m]!)) continue;
      let k = 0;
      for (let r = 0; r < rounds; r++) {
        const x = finals[r * M + m]!;
        if (!Number.isNaN(x)) col[k++] = x;
      }
      const sorted = col.subarray(0, k).sort();
      lo[m] = quantileSorted(sorted, qLo);
      hi[m] = quantileSorted(sorted, qHi);
    }
  }
  const rankOf = new Int32Array(M).fill(0);
  order.forEach((m, pos) => {
    if (Number.isNaN(point.final[m]!)) return;
    const prev = pos > 0 ? order[pos - 1]! : -1;
    rankOf[m] = prev >= 0 && point.final[prev] === point.final[m] ? rankOf[prev]! : pos + 1;
  });

  const abilityCoverage = BOARD_ABILITIES.map((_, a) => a);
  const rows: BoardRow[] = order.map((m, pos) => {
    const missing: string[] = [];
    BOARD_METHODS.forEach((me, i) => {
      if (Number.isNaN(point.methods[i * M + m]!)) missing.push(me);
    });
    for (const a of abilityCoverage) {
      if (Number.isNaN(point.abilities[a * M + m]!)) missing.push(`ability:${BOARD_ABILITIES[a]}`);
    }
    const next = order[pos + 1];
    let separated: boolean | null = null;
    if (
      rounds > 0 &&
      next !== undefined &&
      !Number.isNaN(point.final[m]!) &&
      !Number.isNaN(point.final[next]!)
    ) {
      let wrongSide = 0;
      let k = 0;
      for (let r = 0; r < rounds; r++) {
        const a = finals[r * M + m]!;
        const b = finals[r * M + next]!;
        if (Number.isNaN(a) || Number.isNaN(b)) continue;
        k++;
        if (a - b <= 0) wrongSide++;
      }
      separated = point.final[m]! > point.final[next]! && k > 0 && wrongSide / k < 1 - qHi;
    }
    const methods = {} as Record<BoardMethod, number | null>;
    const normalized = {} as Record<BoardMethod, number | null>;
    BOARD_METHODS.forEach((me, i) => {
      methods[me] = nullable(point.methods[i * M + m]!);
      normalized[me] = nullable(point.normalized[i * M + m]!);
    });
    const abilities = {} as Record<BoardAbility, number | null>;
    BOARD_ABILITIES.forEach((a, i) => {
      abilities[a] = nullable(point.abilities[i * M + m]!);
    });
    const final = nullable(point.final[m]!);
    return {
      model: models[m]!,
      rank: final === null ? null : rankOf[m]!,
      final,
      finalLo: final === null ? null : nullable(lo[m]!),
      finalHi: final === null ? null : nullable(hi[m]!),
      methods,
      normalized,
      abilities,
      cells: byMethodAbility((me, a) => nullable(point.cells[(me * NA + a) * M + m]!)),
      overall: nullable(point.overall[m]!),
      incomplete: missing.length > 0,
      missing,
      votes: comp.totalVotes[m]! + (input.unassignedVotes?.get(models[m]!) ?? 0),
      separatedFromNext: separated,
    };
  });

  const h2h = new Map<string, { wins: number; losses: number; ties: number }>();
  const add = (a: string, b: string, w: number, l: number, t: number) => {
    const key = `${a}\u0000${b}`;
    const e = h2h.get(key) ?? { wins: 0, losses: 0, ties: 0 };
    e.wins += w;
    e.losses += l;
    e.ties += t;
    h2h.set(key, e);
  };
  for (const b of input.battles) {
    if (b.modelA === b.modelB) continue;
    add(b.modelA, b.modelB, b.aWins * b.count, b.bWins * b.count, b.ties * b.count);
    add(b.modelB, b.modelA, b.bWins * b.count, b.aWins * b.count, b.ties * b.count);
  }
  const headToHead: HeadToHead[] = [...h2h.entries()]
    .map(([key, e]) => {
      const [model, opponent] = key.split('\u0000') as [string, string];
      return { model, opponent, ...e };
    })
    .sort((x, y) => x.model.localeCompare(y.model) || x.opponent.localeCompare(y.opponent));

  const arena = {} as Record<BoardAbility, Board['arena'][BoardAbility]>;
  BOARD_ABILITIES.forEach((a, i) => {
    arena[a] = comp.entries[i]!;
  });
  return {
    rows,
    unnormalized: BOARD_METHODS.filter((_, i) => point.unnormalized[i]),
    datasets: entries,
    arena,
    headToHead,
    rounds,
    minVotes: opts.minVotes,
  };
}
