/**
 * @module eval/run-plan
 * The plan of an evaluation run: every item of its prepared datasets (at most the run's item limit per dataset)
 * stored once (storage/items) and planned once per run (storage/eval-runs `planRunItems`, idempotent, so a resumed
 * run plans nothing new), in a few statements whatever the number of datasets, and the index from a stored item id
 * back to its dataset and item, which the item scoring reads (eval/run-item). Memory holds this index only, never
 * the answers or the results.
 *
 * The order of work ({@link workOrder}) mixes the datasets: each one's items are spread evenly over the run. A
 * suite's datasets differ in the work an item takes: a scoring dataset's items go to the judge after the model, a
 * multi-request dataset's items make several model requests. Worked one dataset after the other, a stretch of
 * judged items keeps the lanes waiting for the judge while the model's slots idle, and the run ends on whichever
 * kind of work comes last; mixed, both endpoints stay busy through the run (bench/eval prints each endpoint's load).
 */
import type { Kysely } from 'kysely';
import { type PlannedItem, plannedItemIds, planRunItems } from '../storage/eval-runs.ts';
import { ensureDatasetItems } from '../storage/items.ts';
import type { Database } from '../storage/schema.ts';
import type { EvalItem, PreparedDataset } from './types.ts';

/** A planned item: the prepared dataset it comes from and the item itself. */
export interface PlannedEntry {
  readonly ds: PreparedDataset;
  readonly item: EvalItem;
}

/** Stored item id → its dataset and item, for every item of a run's plan. */
export type RunIndex = ReadonlyMap<number, PlannedEntry>;

/** At most `limit` items of a dataset (the first ones, in the dataset's own order); `null`: all of them. */
export function limited(ds: PreparedDataset, limit: number | null): readonly EvalItem[] {
  return limit === null ? ds.items : ds.items.slice(0, limit);
}

/**
 * The order of work over datasets of `sizes` items (≥ 0 each, in suite order): for each dataset, the position
 * (0-based, over all items) of each of its items. Item j of a dataset of n items goes where j/n of the run is done,
 * equal fractions in suite order: each dataset's items keep their own order and are spread evenly over the run, and
 * the datasets' first items come first, in suite order (so a run's datasets still read in suite order by their first
 * item, storage/eval-runs `runDatasetTotals`). Pure.
 */
export function workOrder(sizes: readonly number[]): number[][] {
  const all: [dataset: number, item: number][] = [];
  sizes.forEach((n, d) => {
    for (let j = 0; j < n; j++) all.push([d, j]);
  });
  // j1/n1 against j2/n2 as j1·n2 against j2·n1: exact in integers (below 2^53 for any run that fits in memory).
  all.sort(
    ([d1, j1], [d2, j2]) => j1 * (sizes[d2] as number) - j2 * (sizes[d1] as number) || d1 - d2,
  );
  const out = sizes.map((n) => new Array<number>(n));
  all.forEach(([d, j], pos) => {
    (out[d] as number[])[j] = pos;
  });
  return out;
}

/**
 * The plan rows and the index of a run's items: `items[d]` are the chosen items of `datasets[d]` and `ids[d]` their
 * stored ids by item key. An item with no stored id is left out; the others are numbered in the order of work
 * ({@link workOrder}) from 0. Pure.
 */
export function planItems(
  datasets: readonly PreparedDataset[],
  items: readonly (readonly EvalItem[])[],
  ids: readonly ReadonlyMap<string, number>[],
): { readonly planned: PlannedItem[]; readonly index: Map<number, PlannedEntry> } {
  const stored = datasets.map((_, d) =>
    (items[d] ?? []).flatMap((item) => {
      const id = ids[d]?.get(item.key);
      return id === undefined ? [] : [{ id, item }];
    }),
  );
  const order = workOrder(stored.map((s) => s.length));
  const planned: PlannedItem[] = [];
  const index = new Map<number, PlannedEntry>();
  stored.forEach((s, d) => {
    const ds = datasets[d] as PreparedDataset;
    s.forEach(({ id, item }, j) => {
      index.set(id, { ds, item });
      planned.push({ itemId: id, dataset: ds.name, seq: (order[d] as number[])[j] as number });
    });
  });
  planned.sort((a, b) => a.seq - b.seq);
  return { planned, index };
}

/** A run's plan being stored: its first items at once, the others behind them ({@link startPlan}). */
export interface StagedPlan {
  /**
   * Stored item id → dataset and item for every item planned so far. A stage's entries are added before its plan
   * rows are stored, so every item a claim can return is in it.
   */
  readonly index: RunIndex;
  /** The first stage's entries (already planned when {@link startPlan} resolves). */
  readonly head: RunIndex;
  /**
   * The other entries, once they are planned too (an empty map when the head held every item); rejects with the
   * database's error. Already handled: a rejection nobody awaits is not an unhandled one.
   */
  readonly rest: Promise<RunIndex>;
  /** Items of the whole plan. */
  readonly total: number;
}

/** Options of {@link startPlan}. */
export interface StartPlanOptions {
  /** Items of the first stage (the first ones in the order of work); the rest are stored behind them. */
  readonly headItems: number;
  /**
   * Called with each stage's entries after its items are stored and before its plan rows are (so before any of
   * them can be claimed): e.g. the response cache's look-up of the stage (LlmClient.prefetch).
   */
  readonly beforeClaimable?: (stage: RunIndex) => Promise<void>;
}

/**
 * Stores the items of run `run.id` (at most `run.itemLimit` per dataset) and plans them, idempotently, in stages:
 * the first `headItems` in the order of work ({@link workOrder}) before this resolves, the others afterwards (the
 * returned `rest`, itself in a few stages, see {@link storeRest}), so a run's first requests leave while the bulk of a large plan is written (storing 2,000
 * items takes ~0.3 s on the embedded database; bench/first-start.ts). Each dataset's head is a prefix of its items,
 * so the items keep their order within a dataset (their ids ascend in it). The run's `progress_total` is the
 * whole plan's size from the first stage on. A run that already has a plan (`run.total` > 0: another worker's, or
 * an earlier execution's) whose items include every item chosen here is only read back (one query), so a worker
 * joining a large run starts on it at once instead of writing its thousands of rows again; a plan that lacks some
 * (the dataset grew) is completed as a first plan would be.
 * @throws database errors of the first stage (the rest's reject `rest`).
 */
export async function startPlan(
  db: Kysely<Database>,
  run: { readonly id: number; readonly itemLimit: number | null; readonly total?: number },
  datasets: readonly PreparedDataset[],
  opts: StartPlanOptions,
): Promise<StagedPlan> {
  const items = datasets.map((ds) => limited(ds, run.itemLimit));
  if ((run.total ?? 0) > 0) {
    const planned = await plannedItemIds(db, run.id);
    const ids = datasets.map((ds) => planned.get(ds.name) ?? new Map<string, number>());
    if (items.every((list, d) => list.every((it) => ids[d]?.has(it.key)))) {
      const { index } = planItems(datasets, items, ids);
      await opts.beforeClaimable?.(index);
      return { index, head: index, rest: Promise.resolve(new Map()), total: index.size };
    }
  }
  const order = workOrder(items.map((list) => list.length));
  const total = items.reduce((n, list) => n + list.length, 0);
  // A dataset's positions ascend with its items: its head is the items placed before `headItems`.
  // Each dataset's positions ascend with its items: the items a stage of positions [from, to) holds are a slice.
  const index = new Map<number, PlannedEntry>();
  const stage = { db, run, datasets, items, order, index, total, opts };
  const headCut = order.map((positions) => countBelow(positions, opts.headItems));
  const head = await storeStage(stage, (d) => [0, headCut[d] as number], true);
  const rest = storeRest(stage, opts.headItems);
  rest.catch(() => undefined);
  return { index, head, rest, total };
}

/** How many of the ascending `positions` are below `p` (binary search). */
function countBelow(positions: readonly number[], p: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((positions[mid] as number) < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rest of a plan is stored in at most this many stages after the head ({@link storeRest}). */
const REST_STAGES = 8;
/** …of at least this many items each. */
const REST_STAGE_ITEMS = 256;

/**
 * Stores the plan's items from position `from` on in stages of the order of work, each claimable as soon as it is
 * stored: on the embedded database a statement holds the event loop while it runs, so a few hundred items per
 * statement keep the lanes' answers from waiting long behind the rest of the plan, and each stage's items can be
 * claimed before the last one is stored.
 * @returns the entries of every stage.
 */
async function storeRest(p: PlanStage, from: number): Promise<Map<number, PlannedEntry>> {
  const all = new Map<number, PlannedEntry>();
  const size = Math.max(REST_STAGE_ITEMS, Math.ceil((p.total - from) / REST_STAGES));
  for (let lo = from; lo < p.total; lo += size) {
    const [a, b] = [lo, lo + size].map((x) =>
      p.order.map((positions) => countBelow(positions, x)),
    ) as [number[], number[]];
    const entries = await storeStage(p, (d) => [a[d] as number, b[d] as number], false);
    for (const [id, e] of entries) all.set(id, e);
  }
  return all;
}

/** What {@link storeStage} stores a part of. */
interface PlanStage {
  readonly db: Kysely<Database>;
  readonly run: { readonly id: number };
  readonly datasets: readonly PreparedDataset[];
  readonly items: readonly (readonly EvalItem[])[];
  /** {@link workOrder} of `items`. */
  readonly order: readonly (readonly number[])[];
  /** The plan's index, which the stage's entries join. */
  readonly index: Map<number, PlannedEntry>;
  readonly total: number;
  readonly opts: StartPlanOptions;
}

/**
 * Stores the items `range(d)` (from, to) of each dataset `d` of `p`, then their plan rows at their positions in
 * the order of work. The `first` stage creates every dataset row (even one with no item in it) and stores the
 * plan's size as the run's total, even when it holds no item; a later stage with no item does nothing.
 * @returns the stage's entries (stored id → dataset and item).
 */
async function storeStage(
  p: PlanStage,
  range: (d: number) => readonly [number, number],
  first: boolean,
): Promise<Map<number, PlannedEntry>> {
  const parts = p.datasets.map((_, d) => {
    const [from, to] = range(d);
    return (p.items[d] as readonly EvalItem[])
      .slice(from, to)
      .map((item, k) => ({ item, seq: (p.order[d] as readonly number[])[from + k] as number }));
  });
  const entries = new Map<number, PlannedEntry>();
  if (!first && parts.every((part) => part.length === 0)) return entries;
  const ids = await ensureDatasetItems(
    p.db,
    p.datasets.map((ds, d) => ({
      dataset: {
        name: ds.name,
        ability: ds.ability,
        method: ds.method,
        ...(ds.provenance ? { source: ds.provenance.source } : {}),
      },
      items: (parts[d] ?? []).map(({ item: it }) => ({
        key: it.key,
        prompt: it.prompt,
        reference: it.reference,
        metadata: { ...it.metadata },
      })),
    })),
  );
  const planned: PlannedItem[] = [];
  parts.forEach((part, d) => {
    const ds = p.datasets[d] as PreparedDataset;
    for (const { item, seq } of part) {
      const id = ids[d]?.get(item.key);
      if (id === undefined) continue;
      entries.set(id, { ds, item });
      p.index.set(id, { ds, item });
      planned.push({ itemId: id, dataset: ds.name, seq });
    }
  });
  await p.opts.beforeClaimable?.(entries);
  planned.sort((a, b) => a.seq - b.seq);
  await planRunItems(p.db, p.run.id, planned, p.total);
  return entries;
}

/**
 * {@link startPlan} in one go: resolves once every item is planned.
 * @returns the run's index (stored item id → dataset and item). Database errors are thrown.
 */
export async function planRun(
  db: Kysely<Database>,
  run: { readonly id: number; readonly itemLimit: number | null; readonly total?: number },
  datasets: readonly PreparedDataset[],
): Promise<RunIndex> {
  const plan = await startPlan(db, run, datasets, { headItems: Number.POSITIVE_INFINITY });
  await plan.rest;
  return plan.index;
}
