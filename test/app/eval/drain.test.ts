/**
 * A run tells its model client when nothing is left to claim (LlmClient.drain), once, so that the last items'
 * answers are stored as they come instead of being held for company that will not come (llm/response-cache,
 * core/batch `drain`). In-process, on each backend of test/helpers/db.ts `backends()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

describe.each(backends())('a run drains its client on %s', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let service: EvalService;
  /** Per drain: how many of the run's items were still pending then (read when drain was called). */
  const pendingAtDrain: Promise<number>[] = [];
  let runId = 0;

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-drain-'));
    const fx = writeSmokeFixture(dir, { c3: 12, ocnli: 10, cmrc: 8 }, 'mini');
    fake = await startFakeOpenAi();
    const models = modelsFileSchema.parse({
      models: [
        {
          name: 'm',
          provider: 'openai',
          base_url: fake.baseUrl,
          model: 'fake-model',
          max_concurrency: 2,
          timeout_ms: 120_000,
        },
      ],
    }).models as ModelConfig[];
    const config = miniEvalConfig(models, fx.suite, dir);
    const logger = createLogger('silent');
    const plain = new EvalService({ db: d.db, logger, config });
    service = new EvalService({
      db: d.db,
      logger,
      config,
      openModel: async (name) => {
        const opened = await plain.openModel(name);
        const real = opened.client;
        const client = Object.assign(Object.create(real) as typeof real, {
          complete: real.complete.bind(real),
          prefetch: real.prefetch?.bind(real),
          drain: () => {
            pendingAtDrain.push(
              sql<{ n: string | number }>`SELECT count(*) AS n FROM eval_run_items
                WHERE run_id = ${runId} AND status = 'pending'`
                .execute(d.db)
                .then((r) => Number(r.rows[0]?.n)),
            );
            real.drain?.();
          },
        });
        return { ...opened, client };
      },
    });
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('once, when every item is claimed, and the run still scores every item', async () => {
    const started = await service.start({ model: 'm', suite: 'mini' });
    if (!started.ok) throw new Error(started.reason);
    runId = started.run.id;
    expect(await service.execute(runId)).toBe('finished');
    expect(pendingAtDrain).toHaveLength(1);
    expect(await pendingAtDrain[0]).toBe(0);
    const done = await sql<{ n: string | number }>`SELECT count(*) AS n FROM item_scores
      WHERE run_id = ${runId}`.execute(d.db);
    expect(Number(done.rows[0]?.n)).toBe(30);
  });
});
