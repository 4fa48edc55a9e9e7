/**
 * Multi-row inserts of shared keys from concurrent transactions (two imports naming the same models in different
 * orders, two builds of overlapping datasets, imports of outputs and judgments) never deadlock: each of these
 * storage functions writes its rows in the order of their unique key, so two transactions lock the keys they share
 * in the same order and one waits for the other (PostgreSQL docs, "Explicit Locking", 13.3.4 Deadlocks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/storage/db.ts';
import { ensureDataset, ensureDatasetItems, ensureItems } from '../../../src/storage/items.ts';
import { upsertJudgeScores } from '../../../src/storage/judge-scores.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { type Backend, backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seededShuffle } from '../../helpers/sequencer.ts';

const WRITERS = 12;

/** Runs `write(trx, i)` in {@link WRITERS} transactions at once, each on its own connection. */
async function concurrently(d: Db, write: (trx: Db['db'], i: number) => Promise<unknown>) {
  const results = await Promise.allSettled(
    Array.from({ length: WRITERS }, (_, i) =>
      d.db.transaction().execute((trx) => write(trx as unknown as Db['db'], i)),
    ),
  );
  const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  expect(failed.map((f) => String(f.reason))).toEqual([]);
}

describe.each(backends())('concurrent multi-row inserts on %s', (backend: Backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend, { poolSize: WRITERS + 1 });
  });
  afterAll(async () => d?.destroy());

  const names = Array.from({ length: 2000 }, (_, i) => `cu-model-${i}`);

  it('ensureModels: the same 2,000 names in 12 orders, one id each', async () => {
    await concurrently(d, (trx, i) => ensureModels(trx, seededShuffle(names, i + 1), 'external'));
    const ids = await ensureModels(d.db, names, 'external');
    expect(new Set(ids.values()).size).toBe(2000);
  });

  it('ensureDatasetItems: overlapping datasets in 12 orders', async () => {
    const groups = Array.from({ length: 400 }, (_, k) => ({
      dataset: { name: `cu-ds-${k}`, ability: 'knowledge' as const, method: 'metrics' as const },
      items: [{ key: 'only', prompt: `p${k}` }],
    }));
    await concurrently(d, (trx, i) => ensureDatasetItems(trx, seededShuffle(groups, i + 7)));
  });

  it('insertResponses and upsertJudgeScores: the same rows in 12 orders', async () => {
    const models = await ensureModels(d.db, ['cu-judged'], 'external');
    const model = models.get('cu-judged') as number;
    const ds = await ensureDataset(d.db, {
      name: 'cu-items',
      ability: 'knowledge',
      method: 'scoring',
    });
    const itemIds = [
      ...(
        await ensureItems(
          d.db,
          ds,
          Array.from({ length: 200 }, (_, k) => ({ key: `i${k}`, prompt: `q${k}` })),
        )
      ).values(),
    ];
    await concurrently(d, (trx, i) =>
      insertResponses(
        trx,
        seededShuffle(itemIds, i + 3).map((itemId) => ({
          modelId: model,
          itemId,
          requestHash: 'h',
          output: 'answer',
          source: 'import' as const,
        })),
      ),
    );
    await concurrently(d, (trx, i) =>
      upsertJudgeScores(
        trx,
        seededShuffle(itemIds, i + 5).map((itemId) => ({
          modelId: model,
          itemId,
          judge: 'cu-judge',
          rubric: 'r',
          rubricVersion: '1',
          status: 'judged' as const,
          rawScore: 5,
          maxScore: 10,
        })),
      ),
    );
  });
});
