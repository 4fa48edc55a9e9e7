/**
 * The judge's grouped score store (eval/judge/score-store), as an evaluation run's lanes use it: concurrent
 * look-ups and writes share statements, each look-up gets exactly its own items' rows under its own filter, and two
 * writes of one key in one group keep the later one, as separate statements would.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedJudgeScoreStore } from '../../../src/eval/judge/score-store.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import type { JudgeScoreSpec } from '../../../src/storage/judge-scores.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

/** `db` with a count of the statements sent through it. */
function counted(db: Kysely<Database>): { db: Kysely<Database>; statements: () => number } {
  let n = 0;
  return {
    db: db.withPlugin({
      transformQuery: (args) => {
        n++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    }),
    statements: () => n,
  };
}

describe.each(backends())('the grouped judge score store on %s', (backend) => {
  let d: TestDb;
  let modelId: number;
  let items: number[];
  const grade = (itemId: number, raw: number, rubricVersion = 'v1'): JudgeScoreSpec => ({
    modelId,
    itemId,
    judge: 'judge-x',
    rubric: 'ten_point',
    rubricVersion,
    status: 'judged',
    rawScore: raw,
    maxScore: 10,
    safetyFlag: false,
    attempts: 1,
  });
  const filter = (itemId: number, rubricVersion = 'v1') => ({
    modelId,
    judge: 'judge-x',
    rubric: 'ten_point',
    rubricVersion,
    itemIds: [itemId],
  });

  beforeAll(async () => {
    d = await freshDb(backend);
    modelId = (await ensureModels(d.db, ['cand'], 'openai')).get('cand') as number;
    const ds = await ensureDataset(d.db, { name: 'tiny', ability: 'safety', method: 'scoring' });
    const ids = await ensureItems(
      d.db,
      ds,
      Array.from({ length: 8 }, (_, k) => ({ key: `q${k}`, prompt: `问题 ${k}`, reference: null })),
    );
    items = [...ids.values()];
  });
  afterAll(async () => d?.destroy());

  it('groups concurrent writes and look-ups, each look-up getting its own rows', async () => {
    const c = counted(d.db);
    const store = batchedJudgeScoreStore(c.db);
    await Promise.all(items.map((id, k) => store.upsert([grade(id, k)])));
    await store.upsert([grade(items[0] as number, 9, 'v2')]); // another rubric version of item 0
    const written = c.statements();
    expect(written).toBe(2); // one multi-row upsert for the eight, one for the later call

    const got = await Promise.all([
      ...items.map((id) => store.list(filter(id))),
      store.list(filter(items[0] as number, 'v2')),
    ]);
    // One query per distinct filter (rubric version v1 and v2), not one per look-up.
    expect(c.statements() - written).toBe(2);
    items.forEach((id, k) => {
      expect(got[k]?.map((r) => [r.itemId, r.rubricVersion, r.rawScore])).toEqual([[id, 'v1', k]]);
    });
    expect(got[items.length]?.map((r) => [r.itemId, r.rawScore])).toEqual([[items[0], 9]]);
  });

  it('keeps the later of two writes of one key grouped together', async () => {
    const store = batchedJudgeScoreStore(d.db);
    const id = items[1] as number;
    await Promise.all([store.upsert([grade(id, 3, 'v3')]), store.upsert([grade(id, 7, 'v3')])]);
    const [row] = await store.list(filter(id, 'v3'));
    expect(row?.rawScore).toBe(7);
  });
});
