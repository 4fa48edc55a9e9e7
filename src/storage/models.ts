/**
 * @module storage/models
 * The `models` aggregate: one row per model under evaluation (no secrets in `config`).
 */
import type { Kysely, Transaction } from 'kysely';
import { compareKeys } from './key-order.ts';
import type { Database, ModelsTable } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A stored model. */
export interface ModelRow {
  readonly id: number;
  readonly name: string;
  readonly provider: ModelsTable['provider'];
}

/**
 * Returns the ids of the named models, creating missing ones with `provider` (existing rows keep theirs).
 * Safe under concurrency (INSERT … ON CONFLICT DO NOTHING, then SELECT), names inserted in sorted order so two
 * transactions naming the same models cannot deadlock (storage/key-order).
 */
export async function ensureModels(
  db: Conn,
  names: readonly string[],
  provider: ModelsTable['provider'],
): Promise<Map<string, number>> {
  const unique = [...new Set(names)].sort((a, b) => compareKeys([a], [b]));
  if (unique.length === 0) return new Map();
  for (let i = 0; i < unique.length; i += 1000) {
    await db
      .insertInto('models')
      .values(unique.slice(i, i + 1000).map((name) => ({ name, provider })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  const rows = await db
    .selectFrom('models')
    .select(['id', 'name'])
    .where('name', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Every stored model, by name. */
export async function listModels(db: Conn): Promise<ModelRow[]> {
  return db.selectFrom('models').select(['id', 'name', 'provider']).orderBy('name').execute();
}

/**
 * The model names `configured` (config/models.yaml) and the stored models know, configured first, without
 * repeats: the names a refusal of an unknown model lists.
 */
export async function knownModelNames(db: Conn, configured: readonly string[]): Promise<string[]> {
  return [...new Set([...configured, ...(await listModels(db)).map((m) => m.name)])];
}

/** One model by name, or undefined. */
export async function findModel(db: Conn, name: string): Promise<ModelRow | undefined> {
  return db
    .selectFrom('models')
    .select(['id', 'name', 'provider'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * Marks models as having recorded outputs: a model first seen in imported battles (`external`) becomes
 * `recorded` once its outputs are imported. Other providers are left as they are.
 */
export async function promoteToRecorded(db: Conn, modelId: number): Promise<void> {
  await db
    .updateTable('models')
    .set({ provider: 'recorded' })
    .where('id', '=', modelId)
    .where('provider', '=', 'external')
    .execute();
}
