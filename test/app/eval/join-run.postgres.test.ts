/**
 * A large run spread over workers (eval/service `joinRuns`) on one PostgreSQL: worker A works a 100-item run
 * (concurrency 1, so A alone asks one item at a time); worker B, another service on its own pool, joins it while
 * A works. Both then ask at once (the fake sees 2 requests in flight), every item is asked once and the run ends
 * succeeded with 100 results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('a worker joins an active run', () => {
  let d: TestDb;
  let other: Db;
  let dir: string;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    d = await freshDb('postgres');
    other = await openDb({ kind: 'postgres', url: d.url as string });
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-join-'));
  });
  afterAll(async () => {
    await fake?.close();
    await other?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two workers ask at once, each item once', async () => {
    const fx = writeSmokeFixture(dir, { c3: 40, ocnli: 30, cmrc: 30 }, 'mini');
    fake = await startFakeOpenAi({ delayMs: 100 });
    fake.setAnswer((call) => fx.items.get(tagOf(call))?.right ?? 'x');
    const models = modelsFileSchema.parse({
      models: [
        { name: 'm', provider: 'openai', base_url: fake.baseUrl, model: 'm', max_concurrency: 1 },
      ],
    }).models as ModelConfig[];
    const config = miniEvalConfig(models, fx.suite, dir);
    const a = new EvalService({ db: d.db, logger: silentLogger, config });
    const b = new EvalService({ db: other.db, logger: silentLogger, config, joinEveryMs: 0 });
    const started = await a.start({ model: 'm', suite: 'mini', surface: 'cli' });
    if (!started.ok) throw new Error(started.reason);
    const runId = started.run.id;
    const working = a.execute(runId);
    // B is a worker with room: once A has the run going and its items planned, B's next look joins it (a worker
    // looks every few seconds; here as soon as the run is there to join).
    let joined: number[] = [];
    for (let i = 0; i < 3000 && joined.length === 0; i++) {
      if ((await getRun(d.db, runId))?.status === 'running') joined = await b.joinRuns();
      if (joined.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    expect(joined).toEqual([runId]);
    expect(['finished', 'shared']).toContain(await working);
    // Whichever of the two finishes last ends the run (B's part may still be in flight when A's ends).
    while ((await getRun(d.db, runId))?.status === 'running')
      await new Promise((r) => setTimeout(r, 20));
    await b.stopWorker();
    const run = await getRun(d.db, runId);
    expect(run?.status).toBe('succeeded');
    expect(run?.done).toBe(100);
    expect(fake.callCount).toBe(100);
    expect(new Set(fake.calls.map(tagOf)).size).toBe(100);
    expect(fake.peakInFlight).toBe(2);
  });
});
