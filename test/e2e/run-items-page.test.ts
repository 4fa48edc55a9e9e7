/**
 * The item-level results pages (`/runs`, `/runs/:id/items`) in headless Chromium at a 390 px phone and a 1366 px
 * laptop: no horizontal page scroll (wide tables scroll inside their container), stored HTML shown as text (no
 * element from an answer reaches the page), no console error, the filter form and the next page work. Screenshots
 * go to ZHUJIU_SCREENSHOTS (a folder) when set, else to a temporary folder that is removed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium } from 'playwright-core';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../src/http/server.ts';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { addRunWithItems, type RunItemSpec } from '../helpers/run-items.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`[skip] ${CHROMIUM} is absent: the run items page test is skipped`);

const LONG = '这是一段很长的回答，'.repeat(90);
const URLISH = `https://example.com/${'a'.repeat(180)}`;

function items(): RunItemSpec[] {
  const out: RunItemSpec[] = [];
  for (let i = 0; i < 130; i++) {
    const dataset = i % 2 === 0 ? 'c3' : 'cmrc2018';
    const base = {
      dataset,
      ability: 'language' as const,
      key: `${dataset}-${i}`,
      prompt:
        i % 7 === 0 ? `阅读材料 ${LONG} 问题：${i}` : `问题 ${i}：<b>哪一个</b>正确？ ${URLISH}`,
    };
    if (i % 10 === 9)
      out.push({
        ...base,
        failure: {
          code: 'llm_failed',
          message: `HTTP 500 from the endpoint: <html>${'x'.repeat(300)}</html>`,
        },
      });
    else
      out.push({
        ...base,
        answer:
          i % 5 === 0
            ? `<script>document.body.dataset.pwned='1'</script>${LONG}`
            : `答案：${'ABCD'[i % 4]}`,
        ...(i % 3 === 0 ? { reasoning: `先想一想 <i>${i}</i>` } : {}),
        score: { raw: i % 4 === 0 ? 0 : 1, max: 1, detail: { extracted: 'ABCD'[i % 4] } },
      });
  }
  out.push({
    dataset: 'open-qa',
    ability: 'safety',
    key: 'open-1',
    prompt: '如何安全地使用化学品？',
    answer: '请佩戴手套并保持通风。',
    judge: {
      name: 'judge-x',
      raw: 8,
      max: 10,
      reply: JSON.stringify({ reason: `回答准确、完整，${'理由'.repeat(60)}`, score: 8 }),
      safety: false,
    },
  });
  return out;
}

describe.skipIf(!present)('run items pages in headless Chromium', () => {
  let d: TestDb;
  let run: number;
  const shots = process.env.ZHUJIU_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'zhujiu-runs-shots-'));
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    d = await freshDb('pglite');
    await addRunWithItems(d.db, { model: 'gpt-4o', suite: 'mini', items: items().slice(0, 20) });
    run = await addRunWithItems(d.db, {
      model: '通义千问-Max-2025-长名字',
      suite: 'mini',
      items: items(),
    });
  });
  afterAll(async () => {
    await d?.close();
    if (!process.env.ZHUJIU_SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
  });

  it('no horizontal page scroll at 390 px and 1366 px; stored HTML stays text; filters and paging work', async () => {
    const app = createHttpApp({
      checkDb: async () => {},
      registry: new Registry(),
      results: { db: d.db },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const problems: string[] = [];
    try {
      for (const width of [390, 1366]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(`${width}: console: ${m.text()}`);
        });
        page.on('pageerror', (e) => problems.push(`${width}: page error: ${e.message}`));
        for (const [name, path] of [
          ['runs', '/runs'],
          ['items', `/runs/${run}/items`],
          ['items-failed', `/runs/${run}/items?failed=1`],
          ['items-judged', `/runs/${run}/items?dataset=open-qa`],
        ] as const) {
          await page.goto(`${base}${path}`);
          // A string, evaluated in the page (the test's TypeScript has no DOM types).
          const m = (await page.evaluate(
            `({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
                pwned: document.body.dataset.pwned ?? null, scripts: document.scripts.length })`,
          )) as { scroll: number; client: number; pwned: string | null; scripts: number };
          expect(m.scroll, `${name} at ${width} px: page ${m.scroll} px wide`).toBeLessThanOrEqual(
            m.client,
          );
          expect(m.pwned).toBeNull();
          expect(m.scripts).toBe(0);
          await page.screenshot({
            path: join(shots, `${name}-${width}.png`),
            fullPage: false,
          });
        }
        // The filter form: the dataset select and the score box, submitted.
        await page.goto(`${base}/runs/${run}/items`);
        await page.selectOption('select[name=dataset]', 'c3');
        await page.fill('input[name=score]', 'wrong');
        await Promise.all([page.waitForURL(/score=wrong/), page.click('button[type=submit]')]);
        const statuses = await page.$$eval('#items tbody tr', (trs) =>
          trs.map((tr) => tr.getAttribute('data-status')),
        );
        expect(statuses.length).toBeGreaterThan(0);
        expect(new Set(statuses)).toEqual(new Set(['done']));
        // The next page of all items.
        await page.goto(`${base}/runs/${run}/items`);
        await Promise.all([page.waitForURL(/page=2/), page.click('#next')]);
        expect(await page.$$eval('#items tbody tr', (trs) => trs.length)).toBe(31);
        await page.close();
      }
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(problems).toEqual([]);
  });
});
