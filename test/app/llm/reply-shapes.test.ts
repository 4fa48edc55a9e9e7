/**
 * Models as they really answer, through the real `openai` client against the local fake server: reasoning kept
 * apart from the answer (and stored with its tokens), every reply shape read or named as a failure, a timeout that
 * covers the body, causes named, and the model's key repeated nowhere (llm/reply, llm/redact, llm/openai-client).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger, silentLogger } from '../../../src/core/logger.ts';
import { failureCauseText } from '../../../src/eval/failure-cause.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { runSummary } from '../../../src/eval/summary.ts';
import { OpenAiCompatibleClient } from '../../../src/llm/openai-client.ts';
import { dbResponseCache } from '../../../src/llm/response-cache.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { saveCachedResponse } from '../../../src/storage/responses.ts';
import { type FakeOpenAi, type FakeReply, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

const KEY = 'zk-test-0123456789abcdefSECRET';
const ask = (content: string) => ({
  messages: [{ role: 'user' as const, content }],
  templateVersion: 't1',
});

/** A log destination that keeps every line. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, logger: createLogger('trace', stream) };
}

describe.each(flowBackends())('replies as models really send them, on %s', (backend) => {
  let d: TestDb;
  let fake: FakeOpenAi;
  let modelId: number;
  let dir: string;
  let items: Map<number, FixtureItem>;

  const client = (o: Partial<ConstructorParameters<typeof OpenAiCompatibleClient>[0]> = {}) =>
    new OpenAiCompatibleClient({
      name: 'm',
      baseUrl: fake.baseUrl,
      model: 'fake-model',
      maxRetries: 2,
      cache: dbResponseCache(d.db, modelId),
      logger: silentLogger,
      ...o,
    });

  beforeAll(async () => {
    d = await freshDb(backend);
    modelId = (await ensureModels(d.db, ['m'], 'openai')).get('m') as number;
    fake = await startFakeOpenAi();
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-reply-'));
    items = writeSmokeFixture(dir, { c3: 12, ocnli: 6, cmrc: 6 }, 'mini').items;
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the reasoning and its tokens apart from the answer', async () => {
    fake.reset();
    fake.setAnswer(() => ({
      content: '<think>A 不对，B 也许…</think>答案：C',
      reasoningTokens: 9,
    }));
    const r = await client().complete(ask('reasoning 1'));
    expect(r).toMatchObject({
      ok: true,
      text: '答案：C',
      reasoning: 'A 不对，B 也许…',
      reasoningTokens: 9,
    });
    const row = await d.db
      .selectFrom('responses')
      .select(['output', 'reasoning', 'reasoning_tokens'])
      .where('id', '=', r.ok ? (r.responseId ?? -1) : -1)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ output: '答案：C', reasoning: 'A 不对，B 也许…', reasoning_tokens: 9 });
  });

  it('an answer stored before reasoning was separated is read apart from its reasoning on a cache hit', async () => {
    fake.reset();
    const c = client();
    const req = ask('stored before');
    await saveCachedResponse(d.db, {
      modelId,
      itemId: null,
      requestHash: c.hashOf(req),
      output: '<think>答案：A？</think>答案：D',
      latencyMs: 5,
    });
    expect(await c.complete(req)).toMatchObject({
      ok: true,
      cached: true,
      text: '答案：D',
      reasoning: '答案：A？',
    });
    expect(fake.callCount).toBe(0);
  });

  it('a body that stalls after the headers fails as a timeout and is retried per max_retries', async () => {
    fake.reset();
    fake.setAnswer(() => ({ stall: true }));
    const r = await client({ timeoutMs: 300, maxRetries: 1 }).complete(ask('stall'));
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    expect(r.ok ? '' : r.message).toContain('within 300 ms (after 2 attempts)');
    expect(fake.callCount).toBe(2);
  });

  it('names a 200 with an error body, a base URL without /v1 and a body that is not JSON (retried)', async () => {
    fake.reset();
    fake.setAnswer(() => ({
      body: { error: { message: 'model is loading', type: 'server_error' } },
    }));
    expect(await client().complete(ask('err200'))).toMatchObject({
      ok: false,
      code: 'http_error',
      message: 'the endpoint answered HTTP 200 with an error: model is loading',
    });
    const noV1 = fake.baseUrl.replace(/\/v1$/u, '');
    const r404 = await client({ baseUrl: noV1 }).complete(ask('no v1'));
    expect(r404).toMatchObject({ ok: false, code: 'http_error', status: 404 });
    expect(r404.ok ? '' : r404.message).toContain(
      `base_url ${noV1} of model m does not end in /v1; add it`,
    );
    // Said in Chinese in a run's summary (eval/failure-cause.ts), the URL, the fix and the server's detail kept.
    expect(failureCauseText(r404.ok ? '' : r404.message, 'zh-CN')).toMatch(
      new RegExp(
        `^127\\.0\\.0\\.1:\\d+ 返回 HTTP 404（.+）：模型 m 的 base_url ${noV1} 不以 /v1 结尾；请在 \\S+ 中补上，例如 ${noV1}/v1$`,
        'u',
      ),
    );
    expect(
      failureCauseText('the endpoint answered HTTP 200 with an error: model is loading', 'zh-CN'),
    ).toBe('端点返回了 HTTP 200，内容却是错误：model is loading');
    fake.reset();
    fake.setAnswer((call) => (call.attempt < 2 ? { raw: '<html>Bad gateway</html>' } : '答案：A'));
    expect(await client().complete(ask('html then ok'))).toMatchObject({
      ok: true,
      text: '答案：A',
    });
    fake.reset();
    fake.setAnswer(() => ({ raw: '<html>Bad gateway</html>' }));
    const bad = await client().complete(ask('html'));
    expect(bad).toMatchObject({ ok: false, code: 'bad_response' });
    expect(bad.ok ? '' : bad.message).toContain('not JSON after 3 attempts');
    expect(bad.ok ? '' : bad.message).toContain('<html>Bad gateway</html>');
    expect(fake.callCount).toBe(3);
  });

  it('an eval run scores reasoning and parts replies on their answer, names refusals, tool calls and unclosed thinking, and repeats the key nowhere', async () => {
    fake.reset();
    const rule = (
      call: Parameters<Parameters<FakeOpenAi['setAnswer']>[0]>[0],
    ): FakeReply | string => {
      const it = items.get(tagOf(call)) as FixtureItem;
      switch (it.n % 7) {
        case 0:
          return { content: `<think>${it.wrong}？不对。</think>${it.right}`, reasoningTokens: 5 };
        case 1:
          return {
            message: {
              content: [
                { type: 'thinking', thinking: [{ type: 'text', text: `${it.wrong}？` }] },
                { type: 'text', text: it.right },
              ],
            },
          };
        case 2:
          return { message: { content: null, refusal: 'I will not answer that' } };
        case 3:
          return {
            message: {
              content: null,
              tool_calls: [
                { id: 'c', type: 'function', function: { name: 'lookup', arguments: '{}' } },
              ],
            },
          };
        case 4:
          return { content: `<think>${it.wrong} 也许`, finishReason: 'length' };
        case 5:
          return { status: 400, content: 'bad request', echoAuthorization: true };
        default:
          return { content: it.right, message: { reasoning_content: it.wrong } };
      }
    };
    fake.setAnswer(rule);
    const { lines, logger } = logSink();
    const model = modelsFileSchema.parse({
      models: [
        {
          name: 'r1',
          provider: 'openai',
          base_url: fake.baseUrl,
          model: 'r1',
          api_key_env: 'R1_KEY',
        },
      ],
    }).models[0] as ModelConfig;
    const service = new EvalService({
      db: d.db,
      logger,
      config: {
        models: [model],
        suites: new Map([
          ['mini', writeSmokeFixture(dir, { c3: 12, ocnli: 6, cmrc: 6 }, 'mini').suite],
        ]),
        datasetsDir: dir,
        datasetsCacheDir: join(dir, 'cache'),
        apiKeyFor: () => KEY,
      },
    });
    const started = await service.start({ model: 'r1', suite: 'mini' });
    if (!started.ok) throw new Error(started.reason);
    await service.execute(started.run.id);
    const s = await runSummary(d.db, started.run.id);
    if (!s) throw new Error('no summary');
    // 24 items: n % 7 in {0, 1, 6} answer right (11 items), {2, 3, 4, 5} fail (13 items).
    const failing = [...items.values()].filter((i) => [2, 3, 4, 5].includes(i.n % 7)).length;
    const codes = await sql<{ code: string; n: number }>`
      select failure_code as code, count(*)::int as n from eval_run_items
       where run_id = ${started.run.id} and failure_code is not null group by failure_code`.execute(
      d.db,
    );
    const byCode = Object.fromEntries(codes.rows.map((f) => [f.code, f.n]));
    expect(byCode).toEqual({
      refused: [...items.values()].filter((i) => i.n % 7 === 2).length,
      tool_call: [...items.values()].filter((i) => i.n % 7 === 3).length,
      reasoning_unclosed: [...items.values()].filter((i) => i.n % 7 === 4).length,
      http_error: [...items.values()].filter((i) => i.n % 7 === 5).length,
    });
    for (const ds of s.datasets) {
      const mine = [...items.values()].filter((i) => i.dataset === ds.dataset);
      const right = mine.filter((i) => [0, 1, 6].includes(i.n % 7)).length;
      expect({ ds: ds.dataset, earned: ds.earned, failures: ds.failures }).toEqual({
        ds: ds.dataset,
        earned: right,
        failures: mine.length - right,
      });
    }
    expect(s.datasets.reduce((a, x) => a + x.failures, 0)).toBe(failing);
    // Every cause the summary lists (the client's refusal, tool call, unclosed thinking, HTTP 400) is said in Chinese.
    expect(s.failureReasons.length).toBeGreaterThanOrEqual(3);
    for (const f of s.failureReasons)
      expect(failureCauseText(f.message, 'zh-CN'), f.message).not.toBe(f.message);
    // The key went out with each request, and came back in the 400s' error text: it is stored, logged and summed up nowhere.
    expect(fake.calls[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(JSON.stringify(s)).not.toContain(KEY);
    expect(JSON.stringify(s)).toContain('[redacted]');
    for (const table of ['responses', 'eval_run_items', 'eval_runs', 'item_scores']) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        d.db,
      );
      expect(JSON.stringify(rows.rows), table).not.toContain(KEY);
    }
    const stored = await d.db
      .selectFrom('responses')
      .select(['output', 'reasoning'])
      .where('reasoning', 'is not', null)
      .execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const r of stored) expect(r.output).not.toMatch(/<think>|？/u);
  });
});
