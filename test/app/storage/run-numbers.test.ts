/**
 * Run numbers are what users type (`zhujiu eval --cancel N`): asking again for a model's active run of a suite
 * (a resume) must not use up a number, so the next new run gets the next number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelRun, createRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(backends())('eval run numbers on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('stay consecutive when active runs are asked for again (resumed)', async () => {
    const ids = await ensureModels(d.db, ['m-a', 'm-b'], 'openai');
    const spec = (m: string) => ({ modelId: ids.get(m)!, suite: 'basic' });
    const numbers: number[] = [];
    for (const m of ['m-a', 'm-b', 'm-a']) {
      const first = await createRun(d.db, spec(m));
      if (!first.created) throw new Error('expected a new run');
      numbers.push(first.run.id);
      // Three resumes of the active run: the same run back, no number taken.
      for (let k = 0; k < 3; k++) {
        const again = await createRun(d.db, spec(m));
        expect(again).toMatchObject({ created: false, active: { id: first.run.id } });
      }
      await cancelRun(d.db, first.run.id);
    }
    expect(numbers).toEqual([numbers[0]!, numbers[0]! + 1, numbers[0]! + 2]);
  });
});
