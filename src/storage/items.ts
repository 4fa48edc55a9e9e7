/**
 * @module storage/items
 * Datasets and their items. An item is identified by (dataset, key); its prompt is what models answer.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Ability, Method } from '../config/schema.ts';
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

/** Returns the dataset's id, creating it when missing (an existing dataset keeps its ability and method). */
export async function ensureDataset(db: Conn, spec: DatasetSpec): Promise<number> {
  await db
    .insertInto('datasets')
    .values({
      name: spec.name,
      ability: spec.ability,
      method: spec.method,
      language: spec.language ?? 'zh',
      source: spec.source ?? null,
    })
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
    .select(['ability', 'method', 'language'])
    .where('id', '=', datasetId)
    .executeTakeFirstOrThrow();
  const out = new Map<string, number>();
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    await db
      .insertInto('items')
      .values(
        chunk.map((it) => ({
          dataset_id: datasetId,
          key: it.key,
          ability: ds.ability,
          method: ds.method,
          language: ds.language,
          prompt: it.prompt,
          reference: it.reference === undefined ? null : JSON.stringify(it.reference),
          metadata: JSON.stringify(it.metadata ?? {}),
        })),
      )
      .onConflict((oc) => oc.columns(['dataset_id', 'key']).doNothing())
      .execute();
    const rows = await db
      .selectFrom('items')
      .select(['id', 'key'])
      .where('dataset_id', '=', datasetId)
      .where(
        'key',
        'in',
        chunk.map((c) => c.key),
      )
      .execute();
    for (const r of rows) out.set(r.key, r.id);
  }
  return out;
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
 * An item as a user knows it: its dataset name, its key and the start of its instruction, e.g.
 * `alpaca_eval "helpful_base-3" ("What are the names of some famous actors…")` (never the internal id).
 * @param prompt the stored prompt; its first 40 characters (one line) are quoted.
 */
export function itemLabel(dataset: string, key: string, prompt: string): string {
  const chars = [...prompt.replace(/\s+/gu, ' ').trim()];
  const head = chars.slice(0, 40).join('');
  const quoted = head === '' ? '' : ` ("${head}${chars.length > 40 ? '…' : ''}")`;
  return `${dataset} "${key}"${quoted}`;
}

/** {@link itemLabel} of each of `ids` (ids not stored are absent). */
export async function itemLabels(db: Conn, ids: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
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
