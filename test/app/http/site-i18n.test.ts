/**
 * The results site speaks one language per page, and the board's chat message one per message: every page (board, each ability and method, a model card with its
 * history and details, `/runs`, a run's items, the empty board, the 404 answers) rendered in zh-CN and in en from
 * the same stored data. A zh-CN page has no English word left once the data (model, dataset, suite, source and
 * judge names, item keys and texts), code, paths and a few names of things (PDR, LLM, Bradley–Terry, CSV, JSON, UTC)
 * are taken out; an en page has no Chinese character but the language switch's. A sentence written into a page
 * without the message catalogue shows up here in the language that does not match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createHttpApp } from '../../../src/http/server.ts';
import type { Locale } from '../../../src/i18n/index.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import {
  abilityContent,
  methodContent,
  modelContent,
  movesText,
  overallContent,
} from '../../../src/leaderboard/views.ts';
import { addBattles, addRun } from '../../helpers/board-data.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { addRunWithItems } from '../../helpers/run-items.ts';

const MODELS = ['m-alpha', 'm-beta', 'm-gamma', 'm-delta'];
/** Names of things written the same in both languages. */
const NAMES = [
  'PDR',
  'LLM',
  'Bradley',
  'Terry',
  'CSV',
  'JSON',
  'Lines',
  'UTC',
  'English',
  'zhujiu',
];
/** Values typed into the score filter as they are (its placeholder's examples). */
const SYNTAX = ['correct', 'wrong'];
/** Data of the pages: stored names and texts, shown as they are in either language. */
const DATA = [
  ...MODELS,
  'obj-knowledge',
  'obj-reasoning',
  'open-qa',
  'demo',
  'arena',
  'Teknium',
  'Apache-2.0',
  'judge-x',
  'llm_failed',
  'HTTP 500 from the endpoint',
  'The capital is Paris because the text says so.',
  'What is the capital of France?',
  'A good answer.',
  'Paris',
  'open-1',
  'open-2',
  'open-3',
  '{"score":8}',
];

/** The words a person reads on a page: text and the title/alt/label/placeholder attributes; no style, no data. */
function readable(html: string): string {
  const attrs = [
    ...html.matchAll(/\s(?:title|alt|aria-label|placeholder|data-label)="([^"]*)"/g),
  ].map((m) => m[1]);
  let s = `${html
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<code>[\s\S]*?<\/code>/g, ' ')
    .replace(/<a id="lang"[^>]*>[^<]*<\/a>/g, ' ')
    .replace(/<[^>]+>/g, ' ')} ${attrs.join(' ')}`
    .replaceAll('&amp;', '&')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
  for (const d of DATA) s = s.replaceAll(d, ' ');
  return s
    .replace(/`[^`]*`/g, ' ') // commands quoted in sentences
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, ' ')
    .replace(/[\w.-]*\/[\w./#-]+/g, ' ') // paths: docs/scoring.md, config/models.yaml, /board/model/NAME
    .replace(/\b[a-z]+[._][a-z_.]+\b/g, ' '); // config keys: judge.model, open_weights
}

function englishWords(text: string): string[] {
  return [...new Set(text.match(/[A-Za-z]{2,}/g) ?? [])].filter(
    (w) => !NAMES.includes(w) && !SYNTAX.includes(w),
  );
}

function chinese(text: string): string[] {
  return [...new Set(text.match(/[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+/g) ?? [])];
}

describe('results site in zh-CN and en', () => {
  let db: TestDb;
  let svc: LeaderboardService;
  let runId = 0;
  const clock = new ManualClock(new Date('2026-11-01T08:00:00Z'));
  beforeAll(async () => {
    db = await freshDb('pglite');
    svc = new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 3, bootstrap: 20, seed: 1 },
      compute: 'inline',
      inlineChart: false,
    });
    for (let d = 0; d < 2; d++) {
      clock.set(new Date(Date.UTC(2026, 10, 1 + d, 8)));
      for (const [m, model] of MODELS.entries())
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
            scores: Array.from({ length: 10 }, (_, i) => ({
              key: `q${i}`,
              raw: i < 3 + m + d ? 1 : 0,
              max: 1,
            })),
            finishedAt: clock.now(),
          });
      // Three models have arena votes, m-delta none: it is shown unranked; two battles have no ability.
      const battles = [];
      for (const [i, a] of MODELS.slice(0, 3).entries())
        for (const b of MODELS.slice(i + 1, 3))
          for (let k = 0; k < 4; k++)
            battles.push({ a, b, choice: k % 3 === 0 ? ('right' as const) : ('left' as const) });
      await addBattles(db.db, 'arena', 'knowledge', battles, `d${d}-`);
      await addBattles(
        db.db,
        'arena',
        null,
        [{ a: 'm-alpha', b: 'm-beta', choice: 'left' }],
        `n${d}-`,
      );
      await svc.refresh();
    }
    runId = await addRunWithItems(db.db, {
      model: 'm-alpha',
      suite: 'demo',
      items: [
        {
          dataset: 'open-qa',
          ability: 'knowledge',
          key: 'open-1',
          prompt: 'What is the capital of France?',
          answer: 'The capital is Paris because the text says so.',
          reasoning: 'A good answer.',
          score: { raw: 1, max: 1, detail: { extracted: 'Paris' } },
        },
        {
          dataset: 'open-qa',
          ability: 'knowledge',
          key: 'open-2',
          prompt: 'What is the capital of France?',
          failure: { code: 'llm_failed', message: 'HTTP 500 from the endpoint' },
        },
        {
          dataset: 'open-qa',
          ability: 'safety',
          key: 'open-3',
          prompt: 'What is the capital of France?',
          answer: 'A good answer.',
          judge: { name: 'judge-x', raw: 8, max: 10, reply: '{"score":8}', safety: false },
        },
      ],
    });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.destroy();
  });

  function app(locale: Locale, empty = false) {
    return createHttpApp({
      locale,
      checkDb: async () => {},
      registry: { contentType: 'text/plain', metrics: async () => '' } as never,
      results: { db: db.db },
      board: {
        latest: async () => (empty ? undefined : svc.latest()),
        now: () => clock.now(),
        models: new Map([
          ['m-alpha', { organisation: 'Teknium', licence: 'Apache-2.0', open_weights: true }],
          ['m-beta', { open_weights: false, parameters: '7B' }],
        ]),
        history: (m) => svc.history(m),
      },
    });
  }

  const PAGES = () => [
    '/board',
    '/board?open=1',
    '/board/ability/knowledge',
    '/board/method/metrics',
    '/board/method/scoring',
    '/board/method/comparative',
    '/board/model/m-alpha',
    '/board/model/m-delta',
    '/runs',
    `/runs/${runId}/items`,
    `/runs/${runId}/items?failed=1`,
    `/runs/${runId}/items?dataset=open-qa&score=0.5-1`,
  ];

  // Each language's pages, by config and by ?lang= over the other config: none of the other language's words.
  for (const [lang, other, foreign] of [
    ['zh-CN', 'en', englishWords],
    ['en', 'zh-CN', chinese],
  ] as const)
    it(`a ${lang} page has none of the other language's words, in config and by ?lang=${lang}`, async () => {
      const found: Record<string, string[]> = {};
      for (const [a, q] of [
        [app(lang), ''],
        [app(other), `lang=${lang}`],
      ] as const)
        for (const path of PAGES()) {
          const url = q ? `${path}${path.includes('?') ? '&' : '?'}${q}` : path;
          const res = await a.request(url);
          expect(res.status, url).toBe(200);
          const html = await res.text();
          expect(html, url).toContain(`<html lang="${lang}">`);
          const words = foreign(readable(html));
          if (words.length > 0) found[url] = words;
        }
      expect(found).toEqual({});
    });

  it('the empty board and the 404 answers speak the page language', async () => {
    const zh = await (await app('zh-CN', true).request('/board')).text();
    expect(englishWords(readable(zh))).toEqual([]);
    const en = await (await app('zh-CN', true).request('/board?lang=en')).text();
    expect(chinese(readable(en))).toEqual([]);
    for (const path of [
      '/board/method/nope',
      '/board/ability/nope',
      '/board/model/nobody',
      '/runs/999/items',
    ]) {
      const z = await app('zh-CN').request(path);
      expect(z.status, path).toBe(404);
      expect(chinese(await z.text()).length, path).toBeGreaterThan(0);
      const e = await app('zh-CN').request(`${path}?lang=en`);
      expect(chinese(await e.text()), path).toEqual([]);
    }
  });

  it("the board as a chat message (the daily post's body) speaks one language too", async () => {
    const s = (await svc.latest())!;
    const moves = [{ model: 'm-beta', from: 3, to: 1, past: ['m-alpha', 'm-gamma'] }];
    const render = (locale: Locale) => {
      const c = overallContent(s, {
        now: clock.now(),
        locale,
        image: new Uint8Array([1]),
        link: 'https://arena.example.org/board',
      });
      return [
        c.text,
        c.footer,
        c.image?.alt,
        ...(c.table?.columns ?? []),
        ...(c.table?.rows.flat() ?? []),
        movesText(moves, locale),
        movesText([], locale),
      ].join('\n');
    };
    const plain = (text: string) => readable(text.replace(/https:\/\/\S+/g, ' '));
    expect(englishWords(plain(render('zh-CN')))).toEqual([]);
    expect(chinese(plain(render('en')))).toEqual([]);
    expect(render('en')).toContain('ZhuJiu board: ');
  });

  it("a stale board's footer joins what it misses with the language's comma", async () => {
    const s = (await svc.latest())!;
    const footer = (locale: Locale) =>
      overallContent(s, { now: clock.now(), locale, behind: 'X' }).footer ?? '';
    expect(footer('zh-CN')).toMatch(/UTC）{1}，X/u);
    expect(footer('zh-CN')).not.toContain(', X');
    expect(footer('en')).toContain('UTC), X');
  });

  it('the ability, method and model views in chat speak one language too', async () => {
    const s = (await svc.latest())!;
    const render = (locale: Locale) => {
      const o = { now: clock.now(), locale };
      return [
        abilityContent(s, 'reasoning', o),
        methodContent(s, 'metrics', o),
        methodContent(s, 'scoring', o),
        modelContent(s, 'm-beta', o),
        modelContent(s, 'no-such-model', o),
      ]
        .flatMap((c) => [
          c.text,
          c.title,
          c.footer,
          ...(c.sections ?? []).flatMap((x) => [x.heading, x.body]),
          ...(c.table?.columns ?? []),
          ...(c.table?.rows.flat() ?? []),
        ])
        .join('\n');
    };
    const zh = render('zh-CN');
    expect(englishWords(readable(zh.replaceAll('no-such-model', ' ')))).toEqual([]);
    expect(chinese(readable(render('en')))).toEqual([]);
    expect(zh).toContain('能力：');
  });

  it('serves the CJK font with a year of cache', async () => {
    const html = await (await app('zh-CN').request('/board')).text();
    const url = /url\("([^"]+\.ttf)"\)/.exec(html)?.[1];
    expect(url).toMatch(/^\/assets\/noto-sans-sc-400-[\d.]+\.ttf$/);
    const res = await app('zh-CN').request(url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/ttf');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });
});
