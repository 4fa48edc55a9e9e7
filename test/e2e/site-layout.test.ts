/**
 * The results site in headless Chromium at a 390 px phone and a 1366 px desktop, in Chinese (the default locale)
 * and in English (`?lang=en`): the board, a method page (with the win-rate heat map), a model card with its
 * history and an item-level results page never scroll sideways (wide tables scroll inside their own box), with no
 * console error; the Chinese pages say `lang="zh-CN"` and render their Chinese with the served Noto Sans SC (this
 * machine's Chromium has no CJK font of its own: without it the glyphs are boxes). Screenshots of each (and the PNG
 * chart) are written to `$ZHUJIU_SCREENSHOTS` (default `zhujiu-site-screenshots` in the temporary folder), as
 * `<page>-<locale>-<width>.png`, with the measured widths in `widths.json`, to be looked at.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { createHttpApp } from '../../src/http/server.ts';
import { LeaderboardService } from '../../src/leaderboard/service.ts';
import { addBattles, addRun } from '../helpers/board-data.ts';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { addRunWithItems } from '../helpers/run-items.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`[skip] ${CHROMIUM} is absent: the site layout test is skipped`);

const MODELS = [
  'OpenHermes-2.5-Mistral-7B',
  'gpt-4o',
  '通义千问-Max',
  '文心一言 4.0',
  'Code Llama Instruct (13B)',
  'mixtral-8x7b-instruct-v0.1',
  'qwen2-72b-instruct',
  'llama-3-70b-instruct',
];

describe.skipIf(!present)('results site layout in headless Chromium', () => {
  let db: TestDb;
  let svc: LeaderboardService;
  let runId: number;
  const clock = new ManualClock(new Date('2026-11-01T08:00:00Z'));
  const shots = process.env.ZHUJIU_SCREENSHOTS ?? join(tmpdir(), 'zhujiu-site-screenshots');
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    db = await freshDb('pglite');
    svc = new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 200, seed: 1 },
      compute: 'inline',
      chartRows: 30,
    });
    // Six days of boards: each day every model's run is scored again, a little differently.
    for (let d = 0; d < 6; d++) {
      clock.set(new Date(Date.UTC(2026, 10, 1 + d, 8)));
      for (const [m, model] of MODELS.entries()) {
        const acc = 0.35 + ((m * 7 + d * (m % 3)) % 10) / 18;
        for (const [dataset, ability] of [
          ['obj-knowledge', 'knowledge'],
          ['obj-reasoning', 'reasoning'],
        ] as const)
          await addRun(db.db, {
            model,
            suite: 'demo',
            dataset,
            ability,
            method: 'metrics',
            scores: Array.from({ length: 30 }, (_, i) => ({
              key: `q${i}`,
              raw: (i * 37) % 100 < acc * 100 ? 1 : 0,
              max: 1,
            })),
            finishedAt: clock.now(),
          });
      }
      const battles: { a: string; b: string; choice: 'left' | 'right' | 'equal' }[] = [];
      for (let i = 0; i < MODELS.length; i++)
        for (let j = i + 1; j < MODELS.length; j++)
          for (let k = 0; k < 2; k++)
            battles.push({
              a: MODELS[i]!,
              b: MODELS[j]!,
              choice: (i + j + k + d) % 3 === 0 ? 'right' : (i + k) % 5 === 0 ? 'equal' : 'left',
            });
      await addBattles(db.db, 'arena', 'language', battles);
      await svc.refresh();
    }
    const items = Array.from({ length: 12 }, (_, i) => ({
      dataset: i % 2 === 0 ? 'c3' : 'cmrc2018',
      ability: 'language' as const,
      key: `item-${i}`,
      prompt: `阅读下面的材料并回答问题：${'长江是中国最长的河流，'.repeat(i % 3 === 0 ? 30 : 1)}问题 ${i}？`,
      ...(i % 5 === 4
        ? { failure: { code: 'llm_failed', message: 'HTTP 500 from the endpoint' } }
        : {
            answer: `答案：${'ABCD'[i % 4]}。${'因为材料中提到了这一点。'.repeat(i % 4 === 0 ? 20 : 1)}`,
            score: { raw: i % 3 === 0 ? 0 : 1, max: 1, detail: { extracted: 'ABCD'[i % 4] } },
          }),
    }));
    runId = await addRunWithItems(db.db, { model: '通义千问-Max', suite: 'demo', items });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.destroy();
  });

  it('no page scrolls sideways at 390 px or 1366 px; screenshots and the chart are saved', async () => {
    const latest = (await svc.latest())!;
    expect(latest.chart).not.toBeNull();
    writeFileSync(join(shots, 'chart.png'), latest.chart!);
    const models = new Map([
      [
        'OpenHermes-2.5-Mistral-7B',
        {
          organisation: 'Teknium',
          licence: 'Apache-2.0',
          parameters: '7B',
          open_weights: true,
          link: 'https://huggingface.co/teknium/OpenHermes-2.5-Mistral-7B',
        },
      ],
      ['gpt-4o', { organisation: 'OpenAI', licence: 'proprietary', open_weights: false }],
      ['qwen2-72b-instruct', { organisation: 'Alibaba', parameters: '72B', open_weights: true }],
    ]);
    const app = createHttpApp({
      locale: 'zh-CN',
      results: { db: db.db },
      checkDb: async () => {},
      registry: { contentType: 'text/plain', metrics: async () => '' } as never,
      board: {
        latest: () => svc.latest(),
        now: () => clock.now(),
        models,
        history: (m) => svc.history(m),
      },
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const problems: string[] = [];
    const widths: Record<string, { scroll: number; inner: number }> = {};
    try {
      for (const [locale, query] of [
        ['zh-CN', ''],
        ['en', '?lang=en'],
      ] as const)
        for (const width of [390, 1366]) {
          const page = await browser.newPage({ viewport: { width, height: 844 } });
          page.on('console', (m) => {
            if (m.type() === 'error') problems.push(`console: ${m.text()}`);
          });
          page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
          for (const [name, path] of [
            ['board', '/board'],
            ['method-comparative', '/board/method/comparative'],
            ['model-card', `/board/model/${encodeURIComponent('OpenHermes-2.5-Mistral-7B')}`],
            ['run-items', `/runs/${runId}/items`],
          ] as const) {
            await page.goto(`${base}${path}${query}`);
            await page.waitForLoadState('load');
            // Web fonts do not hold the load event: wait until the CJK font has arrived and is laid out.
            await page.evaluate('document.fonts.ready.then(() => undefined)');
            // Evaluated in the page (strings: this file is compiled without the DOM's types).
            const w = (await page.evaluate(
              '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
            )) as { scroll: number; inner: number };
            widths[`${name}-${locale}@${width}`] = w;
            expect(await page.getAttribute('html', 'lang'), `${name} ${locale}`).toBe(locale);
            // Every link of the page keeps the language it was asked for (the switch asks the other).
            const hrefs = (await page.$$eval('a[href^="/"]:not(#lang)', (as) =>
              as.map((a) => a.getAttribute('href') ?? ''),
            )) as string[];
            if (query)
              expect(
                hrefs.filter((h) => !h.includes('lang=en') && !h.startsWith('/board/chart.png')),
                name,
              ).toEqual([]);
            await page.screenshot({
              path: join(shots, `${name}-${locale}-${width}.png`),
              fullPage: true,
            });
          }
          // The Chinese text is drawn with the served font (loaded: the page used it).
          if (locale === 'zh-CN')
            expect(
              await page.evaluate(
                'document.fonts.ready.then(() => [...document.fonts].some((f) => f.family.includes("Noto Sans SC") && f.status === "loaded"))',
              ),
            ).toBe(true);
          // The card carries its history chart and details; the board its table and chart in scroll boxes.
          await page.goto(
            `${base}/board/model/${encodeURIComponent('OpenHermes-2.5-Mistral-7B')}${query}`,
          );
          expect(await page.$$eval('#history-chart circle', (c) => c.length)).toBeGreaterThan(5);
          expect(await page.textContent('#info')).toContain('Teknium');
          await page.goto(`${base}/board${query}`);
          expect(
            await page.$eval('#board', (t) => t.parentElement?.classList.contains('scroll')),
          ).toBe(true);
          expect(
            await page.$eval('#chart', (i) =>
              i.parentElement?.parentElement?.classList.contains('scroll'),
            ),
          ).toBe(true);
          await page.close();
        }
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    writeFileSync(join(shots, 'widths.json'), `${JSON.stringify(widths, null, 2)}\n`);
    for (const [k, w] of Object.entries(widths)) expect(w.scroll, k).toBeLessThanOrEqual(w.inner);
    expect(problems).toEqual([]);
  });
});
