/**
 * An endpoint that refuses its credentials (HTTP 401/403) is asked only a few times, through the real `openai`
 * client against the local fake server: an evaluation run of 200 items, the judge of a scoring run, and the live
 * arena's `/ask`. Every refused item carries one cause that names the model and the `api_key_env` variable to fix
 * (llm/auth-breaker, llm/openai-client).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { type ModelConfig, modelsFileSchema, suiteSchema } from '../../../src/config/schema.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { runSummary } from '../../../src/eval/summary.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import {
  type FixtureItem,
  scriptedAnswer,
  writeSmokeFixture,
} from '../../helpers/eval-fixtures.ts';
import { scriptedModels } from '../../helpers/live-models.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { SECRET, terminal, terminalShell, testConfig } from '../arena/helpers.ts';

/** The breaker's default threshold (llm/auth-breaker). */
const THRESHOLD = 3;
const CONCURRENCY = 4;

function openaiModel(name: string, baseUrl: string, extra: Record<string, unknown> = {}) {
  return modelsFileSchema.parse({
    models: [
      {
        name,
        provider: 'openai',
        base_url: baseUrl,
        model: name,
        timeout_ms: 120_000,
        max_concurrency: CONCURRENCY,
        ...extra,
      },
    ],
  }).models[0] as ModelConfig;
}

describe.each(flowBackends())('an endpoint that refuses its API key, on %s', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let service: EvalService;

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-auth-'));
    const fx = writeSmokeFixture(dir, { c3: 80, ocnli: 60, cmrc: 60 }, 'mini');
    items = fx.items;
    mkdirSync(join(dir, 'tiny'), { recursive: true });
    writeFileSync(
      join(dir, 'tiny', 'risky.jsonl'),
      Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({
          id: i,
          question: `危险问题 Q${i}`,
          category: '违法',
          top_category: '应拒答',
        }),
      ).join('\n'),
    );
    const scoring = suiteSchema.parse({
      name: 'tiny-scoring',
      datasets: [
        {
          name: 'tiny_chisafety',
          loader: 'chisafetybench',
          ability: 'refusal',
          method: 'scoring',
          rubric: 'industry_0_3',
          path: 'tiny/risky.jsonl',
        },
      ],
    });
    fake = await startFakeOpenAi();
    const script = scriptedAnswer(items, () => true);
    // `qwen` and `judge` refuse every request; `cand` answers.
    fake.setAnswer((call) => {
      if (call.model === 'qwen' || call.model === 'nokey' || call.model === 'judge')
        return {
          status: call.model === 'judge' ? 403 : 401,
          content: 'Incorrect API key provided',
        };
      return call.model === 'cand' && call.messages.at(-1)?.content.includes('危险问题')
        ? '我不能提供这些内容。'
        : script(call);
    });
    service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: {
        models: [
          openaiModel('qwen', fake.baseUrl, { api_key_env: 'QWEN_API_KEY' }),
          openaiModel('nokey', fake.baseUrl),
          openaiModel('cand', fake.baseUrl),
          openaiModel('judge', fake.baseUrl, { api_key_env: 'JUDGE_KEY', max_concurrency: 2 }),
        ],
        suites: new Map([
          ['mini', fx.suite],
          ['tiny-scoring', scoring],
        ]),
        datasetsDir: dir,
        datasetsCacheDir: join(dir, 'cache'),
        apiKeyFor: (name) => (name === 'qwen' || name === 'judge' ? 'sk-wrong' : undefined),
      },
      judge: { model: 'judge', configDir: join(PROJECT_ROOT, 'config') },
    });
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(model: string, suite: string) {
    const started = await service.start({ model, suite });
    if (!started.ok) throw new Error(started.reason);
    expect(await service.execute(started.run.id)).toBe('finished');
    const s = await runSummary(d.db, started.run.id);
    if (!s) throw new Error('no summary');
    return s;
  }

  it('a run of 200 items sends at most threshold + in-flight requests and names the model and its variable', async () => {
    fake.reset();
    const s = await run('qwen', 'mini');
    // Without the breaker: 200 requests (one per item).
    expect(fake.callCount).toBeLessThanOrEqual(THRESHOLD + CONCURRENCY);
    expect(s.run.status).toBe('failed');
    expect(s.failureReasons.map((f) => [f.n, f.code, f.message])).toEqual([
      [
        200,
        'auth_refused',
        `model qwen: the endpoint 127.0.0.1:${fake.port} refused the API key (HTTP 401); check QWEN_API_KEY (config/models.yaml api_key_env)`,
      ],
    ]);
  });

  it('a model with no api_key_env is told to set one', async () => {
    fake.reset();
    const s = await run('nokey', 'mini');
    expect(fake.callCount).toBeLessThanOrEqual(THRESHOLD + CONCURRENCY);
    expect(s.failureReasons).toHaveLength(1);
    expect(s.failureReasons[0]?.message).toBe(
      `model nokey: the endpoint 127.0.0.1:${fake.port} refused the request without an API key (HTTP 401); ` +
        'set api_key_env of model nokey in config/models.yaml to the variable that holds its key, and export that variable',
    );
  });

  it('the judge is an endpoint too: a judge that refuses its key is asked only a few times', async () => {
    fake.reset();
    const s = await run('cand', 'tiny-scoring');
    const judgeCalls = fake.calls.filter((c) => c.model === 'judge').length;
    expect(fake.calls.filter((c) => c.model === 'cand')).toHaveLength(40);
    // Judge concurrency 2; without the breaker: 40 items × 3 attempts.
    expect(judgeCalls).toBeLessThanOrEqual(THRESHOLD + 2);
    expect(s.failureReasons).toHaveLength(1);
    expect(s.failureReasons[0]?.n).toBe(40);
    expect(s.failureReasons[0]?.message).toContain(
      `model judge: the endpoint 127.0.0.1:${fake.port} refused the API key (HTTP 403); check JUDGE_KEY (config/models.yaml api_key_env)`,
    );
  });
});

describe.each(flowBackends())('/ask with a live model that refuses its key, on %s', (backend) => {
  it('the refusing model is asked at most threshold times over ten questions; the battles go on', async () => {
    const db = await freshDb(backend);
    const models = await scriptedModels(db.db, (model) =>
      model === 'model-red' ? { status: 401 } : `A harmless answer (${model.length}).`,
    );
    const config = testConfig({
      arena: {
        window_hours: 1,
        identity_guard: { words: ['openai'], patterns: [] },
        ask: {
          answer_timeout_ms: 30_000,
          progress_every_ms: 0,
          rate_limit: { max: 50, window_minutes: 10 },
        },
      },
    });
    const term = terminal();
    const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));
    const shell = terminalShell(term, config, { sessionTag: 't1', clock });
    const bot = new BotService({
      db: db.db,
      config,
      platforms: [shell],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      seedSource: (() => {
        let n = 1000;
        return () => n++;
      })(),
      live: { models: await models.live(['model-red', 'model-green', 'model-blue']) },
    });
    try {
      await bot.start();
      for (let i = 0; i < 10; i++) await shell.say(`/ask Question ${i}: how do tides work?`);
      const red = models.calls.filter((c) => c.model === 'model-red').length;
      // Sequential questions: one request in flight at a time. Without the breaker: one per battle it is drawn in.
      expect(red).toBeLessThanOrEqual(THRESHOLD);
      const battles = shell.posted.filter((p) => p.content.title?.startsWith('Arena battle #'));
      expect(battles).toHaveLength(10);
      const r = await (await models.client('model-red')).complete({
        messages: [{ role: 'user', content: 'x' }],
        templateVersion: 't',
      });
      expect(r).toMatchObject({ ok: false, code: 'auth_refused', status: 401 });
      expect(models.calls.filter((c) => c.model === 'model-red')).toHaveLength(red);
      if (!r.ok)
        expect(r.message).toMatch(
          /^model model-red: the endpoint .* refused the request without an API key \(HTTP 401\); set api_key_env of model model-red/,
        );
    } finally {
      await bot.stop();
      await models.close();
      await db.destroy();
    }
  });
});
