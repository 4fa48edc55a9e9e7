/**
 * A suite's datasets prepared before the run is started (eval/prepare-suite, as `zhujiu eval` prepares them while the
 * database opens) are what EvalService.start checks and hands to the execution: with the files removed after that
 * preparation the run still answers every item; a preparation that failed refuses the start with its own reason,
 * as preparing there would have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { prepareSuiteDatasets } from '../../../src/eval/prepare-suite.ts';
import { type EvalConfig, EvalService } from '../../../src/eval/service.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

describe.each(flowBackends())('datasets prepared before the start (%s)', (backend) => {
  let d: TestDb;
  let fake: FakeOpenAi;
  const dirs: string[] = [];
  const counts = { c3: 5, ocnli: 3, cmrc: 3 };

  beforeAll(async () => {
    d = await freshDb(backend);
    fake = await startFakeOpenAi({ answer: () => '答案：A' });
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A service over a fresh fixture folder, for model `name`. */
  function setUp(name: string): { service: EvalService; config: EvalConfig; dir: string } {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-prepared-early-'));
    dirs.push(dir);
    const fx = writeSmokeFixture(dir, counts, 'mini');
    const models = modelsFileSchema.parse({
      models: [{ name, provider: 'openai', base_url: fake.baseUrl, model: `${name}-model` }],
    }).models as ModelConfig[];
    const config = miniEvalConfig(models, fx.suite, dir);
    return {
      service: new EvalService({ db: d.db, logger: createLogger('silent'), config }),
      config,
      dir,
    };
  }

  it('starts and executes the run with them', async () => {
    const { service, config, dir } = setUp('early');
    const prepared = prepareSuiteDatasets(config, 'mini');
    await prepared;
    for (const sub of ['c3', 'ocnli', 'cmrc2018']) rmSync(join(dir, sub), { recursive: true });
    const started = await service.start({ model: 'early', suite: 'mini', prepared });
    if (!started.ok) throw new Error(started.reason);
    expect(await service.execute(started.run.id)).toBe('finished');
    const total = counts.c3 + counts.ocnli + counts.cmrc;
    expect(await getRun(d.db, started.run.id)).toMatchObject({ status: 'succeeded', done: total });
  });

  it('a resumed run is executed with them too', async () => {
    const { service, config, dir } = setUp('resumed');
    // The run was started by an earlier process (another service) and left as after Ctrl-C: resumable at once.
    const earlier = new EvalService({ db: d.db, logger: createLogger('silent'), config });
    const first = await earlier.start({ model: 'resumed', suite: 'mini' });
    if (!first.ok) throw new Error(first.reason);
    await earlier.release(first.run.id);
    const prepared = prepareSuiteDatasets(config, 'mini');
    await prepared;
    for (const sub of ['c3', 'ocnli', 'cmrc2018']) rmSync(join(dir, sub), { recursive: true });
    const again = await service.start({ model: 'resumed', suite: 'mini', prepared });
    if (!again.ok) throw new Error(again.reason);
    expect(again).toMatchObject({ resumed: true, run: { id: first.run.id } });
    expect(await service.execute(first.run.id)).toBe('finished');
    expect(await getRun(d.db, first.run.id)).toMatchObject({ error: null, status: 'succeeded' });
  });

  it('refuses the start with the reason their preparation failed with', async () => {
    const { service, config, dir } = setUp('missing');
    rmSync(join(dir, 'c3'), { recursive: true });
    const prepared = prepareSuiteDatasets(config, 'mini');
    const started = await service.start({ model: 'missing', suite: 'mini', prepared });
    expect(started.ok).toBe(false);
    const alone = await service.start({ model: 'missing', suite: 'mini' });
    expect(started.ok ? '' : started.reason).toBe(alone.ok ? 'started' : alone.reason);
    expect(started.ok ? '' : started.reason).toMatch(/its dataset/);
  });
});
