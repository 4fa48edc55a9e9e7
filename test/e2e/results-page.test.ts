import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { createHttpApp } from '../../src/http/server.ts';
import { LeaderboardService } from '../../src/leaderboard/service.ts';
import type { BoardJson } from '../../src/leaderboard/views.ts';
import { openDb } from '../../src/storage/db.ts';
import { addBattles, addRun } from '../helpers/board-data.ts';
import { freshDb } from '../helpers/db.ts';
import { asProcess } from '../helpers/run-cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.warn(`[skip] ${CHROMIUM} is absent: the results page test is skipped`);

describe.skipIf(!present)('results page in headless Chromium', () => {
  let dataDir: string;
  let cleanup: () => Promise<void>;
  let json: BoardJson;
  beforeAll(async () => {
    const db = await freshDb('pglite');
    dataDir = db.dataDir!;
    const models = ['gpt-4o', '通义千问-Max', '文心一言 4.0'];
    const acc = [0.9, 0.7, 0.5];
    for (let m = 0; m < 3; m++) {
      await addRun(db.db, {
        model: models[m]!,
        suite: 'demo',
        dataset: 'demo-objective',
        ability: 'knowledge',
        method: 'metrics',
        scores: Array.from({ length: 40 }, (_, i) => ({
          key: `q${i}`,
          raw: (i * 37) % 100 < acc[m]! * 100 ? 1 : 0,
          max: 1,
        })),
      });
    }
    await addRun(db.db, {
      model: 'gpt-4o',
      suite: 'judge',
      dataset: 'demo-open',
      ability: 'safety',
      method: 'scoring',
      scores: [
        { key: 's0', raw: 9, max: 10 },
        { key: 's1', raw: 7, max: 10 },
      ],
    });
    await addRun(db.db, {
      model: '通义千问-Max',
      suite: 'judge',
      dataset: 'demo-open',
      ability: 'safety',
      method: 'scoring',
      scores: [
        { key: 's0', raw: 6, max: 10 },
        { key: 's1', raw: 8, max: 10, sv: true },
      ],
    });
    const battles: { a: string; b: string; choice: 'left' | 'right' | 'equal' }[] = [];
    for (let i = 0; i < 30; i++) {
      battles.push({ a: 'gpt-4o', b: '文心一言 4.0', choice: i % 4 === 0 ? 'right' : 'left' });
      battles.push({ a: '通义千问-Max', b: 'gpt-4o', choice: i % 3 === 0 ? 'left' : 'right' });
      battles.push({
        a: '文心一言 4.0',
        b: '通义千问-Max',
        choice: i % 5 === 0 ? 'equal' : 'right',
      });
    }
    await addBattles(db.db, 'arena', 'language', battles);
    await db.close();
    cleanup = db.destroy;

    // The CLI builds and stores the snapshot (with the default 10,000 bootstrap rounds) and prints the JSON.
    const r = await asProcess(['leaderboard', '--json'], { env: { ZHUJIU_DATA_DIR: dataDir } });
    expect(r.code, r.stderr).toBe(0);
    json = JSON.parse(r.stdout) as BoardJson;
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it('shows the same numbers as --json, the chart, and opens a model card without console errors', async () => {
    expect(json.models.map((m) => m.model).sort()).toEqual(
      ['gpt-4o', '文心一言 4.0', '通义千问-Max'].sort(),
    );
    const d = await openDb({ kind: 'pglite', dataDir });
    const svc = new LeaderboardService({
      db: d.db,
      clock: systemClock,
      logger: silentLogger,
      aggregation: { min_votes: 20, bootstrap: 10_000, seed: 0 },
      // As in the bot: the board worker thread renders the chart the one-shot command did not store.
      compute: 'thread',
    });
    expect((await svc.latest())?.chart ?? null).toBeNull();
    expect((await svc.refresh()).chart).not.toBeNull();
    const app = createHttpApp({
      checkDb: async () => {},
      registry: { contentType: 'text/plain', metrics: async () => '' } as never,
      board: { latest: () => svc.latest(), now: () => systemClock.now() },
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
      const page = await browser.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      await page.goto(`${base}/board`);
      const rows = await page.$$eval('#board tbody tr[data-model]', (trs) =>
        trs.map((tr) => ({
          model: tr.getAttribute('data-model'),
          cells: Object.fromEntries(
            [...tr.querySelectorAll('td[data-col]')].map((td) => [
              td.getAttribute('data-col'),
              td.textContent,
            ]),
          ),
        })),
      );
      const two = (x: number | null) => (x === null ? '—' : x.toFixed(2));
      expect(rows.map((r) => r.model)).toEqual(json.models.map((m) => m.model));
      for (const m of json.models) {
        const row = rows.find((r) => r.model === m.model)!;
        expect(row.cells).toMatchObject({
          rank: String(m.rank ?? '—'),
          final: two(m.final),
          // the interval of the ranking key (aggregation.rank_by, default overall)
          ci: m.overall_lo == null ? '' : `${two(m.overall_lo)}–${two(m.overall_hi ?? null)}`,
          metrics: two(m.methods.metrics),
          scoring: two(m.methods.scoring),
          comparative: two(m.methods.comparative),
          knowledge: two(m.abilities.knowledge),
          safety: two(m.abilities.safety),
          language: two(m.abilities.language),
          reasoning: '—',
          overall: two(m.overall),
          votes: String(m.votes),
        });
      }
      // The chart loaded (a real PNG decoded by the browser).
      const chart = await page.$eval(
        '#chart',
        (img) => (img as unknown as { naturalWidth: number }).naturalWidth,
      );
      expect(chart).toBeGreaterThan(400);
      // A model card opens from the table (the CJK name is URL-encoded on the way).
      await page.click('a.model:text("文心一言 4.0")');
      await page.waitForSelector('#summary');
      expect(decodeURIComponent(page.url())).toBe(`${base}/board/model/文心一言 4.0`);
      const wenxin = json.models.find((m) => m.model === '文心一言 4.0')!;
      expect(await page.textContent('#final')).toContain(two(wenxin.final));
      expect(await page.$$eval('#opponents tbody tr', (t) => t.length)).toBe(2);
      expect(await page.$$eval('#datasets tbody tr', (t) => t.length)).toBe(1);
      // One ability page.
      await page.click('nav a:text("safety")');
      await page.waitForSelector('#ability');
      expect(await page.$$eval('#ability tbody tr', (t) => t.length)).toBe(3);
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await svc.close();
      await d.close();
    }
    expect(problems).toEqual([]);
  });
});
