/**
 * Datasets and items stored for a run's plan in a few statements (storage/items `ensureDatasetItems`), and the plan
 * rows inserted at once (storage/eval-runs `planRunItems`): the same ids as one dataset at a time, existing rows
 * kept, idempotent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, planRunItems, runCounts } from '../../../src/storage/eval-runs.ts';
import { ensureDataset, ensureDatasetItems, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(backends())('datasets and items stored at once on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('creates missing datasets and items in order, keeps existing ones, and returns every id', async () => {
    // One dataset and one of its items exist already, with another ability: both are kept.
    const old = await ensureDataset(d.db, {
      name: 'di-old',
      ability: 'reasoning',
      method: 'metrics',
    });
    const before = await ensureItems(d.db, old, [{ key: 'k1', prompt: 'first' }]);
    const groups = [
      {
        dataset: { name: 'di-new', ability: 'knowledge' as const, method: 'metrics' as const },
        items: ['a', 'b', 'c'].map((key) => ({ key, prompt: `p-${key}`, reference: key })),
      },
      {
        dataset: { name: 'di-old', ability: 'knowledge' as const, method: 'scoring' as const },
        items: [
          { key: 'k1', prompt: 'changed' },
          { key: 'k2', prompt: 'second', metadata: { x: 1 } },
        ],
      },
    ];
    const ids = await ensureDatasetItems(d.db, groups);
    expect(ids).toHaveLength(2);
    const [fresh, kept] = ids as [Map<string, number>, Map<string, number>];
    expect([...fresh.keys()]).toEqual(['a', 'b', 'c']);
    const freshIds = [...fresh.values()];
    expect(freshIds).toEqual([...freshIds].sort((x, y) => x - y)); // stored in the given order
    expect(kept.get('k1')).toBe(before.get('k1'));
    const rows = await d.db
      .selectFrom('items as i')
      .innerJoin('datasets as ds', 'ds.id', 'i.dataset_id')
      .select([
        'ds.name',
        'i.key',
        'i.prompt',
        'i.ability',
        'i.method',
        'i.reference',
        'i.metadata',
      ])
      .where('ds.name', 'in', ['di-new', 'di-old'])
      .orderBy('i.id')
      .execute();
    expect(rows).toEqual([
      {
        name: 'di-old',
        key: 'k1',
        prompt: 'first',
        ability: 'reasoning',
        method: 'metrics',
        reference: null,
        metadata: {},
      },
      {
        name: 'di-new',
        key: 'a',
        prompt: 'p-a',
        ability: 'knowledge',
        method: 'metrics',
        reference: 'a',
        metadata: {},
      },
      {
        name: 'di-new',
        key: 'b',
        prompt: 'p-b',
        ability: 'knowledge',
        method: 'metrics',
        reference: 'b',
        metadata: {},
      },
      {
        name: 'di-new',
        key: 'c',
        prompt: 'p-c',
        ability: 'knowledge',
        method: 'metrics',
        reference: 'c',
        metadata: {},
      },
      {
        name: 'di-old',
        key: 'k2',
        prompt: 'second',
        ability: 'reasoning',
        method: 'metrics',
        reference: null,
        metadata: { x: 1 },
      },
    ]);
    // Again: nothing new, the same ids (read back, since nothing is inserted).
    expect(await ensureDatasetItems(d.db, groups)).toEqual(ids);
    expect(await ensureDatasetItems(d.db, [])).toEqual([]);
  });

  it('plans a run’s items in one insert, keeps those already planned, and sets the total', async () => {
    const [m] = (await ensureModels(d.db, ['di-m'], 'openai')).values();
    const created = await createRun(d.db, { modelId: m as number, suite: 'di' });
    if (!created.created) throw new Error('expected a new run');
    const runId = created.run.id;
    const [ids] = (await ensureDatasetItems(d.db, [
      {
        dataset: { name: 'di-plan', ability: 'knowledge', method: 'metrics' },
        items: Array.from({ length: 1500 }, (_, i) => ({ key: `k${i}`, prompt: `p${i}` })),
      },
    ])) as [Map<string, number>];
    const planned = [...ids.values()].map((itemId, seq) => ({ itemId, dataset: 'di-plan', seq }));
    await planRunItems(d.db, runId, planned.slice(0, 1000));
    await planRunItems(
      d.db,
      runId,
      planned.map((p) => ({ ...p, seq: p.seq + 10_000 })),
    );
    expect(await runCounts(d.db, runId)).toMatchObject({ total: 1500, pending: 1500 });
    const seqs = await d.db
      .selectFrom('eval_run_items')
      .select(['item_id', 'seq'])
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();
    // The first 1000 keep their numbers; the 500 planned later got theirs.
    expect(seqs.map((r) => r.seq)).toEqual([
      ...Array.from({ length: 1000 }, (_, i) => i),
      ...Array.from({ length: 500 }, (_, i) => 11_000 + i),
    ]);
    expect(
      (
        await d.db
          .selectFrom('eval_runs')
          .select('progress_total')
          .where('id', '=', runId)
          .executeTakeFirst()
      )?.progress_total,
    ).toBe(1500);
  });
});
