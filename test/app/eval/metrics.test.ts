/**
 * The evaluation side of `/metrics` (http/metrics.ts): a run of 10 items against the OpenAI fake, one of them
 * refused by the endpoint, moves the items-by-outcome counters, the model's latency histogram and its error
 * counter, all labelled by the configured model name only; the queue gauges read the run tables at the scrape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { createPromMetrics } from '../../../src/http/metrics.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

describe.each(flowBackends())('evaluation metrics (%s)', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-metrics-'));
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts items by outcome and model requests by model, with failures by code', async () => {
    const fx = writeSmokeFixture(dir, { c3: 4, ocnli: 3, cmrc: 3 }, 'mini');
    // Item Q1 is refused by the endpoint (HTTP 400, not retried); the others answered correctly.
    fake = await startFakeOpenAi({
      answer: (call) =>
        /Q1\b/.test(String(call.messages.at(-1)?.content))
          ? { status: 400, body: { error: { message: 'bad request' } } }
          : (fx.items.get(tagOf(call))?.right ?? 'x'),
    });
    const models = modelsFileSchema.parse({
      models: [
        {
          name: 'm',
          provider: 'openai',
          base_url: fake.baseUrl,
          model: 'm-model',
          max_concurrency: 2,
          max_retries: 0,
        },
      ],
    }).models as ModelConfig[];
    const registry = new Registry();
    const metrics = createPromMetrics(registry, d.db);
    const evals = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: miniEvalConfig(models, fx.suite, dir),
      metrics,
    });
    const started = await evals.start({ model: 'm', suite: 'mini', surface: 'cli' });
    if (!started.ok) throw new Error(started.reason);
    // Queued, not worked yet: the gauge reads it from the run tables at the scrape.
    expect(await registry.metrics()).toContain('zhujiu_eval_runs{status="queued"} 1');
    expect(await evals.execute(started.run.id)).toBe('finished');

    const text = await registry.metrics();
    expect(text).toContain('zhujiu_eval_items_total{outcome="done"} 9');
    expect(text).toContain('zhujiu_eval_items_total{outcome="failed"} 1');
    expect(text).toContain('zhujiu_model_request_seconds_count{model="m"} 10');
    expect(text).toMatch(/^zhujiu_model_errors_total\{model="m",code="[a-z_]+"\} 1$/mu);
    expect(text).toContain('zhujiu_eval_runs{status="running"} 0');
    expect(text).toContain('zhujiu_eval_items_waiting 0');
    // No label carries an id: every label value is a model name, an outcome, a status or a code.
    expect(text).not.toMatch(/run_id|runId|user/u);
  });
});
