/**
 * @module storage/responses
 * Model answers (the response cache): one row per model + item + request hash.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { inKeyOrder } from './key-order.ts';
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
 * Inserts responses; rows whose (model, item, request hash) already exist are left unchanged. Rows are written in
 * that key's order, so concurrent imports of the same outputs cannot deadlock (storage/key-order).
 * @returns how many rows were added.
 */
export async function insertResponses(db: Conn, given: readonly ResponseSpec[]): Promise<number> {
  const rows = inKeyOrder(given, (r) => [r.modelId, r.itemId, r.requestHash]);
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
    for (const r of rows) if (r.item_id !== null) out.set(r.item_id, r.output);
  }
  return out;
}

/** A stored answer, as the response cache returns it. */
export interface StoredResponse {
  readonly id: number;
  readonly output: string;
  readonly latencyMs: number | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
}

/**
 * The cached answer of a model to a request (by request hash), or undefined. Any stored row with the hash answers
 * it, whichever item it was first stored for: the hash covers everything that determines the answer.
 */
export async function findCachedResponse(
  db: Conn,
  modelId: number,
  requestHash: string,
): Promise<StoredResponse | undefined> {
  return (await findCachedResponses(db, modelId, [requestHash])).get(requestHash);
}

/**
 * The cached answers of a model to many requests in one query (request hash → its earliest stored row, as
 * {@link findCachedResponse} picks it); hashes with no stored answer are absent from the map.
 */
export async function findCachedResponses(
  db: Conn,
  modelId: number,
  requestHashes: readonly string[],
): Promise<Map<string, StoredResponse>> {
  const out = new Map<string, StoredResponse>();
  const unique = [...new Set(requestHashes)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .selectFrom('responses')
      .distinctOn('request_hash')
      .select(['request_hash', 'id', 'output', 'latency_ms', 'prompt_tokens', 'completion_tokens'])
      .where('model_id', '=', modelId)
      .where('request_hash', 'in', unique.slice(i, i + 1000))
      .orderBy('request_hash')
      .orderBy('id')
      .execute();
    for (const r of rows) out.set(r.request_hash, toStored(r));
  }
  return out;
}

/**
 * Which of `requestHashes` model `modelId` has a stored answer to (any item), in one query per 10,000 hashes (the
 * hashes go as one array parameter): the response cache's look-up ahead of a run (llm/response-cache `stored`).
 */
export async function storedRequestHashes(
  db: Conn,
  modelId: number,
  requestHashes: readonly string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(requestHashes)];
  for (let i = 0; i < unique.length; i += 10_000) {
    const r = await sql<{ request_hash: string }>`
      SELECT DISTINCT request_hash FROM responses
       WHERE model_id = ${modelId} AND request_hash = ANY(${unique.slice(i, i + 10_000)}::text[])`.execute(
      db,
    );
    for (const row of r.rows) out.add(row.request_hash);
  }
  return out;
}

/** A selected `responses` row as a {@link StoredResponse}. */
function toStored(r: {
  id: number;
  output: string;
  latency_ms: number | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
}): StoredResponse {
  return {
    id: r.id,
    output: r.output,
    latencyMs: r.latency_ms,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
  };
}

/** An answer to store in the cache; `itemId` is null for a request that answers no stored item. */
export interface CacheSpec {
  readonly modelId: number;
  readonly itemId: number | null;
  readonly requestHash: string;
  readonly output: string;
  /** The model's reasoning, apart from `output` (migration 0009). */
  readonly reasoning?: string | undefined;
  readonly reasoningTokens?: number | undefined;
  readonly latencyMs: number;
  readonly promptTokens?: number | undefined;
  readonly completionTokens?: number | undefined;
}

/**
 * Stores an answer (a concurrent identical request may have stored it first: then that row is kept) and returns
 * the id of the row that now answers the request.
 */
export async function saveCachedResponse(db: Conn, spec: CacheSpec): Promise<number> {
  const [id] = await saveCachedResponses(db, spec.modelId, [spec]);
  return id as number;
}

/**
 * Stores many answers of model `modelId` in one multi-row insert (the `modelId` of each spec is ignored); a row
 * already stored for the same item and request hash (or for the same hash, for requests of no item) is kept.
 * @returns per spec, in order, the id of the row that now answers its request: the row inserted for it, else the
 *   earliest stored row with its hash.
 * @throws Error when a conflicting row vanished before it could be read (deleted meanwhile).
 */
export async function saveCachedResponses(
  db: Conn,
  modelId: number,
  specs: readonly Omit<CacheSpec, 'modelId'>[],
): Promise<number[]> {
  const key = (itemId: number | null, hash: string) => `${itemId ?? ''}\u0000${hash}`;
  const ids = new Map<string, number>();
  // The rows go as one JSON parameter (jsonb_to_recordset) rather than ten parameters a row: on the embedded
  // database each parameter has a cost of its own, and a run stores its answers a few rows a statement
  // (bench/first-start: ~25 % less database time per answer).
  for (let i = 0; i < specs.length; i += 500) {
    const rows = specs.slice(i, i + 500).map((spec) => ({
      item_id: spec.itemId,
      request_hash: spec.requestHash,
      output: spec.output,
      reasoning: spec.reasoning ?? null,
      reasoning_tokens: spec.reasoningTokens ?? null,
      latency_ms: Math.max(0, Math.round(spec.latencyMs)),
      prompt_tokens: spec.promptTokens ?? null,
      completion_tokens: spec.completionTokens ?? null,
    }));
    const inserted = await sql<{ id: number; item_id: number | null; request_hash: string }>`
      INSERT INTO responses (model_id, item_id, request_hash, output, reasoning, reasoning_tokens, latency_ms,
                             prompt_tokens, completion_tokens, source)
      SELECT ${modelId}, v.item_id, v.request_hash, v.output, v.reasoning, v.reasoning_tokens, v.latency_ms,
             v.prompt_tokens, v.completion_tokens, 'live'
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(
          item_id bigint, request_hash text, output text, reasoning text, reasoning_tokens integer,
          latency_ms integer, prompt_tokens integer, completion_tokens integer)
      ON CONFLICT DO NOTHING
      RETURNING id, item_id, request_hash`.execute(db);
    for (const r of inserted.rows)
      ids.set(key(r.item_id === null ? null : Number(r.item_id), r.request_hash), Number(r.id));
  }
  const missing = specs.filter((s) => !ids.has(key(s.itemId, s.requestHash)));
  const existing =
    missing.length > 0
      ? await findCachedResponses(
          db,
          modelId,
          missing.map((s) => s.requestHash),
        )
      : new Map<string, StoredResponse>();
  return specs.map((s) => {
    const id = ids.get(key(s.itemId, s.requestHash)) ?? existing.get(s.requestHash)?.id;
    if (id === undefined) throw new Error(`response for request ${s.requestHash} vanished`);
    return id;
  });
}

/**
 * The recorded (imported) answer of a model to an item: the imported row when there is one, else the earliest
 * stored answer for that item. Undefined when the model has no answer to the item.
 */
export async function recordedResponse(
  db: Conn,
  modelId: number,
  itemId: number,
  recordedHash: string,
): Promise<StoredResponse | undefined> {
  const r = await db
    .selectFrom('responses')
    .select(['id', 'output', 'latency_ms', 'prompt_tokens', 'completion_tokens'])
    .where('model_id', '=', modelId)
    .where('item_id', '=', itemId)
    .orderBy((eb) => eb.case().when('request_hash', '=', recordedHash).then(0).else(1).end())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return r ? toStored(r) : undefined;
}
