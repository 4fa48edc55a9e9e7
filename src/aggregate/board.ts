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
import { quantilePair, quantileSorted } from '../rating/index.ts';
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
  type DatasetScores,
  type HeadToHead,
  type Interval,
} from './types.ts';

const NA = BOARD_ABILITIES.length;
const NM = BOARD_METHODS.length;
const COMPARATIVE = 2;

/**
 * Dense per-dataset arrays: item scores with NaN replaced by 0 plus a presence mask, per slot. Slots 0..M−1 are the
 * board models (their board scores: SV-adjusted for scoring datasets); a slot ≥ M holds the raw scores (before
 * the SV adjustment) of model `rawOf[slot − M]`, resampled with the same draw, so raw and adjusted means are paired.
 */
interface DenseDataset {
  readonly ability: number;
  readonly method: number;
  readonly n: number;
  /** Per slot: scores (0 where absent) and presence (1/0), or null when the slot has no score at all. */
  readonly s: (Float64Array | null)[];
  readonly p: (Float64Array | null)[];
  /** Per board model: its raw-score slot, or −1 when its raw scores equal its board scores. */
  readonly rawSlot: Int32Array;
  /** The same scores packed for the bootstrap when they lie on a grid of 10/q (see {@link packDataset}). */
  readonly packed: PackedItems | null;
}

/**
 * Item scores on a grid k·10/q (k = 0..q), as integers, several models in one float64: lane l of column c holds
 * model slots[c·lanes + l], value Σ k·2^(bits·l). A sum of n such numbers (n drawn items) is exact and keeps the
 * lanes apart as long as n·q < 2^bits and bits·lanes ≤ 52, so one addition adds `lanes` models' scores at once.
 * Presence (1 = the model has this item) is packed the same way when some model lacks items.
 */
interface PackedItems {
  readonly cols: number;
  readonly lanes: number;
  /** 2^bits. */
  readonly radix: number;
  /** Score of one grid step (10 / q). */
  readonly step: number;
  /** Board model index per slot (−1: padding). */
  readonly slots: Int32Array;
  /** values[i·cols + c]. */
  readonly values: Float64Array;
  /** presence[i·cols + c], or null when every slotted model has every item. */
  readonly presence: Float64Array | null;
}

/** Largest grid denominator tried for packing (scores on 0.01 steps of the ten-point scale have q = 1000). */
const MAX_GRID = 1000;

/** The smallest q ≤ MAX_GRID with every present score a multiple of 10/q (to 1e-9), or 0 when none is. */
function gridOf(s: readonly (Float64Array | null)[], p: readonly (Float64Array | null)[]): number {
  next: for (let q = 1; q <= MAX_GRID; q++) {
    for (let m = 0; m < s.length; m++) {
      const sv = s[m];
      const pv = p[m];
      if (!sv || !pv) continue;
      for (let i = 0; i < sv.length; i++) {
        if (pv[i] === 0) continue;
        const k = (sv[i]! * q) / 10;
        if (Math.abs(k - Math.round(k)) > 1e-9) continue next;
      }
    }
    return q;
  }
  return 0;
}

/** Packs a dataset's scores for the bootstrap (null when they are off any grid or only one model fits a lane). */
function packDataset(
  n: number,
  s: readonly (Float64Array | null)[],
  p: readonly (Float64Array | null)[],
): PackedItems | null {
  const models: number[] = [];
  for (let m = 0; m < s.length; m++) if (s[m]) models.push(m);
  if (models.length < 2 || n === 0) return null;
  const q = gridOf(s, p);
  if (q === 0) return null;
  const bits = Math.ceil(Math.log2(n * q + 1));
  const lanes = Math.min(Math.floor(52 / bits), models.length);
  if (lanes < 2) return null;
  const cols = Math.ceil(models.length / lanes);
  const radix = 2 ** bits;
  const slots = new Int32Array(cols * lanes).fill(-1);
  models.forEach((m, k) => {
    slots[k] = m;
  });
  const values = new Float64Array(n * cols);
  let complete = true;
  for (const m of models) {
    const pv = p[m]!;
    for (let i = 0; i < n; i++) if (pv[i] === 0) complete = false;
  }
  const presence = complete ? null : new Float64Array(n * cols);
  for (let c = 0; c < cols; c++) {
    for (let l = lanes - 1; l >= 0; l--) {
      const m = slots[c * lanes + l]!;
      for (let i = 0; i < n; i++) {
        const at = i * cols + c;
        values[at] = values[at]! * radix + (m < 0 ? 0 : Math.round((s[m]![i]! * q) / 10));
        if (presence) presence[at] = presence[at]! * radix + (m < 0 ? 0 : p[m]![i]!);
      }
    }
  }
  return { cols, lanes, radix, step: 10 / q, slots, values, presence };
}

/** Numeric result of one aggregation pass (every array indexed by board model). */
interface Pass {
  /** Scratch: per cell sum and count of dataset scores. */
  readonly sum: Float64Array;
  readonly cnt: Float64Array;
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
 * @param full also the ability columns and overall (not needed in bootstrap rounds).
 * @param reuse a pass of the same M whose arrays are overwritten (no allocation in the bootstrap loop).
 */
function aggregatePass(
  M: number,
  datasets: readonly DenseDataset[],
  ds: readonly Float64Array[],
  comp: readonly Float64Array[],
  full: boolean,
  reuse?: Pass,
): Pass {
  const sum = reuse?.sum.fill(0) ?? new Float64Array(NM * NA * M);
  const cnt = reuse?.cnt.fill(0) ?? new Float64Array(NM * NA * M);
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
  const cells = reuse?.cells ?? new Float64Array(NM * NA * M);
  for (let k = 0; k < cells.length; k++) cells[k] = cnt[k]! > 0 ? sum[k]! / cnt[k]! : Number.NaN;
  const methods = (reuse?.methods ?? new Float64Array(NM * M)).fill(Number.NaN);
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
  const normalized = reuse?.normalized ?? new Float64Array(NM * M);
  const unnormalized: boolean[] = reuse?.unnormalized ?? [];
  const final = reuse?.final ?? new Float64Array(M);
  normaliseAndFinal(M, methods, null, normalized, final, unnormalized);
  const abilities = (
    full && reuse?.abilities.length === NA * M
      ? reuse.abilities
      : new Float64Array(full ? NA * M : 0)
  ).fill(Number.NaN);
  const overall = (
    full && reuse?.overall.length === M ? reuse.overall : new Float64Array(full ? M : 0)
  ).fill(Number.NaN);
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
  return { sum, cnt, cells, methods, normalized, abilities, overall, final, unnormalized };
}

/**
 * Min–max normalisation of the method scores and the final scores (docs/scoring.md §5.4), written into
 * `normalized` ([method·M + m]), `final` ([m]) and `unnormalized` (per method: present but not normalisable).
 * A method marked in `exclude` (its spread is within its uncertainty, docs §5 "Spread within uncertainty") gets no
 * normalised score and enters no final.
 */
function normaliseAndFinal(
  M: number,
  methods: Float64Array,
  exclude: readonly boolean[] | null,
  normalized: Float64Array,
  final: Float64Array,
  unnormalized: boolean[],
): void {
  normalized.fill(Number.NaN);
  unnormalized.length = 0;
  for (let me = 0; me < NM; me++) {
    if (exclude?.[me]) {
      unnormalized.push(false);
      continue;
    }
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
  final.fill(Number.NaN);
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
}

/**
 * A fast seeded generator (mulberry32, 32-bit uniforms) for one bootstrap round, seeded from the board's Rng
 * once per round: the item draws and the battle resampling of a round take their uniforms from it.
 */
function roundRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/** w[i] = how often item i is among the n draws {@link sumDraws} makes with `seed` (the same draw). */
function drawCounts(n: number, seed: number, w: Float64Array): void {
  w.fill(0, 0, n);
  const scale = n / 4294967296;
  let a = seed | 0;
  for (let k = 0; k < n; k++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    w[Math.floor(((t ^ (t >>> 14)) >>> 0) * scale)]! += 1;
  }
}

/**
 * acc[c] = Σ over n items drawn with replacement of rows[item·cols + c], the draws from mulberry32 (as
 * {@link roundRng}) seeded with `seed`: the same seed gives the same draw. Four columns at a time in locals (the
 * draws are regenerated for each group of four): this is the inner loop of the whole board.
 */
function sumDraws(
  rows: Float64Array,
  cols: number,
  n: number,
  seed: number,
  acc: Float64Array,
): void {
  const scale = n / 4294967296;
  for (let c0 = 0; c0 < cols; c0 += 4) {
    const width = Math.min(4, cols - c0);
    let a = seed | 0;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < n; k++) {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const at = Math.floor(((t ^ (t >>> 14)) >>> 0) * scale) * cols + c0;
      s0 += rows[at]!;
      if (width > 1) s1 += rows[at + 1]!;
      if (width > 2) s2 += rows[at + 2]!;
      if (width > 3) s3 += rows[at + 3]!;
    }
    acc[c0] = s0;
    if (width > 1) acc[c0 + 1] = s1;
    if (width > 2) acc[c0 + 2] = s2;
    if (width > 3) acc[c0 + 3] = s3;
  }
}

/**
 * One round's score of every model on a packed dataset: n items drawn with replacement (the same draw for every
 * model), their packed values summed, the lanes unpacked. A model none of whose items was drawn keeps its point
 * score.
 */
function resamplePacked(
  pk: PackedItems,
  n: number,
  seed: number,
  acc: Float64Array,
  accP: Float64Array,
  point: Float64Array,
  out: Float64Array,
): void {
  const { cols, lanes, radix, values, presence, slots } = pk;
  sumDraws(values, cols, n, seed, acc);
  if (presence) sumDraws(presence, cols, n, seed, accP);
  for (let c = 0; c < cols; c++) {
    let v = acc[c]!;
    let pv = presence ? accP[c]! : 0;
    for (let l = 0; l < lanes; l++) {
      const m = slots[c * lanes + l]!;
      const lane = v % radix;
      v = (v - lane) / radix;
      let den = n;
      if (presence) {
        den = pv % radix;
        pv = (pv - den) / radix;
      }
      if (m < 0) continue;
      out[m] = den > 0 ? (lane * pk.step) / den : point[m]!;
    }
  }
}

/**
 * One bootstrap round's dataset scores (see {@link computeBoard}): every dataset's n items drawn with replacement
 * from `round`, the same draw for every slot, written into ds[d][slot]. A function of its own, kept small, so
 * that the engine inlines the packed sums into it.
 */
function resampleDatasets(
  M: number,
  dense: readonly DenseDataset[],
  pointDs: readonly Float64Array[],
  round: Rng,
  ds: readonly Float64Array[],
  w: Float64Array,
  acc: Float64Array,
  accP: Float64Array,
): void {
  for (let d = 0; d < dense.length; d++) {
    const dd = dense[d]!;
    const n = dd.n;
    const out = ds[d]!;
    let from = 0;
    if (dd.packed) {
      out.fill(Number.NaN);
      const seed = round.int(0x100000000);
      resamplePacked(dd.packed, n, seed, acc, accP, pointDs[d]!, out);
      if (dd.s.length === M) continue;
      // The raw slots with the same draw: its item counts, from the same seed as the packed sums.
      drawCounts(n, seed, w);
      from = M;
    } else {
      w.fill(0, 0, n);
      for (let i = 0; i < n; i++) w[Math.floor(round.next() * n)]! += 1;
    }
    for (let m = from; m < dd.s.length; m++) {
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

/** One model's scores of one dataset made dense (NaN → 0 plus presence), checked, with its dataset entry. */
function denseModel(
  d: DatasetScores,
  model: string,
  scores: Float64Array,
): {
  sv: Float64Array;
  pv: Float64Array;
  n: number;
  sum: number;
  raw: { s: Float64Array; p: Float64Array; mean: number } | null;
  entry: DatasetEntry;
} {
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
  let rawMean = n > 0 ? sum / n : Number.NaN;
  let extra: { s: Float64Array; p: Float64Array; mean: number } | null = null;
  const raw = d.raw?.get(model);
  if (raw && n > 0) {
    if (raw.length !== d.items)
      throw new RangeError(
        `dataset ${d.dataset}: model ${model} has ${raw.length} raw item scores for ${d.items} items`,
      );
    const rv = new Float64Array(d.items);
    let rawSum = 0;
    let differs = false;
    for (let i = 0; i < d.items; i++) {
      const x = raw[i]!;
      if (Number.isNaN(x) !== (pv[i] === 0))
        throw new RangeError(
          `dataset ${d.dataset}: model ${model} item ${i} has a raw score exactly where it has no score`,
        );
      if (pv[i] === 0) continue;
      if (!(x >= 0 && x <= 10))
        throw new RangeError(
          `dataset ${d.dataset}: model ${model} item ${i} raw score ${x} is outside [0, 10]`,
        );
      rv[i] = x;
      rawSum += x;
      if (x !== sv[i]) differs = true;
    }
    rawMean = rawSum / n;
    if (differs) extra = { s: rv, p: pv, mean: rawMean };
  }
  const entry: DatasetEntry = {
    dataset: d.dataset,
    ability: d.ability,
    method: d.method,
    model,
    n,
    failures: d.failures?.get(model) ?? 0,
    violations: d.violations?.get(model) ?? 0,
    score: n > 0 ? sum / n : null,
    rawScore: nullable(rawMean),
  };
  return { sv, pv, n, sum, raw: extra, entry };
}

/** Everything the bootstrap rounds of a board are computed from (see {@link prepareBoard}). */
interface Prepared {
  readonly M: number;
  readonly dense: DenseDataset[];
  /** Per dataset, the point score of every slot. */
  readonly pointDs: Float64Array[];
  readonly entries: DatasetEntry[];
  readonly entryAt: { d: number; m: number; at: number }[];
  readonly hasRaw: boolean;
  readonly comp: ComparativeState;
  /** Per dataset, its slots that have scores (the dataset scores kept per round). */
  readonly present: number[][];
}

/** Dense item arrays per dataset (slots ≥ M: raw scores that differ), their point scores and entries. */
function densify(input: BoardInput, index: ReadonlyMap<string, number>, M: number) {
  const dense: DenseDataset[] = [];
  const entries: DatasetEntry[] = [];
  const pointDs: Float64Array[] = [];
  const entryAt: { d: number; m: number; at: number }[] = [];
  for (const d of input.datasets) {
    const s: (Float64Array | null)[] = new Array(M).fill(null);
    const p: (Float64Array | null)[] = new Array(M).fill(null);
    const rawSlot = new Int32Array(M).fill(-1);
    const extra: { m: number; s: Float64Array; p: Float64Array; mean: number }[] = [];
    const point = new Float64Array(M).fill(Number.NaN);
    for (const [model, scores] of d.scores) {
      const m = index.get(model);
      if (m === undefined) continue;
      const x = denseModel(d, model, scores);
      if (x.raw) extra.push({ m, ...x.raw });
      if (x.n > 0) {
        s[m] = x.sv;
        p[m] = x.pv;
        point[m] = x.sum / x.n;
      }
      entryAt.push({ d: dense.length, m, at: entries.length });
      entries.push(x.entry);
    }
    const pointAll = new Float64Array(M + extra.length);
    pointAll.set(point);
    extra.forEach((x, k) => {
      rawSlot[x.m] = M + k;
      s.push(x.s);
      p.push(x.p);
      pointAll[M + k] = x.mean;
    });
    dense.push({
      ability: BOARD_ABILITIES.indexOf(d.ability),
      method: BOARD_METHODS.indexOf(d.method),
      n: d.items,
      s,
      p,
      rawSlot,
      // Only the board models' slots are packed, exactly as without raw slots (the same draws of the same rounds).
      packed: packDataset(d.items, s.slice(0, M), p.slice(0, M)),
    });
    pointDs.push(pointAll);
  }
  return { dense, entries, pointDs, entryAt };
}

/** The board's dense inputs and arena fit, before any round (the same in every thread that computes rounds). */
function prepareBoard(input: BoardInput, opts: BoardOptions): Prepared {
  const M = input.models.length;
  const index = new Map(input.models.map((m, i) => [m, i]));
  const { dense, entries, pointDs, entryAt } = densify(input, index, M);
  const comp = fitComparative(
    input.models,
    BOARD_ABILITIES,
    input.battles,
    opts.minVotes,
    opts.normalMinSide,
  );
  return {
    M,
    dense,
    pointDs,
    entries,
    entryAt,
    hasRaw: dense.some((d) => d.s.length > M),
    comp,
    present: dense.map((d) => d.s.flatMap((x, slot) => (x ? [slot] : []))),
  };
}

/** Round dataset scores with each model's raw slot in its place (the raw scores' dataset scores), into `out`. */
function rawOf(
  M: number,
  dense: readonly DenseDataset[],
  ds: readonly Float64Array[],
  out: Float64Array[],
): Float64Array[] {
  for (let d = 0; d < dense.length; d++) {
    const src = ds[d]!;
    const dst = out[d]!;
    const slots = dense[d]!.rawSlot;
    for (let m = 0; m < M; m++) dst[m] = slots[m]! >= 0 ? src[slots[m]!]! : src[m]!;
  }
  return out;
}

/**
 * The per-round figures of bootstrap rounds [from, to) of a board (docs/scoring.md §5 "Uncertainty"), round r at
 * index r − from: `methods` (rounds × methods × models), `abilities` and `rawAbilities` (float32, rounds ×
 * abilities × models; the raw ones empty when no item score was flagged), `overall` (rounds × models), and `ds`,
 * per dataset, the round's scores of its slots that have scores (rounds × slots).
 */
export interface BoardRounds {
  readonly from: number;
  readonly to: number;
  readonly methods: Float64Array;
  readonly abilities: Float32Array;
  readonly overall: Float64Array;
  readonly rawAbilities: Float32Array;
  readonly ds: Float64Array[];
}

/**
 * Computes bootstrap rounds of a board elsewhere (another thread). `start` begins rounds [from, to) of the board
 * of the same input and options, round r seeded with `seeds[r]` (the board's own draw), written into `out` (every
 * round of the board, its arrays on shared memory: {@link newBoardRounds} with `shared`) at round r's place, and
 * returns a function that waits for them: true once they are written, false when they could not be computed (the
 * board then computes them itself, over whatever was written). Either way every figure is the same as without
 * helpers.
 */
export interface RoundHelper {
  start(seeds: Float64Array, from: number, to: number, out: BoardRounds): () => boolean;
}

/**
 * Empty per-round figures for rounds [from, to) of a board of `M` models, `hasRaw` raw ability columns and the
 * `present` slots per dataset; on `SharedArrayBuffer`s when `shared` (so that worker threads write their rounds in
 * place, with no copy).
 */
function newBoardRounds(
  p: Pick<Prepared, 'M' | 'hasRaw' | 'present'>,
  from: number,
  to: number,
  shared: boolean,
): BoardRounds {
  const n = to - from;
  const f64 = (len: number) =>
    shared ? new Float64Array(new SharedArrayBuffer(len * 8)) : new Float64Array(len);
  const f32 = (len: number) =>
    shared ? new Float32Array(new SharedArrayBuffer(len * 4)) : new Float32Array(len);
  return {
    from,
    to,
    methods: f64(n * NM * p.M),
    abilities: f32(n * NA * p.M),
    overall: f64(n * p.M),
    rawAbilities: f32(p.hasRaw ? n * NA * p.M : 0),
    ds: p.present.map((sl) => f64(n * sl.length)),
  };
}

/**
 * Rounds [from, to) of the paired bootstrap, round r from the generator seeded with seeds[r], written into `out`
 * (which holds rounds [out.from, out.to), a superset) at index r − out.from.
 */
function runRounds(
  p: Prepared,
  seeds: Float64Array,
  from: number,
  to: number,
  out: BoardRounds,
): BoardRounds {
  const { M, dense, pointDs, comp, hasRaw, present } = p;
  const ds = dense.map((d) => new Float64Array(d.s.length));
  const dsRaw = dense.map(() => new Float64Array(M));
  const cs = BOARD_ABILITIES.map(() => new Float64Array(M));
  let maxN = 0;
  let maxCols = 0;
  for (const d of dense) {
    maxN = Math.max(maxN, d.n);
    maxCols = Math.max(maxCols, d.packed?.cols ?? 0);
  }
  const w = new Float64Array(maxN);
  const acc = new Float64Array(maxCols);
  const accP = new Float64Array(maxCols);
  let pass: Pass | undefined;
  let passRaw: Pass | undefined;
  for (let r = from; r < to; r++) {
    const k = r - out.from;
    const round = roundRng(seeds[r]!);
    resampleDatasets(M, dense, pointDs, round, ds, w, acc, accP);
    resampleComparative(comp, round, cs);
    pass = aggregatePass(M, dense, ds, cs, true, pass);
    out.methods.set(pass.methods, k * NM * M);
    out.abilities.set(pass.abilities, k * NA * M);
    out.overall.set(pass.overall, k * M);
    if (hasRaw) {
      passRaw = aggregatePass(M, dense, rawOf(M, dense, ds, dsRaw), cs, true, passRaw);
      out.rawAbilities.set(passRaw.abilities, k * NA * M);
    }
    for (let d = 0; d < dense.length; d++) {
      const sl = present[d]!;
      const src = ds[d]!;
      const dst = out.ds[d]!;
      for (let j = 0; j < sl.length; j++) dst[k * sl.length + j] = src[sl[j]!]!;
    }
  }
  return out;
}

/**
 * A board's rounds computed apart from the board (what a {@link RoundHelper} runs in another thread): prepared once
 * from the board's input and options (the dense inputs and the arena fit), then `run(seeds, from, to, out?)`
 * computes rounds [from, to), round r seeded with seeds[r] (the board draws seeds[r] = rng.int(2³²) for r = 0, 1,
 * …), into `out` when given (rounds [out.from, out.to) of the board's shape, a superset, e.g. shared memory the
 * board reads) or into new arrays. The same numbers as the board's own rounds, bit for bit.
 * @throws RangeError from `run` when [from, to) is not within the seeds, or `out` has another shape or does not
 *   cover [from, to).
 */
export function prepareBoardRounds(
  input: BoardInput,
  opts: BoardOptions,
): { run(seeds: Float64Array, from: number, to: number, out?: BoardRounds): BoardRounds } {
  const p = prepareBoard(input, opts);
  return {
    run(seeds, from, to, out) {
      if (
        !(
          Number.isSafeInteger(from) &&
          Number.isSafeInteger(to) &&
          0 <= from &&
          from <= to &&
          to <= seeds.length
        )
      )
        throw new RangeError(`rounds [${from}, ${to}) outside the ${seeds.length} seeds`);
      if (out !== undefined && !fits(p, out, from, to))
        throw new RangeError(
          `rounds [${from}, ${to}) do not fit the given arrays (rounds [${out.from}, ${out.to}) of another shape)`,
        );
      return runRounds(p, seeds, from, to, out ?? newBoardRounds(p, from, to, false));
    },
  };
}

/**
 * Rounds [from, to) of the paired bootstrap of `computeBoard(input, rng, opts)` (see {@link prepareBoardRounds},
 * which this prepares and runs once).
 */
export function computeBoardRounds(
  input: BoardInput,
  opts: BoardOptions,
  seeds: Float64Array,
  from: number,
  to: number,
): BoardRounds {
  return prepareBoardRounds(input, opts).run(seeds, from, to);
}

/** True when `b` holds rounds [b.from, b.to) ⊇ [from, to) of the shape of `p`'s rounds. */
function fits(p: Prepared, b: BoardRounds, from: number, to: number): boolean {
  const n = b.to - b.from;
  return (
    b.from <= from &&
    to <= b.to &&
    b.methods.length === n * NM * p.M &&
    b.abilities.length === n * NA * p.M &&
    b.overall.length === n * p.M &&
    b.rawAbilities.length === (p.hasRaw ? n * NA * p.M : 0) &&
    b.ds.length === p.present.length &&
    b.ds.every((x, d) => x.length === n * p.present[d]!.length)
  );
}

/**
 * Every round of the bootstrap: the helpers' shares are started first (each writes into the same shared arrays),
 * this thread computes the first share, then waits for the helpers' (computing here any a helper could not give).
 * Shares are equal runs of rounds.
 */
function allRounds(p: Prepared, seeds: Float64Array, helpers: readonly RoundHelper[]): BoardRounds {
  const R = seeds.length;
  const size = Math.ceil(R / (helpers.length + 1));
  if (helpers.length === 0 || size === R)
    return runRounds(p, seeds, 0, R, newBoardRounds(p, 0, R, false));
  const out = newBoardRounds(p, 0, R, true);
  const started = helpers.flatMap((h, i) => {
    const from = Math.min(R, (i + 1) * size);
    const to = Math.min(R, from + size);
    return from < to ? [{ from, to, take: h.start(seeds, from, to, out) }] : [];
  });
  runRounds(p, seeds, 0, size, out);
  for (const s of started) if (!s.take()) runRounds(p, seeds, s.from, s.to, out);
  return out;
}

/**
 * Computes the board (docs/scoring.md §4–5).
 *
 * @param input models, item scores per dataset (latest finished run per suite, chosen by the caller) and arena
 *   battle types (the sources the caller selected).
 * @param rng seeded randomness for the paired bootstrap (`createRng(aggregation.seed)`).
 * @param opts `minVotes` (docs §4), `rounds` (0 = no interval), interval quantiles (default 2.5 % / 97.5 %).
 * @param helpers compute shares of the bootstrap rounds elsewhere ({@link RoundHelper}, e.g. worker threads,
 *   leaderboard/round-threads.ts); none: every round here. The board is the same, bit for bit, either way.
 * @returns rows ranked by final score (only rows with every method the board has; the others follow, unranked,
 *   by final); every score on the ten-point scale; empty cells null. With bootstrap rounds, a method whose best
 *   and worst models are not separated (docs §5 "Spread within uncertainty") is listed in `withinUncertainty`: it
 *   gets no normalised score, enters no final and is not required for a rank.
 * @throws RangeError for negative or non-integer rounds, or a dataset whose score array has the wrong length or
 *   a score outside [0, 10].
 *
 * Paired bootstrap: each round draws, for every dataset, its n items with replacement (the same draw for every
 * model: that is the pairing), and for every ability its arena battles with replacement (as battle types, refit
 * warm-started; a component with ≥ `normalMinSide` votes each side of every model draws the refit from its
 * normal law instead, see aggregate/comparative.ts); the whole aggregation, min–max normalisation included, is
 * recomputed from the resample. Item scores on a grid of 10/q are summed packed (exact; see PackedItems). The
 * interval is the 2.5–97.5 % quantile of a model's final score over the rounds; adjacent rows are "separated"
 * when fewer than 2.5 % of the rounds have the difference of their finals on the other side of 0 (and the
 * point difference is positive).
 */
export function computeBoard(
  input: BoardInput,
  rng: Rng,
  opts: BoardOptions,
  helpers: readonly RoundHelper[] = [],
): Board {
  const rounds = opts.rounds;
  if (!Number.isSafeInteger(rounds) || rounds < 0)
    throw new RangeError(`bootstrap rounds must be a non-negative integer, got ${rounds}`);
  const qLo = opts.lower ?? 0.025;
  const qHi = opts.upper ?? 0.975;
  const models = input.models;
  const prep = prepareBoard(input, opts);
  const { M, dense, entries, entryAt, pointDs, hasRaw, comp, present } = prep;
  const point = aggregatePass(M, dense, pointDs, comp.score, true);
  const pointRaw = hasRaw
    ? aggregatePass(
        M,
        dense,
        rawOf(
          M,
          dense,
          pointDs,
          dense.map(() => new Float64Array(M)),
        ),
        comp.score,
        true,
      )
    : point;

  // The paired bootstrap: every round's method scores are kept (rounds × methods × models), the finals are
  // computed from them once it is known which methods enter the finals. Kept for the intervals on the rubric
  // scale (IndustryBench App. I): every round's ability columns (SV-adjusted, and raw when some item was flagged)
  // as float32 (7 significant digits, ample for a ten-point score, half the memory on boards of many arena
  // models), and the dataset scores of the slots that have scores. Round r draws from a generator seeded with the
  // board's r-th draw, so rounds can be computed in any thread, in any order, with the same result.
  const seeds = new Float64Array(rounds);
  for (let r = 0; r < rounds; r++) seeds[r] = rng.int(0x100000000);
  const all = allRounds(prep, seeds, helpers);
  const roundMethods = all.methods;
  const roundAbilities = all.abilities;
  const roundOverall = all.overall;
  const roundRawAbilities = all.rawAbilities;
  const roundDs = all.ds;
  // The 2.5–97.5 % quantiles of one figure over the rounds (NaN rounds left out); null without rounds.
  const qScratch = new Float64Array(rounds);
  // Round r's value is values[offset + r·stride].
  const intervalOf = (
    values: Float64Array | Float32Array,
    offset: number,
    stride: number,
  ): Interval | null => {
    let k = 0;
    for (let r = 0, at = offset; r < rounds; r++, at += stride) {
      const x = values[at]!;
      if (!Number.isNaN(x)) qScratch[k++] = x;
    }
    if (k === 0) return null;
    const [lo, hi] = quantilePair(qScratch.subarray(0, k), qLo, qHi);
    return { lo, hi };
  };
  for (const { d, m, at } of entryAt) {
    const e = entries[at]!;
    const sl = present[d]!;
    const col = (slot: number) => {
      const k = sl.indexOf(slot);
      return k < 0 ? null : intervalOf(roundDs[d]!, k, sl.length);
    };
    const own = e.score === null ? null : col(m);
    const rs = dense[d]!.rawSlot[m]!;
    entries[at] = {
      ...e,
      scoreInterval: own,
      rawInterval: e.score === null ? null : rs >= 0 ? col(rs) : own,
    };
  }

  // Spread within uncertainty (docs §5): a method whose best and worst models (by point method score) are not
  // separated (at least 2.5 % of the rounds put the worst at or above the best, the test of adjacent rows) carries
  // no ranking information; min–max would stretch that noise to 0–10. It gets no normalised score and enters no
  // final. Without bootstrap rounds there is no uncertainty to compare with, and nothing is excluded.
  const within = BOARD_METHODS.map((_, me) => {
    if (rounds === 0) return false;
    let best = -1;
    let worst = -1;
    for (let m = 0; m < M; m++) {
      const x = point.methods[me * M + m]!;
      if (Number.isNaN(x)) continue;
      if (best < 0 || x > point.methods[me * M + best]!) best = m;
      if (worst < 0 || x < point.methods[me * M + worst]!) worst = m;
    }
    if (best < 0 || !(point.methods[me * M + best]! > point.methods[me * M + worst]!)) return false;
    let wrongSide = 0;
    let k = 0;
    for (let r = 0; r < rounds; r++) {
      const a = roundMethods[(r * NM + me) * M + best]!;
      const b = roundMethods[(r * NM + me) * M + worst]!;
      if (Number.isNaN(a) || Number.isNaN(b)) continue;
      k++;
      if (a - b <= 0) wrongSide++;
    }
    return k > 0 && wrongSide / k >= 1 - qHi;
  });
  if (within.some((x) => x))
    normaliseAndFinal(M, point.methods, within, point.normalized, point.final, point.unnormalized);
  const finals = new Float64Array(rounds * M);
  {
    const normScratch = new Float64Array(NM * M);
    const unScratch: boolean[] = [];
    for (let r = 0; r < rounds; r++) {
      normaliseAndFinal(
        M,
        roundMethods.subarray(r * NM * M, (r + 1) * NM * M),
        within,
        normScratch,
        finals.subarray(r * M, (r + 1) * M),
        unScratch,
      );
    }
  }

  // Ranking (docs §5 "Ranking"): by overall (the published ZhuJiu order) or by final (App. A), among the rows
  // that have every part of the key some row has (abilities for overall; methods for final, a method within its
  // uncertainty aside); the others follow unranked.
  const boardMethods = BOARD_METHODS.map(
    (_, i) => !within[i] && models.some((_, m) => !Number.isNaN(point.methods[i * M + m]!)),
  );
  const boardAbilities = BOARD_ABILITIES.map((_, a) =>
    models.some((_, m) => !Number.isNaN(point.abilities[a * M + m]!)),
  );
  const rankBy = opts.rankBy ?? 'final';
  const byOverall = rankBy === 'overall';
  const rk = rankRows(models, {
    point: byOverall ? point.overall : point.final,
    rounds: byOverall ? roundOverall : finals,
    nRounds: rounds,
    eligible: byOverall
      ? (m) =>
          BOARD_ABILITIES.every(
            (_, a) => !boardAbilities[a] || !Number.isNaN(point.abilities[a * M + m]!),
          )
      : (m) =>
          BOARD_METHODS.every(
            (_, i) => !boardMethods[i] || !Number.isNaN(point.methods[i * M + m]!),
          ),
    qHi,
  });
  const { order, ranked, rankOf } = rk;
  const [lo, hi] = roundQuantiles(point.final, finals, rounds, qLo, qHi);
  const [overallLo, overallHi] = roundQuantiles(point.overall, roundOverall, rounds, qLo, qHi);

  const abilityCoverage = BOARD_ABILITIES.map((_, a) => a);
  // Votes on battles without an ability: in the votes column, not in any comparative score (docs/scoring.md §4).
  const unassignedVotes = new Map<string, number>();
  for (const b of input.unassignedBattles ?? []) {
    const n = (b.aWins + b.bWins + b.ties) * b.count;
    for (const m of [b.modelA, b.modelB]) unassignedVotes.set(m, (unassignedVotes.get(m) ?? 0) + n);
  }
  const rows: BoardRow[] = order.map((m, pos) => {
    const missing: string[] = [];
    BOARD_METHODS.forEach((me, i) => {
      if (Number.isNaN(point.methods[i * M + m]!)) missing.push(me);
    });
    for (const a of abilityCoverage) {
      if (Number.isNaN(point.abilities[a * M + m]!)) missing.push(`ability:${BOARD_ABILITIES[a]}`);
    }
    const separated = rk.separated(m, order[pos + 1]);
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
    const methodIntervals = {} as Record<BoardMethod, Interval | null>;
    BOARD_METHODS.forEach((me, i) => {
      methodIntervals[me] =
        methods[me] === null ? null : intervalOf(roundMethods, i * M + m, NM * M);
    });
    const abilityIntervals = {} as Record<BoardAbility, Interval | null>;
    const rawAbilities = {} as Record<BoardAbility, number | null>;
    const rawAbilityIntervals = {} as Record<BoardAbility, Interval | null>;
    BOARD_ABILITIES.forEach((a, i) => {
      abilityIntervals[a] =
        abilities[a] === null ? null : intervalOf(roundAbilities, i * M + m, NA * M);
      rawAbilities[a] = nullable(pointRaw.abilities[i * M + m]!);
      rawAbilityIntervals[a] = !hasRaw
        ? abilityIntervals[a]
        : rawAbilities[a] === null
          ? null
          : intervalOf(roundRawAbilities, i * M + m, NA * M);
    });
    return {
      model: models[m]!,
      rank: ranked(m) ? rankOf[m]! : null,
      final,
      finalLo: final === null ? null : nullable(lo[m]!),
      finalHi: final === null ? null : nullable(hi[m]!),
      methods,
      normalized,
      abilities,
      cells: byMethodAbility((me, a) => nullable(point.cells[(me * NA + a) * M + m]!)),
      overall: nullable(point.overall[m]!),
      overallLo: nullable(overallLo[m]!),
      overallHi: nullable(overallHi[m]!),
      incomplete: missing.length > 0,
      missing,
      votes: comp.totalVotes[m]! + (unassignedVotes.get(models[m]!) ?? 0),
      separatedFromNext: separated,
      methodIntervals,
      abilityIntervals,
      rawAbilities,
      rawAbilityIntervals,
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
  for (const b of [...input.battles, ...(input.unassignedBattles ?? [])]) {
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
    withinUncertainty: BOARD_METHODS.filter((_, i) => within[i]),
    datasets: entries,
    arena,
    headToHead,
    rounds,
    minVotes: opts.minVotes,
    rankBy,
  };
}

/**
 * The 2.5–97.5 % (`qLo`, `qHi`) quantiles over the rounds of one figure per model: `values[r·M + m]` is round r's
 * value of model m (NaN rounds left out); NaN for a model whose point value is NaN, or without rounds.
 */
function roundQuantiles(
  point: Float64Array,
  values: Float64Array,
  rounds: number,
  qLo: number,
  qHi: number,
): [Float64Array, Float64Array] {
  const M = point.length;
  const lo = new Float64Array(M).fill(Number.NaN);
  const hi = new Float64Array(M).fill(Number.NaN);
  if (rounds === 0) return [lo, hi];
  const col = new Float64Array(rounds);
  for (let m = 0; m < M; m++) {
    if (Number.isNaN(point[m]!)) continue;
    let k = 0;
    let finite = true;
    for (let r = 0; r < rounds; r++) {
      const x = values[r * M + m]!;
      if (Number.isNaN(x)) continue;
      col[k++] = x;
      if (x === Number.POSITIVE_INFINITY || x === Number.NEGATIVE_INFINITY) finite = false;
    }
    if (k === 0) continue;
    // Selection gives the same order statistics as sorting, in O(n) (rating/quantile); it takes finite values.
    if (finite) {
      const [a, b] = quantilePair(col.subarray(0, k), qLo, qHi);
      lo[m] = a;
      hi[m] = b;
      continue;
    }
    const sorted = col.subarray(0, k).sort();
    lo[m] = quantileSorted(sorted, qLo);
    hi[m] = quantileSorted(sorted, qHi);
  }
  return [lo, hi];
}

/**
 * Ranks the rows by one key (docs/scoring.md §5 "Ranking"): the eligible rows with a key first, by key
 * descending (equal keys share a rank), then the other rows with a key (unranked), by key, then the rows with none,
 * by name. "Separated" (adjacent ranked rows): fewer than 1 − `qHi` of the rounds put the lower row's key at or
 * above the upper row's, and the point difference is positive; null for an unranked pair or without rounds.
 * @param k.point the key per model (NaN: none); k.rounds the key per round, `rounds[r·M + m]`.
 */
function rankRows(
  models: readonly string[],
  k: {
    readonly point: Float64Array;
    readonly rounds: Float64Array;
    readonly nRounds: number;
    readonly eligible: (m: number) => boolean;
    readonly qHi: number;
  },
): {
  order: number[];
  ranked: (m: number) => boolean;
  rankOf: Int32Array;
  separated: (m: number, next: number | undefined) => boolean | null;
} {
  const M = models.length;
  const key = k.point;
  const ranked = (m: number): boolean => !Number.isNaN(key[m]!) && k.eligible(m);
  const tier = (m: number): number => (ranked(m) ? 0 : Number.isNaN(key[m]!) ? 2 : 1);
  const order = models
    .map((_, m) => m)
    .sort((x, y) => {
      const tx = tier(x);
      const ty = tier(y);
      if (tx !== ty) return tx - ty;
      if (tx < 2 && key[x] !== key[y]) return key[y]! - key[x]!;
      return models[x]!.localeCompare(models[y]!);
    });
  const rankOf = new Int32Array(M).fill(0);
  order.forEach((m, pos) => {
    if (!ranked(m)) return;
    const prev = pos > 0 ? order[pos - 1]! : -1;
    rankOf[m] = prev >= 0 && key[prev] === key[m] ? rankOf[prev]! : pos + 1;
  });
  const separated = (m: number, next: number | undefined): boolean | null => {
    if (k.nRounds === 0 || next === undefined || !ranked(m) || !ranked(next)) return null;
    let wrongSide = 0;
    let n = 0;
    for (let r = 0; r < k.nRounds; r++) {
      const a = k.rounds[r * M + m]!;
      const b = k.rounds[r * M + next]!;
      if (Number.isNaN(a) || Number.isNaN(b)) continue;
      n++;
      if (a - b <= 0) wrongSide++;
    }
    return key[m]! > key[next]! && n > 0 && wrongSide / n < 1 - k.qHi;
  };
  return { order, ranked, rankOf, separated };
}
