/**
 * @module eval/run-plan
 * The plan of an evaluation run: every item of its prepared datasets (at most the run's item limit per dataset)
 * stored once (storage/items) and planned once per run (storage/eval-runs `planRunItems`, idempotent, so a resumed
 * run plans nothing new), and the index from a stored item id back to its dataset and item, which the item
 * scoring reads (eval/run-item). Memory holds this index only, never the answers or the results.
 */
import type { Kysely } from 'kysely';
import { type PlannedItem, planRunItems } from '../storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../storage/items.ts';
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
 * The plan rows and index entries of one dataset's `items`, given their stored ids by item key (`ids`), numbered
 * in order from `firstSeq` (the run's order of work: datasets in suite order, items in dataset order). An item with
 * no stored id is left out. Pure.
 */
export function planDataset(
  ds: PreparedDataset,
  items: readonly EvalItem[],
  ids: ReadonlyMap<string, number>,
  firstSeq: number,
): { readonly planned: PlannedItem[]; readonly entries: [number, PlannedEntry][] } {
  const planned: PlannedItem[] = [];
  const entries: [number, PlannedEntry][] = [];
  let seq = firstSeq;
  for (const item of items) {
    const id = ids.get(item.key);
    if (id === undefined) continue;
    entries.push([id, { ds, item }]);
    planned.push({ itemId: id, dataset: ds.name, seq: seq++ });
  }
  return { planned, entries };
}

/**
 * Stores the items of run `run.id` (at most `run.itemLimit` per dataset) and plans them; idempotent.
 * @returns the run's index (stored item id → dataset and item). Database errors are thrown.
 */
export async function planRun(
  db: Kysely<Database>,
  run: { readonly id: number; readonly itemLimit: number | null },
  datasets: readonly PreparedDataset[],
): Promise<RunIndex> {
  const index = new Map<number, PlannedEntry>();
  let seq = 0;
  for (const ds of datasets) {
    const items = limited(ds, run.itemLimit);
    const datasetId = await ensureDataset(db, {
      name: ds.name,
      ability: ds.ability,
      method: ds.method,
      ...(ds.provenance ? { source: ds.provenance.source } : {}),
    });
    const ids = await ensureItems(
      db,
      datasetId,
      items.map((it) => ({
        key: it.key,
        prompt: it.prompt,
        reference: it.reference,
        metadata: { ...it.metadata },
      })),
    );
    const { planned, entries } = planDataset(ds, items, ids, seq);
    seq += planned.length;
    for (const [id, entry] of entries) index.set(id, entry);
    await planRunItems(db, run.id, planned);
  }
  return index;
}
