/**
 * The OpenAI-compatible client against the local fake server, driven by the real `openai` package: answers,
 * token and latency accounting, the response cache, Retry-After, retries, failures as values, the concurrency cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import {
  type OpenAiClientOptions,
  OpenAiCompatibleClient,
} from '../../../src/llm/openai-client.ts';
import { RecordedClient } from '../../../src/llm/recorded-client.ts';
import { dbResponseCache } from '../../../src/llm/response-cache.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { countRows, flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';

const logger = createLogger('silent');
const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user' as const, content }],
  templateVersion: 't1',
  ...extra,
});

describe.each(flowBackends())('OpenAI-compatible client on %s', (backend) => {
  let d: TestDb;
  let fake: FakeOpenAi;
  let fake2: FakeOpenAi;
  let modelId: number;
  let otherModelId: number;

  const client = (o: Partial<OpenAiClientOptions> = {}) =>
    new OpenAiCompatibleClient({
      name: 'm',
      baseUrl: fake.baseUrl,
      model: 'fake-model',
      params: { temperature: 0 },
      maxRetries: 2,
      cache: dbResponseCache(d.db, modelId),
      logger,
      ...o,
    });

  beforeAll(async () => {
    d = await freshDb(backend);
    const ids = await ensureModels(d.db, ['m', 'rec'], 'openai');
    modelId = ids.get('m') as number;
    otherModelId = ids.get('rec') as number;
    fake = await startFakeOpenAi();
    fake2 = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake?.close();
    await fake2?.close();
    await d?.destroy();
  });

  it('answers, records tokens and latency, and sends the key, model, params and messages', async () => {
    fake.reset();
    fake.setAnswer(() => ({
      content: '答案：B',
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    }));
    const c = client({ apiKey: 'sk-test-123', params: { temperature: 0.2, max_tokens: 16 } });
    const r = await c.complete(ask('问题一'));
    expect(r).toMatchObject({
      ok: true,
      text: '答案：B',
      cached: false,
      promptTokens: 12,
      completionTokens: 3,
    });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(fake.callCount).toBe(1);
    const call = fake.calls[0];
    expect(call?.authorization).toBe('Bearer sk-test-123');
    expect(call?.model).toBe('fake-model');
    expect(call?.body).toMatchObject({ temperature: 0.2, max_tokens: 16 });
    expect(call?.messages).toEqual([{ role: 'user', content: '问题一' }]);
  });

  it('answers an identical request from the cache with no call; any difference is a new call', async () => {
    fake.reset();
    fake.setAnswer((call) => `echo ${call.messages.at(-1)?.content} t=${call.body.temperature}`);
    const first = await client().complete(ask('q-cache'));
    expect(first).toMatchObject({ ok: true, cached: false });
    const again = await client().complete(ask('q-cache'));
    expect(again).toMatchObject({ ok: true, cached: true, text: first.ok ? first.text : '' });
    expect(fake.callCount).toBe(1);

    // temperature only
    const warmer = await client().complete(ask('q-cache', { params: { temperature: 0.7 } }));
    expect(warmer).toMatchObject({ ok: true, cached: false, text: 'echo q-cache t=0.7' });
    expect(fake.callCount).toBe(2);
    // base URL only (a second server answering the same)
    fake2.reset();
    fake2.setAnswer(() => 'from the other endpoint');
    const moved = await client({ baseUrl: fake2.baseUrl }).complete(ask('q-cache'));
    expect(moved).toMatchObject({ ok: true, cached: false });
    expect(fake2.callCount).toBe(1);
    // provider model id only
    const renamed = await client({ model: 'fake-model-2' }).complete(ask('q-cache'));
    expect(renamed).toMatchObject({ ok: true, cached: false });
    expect(fake.callCount).toBe(3);
    // template version only; a message; a JSON schema
    await client().complete({ ...ask('q-cache'), templateVersion: 't2' });
    await client().complete(ask('q-cache '));
    await client().complete({
      ...ask('q-cache'),
      jsonSchema: { name: 's', schema: { type: 'object', properties: {} } },
    });
    expect(fake.callCount).toBe(6);
    // and each of them is now cached too
    await client().complete(ask('q-cache', { params: { temperature: 0.7 } }));
    await client({ model: 'fake-model-2' }).complete(ask('q-cache'));
    await client().complete({ ...ask('q-cache'), templateVersion: 't2' });
    expect(fake.callCount).toBe(6);
  });

  it('prefetch: a stored answer stays a cache hit, a missing one is sent once and then answered from the cache', async () => {
    fake2.reset();
    fake2.setAnswer((call) => ({ content: `pre ${call.messages.at(-1)?.content}`, delayMs: 100 }));
    const cache = dbResponseCache(d.db, modelId);
    let lookups = 0;
    const c = client({
      baseUrl: fake2.baseUrl,
      maxConcurrency: 4,
      cache: {
        ...cache,
        lookup: (h) => {
          lookups += 1;
          return cache.lookup(h);
        },
      },
    });
    await c.complete(ask('q-pre-stored'));
    expect(fake2.callCount).toBe(1);
    // Requests sent before or while the look-up runs are not taken for missing: once stored, they are cache hits.
    const before = c.complete(ask('q-pre-before'));
    while (fake2.callCount < 2) await new Promise((r) => setTimeout(r, 5));
    const during = c.complete(ask('q-pre-during')); // its own look-up answers after the prefetch's starts
    const forget = await c.prefetch(
      ['q-pre-stored', 'q-pre-missing', 'q-pre-before', 'q-pre-during'].map((q) => ask(q)),
    );
    expect(await before).toMatchObject({ ok: true, cached: false });
    expect(await during).toMatchObject({ ok: true, cached: false });
    for (const q of ['q-pre-stored', 'q-pre-before', 'q-pre-during'])
      expect(await c.complete(ask(q))).toMatchObject({ ok: true, cached: true });
    expect(fake2.callCount).toBe(3);
    // Found missing: sent without a look-up; once sent it is looked up again, so the next ask is a cache hit.
    const lookupsBefore = lookups;
    const sent = await c.complete(ask('q-pre-missing'));
    expect(sent).toMatchObject({ ok: true, cached: false, text: 'pre q-pre-missing' });
    expect(lookups).toBe(lookupsBefore);
    expect(await c.complete(ask('q-pre-missing'))).toMatchObject({
      ok: true,
      cached: true,
      responseId: sent.ok ? sent.responseId : -1,
    });
    expect(fake2.callCount).toBe(4);
    forget();
    expect(await c.complete(ask('q-pre-missing'))).toMatchObject({ ok: true, cached: true });
    expect(fake2.callCount).toBe(4);
  });

  it('answers identical requests asked at once with one call: the others share its answer as a cache hit', async () => {
    fake2.reset();
    fake2.setAnswer((call) => ({ content: `once ${call.n}`, delayMs: 50 }));
    const c = client({ baseUrl: fake2.baseUrl, maxConcurrency: 4 });
    const rs = await Promise.all([
      c.complete(ask('q-once')),
      c.complete(ask('q-once')),
      c.complete(ask('q-once')),
      c.complete(ask('q-other-once')),
    ]);
    expect(fake2.callCount).toBe(2);
    const same = rs.slice(0, 3);
    const sent = same.filter((r) => r.ok && !r.cached);
    expect(sent).toHaveLength(1);
    const id = sent[0]?.ok ? sent[0].responseId : undefined;
    expect(id).toBeGreaterThan(0);
    for (const r of same)
      expect(r).toMatchObject({ ok: true, responseId: id, text: sent[0]?.ok ? sent[0].text : '' });
    expect(rs[3]).toMatchObject({ ok: true, cached: false });
    // Once answered, the next identical request is a plain cache hit.
    expect(await c.complete(ask('q-once'))).toMatchObject({
      ok: true,
      cached: true,
      responseId: id,
    });
    expect(fake2.callCount).toBe(2);
  });

  it('sends an identical request itself when the one on its way fails; a waiting request aborts on its signal', async () => {
    fake2.reset();
    fake2.setAnswer((call) =>
      call.n === 0 ? { status: 400, delayMs: 50 } : { content: `ok ${call.n}`, delayMs: 50 },
    );
    const c = client({ baseUrl: fake2.baseUrl, maxConcurrency: 4 });
    const [failed, retried] = await Promise.all([
      c.complete(ask('q-fails-once')),
      c.complete(ask('q-fails-once')),
    ]);
    expect(failed).toMatchObject({ ok: false, code: 'http_error' });
    expect(retried).toMatchObject({ ok: true, cached: false });
    expect(fake2.callCount).toBe(2);

    fake2.setAnswer(() => ({ content: 'slow', delayMs: 1000 }));
    const stop = new AbortController();
    const leader = c.complete(ask('q-wait-abort'));
    const waiting = c.complete({ ...ask('q-wait-abort'), signal: stop.signal });
    while (fake2.callCount < 3) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    expect(await waiting).toMatchObject({ ok: false, code: 'aborted' });
    expect(await leader).toMatchObject({ ok: true, cached: false, text: 'slow' });
    expect(fake2.callCount).toBe(3);
  });

  it('waits out a 429 with Retry-After, then answers', async () => {
    fake.reset();
    fake.setAnswer((call) =>
      call.attempt === 0 ? { status: 429, headers: { 'retry-after': '1' } } : 'after the wait',
    );
    const r = await client().complete(ask('q-429'));
    expect(r).toMatchObject({ ok: true, text: 'after the wait' });
    // This question's calls only: a request of another test still under way may arrive after the reset.
    const mine = fake.calls.filter((c) => JSON.stringify(c.messages).includes('q-429'));
    expect(mine).toHaveLength(2);
    const [a, b] = mine;
    // The second attempt cannot come before the second asked for (a lower bound, whatever the machine's speed).
    expect((b?.at ?? 0) - (a?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('fails at once as rate_limited when Retry-After asks for longer than the cap, and caches nothing', async () => {
    fake.reset();
    fake.setAnswer(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const before = await countRows(d, 'responses');
    const r = await client({ maxRetryAfterMs: 5_000 }).complete(ask('q-capped'));
    expect(r).toMatchObject({ ok: false, code: 'rate_limited', status: 429 });
    expect(r.ok ? '' : r.message).toMatch(/3600 s, more than max_retry_after_ms/);
    expect(fake.callCount).toBe(1);
    expect(await countRows(d, 'responses')).toBe(before);
  });

  it('retries a 500, then returns the failure (not cached: the next ask calls again)', async () => {
    fake.reset();
    fake.setAnswer(() => ({ status: 500 }));
    const before = await countRows(d, 'responses');
    const r = await client({ maxRetries: 2 }).complete(ask('q-500'));
    expect(r).toMatchObject({ ok: false, code: 'http_error', status: 500 });
    // Review #15: the message names the endpoint and counts attempts (not "after 2 retries").
    const host = new URL(fake.baseUrl).host;
    expect(r.ok ? '' : r.message).toMatch(new RegExp(`^HTTP 500 from ${host} after 3 attempts: `));
    expect(fake.callCount).toBe(3);
    expect(await countRows(d, 'responses')).toBe(before);
    fake.setAnswer(() => 'recovered');
    expect(await client().complete(ask('q-500'))).toMatchObject({
      ok: true,
      cached: false,
      text: 'recovered',
    });
  });

  it('does not retry a 400, and never caches empty replies', async () => {
    fake.reset();
    fake.setAnswer(() => ({ status: 400, content: 'bad parameter' }));
    expect(await client().complete(ask('q-400'))).toMatchObject({
      ok: false,
      code: 'http_error',
      status: 400,
    });
    expect(fake.callCount).toBe(1);
    fake.setAnswer(() => '   ');
    expect(await client().complete(ask('q-empty'))).toMatchObject({
      ok: false,
      code: 'empty_reply',
    });
    expect(await client().complete(ask('q-empty'))).toMatchObject({
      ok: false,
      code: 'empty_reply',
    });
    expect(fake.callCount).toBe(3);
  });

  it('times out an attempt that takes too long (failure code timeout)', async () => {
    fake.reset();
    fake.setAnswer(() => ({ content: 'late', delayMs: 2_000 }));
    const r = await client({ timeoutMs: 200, maxRetries: 0 }).complete(ask('q-slow'));
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
    expect(r.ok ? '' : r.message).toBe(
      `no answer from ${new URL(fake.baseUrl).host} within 200 ms (after 1 attempt)`,
    );
  });

  it('reports an unreachable endpoint as network, and a cancelled request as aborted', async () => {
    const closed = await startFakeOpenAi();
    const url = closed.baseUrl;
    await closed.close();
    const r = await client({ baseUrl: url, maxRetries: 0 }).complete(ask('q-down'));
    expect(r).toMatchObject({ ok: false, code: 'network' });
    // Review #15: the endpoint is named (it said "cannot reach the endpoint: Connection error.").
    expect(r.ok ? '' : r.message).toBe(
      `cannot reach ${new URL(url).host} after 1 attempt (Connection error); check base_url of model m in config/models.yaml and that the server is up`,
    );
    // The models file actually read is named (config/files.ts), not always config/models.yaml.
    const elsewhere = await client({
      baseUrl: url,
      maxRetries: 0,
      entryIn: '/etc/zhujiu/models.yaml',
    }).complete(ask('q-down-2'));
    expect(elsewhere.ok ? '' : elsewhere.message).toContain(
      'check base_url of model m in /etc/zhujiu/models.yaml and that the server is up',
    );
    fake.setAnswer(() => ({ content: 'late', delayMs: 2_000 }));
    const ac = new AbortController();
    const p = client().complete({ ...ask('q-abort'), signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    expect(await p).toMatchObject({ ok: false, code: 'aborted' });
  });

  it('keeps at most max_concurrency requests in flight', async () => {
    // fake2 has nothing in flight (slow replies of earlier tests may still be pending on fake).
    fake2.reset();
    fake2.setAnswer((call) => ({ content: `a ${call.n}`, delayMs: 50 }));
    const c = client({ maxConcurrency: 3, baseUrl: fake2.baseUrl });
    const rs = await Promise.all(Array.from({ length: 12 }, (_, i) => c.complete(ask(`par ${i}`))));
    expect(rs.every((r) => r.ok)).toBe(true);
    expect(fake2.callCount).toBe(12);
    expect(fake2.peakInFlight).toBeLessThanOrEqual(3);
  });

  it('recorded client: answers imported outputs, and a missing answer is a per-item failure', async () => {
    const ds = await ensureDataset(d.db, {
      name: 'rec-ds',
      ability: 'knowledge',
      method: 'metrics',
    });
    const ids = await ensureItems(d.db, ds, [
      { key: 'a', prompt: 'A?' },
      { key: 'b', prompt: 'B?' },
    ]);
    await insertResponses(d.db, [
      {
        modelId: otherModelId,
        itemId: ids.get('a') as number,
        requestHash: 'recorded',
        output: '选A',
        source: 'import',
      },
    ]);
    const rec = new RecordedClient({ name: 'rec', cache: dbResponseCache(d.db, otherModelId) });
    expect(await rec.complete({ ...ask('A?'), itemId: ids.get('a') as number })).toMatchObject({
      ok: true,
      text: '选A',
      cached: true,
    });
    const miss = await rec.complete({ ...ask('B?'), itemId: ids.get('b') as number });
    expect(miss).toMatchObject({ ok: false, code: 'no_recorded_answer' });
    expect(await rec.complete(ask('free'))).toMatchObject({
      ok: false,
      code: 'no_recorded_answer',
    });
  });

  it('recorded client: an imported reasoning answer is scored on its answer; an unclosed one is a failure', async () => {
    const ds = await ensureDataset(d.db, {
      name: 'rec-think',
      ability: 'knowledge',
      method: 'metrics',
    });
    const ids = await ensureItems(d.db, ds, [
      { key: 'a', prompt: 'A?' },
      { key: 'b', prompt: 'B?' },
    ]);
    await insertResponses(d.db, [
      {
        modelId: otherModelId,
        itemId: ids.get('a') as number,
        requestHash: 'recorded',
        output: '<think>答案：A？</think>答案：C',
        source: 'import',
      },
      {
        modelId: otherModelId,
        itemId: ids.get('b') as number,
        requestHash: 'recorded',
        output: '<think>答案：A？',
        source: 'import',
      },
    ]);
    const rec = new RecordedClient({ name: 'rec', cache: dbResponseCache(d.db, otherModelId) });
    expect(await rec.complete({ ...ask('A?'), itemId: ids.get('a') as number })).toMatchObject({
      ok: true,
      text: '答案：C',
      reasoning: '答案：A？',
    });
    expect(await rec.complete({ ...ask('B?'), itemId: ids.get('b') as number })).toMatchObject({
      ok: false,
      code: 'reasoning_unclosed',
    });
  });
});
