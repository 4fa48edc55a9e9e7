/**
 * @module storage/eval-datasets
 * Stores a prepared evaluation dataset: its `datasets` row (ability, method, and in `metadata` its metric, scorer
 * profile, prompt-template version and provenance) and its `items` rows, keyed by (dataset, item key). Upserts in
 * one transaction: new items are added, changed items (prompt, reference, metadata, ability, method) are updated,
 * unchanged items are not written, and nothing is ever half-written.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Ability, Method } from '../config/schema.ts';
import { itemRow } from './items.ts';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** One item to store. */
export interface StoredItemSpec {
  readonly key: string;
  readonly prompt: string;
  readonly reference: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A dataset and its items (the shape of a `PreparedDataset`, eval/types.ts). */
export interface StoredDatasetSpec {
  readonly name: string;
  readonly ability: Ability;
  readonly method: Method;
  readonly metric: string;
  readonly profile: string;
  readonly templateVersion: string;
  readonly language?: string;
  /** Where the items came from (files, sampling); kept in the dataset's metadata. */
  readonly provenance?: unknown;
  readonly items: readonly StoredItemSpec[];
}

/** Options of {@link upsertEvalDataset}. */
export interface UpsertDatasetOptions {
  /**
   * Also overwrite an existing dataset row's ability, method and metadata (true: the suite is the truth, as when a
   * run starts). False keeps an existing row as it is (an import only makes sure the dataset exists).
   */
  readonly updateDataset?: boolean;
}

/** What an upsert did, with the id of every item key. */
export interface UpsertDatasetResult {
  readonly datasetId: number;
  /** Item key → `items.id`, for every item of the spec. */
  readonly itemIds: Map<string, number>;
  readonly added: number;
  readonly updated: number;
}

const CHUNK = 500;

async function upsert(
  trx: Conn,
  spec: StoredDatasetSpec,
  opts: UpsertDatasetOptions,
): Promise<UpsertDatasetResult> {
  const metadata = JSON.stringify({
    metric: spec.metric,
    profile: spec.profile,
    template_version: spec.templateVersion,
    ...(spec.provenance !== undefined ? { provenance: spec.provenance } : {}),
  });
  const language = spec.language ?? 'zh';
  await trx
    .insertInto('datasets')
    .values({ name: spec.name, ability: spec.ability, method: spec.method, language, metadata })
    .onConflict((oc) =>
      opts.updateDataset === false
        ? oc.column('name').doNothing()
        : oc.column('name').doUpdateSet({
            ability: spec.ability,
            method: spec.method,
            language,
            metadata,
          }),
    )
    .execute();
  const ds = await trx
    .selectFrom('datasets')
    .select(['id', 'ability', 'method', 'language'])
    .where('name', '=', spec.name)
    .executeTakeFirstOrThrow();
  const itemIds = new Map<string, number>();
  let added = 0;
  let updated = 0;
  for (let i = 0; i < spec.items.length; i += CHUNK) {
    const chunk = spec.items.slice(i, i + CHUNK);
    const keys = chunk.map((c) => c.key);
    const before = new Set(
      (
        await trx
          .selectFrom('items')
          .select('key')
          .where('dataset_id', '=', ds.id)
          .where('key', 'in', keys)
          .execute()
      ).map((r) => r.key),
    );
    const written = await trx
      .insertInto('items')
      .values(chunk.map((it) => itemRow(ds, it)))
      .onConflict((oc) =>
        oc
          .columns(['dataset_id', 'key'])
          .doUpdateSet((eb) => ({
            prompt: eb.ref('excluded.prompt'),
            reference: eb.ref('excluded.reference'),
            metadata: eb.ref('excluded.metadata'),
            ability: eb.ref('excluded.ability'),
            method: eb.ref('excluded.method'),
          }))
          .where((eb) =>
            eb.or([
              eb('items.prompt', 'is distinct from', eb.ref('excluded.prompt')),
              eb('items.reference', 'is distinct from', eb.ref('excluded.reference')),
              eb('items.metadata', 'is distinct from', eb.ref('excluded.metadata')),
              eb('items.ability', 'is distinct from', eb.ref('excluded.ability')),
              eb('items.method', 'is distinct from', eb.ref('excluded.method')),
            ]),
          ),
      )
      .returning('key')
      .execute();
    for (const w of written) {
      if (before.has(w.key)) updated++;
      else added++;
    }
    const rows = await trx
      .selectFrom('items')
      .select(['id', 'key'])
      .where('dataset_id', '=', ds.id)
      .where('key', 'in', keys)
      .execute();
    for (const r of rows) itemIds.set(r.key, r.id);
  }
  return { datasetId: ds.id, itemIds, added, updated };
}

/**
 * Upserts a dataset and its items in one transaction (or inside the caller's).
 * @returns the dataset id, the id of every item key, and how many items were added and updated.
 * @throws on duplicate keys within `spec.items` (RangeError) and on database errors (nothing is written).
 */
export async function upsertEvalDataset(
  db: Conn,
  spec: StoredDatasetSpec,
  opts: UpsertDatasetOptions = {},
): Promise<UpsertDatasetResult> {
  const seen = new Set<string>();
  for (const it of spec.items) {
    if (seen.has(it.key))
      throw new RangeError(`dataset ${spec.name}: item key "${it.key}" appears twice`);
    seen.add(it.key);
  }
  if (db.isTransaction) return upsert(db, spec, opts);
  return (db as Kysely<Database>).transaction().execute((trx) => upsert(trx, spec, opts));
}
