/**
 * Requests sent ahead (llm/openai-client `sendAhead`), against the local fake server through the real `openai`
 * package: sent in order before anybody asks, within the concurrency limit and the cap of unasked answers; each
 * answer taken by the request that asks for it as its own call, stored with its item once the response cache is
 * given (llm/response-cache `laterResponseCache`); a request not sent ahead ends the sending; an abort ends it too,
 * and a request whose call it aborted is sent again when asked; a caller that stops keeps the answers that came
 * (`keepAhead`).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { OpenAiCompatibleClient } from '../../../src/llm/openai-client.ts';
import { dbResponseCache, laterResponseCache } from '../../../src/llm/response-cache.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

const logger = createLogger('silent');
const ask = (content: string, itemId?: number) => ({
  messages: [{ role: 'user' as const, content }],
  templateVersion: 't1',
  ...(itemId !== undefined ? { itemId } : {}),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `done()` holds (each check a few ms apart). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(5);
}

describe('requests sent ahead', () => {
  let d: TestDb;
  let fake: FakeOpenAi;
  let modelId: number;
  let items: Map<string, number>;

  beforeAll(async () => {
    d = await freshDb('pglite');
    modelId = (await ensureModels(d.db, ['m'], 'openai')).get('m') as number;
    const ds = await ensureDataset(d.db, {
      name: 'ahead',
      ability: 'knowledge',
      method: 'metrics',
    });
    items = await ensureItems(
      d.db,
      ds,
      ['q0', 'q1', 'q2', 'q3', 'q4'].map((key) => ({ key, prompt: key })),
    );
    fake = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
  });

  const client = (maxConcurrency: number) => {
    const later = laterResponseCache();
    const c = new OpenAiCompatibleClient({
      name: 'm',
      baseUrl: fake.baseUrl,
      model: 'fake-model',
      maxConcurrency,
      maxRetries: 0,
      cache: later.cache,
      logger,
    });
    return { c, bind: () => later.bind(dbResponseCache(d.db, modelId)) };
  };
  const stored = async () =>
    (
      await sql<{ output: string; item_id: number | null }>`
        SELECT output, item_id FROM responses WHERE model_id = ${modelId} ORDER BY id`.execute(d.db)
    ).rows;

  it('sends in order within the limits; each asked request takes its answer as its own call, stored with its item', async () => {
    await sql`DELETE FROM responses`.execute(d.db);
    fake.reset();
    // Requests being answered, counted before the reply is written: the client sends its next request only once
    // it has read a reply, so this never counts a request whose slot was given back.
    let inFlight = 0;
    let peak = 0;
    fake.setAnswer(async (call) => {
      peak = Math.max(peak, ++inFlight);
      await sleep(20);
      inFlight--;
      return { content: `a ${call.messages[0]?.content}` };
    });
    const { c, bind } = client(2);
    const keys = ['q0', 'q1', 'q2', 'q3', 'q4'];
    const stop = new AbortController();
    // q1 twice: sent once.
    c.sendAhead(
      ['q0', 'q1', 'q1', 'q2', 'q3', 'q4'].map((k) => ask(k)),
      3,
      stop.signal,
    );
    await until(() => fake.answered === 3);
    await sleep(50);
    // Three answers nobody asked for: nothing more is sent, and nothing is stored before the cache is given.
    expect(fake.callCount).toBe(3);
    expect(peak).toBeLessThanOrEqual(2);
    expect(await stored()).toEqual([]);
    bind();
    const first = await c.complete(ask('q0', items.get('q0')));
    expect(first).toMatchObject({ ok: true, text: 'a q0', cached: false });
    const rest = await Promise.all(keys.slice(1).map((k) => c.complete(ask(k, items.get(k)))));
    expect(rest.map((r) => (r.ok ? [r.text, r.cached] : r.code))).toEqual(
      keys.slice(1).map((k) => [`a ${k}`, false]),
    );
    expect(fake.calls.map((call) => call.messages[0]?.content)).toEqual(keys);
    expect(await stored()).toEqual(keys.map((k) => ({ output: `a ${k}`, item_id: items.get(k) })));
    stop.abort();
  });

  it('keepAhead stores the answers that came unasked with their items, and nothing more is sent', async () => {
    await sql`DELETE FROM responses`.execute(d.db);
    fake.reset();
    fake.setAnswer((call) => ({ content: `k ${call.messages[0]?.content}`, delayMs: 20 }));
    const { c, bind } = client(1);
    bind();
    const stop = new AbortController();
    const keys = ['q0', 'q1', 'q2', 'q3', 'q4'];
    c.sendAhead(
      keys.map((k) => ask(k)),
      2,
      stop.signal,
    );
    await until(() => fake.answered === 2);
    await until(() => c.answeredAhead === 2);
    // q0 and q1 came; the cap of two unasked answers holds q2 back.
    expect(await c.keepAhead(keys.map((k) => ask(k, items.get(k))))).toBe(2);
    expect(c.answeredAhead).toBe(0);
    expect(await stored()).toEqual(
      ['q0', 'q1'].map((k) => ({ output: `k ${k}`, item_id: items.get(k) })),
    );
    await sleep(50);
    expect(fake.callCount).toBe(2);
    // Kept, they are stored answers now: asking again is no call.
    expect(await c.complete(ask('q1', items.get('q1')))).toMatchObject({ ok: true, cached: true });
    expect(await c.keepAhead(keys.map((k) => ask(k, items.get(k))))).toBe(0);
    expect(fake.callCount).toBe(2);
    stop.abort();
  });

  it('ends when a request not sent ahead is asked; a failure sent ahead is the asker’s, not sent again', async () => {
    fake.reset();
    fake.setAnswer((call) =>
      call.messages[0]?.content === 'bad' ? { status: 500 } : { content: 'ok', delayMs: 20 },
    );
    const { c, bind } = client(1);
    bind();
    const stop = new AbortController();
    c.sendAhead(
      ['bad', 'f1', 'f2', 'f3'].map((k) => ask(k)),
      2,
      stop.signal,
    );
    await until(() => fake.answered === 2);
    expect(await c.complete(ask('other'))).toMatchObject({ ok: true, cached: false });
    expect(await c.complete(ask('bad'))).toMatchObject({ ok: false, code: 'http_error' });
    expect(await c.complete(ask('f1'))).toMatchObject({ ok: true, cached: false });
    await sleep(50);
    // 'bad' and 'f1' ahead, 'other' asked: f2 and f3 are never sent ahead.
    expect(fake.calls.map((call) => call.messages[0]?.content)).toEqual(['bad', 'f1', 'other']);
    stop.abort();
  });

  it('an abort ends the sending and its calls; a request whose call it aborted is sent when asked', async () => {
    fake.reset();
    fake.setAnswer(() => ({ content: 'slow', delayMs: 60_000 }));
    const { c, bind } = client(1);
    bind();
    const stop = new AbortController();
    c.sendAhead(
      ['s1', 's2'].map((k) => ask(k)),
      4,
      stop.signal,
    );
    await until(() => fake.callCount === 1);
    stop.abort();
    fake.setAnswer(() => ({ content: 'fast' }));
    expect(await c.complete(ask('s1'))).toMatchObject({ ok: true, text: 'fast', cached: false });
    expect(fake.calls.map((call) => call.messages[0]?.content)).toEqual(['s1', 's1']);
  });
});
