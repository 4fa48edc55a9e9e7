/**
 * @module storage/responses
 * Model answers (the response cache): one row per model + item + request hash.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A response to store. */
export interface ResponseSpec {
  readonly modelId: number;
  readonly itemId: number;
  readonly requestHash: string;
  readonly output: string;
  readonly latencyMs?: number | null;
  readonly promptTokens?: number | null;
  readonly completionTokens?: number | null;
  readonly source?: string;
}

/**
 * Inserts responses; rows whose (model, item, request hash) already exist are left unchanged.
 * @returns how many rows were added.
 */
export async function insertResponses(db: Conn, rows: readonly ResponseSpec[]): Promise<number> {
  let added = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const res = await db
      .insertInto('responses')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          model_id: r.modelId,
          item_id: r.itemId,
          request_hash: r.requestHash,
          output: r.output,
          latency_ms: r.latencyMs ?? null,
          prompt_tokens: r.promptTokens ?? null,
          completion_tokens: r.completionTokens ?? null,
          source: r.source ?? 'live',
        })),
      )
      .onConflict((oc) => oc.columns(['model_id', 'item_id', 'request_hash']).doNothing())
      .executeTakeFirst();
    added += Number(res.numInsertedOrUpdatedRows ?? 0n);
  }
  return added;
}

/** Number of stored responses of a model (all items). */
export async function countResponses(db: Conn, modelId: number): Promise<number> {
  const row = await db
    .selectFrom('responses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('model_id', '=', modelId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stored outputs of one model for the given items under one request hash (item id → output). */
export async function storedOutputs(
  db: Conn,
  modelId: number,
  itemIds: readonly number[],
  requestHash: string,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < itemIds.length; i += 1000) {
    const rows = await db
      .selectFrom('responses')
      .select(['item_id', 'output'])
      .where('model_id', '=', modelId)
      .where('request_hash', '=', requestHash)
      .where('item_id', 'in', itemIds.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(r.item_id, r.output);
  }
  return out;
}
