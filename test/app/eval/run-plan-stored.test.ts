/**
 * A run's plan in the database (eval/run-plan `planRun`, `startPlan`): a run planned before (another worker's plan,
 * or an earlier execution's) is read back with the same index and nothing written again; a plan that lacks a chosen
 * item (the dataset grew) is completed as a first plan would be; a plan stored in stages has its first items
 * claimable and the whole total stored before its rest is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRun, startPlan } from '../../../src/eval/run-plan.ts';
import { createRun, getRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, countRows, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { dataset } from '../../unit/eval/fakes.ts';

/** The stored method of the fakes' datasets (the database allows metrics, scoring, comparative). */
const objective = { method: 'metrics' } as const;

describe.each(backends())('a stored run plan on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => {
    await d?.destroy();
  });
  useCleanRows(() => d);

  async function newRun() {
    const ids = await ensureModels(d.db, ['m'], 'openai');
    const created = await createRun(d.db, { modelId: ids.get('m') as number, suite: 's' });
    if (!created.created) throw new Error('run not created');
    return created.run;
  }
  const entries = (index: Awaited<ReturnType<typeof planRun>>) =>
    [...index].map(([id, e]) => [id, e.ds.name, e.item.key]);

  it('reads a planned run back: the same index, no row written again', async () => {
    const run = await newRun();
    const datasets = [
      dataset('a', ['1', '2', '3'], objective),
      dataset('b', ['x', 'y'], objective),
    ];
    const first = await planRun(d.db, run, datasets);
    const planned = (await getRun(d.db, run.id)) as NonNullable<Awaited<ReturnType<typeof getRun>>>;
    expect(planned.total).toBe(5);
    const before = [await countRows(d, 'items'), await countRows(d, 'eval_run_items')];
    const again = await planRun(d.db, planned, datasets);
    expect(entries(again)).toEqual(entries(first));
    expect([await countRows(d, 'items'), await countRows(d, 'eval_run_items')]).toEqual(before);
  });

  it('completes a plan that lacks a chosen item, as a first plan would', async () => {
    const run = await newRun();
    await planRun(d.db, run, [dataset('a', ['1', '2'], objective)]);
    const planned = (await getRun(d.db, run.id)) as NonNullable<Awaited<ReturnType<typeof getRun>>>;
    const grown = await planRun(d.db, planned, [dataset('a', ['1', '2', '3'], objective)]);
    expect([...grown.values()].map((e) => e.item.key).sort()).toEqual(['1', '2', '3']);
    expect((await getRun(d.db, run.id))?.total).toBe(3);
    expect(await countRows(d, 'eval_run_items')).toBe(3);
  });

  it('stores a plan in two stages: the head first (total already whole), the rest behind it', async () => {
    const run = await newRun();
    const datasets = [
      dataset('a', ['1', '2', '3', '4', '5', '6'], objective),
      dataset('b', ['x', 'y', 'z'], objective),
    ];
    const looked: string[][] = [];
    const plan = await startPlan(d.db, run, datasets, {
      headItems: 3,
      beforeClaimable: async (stage) => {
        looked.push([...stage.values()].map((e) => `${e.ds.name}${e.item.key}`));
      },
    });
    // The first three in the order of work (the datasets mixed: a1, b x, a2), planned; the total is the whole plan.
    expect(entries(plan.head).map(([, ds, key]) => `${ds}${key}`)).toEqual(['a1', 'a2', 'bx']);
    expect(plan.total).toBe(9);
    expect(await countRows(d, 'eval_run_items')).toBeLessThanOrEqual(9);
    const rest = await plan.rest;
    expect(rest.size).toBe(6);
    expect(looked).toEqual([
      ['a1', 'a2', 'bx'],
      ['a3', 'a4', 'a5', 'a6', 'by', 'bz'],
    ]);
    expect((await getRun(d.db, run.id))?.total).toBe(9);
    expect(plan.index.size).toBe(9);
    // Planned in the order of work across both stages; each dataset's ids ascend in its own order.
    const rows = await d.db
      .selectFrom('eval_run_items')
      .select('item_id')
      .where('run_id', '=', run.id)
      .orderBy('seq')
      .execute();
    const name = (id: number) => `${plan.index.get(id)?.ds.name}${plan.index.get(id)?.item.key}`;
    expect(rows.map((r) => name(Number(r.item_id)))).toEqual([
      'a1',
      'bx',
      'a2',
      'a3',
      'by',
      'a4',
      'a5',
      'bz',
      'a6',
    ]);
    for (const ds of ['a', 'b']) {
      const ids = [...plan.index].filter(([, e]) => e.ds.name === ds).map(([id]) => id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
  });

  it('the head alone is planned when startPlan resolves, with the whole total stored; the rest in stages', async () => {
    const run = await newRun();
    const keys = Array.from({ length: 600 }, (_, i) => String(i));
    const stages: number[] = [];
    const plan = await startPlan(d.db, run, [dataset('big', keys, objective)], {
      headItems: 10,
      beforeClaimable: async (stage) => {
        stages.push(stage.size);
      },
    });
    const atOnce = await countRows(d, 'eval_run_items');
    const total = (await getRun(d.db, run.id))?.total;
    await plan.rest;
    expect(total).toBe(600);
    // The rest is written behind the head: right after startPlan, fewer than all rows are there (on PGlite
    // queries run one at a time, so exactly the head; on PostgreSQL the rest may have begun).
    expect(atOnce).toBeLessThan(600);
    expect(atOnce).toBeGreaterThanOrEqual(10);
    expect(await countRows(d, 'eval_run_items')).toBe(600);
    // The rest in stages of at least 256 items (at most 8 of them), each claimable once stored.
    expect(stages).toEqual([10, 256, 256, 78]);
  });
});
