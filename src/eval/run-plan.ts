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

/**
 * Stores the items of run `run.id` (at most `run.itemLimit` per dataset) and plans them; idempotent. A run that
 * already has a plan (`run.total` > 0: another worker's, or an earlier execution's) whose items include every item
 * chosen here is only read back (one query; the statements below would store nothing new), so a worker joining a
 * large run starts on it at once instead of writing its thousands of rows again.
 * @returns the run's index (stored item id → dataset and item). Database errors are thrown.
 */
export async function planRun(
  db: Kysely<Database>,
  run: { readonly id: number; readonly itemLimit: number | null; readonly total?: number },
  datasets: readonly PreparedDataset[],
): Promise<RunIndex> {
  const items = datasets.map((ds) => limited(ds, run.itemLimit));
  if ((run.total ?? 0) > 0) {
    const planned = await plannedItemIds(db, run.id);
    const ids = datasets.map((ds) => planned.get(ds.name) ?? new Map<string, number>());
    const all = items.every((list, d) => list.every((it) => ids[d]?.has(it.key)));
    if (all) return planItems(datasets, items, ids).index;
  }
  const ids = await ensureDatasetItems(
    db,
    datasets.map((ds, d) => ({
      dataset: {
        name: ds.name,
        ability: ds.ability,
        method: ds.method,
        ...(ds.provenance ? { source: ds.provenance.source } : {}),
      },
      items: (items[d] as readonly EvalItem[]).map((it) => ({
        key: it.key,
        prompt: it.prompt,
        reference: it.reference,
        metadata: { ...it.metadata },
      })),
    })),
  );
  const { planned, index } = planItems(datasets, items, ids);
  await planRunItems(db, run.id, planned);
  return index;
}
