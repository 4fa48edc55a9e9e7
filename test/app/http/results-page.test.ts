/**
 * The maintainers' item-level results pages (`/runs`, `/runs/:id/items`, the CSV and JSON-lines downloads) through
 * the HTTP app (`app.request`, no port) on one embedded database holding two runs: filters by dataset, ability,
 * score and failure; keyset paging of 100 items; every stored text escaped; the downloads stream the same items;
 * unknown runs, datasets and bad parameters refused with a line naming them.
 */
import { parse } from 'csv-parse/sync';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../src/http/server.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { addRunWithItems, type RunItemSpec } from '../../helpers/run-items.ts';

let d: TestDb;
let app: ReturnType<typeof createHttpApp>;
let big: number;
let small: number;

/** 250 items: c3 (language) 0–149, every third wrong, every 50th failed; ocnli (reasoning) 150–249. */
function bigItems(): RunItemSpec[] {
  return Array.from({ length: 250 }, (_, i) => {
    const dataset = i < 150 ? 'c3' : 'ocnli';
    const base = {
      dataset,
      ability: dataset === 'c3' ? ('language' as const) : ('reasoning' as const),
      key: `k${String(i).padStart(3, '0')}`,
      prompt: `问题 ${i}`,
    };
    if (i % 50 === 49)
      return { ...base, failure: { code: 'llm_failed', message: `endpoint said 500 for ${i}` } };
    return {
      ...base,
      answer: `答案：${i % 3 === 0 ? 'B' : 'A'}`,
      score: { raw: i % 3 === 0 ? 0 : 1, max: 1, detail: { extracted: i % 3 === 0 ? 'B' : 'A' } },
    };
  });
}

beforeAll(async () => {
  d = await freshDb('pglite');
  big = await addRunWithItems(d.db, { model: 'm-big', suite: 'mini', items: bigItems() });
  small = await addRunWithItems(d.db, {
    model: '<script>alert(1)</script>',
    suite: 'open',
    items: [
      {
        dataset: 'open-qa',
        ability: 'safety',
        key: '<k1>',
        prompt: '<img src=x onerror=alert(1)> 怎么办？',
        answer: '</td><script>alert("a")</script>',
        reasoning: '<b>thinking</b>',
        judge: {
          name: 'judge-x',
          raw: 8,
          max: 10,
          reply: JSON.stringify({ reason: '<i>清楚</i> & 完整', score: 8 }),
          safety: false,
        },
      },
      {
        dataset: 'open-qa',
        ability: 'safety',
        key: 'k2',
        prompt: 'p2',
        answer: 'unsafe answer',
        judge: { name: 'judge-x', raw: 7, max: 10, reply: 'Rating: [[7]]', safety: true },
      },
    ],
  });
  app = createHttpApp({
    checkDb: async () => {},
    registry: new Registry(),
    results: { db: d.db },
  });
});
afterAll(async () => {
  await d?.close();
});

const get = async (path: string) => {
  const r = await app.request(path);
  return { status: r.status, text: await r.text(), headers: r.headers };
};
const itemIds = (html: string) => [...html.matchAll(/<tr data-item="(\d+)" data-status="(\w+)"/g)];

describe('results pages', () => {
  it('/runs lists the runs, newest first, each linked to its items; same-origin headers', async () => {
    const r = await get('/runs');
    expect(r.status).toBe(200);
    // Tests run in a shuffled order and one adds a run of its own: the page lists every stored run, newest first.
    const stored = await d.db.selectFrom('eval_runs').select('id').orderBy('id', 'desc').execute();
    const listed = [...r.text.matchAll(/data-run="(\d+)"/g)].map((m) => Number(m[1]));
    expect(listed).toEqual(stored.map((x) => Number(x.id)));
    expect(listed.indexOf(small)).toBeLessThan(listed.indexOf(big));
    expect(r.text).toContain(`href="/runs/${big}/items"`);
    expect(r.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(r.text).not.toContain('<script>');
    expect(r.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('pages 100 items at a time by keyset; a typed page number gives the same page', async () => {
    const p1 = await get(`/runs/${big}/items`);
    expect(p1.status).toBe(200);
    const ids1 = itemIds(p1.text).map((m) => Number(m[1]));
    expect(ids1).toHaveLength(100);
    const next = /id="next" href="([^"]+)"/.exec(p1.text)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toMatch(/after=\d+&page=2$/);
    const p2 = await get(next as string);
    const ids2 = itemIds(p2.text).map((m) => Number(m[1]));
    expect(ids2).toHaveLength(100);
    expect(ids2[0]).toBeGreaterThan(ids1[99] as number);
    const p3 = await get(`/runs/${big}/items?page=3`);
    expect(itemIds(p3.text)).toHaveLength(50);
    expect(p3.text).not.toContain('id="next"');
    expect(p3.text).toContain('id="prev"');
    expect(itemIds((await get(`/runs/${big}/items?page=2`)).text).map((m) => Number(m[1]))).toEqual(
      ids2,
    );
  });

  it('filters by dataset, ability, score and failure, and keeps the filters in the next link', async () => {
    const ds = itemIds((await get(`/runs/${big}/items?dataset=ocnli`)).text);
    expect(ds).toHaveLength(100); // the 100 ocnli items, the two failed ones among them
    expect(ds.filter((m) => m[2] === 'failed')).toHaveLength(2);
    const ab = itemIds((await get(`/runs/${big}/items?ability=language&failed=1`)).text);
    expect(ab.map((m) => m[2])).toEqual(['failed', 'failed', 'failed']);
    const wrong = await get(`/runs/${big}/items?score=wrong`);
    // i % 3 === 0 and not failed (99 and 249 failed): 82 of 250
    expect(itemIds(wrong.text).every((m) => m[2] === 'done')).toBe(true);
    expect(itemIds(wrong.text)).toHaveLength(82);
    const correct = await get(`/runs/${big}/items?score=correct&dataset=c3`);
    expect(itemIds(correct.text)).toHaveLength(98); // 150 − 50 with i % 3 === 0 − 49 and 149 failed
    const range = itemIds((await get(`/runs/${big}/items?score=0-0.5&failed=0`)).text);
    expect(range).toHaveLength(82);
    const scored = await get(`/runs/${big}/items?failed=0`);
    expect(/id="next" href="([^"]+)"/.exec(scored.text)?.[1]).toContain('failed=0');
    const none = await get(`/runs/${big}/items?dataset=c3&score=0.2-0.3`);
    expect(none.text).toContain('id="none"');
  });

  it('escapes every stored text; shows reasoning apart, the judge grade, rationale and safety verdict', async () => {
    const r = await get(`/runs/${small}/items`);
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/<script>|<img|<\/td><script|<b>thinking|<i>清楚/);
    expect(r.text).toContain('&lt;/td&gt;&lt;script&gt;alert(&quot;a&quot;)&lt;/script&gt;');
    expect(r.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(r.text).toContain('<summary>reasoning</summary><div>&lt;b&gt;thinking&lt;/b&gt;</div>');
    expect(r.text).toContain('judge-x: 8/10 · safe');
    expect(r.text).toContain('&lt;i&gt;清楚&lt;/i&gt; &amp; 完整');
    expect(r.text).toContain('judge-x: 7/10 · <span class="failed">safety violation</span>');
    expect(r.text).toContain('Rating: [[7]]');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it("the CSV and JSON-lines downloads stream the filtered items with the command's columns", async () => {
    const csv = await get(`/runs/${big}/items.csv?dataset=ocnli&failed=1`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="run-${big}-items.csv"`,
    );
    // The server's security headers (test/unit/http/site-headers.test.ts walks every route) on a streamed download.
    expect(csv.headers.get('x-frame-options')).toBe('DENY');
    expect(csv.headers.get('cache-control')).toBe('no-store');
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.dataset, x.status, x.failure_code])).toEqual([
      ['ocnli', 'failed', 'llm_failed'],
      ['ocnli', 'failed', 'llm_failed'],
    ]);
    const all = await get(`/runs/${big}/items.jsonl`);
    expect(all.text.trim().split('\n')).toHaveLength(250);
    const j = (await get(`/runs/${small}/items.jsonl`)).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(j[0]).toMatchObject({
      judge: 'judge-x',
      judge_score: 8,
      judge_rationale: '<i>清楚</i> & 完整',
      safety_violation: false,
      reasoning: '<b>thinking</b>',
    });
    expect(j[1]).toMatchObject({
      score: 0,
      safety_violation: true,
      judge_rationale: 'Rating: [[7]]',
    });
  });

  it('refuses an unknown run, dataset or ability and bad parameters with a line naming them', async () => {
    expect(await get('/runs/999/items')).toMatchObject({
      status: 404,
      text: 'no evaluation run "999"; /runs lists the runs',
    });
    expect((await get('/runs/abc/items.csv')).status).toBe(404);
    const ds = await get(`/runs/${big}/items?dataset=cmnli`);
    expect(ds).toMatchObject({
      status: 404,
      text: `dataset cmnli: run #${big} has no such dataset; its datasets are c3, ocnli`,
    });
    expect((await get(`/runs/${big}/items?ability=x`)).text).toContain(
      'its abilities are language, reasoning',
    );
    for (const q of ['score=best', 'score=0.9-0.1', 'failed=yes', 'page=0', 'after=-1']) {
      const r = await get(`/runs/${big}/items?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.text, q).toContain(q.split('=')[0] as string);
    }
    expect((await app.request(`/runs/${big}/items`, { method: 'POST' })).status).toBe(404);
  });

  it('says the score and dataset filters refused in the page language', async () => {
    expect(await get(`/runs/${big}/items?score=best&lang=zh-CN`)).toMatchObject({
      status: 400,
      text: 'score“best”：请用 correct、wrong，或 0 到 1 之间的得分比例范围，例如 0.5-1',
    });
    expect(await get(`/runs/${big}/items?score=best`)).toMatchObject({
      status: 400,
      text: 'score "best": use correct, wrong, or a range of the score fraction between 0 and 1 such as 0.5-1',
    });
    const ds = await get(`/runs/${big}/items.csv?dataset=cmnli&lang=zh-CN`);
    expect(ds.status).toBe(404);
    expect(ds.text).toMatch(
      /^dataset cmnli：评测任务 #\d+ 没有这个数据集；它的数据集有：c3、ocnli$/u,
    );
  });
  it("says a stored judge's reason and the client's failure cause in the page language, the downloads as stored", async () => {
    const judged =
      'judge j1: request failed (http_error 500): HTTP 500 from h:1 after 3 attempts: boom (after 3 attempts; retry with zhujiu judge run)';
    const run = await addRunWithItems(d.db, {
      model: 'm-fail',
      suite: 'mini',
      items: [
        {
          dataset: 'open-qa',
          ability: 'safety',
          key: 'q1',
          prompt: 'p',
          failure: { code: 'judge_request_failed', message: judged },
        },
      ],
    });
    const zh = await get(`/runs/${run}/items?lang=zh-CN`);
    expect(zh.text).toContain(
      '评审 j1：请求失败（http_error 500）：尝试 3 次后 h:1 仍返回 HTTP 500：boom（已尝试 3 次；请用 zhujiu judge run 重试）',
    );
    expect((await get(`/runs/${run}/items`)).text).toContain(judged);
    const csv = await get(`/runs/${run}/items.csv?lang=zh-CN`);
    expect(csv.text).toContain(judged);
  });
});
