/**
 * @module llm/response-cache
 * The response cache port the clients use, and its database implementation over `storage/responses`. Only
 * answers are stored: failures and empty replies never reach {@link ResponseCache.save}.
 */
import type { Kysely } from 'kysely';
import { batched } from '../core/batch.ts';
import { AppError, isAppError } from '../core/errors.ts';
import {
  findCachedResponses,
  recordedResponse,
  type StoredResponse,
  saveCachedResponses,
  storedRequestHashes,
} from '../storage/responses.ts';
import type { Database } from '../storage/schema.ts';

export type { StoredResponse };

/** Stored answers of one model. */
export interface ResponseCache {
  /** The stored answer to the request with this hash, if any. */
  lookup(requestHash: string): Promise<StoredResponse | undefined>;
  /** Stores an answer; returns the id of the row that answers the request. */
  save(answer: {
    readonly requestHash: string;
    readonly itemId: number | null;
    readonly output: string;
    /** The model's reasoning apart from the answer (llm/reply), if any. */
    readonly reasoning?: string | undefined;
    readonly reasoningTokens?: number | undefined;
    readonly latencyMs: number;
    readonly promptTokens?: number | undefined;
    readonly completionTokens?: number | undefined;
  }): Promise<number>;
  /** The recorded (imported) answer of the model to a stored item, if any. */
  recorded(itemId: number): Promise<StoredResponse | undefined>;
  /** Which of these request hashes have a stored answer (one query for a whole run's requests). */
  stored(requestHashes: readonly string[]): Promise<Set<string>>;
  /**
   * No more answers are coming in company (a run has nothing left to ask): saves are no longer held for others to
   * join. Optional.
   */
  drain?(): void;
}

/** The request hash imported outputs are stored under (`import/outputs.ts` RECORDED_REQUEST_HASH). */
export const RECORDED_HASH = 'recorded';

/**
 * How long a save waits for others to join it while answers come in company (core/batch `gatherMs`), ms. A save
 * comes after the answer's call has given its concurrency slot back, so the wait holds no slot; on PGlite a
 * statement's fixed cost (~1.5–3 ms of the event loop, its commit included) is that of dozens of rows, and an
 * evaluation run stores ~300 answers a second: bench/first-start's 2,000 answers took 172 inserts gathered for 50 ms
 * and 37 (~50 rows each, ~6 ms) for 150 ms, plus the last ~130 answers saved as they come once the run has nothing
 * left to ask (`drain`). The lanes waiting meanwhile are the spare ones (eval/runner `LANES_PER_SLOT`: 96 spare
 * lanes at concurrency 32, ~46 answers in 150 ms).
 */
const SAVE_GATHER_MS = 150;

/**
 * The cache of model `modelId` in the database. Look-ups and saves made while an earlier one is on its way are
 * grouped (core/batch): one query answers all waiting look-ups, one multi-row insert stores all waiting answers (held up to {@link SAVE_GATHER_MS} for more while answers come in company), so
 * a run with many requests in flight costs a few round trips per batch instead of two per item (PGlite, having
 * one connection, would otherwise serialize them). A save still resolves only once its row is stored.
 */
export function dbResponseCache(db: Kysely<Database>, modelId: number): ResponseCache {
  const lookup = batched(async (hashes: readonly string[]) => {
    const found = await findCachedResponses(db, modelId, hashes);
    return hashes.map((h) => found.get(h));
  });
  const save = batched(
    (answers: readonly Parameters<ResponseCache['save']>[0][]) =>
      saveCachedResponses(db, modelId, answers),
    { gatherMs: SAVE_GATHER_MS },
  );
  return {
    lookup: (hash) => unavailableOnError('read', lookup(hash)),
    save: (answer) => unavailableOnError('write', save(answer)),
    recorded: (itemId) =>
      unavailableOnError('read', recordedResponse(db, modelId, itemId, RECORDED_HASH)),
    stored: (hashes) => unavailableOnError('read', storedRequestHashes(db, modelId, hashes)),
    drain: () => save.drain(),
  };
}

/**
 * `p`, with a failure of the database turned into AppError `db_unavailable`: the cache failing is not the model's
 * answer failing, so the run stops and retries later (eval/runner.ts) instead of recording the item as failed.
 */
async function unavailableOnError<T>(what: 'read' | 'write', p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    // Already said as the database's failure (its disk is full: storage/pglite-disk-full): passed on as it is.
    if (isAppError(err) && err.code === 'db_unavailable') throw err;
    throw new AppError(
      'db_unavailable',
      `the response cache could not be ${what === 'read' ? 'read' : 'written'}: ${(err as Error).message ?? String(err)}`,
      { cause: err },
    );
  }
}

/** A response cache given later ({@link laterResponseCache}). */
export interface LaterResponseCache {
  /** Waits for the cache given to {@link bind}; `drain` before that does nothing. */
  readonly cache: ResponseCache;
  /** Gives the cache; a second call is ignored. */
  bind(cache: ResponseCache): void;
}

/**
 * A response cache for a client made before its database is open (eval/requests-ahead): every call waits until
 * the database's cache is given to `bind`, then is that cache's.
 */
export function laterResponseCache(): LaterResponseCache {
  let bound: ResponseCache | undefined;
  let give: (cache: ResponseCache) => void = () => undefined;
  const given = new Promise<ResponseCache>((resolve) => {
    give = resolve;
  });
  return {
    cache: {
      lookup: async (hash) => (await given).lookup(hash),
      save: async (answer) => (await given).save(answer),
      recorded: async (itemId) => (await given).recorded(itemId),
      stored: async (hashes) => (await given).stored(hashes),
      drain: () => bound?.drain?.(),
    },
    bind: (cache) => {
      if (bound !== undefined) return;
      bound = cache;
      give(cache);
    },
  };
}
