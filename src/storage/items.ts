/**
 * @module storage/items
 * Datasets and their items. An item is identified by (dataset, key); its prompt is what models answer.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Ability, Method } from '../config/schema.ts';
import type { ItemLabel } from '../i18n/quote.ts';
import { inKeyOrder } from './key-order.ts';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A dataset to create if missing. */
export interface DatasetSpec {
  readonly name: string;
  readonly ability: Ability;
  readonly method: Method;
  readonly language?: string;
  readonly source?: string;
}

/** The `datasets` row of `spec` (language `zh` unless given). */
function datasetRow(spec: DatasetSpec) {
  return {
    name: spec.name,
    ability: spec.ability,
    method: spec.method,
    language: spec.language ?? 'zh',
    source: spec.source ?? null,
  };
}

/**
 * The `items` row of `it` in the stored dataset `ds` (the item inherits the dataset's ability, method and
 * language; reference and metadata as JSON text, metadata `{}` when absent).
 */
export function itemRow(
  ds: {
    readonly id: number;
    readonly ability: string;
    readonly method: string;
    readonly language: string;
  },
  it: ItemSpec,
) {
  return {
    dataset_id: ds.id,
    key: it.key,
    ability: ds.ability,
    method: ds.method,
    language: ds.language,
    prompt: it.prompt,
    reference: it.reference === undefined ? null : JSON.stringify(it.reference),
    metadata: JSON.stringify(it.metadata ?? {}),
  };
}

/** Returns the dataset's id, creating it when missing (an existing dataset keeps its ability and method). */
export async function ensureDataset(db: Conn, spec: DatasetSpec): Promise<number> {
  await db
    .insertInto('datasets')
    .values(datasetRow(spec))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('datasets')
    .select('id')
    .where('name', '=', spec.name)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An item to create if missing. */
export interface ItemSpec {
  readonly key: string;
  readonly prompt: string;
  readonly reference?: unknown;
  readonly metadata?: Record<string, unknown>;
}

/**
 * Creates missing items of a dataset (existing keys are left as they are) and returns key → id for all of `items`.
 * Items inherit the dataset's ability, method and language.
 */
export async function ensureItems(
  db: Conn,
  datasetId: number,
  items: readonly ItemSpec[],
): Promise<Map<string, number>> {
  const ds = await db
    .selectFrom('datasets')
    .select(['id', 'ability', 'method', 'language'])
    .where('id', '=', datasetId)
    .executeTakeFirstOrThrow();
  const ids = await ensureItemRows(
    db,
    items.map((it) => itemRow(ds, it)),
  );
  return keysToIds(ids, datasetId, items);
}

/** Item rows per insert statement in {@link ensureItemRows}. */
const ITEM_ROWS_PER_STATEMENT = 1000;

/**
 * Inserts item rows ({@link itemRow}) in the given order (so new ids ascend in it), those already stored kept as
 * they are, {@link ITEM_ROWS_PER_STATEMENT} per statement; the ids of rows that already existed are read back in
 * one query per such chunk. The rows go as one JSON parameter (jsonb_to_recordset, in order by its ordinality)
 * rather than a `VALUES` list of eight parameters a row, which PGlite parsed and planned ~2.5× slower (a first
 * `zhujiu eval` of 2,000 items: ~0.35 s of its start, bench/first-start).
 * @returns `${dataset id} ${key}` → item id of every row.
 */
async function ensureItemRows(
  db: Conn,
  rows: readonly ReturnType<typeof itemRow>[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < rows.length; i += ITEM_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ITEM_ROWS_PER_STATEMENT);
    const { rows: inserted } = await sql<{ id: number; dataset_id: number; key: string }>`
      INSERT INTO items (dataset_id, key, ability, method, language, prompt, reference, metadata)
      SELECT v.dataset_id, v.key, v.ability, v.method, v.language, v.prompt, v.reference::jsonb, v.metadata::jsonb
        FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) AS (
               dataset_id bigint, key text, ability text, method text, language text, prompt text,
               reference text, metadata text))
             WITH ORDINALITY AS v(dataset_id, key, ability, method, language, prompt, reference, metadata, n)
       ORDER BY v.n
      ON CONFLICT (dataset_id, key) DO NOTHING
      RETURNING id, dataset_id, key`.execute(db);
    for (const r of inserted) ids.set(`${Number(r.dataset_id)} ${r.key}`, Number(r.id));
    const missing = chunk.filter((r) => !ids.has(`${r.dataset_id} ${r.key}`));
    if (missing.length === 0) continue;
    const found = await sql<{ id: number; dataset_id: number; key: string }>`
      SELECT i.id, i.dataset_id, i.key
        FROM unnest(${missing.map((r) => String(r.dataset_id))}::bigint[], ${missing.map((r) => r.key)}::text[])
             AS m(dataset_id, key)
        JOIN items i ON i.dataset_id = m.dataset_id AND i.key = m.key`.execute(db);
    for (const r of found.rows) ids.set(`${r.dataset_id} ${r.key}`, Number(r.id));
  }
  return ids;
}

/** key → id of `items` of dataset `datasetId`, from {@link ensureItemRows}' ids (an item without one left out). */
function keysToIds(
  ids: ReadonlyMap<string, number>,
  datasetId: number | undefined,
  items: readonly ItemSpec[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const it of items) {
    const id = ids.get(`${datasetId} ${it.key}`);
    if (id !== undefined) out.set(it.key, id);
  }
  return out;
}

/** A dataset to create if missing, with its items to create if missing ({@link ensureDatasetItems}). */
export interface DatasetItems {
  readonly dataset: DatasetSpec;
  readonly items: readonly ItemSpec[];
}

/**
 * {@link ensureDataset} and {@link ensureItems} for several datasets at once, in a few statements whatever their
 * number (an evaluation run plans dozens of datasets): the missing datasets are created in one insert (an existing
 * dataset keeps its ability, method and language, and its items inherit them), the missing items in one insert per
 * {@link ITEM_ROWS_PER_STATEMENT} rows, in the given order (so their ids ascend in that order), and the ids of items
 * that already existed are read back in one query per such chunk. A dataset named twice gets both lists' items.
 * @returns per entry of `groups`, in order, key → id of all its items.
 */
export async function ensureDatasetItems(
  db: Conn,
  groups: readonly DatasetItems[],
): Promise<Map<string, number>[]> {
  if (groups.length === 0) return [];
  const specs = new Map(groups.map((g) => [g.dataset.name, g.dataset]));
  await db
    .insertInto('datasets')
    .values(inKeyOrder([...specs.values()], (s) => [s.name]).map(datasetRow))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = new Map(
    (
      await db
        .selectFrom('datasets')
        .select(['id', 'name', 'ability', 'method', 'language'])
        .where('name', 'in', [...specs.keys()])
        .execute()
    ).map((d) => [d.name, d]),
  );
  const rows = groups.flatMap((g) => {
    const ds = stored.get(g.dataset.name);
    if (!ds) throw new Error(`dataset ${g.dataset.name} vanished while its items were stored`);
    return g.items.map((it) => itemRow(ds, it));
  });
  const ids = await ensureItemRows(db, rows);
  return groups.map((g) => keysToIds(ids, stored.get(g.dataset.name)?.id, g.items));
}

/** A stored item of a dataset, as an evaluation run reads it back. */
export interface StoredItem {
  readonly key: string;
  readonly prompt: string;
  readonly reference: unknown;
  readonly metadata: Record<string, unknown>;
}

/**
 * Every stored item of dataset `name` (by name), in the order they were stored; empty when the dataset has none
 * (or does not exist). E.g. the `gaokao_*` items an imported GAOKAO-Bench result folder stored.
 */
export async function storedItemsOf(db: Conn, name: string): Promise<StoredItem[]> {
  const rows = await db
    .selectFrom('items')
    .innerJoin('datasets', 'datasets.id', 'items.dataset_id')
    .select(['items.key', 'items.prompt', 'items.reference', 'items.metadata'])
    .where('datasets.name', '=', name)
    .orderBy('items.id')
    .execute();
  return rows.map((r) => ({
    key: r.key,
    prompt: r.prompt,
    reference: r.reference,
    metadata: r.metadata ?? {},
  }));
}

/** The stored prompt of each of `keys` in a dataset (keys not stored are absent). */
export async function itemPrompts(
  db: Conn,
  datasetId: number,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const rows = await db
      .selectFrom('items')
      .select(['key', 'prompt'])
      .where('dataset_id', '=', datasetId)
      .where('key', 'in', keys.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(r.key, r.prompt);
  }
  return out;
}

/**
 * The {@link ItemLabel} of an item.
 * @param prompt the stored prompt; its first 40 characters (one line) are kept.
 */
export function itemLabel(dataset: string, key: string, prompt: string): ItemLabel {
  const chars = [...prompt.replace(/\s+/gu, ' ').trim()];
  const head = chars.slice(0, 40).join('');
  return { dataset, key, head: head === '' ? '' : `${head}${chars.length > 40 ? '…' : ''}` };
}

/** {@link itemLabel} of each of `ids` (ids not stored are absent). */
export async function itemLabels(
  db: Conn,
  ids: readonly number[],
): Promise<Map<number, ItemLabel>> {
  const out = new Map<number, ItemLabel>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .selectFrom('items as i')
      .innerJoin('datasets as d', 'd.id', 'i.dataset_id')
      .select(['i.id as id', 'd.name as dataset', 'i.key as key', 'i.prompt as prompt'])
      .where('i.id', 'in', unique.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(Number(r.id), itemLabel(r.dataset, r.key, r.prompt));
  }
  return out;
}

/** The names of every stored dataset, sorted. */
export async function listDatasetNames(db: Conn): Promise<string[]> {
  const rows = await db.selectFrom('datasets').select('name').orderBy('name').execute();
  return rows.map((r) => r.name);
}
