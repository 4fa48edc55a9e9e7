/**
 * A run started and executed in one process reads its suite once: EvalService.start prepares the suite (to refuse a
 * run whose files are missing or bad) and hands the prepared datasets to the execution of the run it created, so
 * the files are not read, parsed and derived a second time. Shown by removing the dataset files between start and
 * execute: the run still answers every item. Only the latest started run is held: an earlier one prepares its suite
 * itself when executed, and then finds the files gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

describe.each(flowBackends())('a run started and executed here (%s)', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let service: EvalService;
  const counts = { c3: 6, ocnli: 4, cmrc: 4 };

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-prepare-once-'));
    const fx = writeSmokeFixture(dir, counts, 'mini');
    fake = await startFakeOpenAi({ answer: () => '答案：A' });
    const models = modelsFileSchema.parse({
      models: ['m1', 'm2'].map((name) => ({
        name,
        provider: 'openai',
        base_url: fake.baseUrl,
        model: `${name}-model`,
        timeout_ms: 120_000,
        max_concurrency: 4,
      })),
    }).models as ModelConfig[];
    service = new EvalService({
      db: d.db,
      logger: createLogger('silent'),
      config: miniEvalConfig(models, fx.suite, dir),
    });
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the datasets start prepared; an earlier run prepares its own', async () => {
    const first = await service.start({ model: 'm1', suite: 'mini' });
    const latest = await service.start({ model: 'm2', suite: 'mini' });
    if (!first.ok || !latest.ok) throw new Error('both runs should start');
    for (const sub of ['c3', 'ocnli', 'cmrc2018']) rmSync(join(dir, sub), { recursive: true });

    expect(await service.execute(latest.run.id)).toBe('finished');
    const done = await getRun(d.db, latest.run.id);
    const total = counts.c3 + counts.ocnli + counts.cmrc;
    expect(done).toMatchObject({ status: 'succeeded', total, done: total, failed: 0 });

    expect(await service.execute(first.run.id)).toBe('finished');
    const left = await getRun(d.db, first.run.id);
    expect(left?.status).toBe('failed');
    expect(left?.error).toMatch(/dataset files are missing from the datasets folder/);
  });
});
