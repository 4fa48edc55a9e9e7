/**
 * A run's plan in the database (eval/run-plan `planRun`): a run planned before (another worker's plan, or an
 * earlier execution's) is read back with the same index and nothing written again; a plan that lacks a chosen item
 * (the dataset grew) is completed as a first plan would be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRun } from '../../../src/eval/run-plan.ts';
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
});
