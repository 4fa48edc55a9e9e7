/**
 * Every response of the HTTP server carries the same security headers (http/server.ts `SECURITY_HEADERS`, README
 * "The results pages"), whatever its route, status and type: each route the app registers (read from the app, so
 * a route added later is walked too) with known and unknown parameters, an unknown path's 404, an error's 500, a
 * redirect. And the board's ability and method pages take the display names the command line takes (`知识`,
 * `Knowledge`, `指标评估`: i18n/display-names.ts `idOfName`), answered with a 308 to the id's page; the results'
 * `?ability=` likewise.
 *
 * No database: the board is a snapshot computed in memory, and the results read through a Kysely whose driver
 * answers every query with no rows (no runs: `/runs` is empty, a run's pages are 404s; the app tests check them on
 * stored runs, test/app/http/results-page.test.ts).
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { createHttpApp, SECURITY_HEADERS } from '../../../src/http/server.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { communityBoard, snapshotOf } from '../../helpers/board-fixtures.ts';

const snapshot = { ...snapshotOf(communityBoard()), chart: new Uint8Array([137, 80, 78, 71]) };
const noRows = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function app(registry = new Registry()) {
  return createHttpApp({
    checkDb: async () => {},
    registry,
    results: { db: noRows },
    board: {
      latest: async () => snapshot,
      now: () => new Date('2026-12-01T12:00:00Z'),
      history: async () => [],
    },
  });
}

/** A parameter's value that names something (`known`) and one that names nothing. */
const KNOWN: Readonly<Record<string, string>> = {
  id: '1',
  ability: 'knowledge',
  method: 'metrics',
  model: 'ep-1',
};

/** `path` with each `:param` (hono's syntax, a `{regex}` after it allowed) replaced by `value(param)`. */
function fill(path: string, value: (param: string) => string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => encodeURIComponent(value(name)));
}

/** The headers of `SECURITY_HEADERS` that `res` lacks or has with another value. */
function missing(res: Response): string[] {
  return Object.entries(SECURITY_HEADERS)
    .filter(([name, value]) => res.headers.get(name) !== value)
    .map(([name]) => name);
}

describe('security headers on every response', () => {
  it('are the ones the README promises: same-origin, never framed, never sniffed, no script', () => {
    expect(SECURITY_HEADERS).toMatchObject({
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
    const csp = SECURITY_HEADERS['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src/);
    // The board's chart is an <img> of the same origin.
    expect(csp).toMatch(/img-src 'self'/);
  });

  it('every registered route answers with them, with a known and an unknown parameter, in either language', async () => {
    const a = app();
    const routes = a.routes.filter((r) => r.method === 'GET').map((r) => r.path);
    // Both groups of routes are registered: the walk below covers the board and the results.
    expect(routes).toEqual(expect.arrayContaining(['/board', '/board/chart.png', '/runs']));
    const paths = routes.flatMap((p) => [
      fill(p, (name) => KNOWN[name] ?? 'x'),
      `${fill(p, () => 'nope')}?lang=zh-CN`,
    ]);
    const seen: Record<string, number> = {};
    const wrong: Record<string, string[]> = {};
    for (const path of [...new Set(paths), '/no-such-page', '/board/ability/%E7%9F%A5%E8%AF%86']) {
      const res = await a.request(path);
      await res.body?.cancel();
      seen[path] = res.status;
      if (missing(res).length > 0) wrong[path] = missing(res);
    }
    expect(wrong).toEqual({});
    // Every kind of answer was among them: pages, JSON, the PNG, the font, 404s and a redirect.
    expect(seen['/board']).toBe(200);
    expect(seen['/board.json']).toBe(200);
    expect(seen['/board/chart.png']).toBe(200);
    expect(seen['/runs']).toBe(200);
    expect(seen['/runs/1/items.csv']).toBe(404);
    expect(seen['/no-such-page']).toBe(404);
    expect(seen['/board/ability/%E7%9F%A5%E8%AF%86']).toBe(308);
    expect(Object.values(seen).filter((s) => s === 200).length).toBeGreaterThan(8);
  });

  it('an error answered with 500 carries them too', async () => {
    const broken = new Registry();
    broken.metrics = async () => {
      throw new Error('broken registry');
    };
    // hono's default error handler logs the error: kept off the test's output.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let res: Response;
    try {
      res = await app(broken).request('/metrics');
    } finally {
      logged.mockRestore();
    }
    expect(res.status).toBe(500);
    expect(missing(res)).toEqual([]);
  });
});

describe('ability and method pages by display name', () => {
  const a = app();
  const location = async (path: string) => {
    const res = await a.request(path);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };

  it('an ability by its Chinese or English name, in any case, is redirected to its id’s page', async () => {
    for (const name of ['知识', 'Knowledge', 'KNOWLEDGE', ' knowledge '])
      expect(await location(`/board/ability/${encodeURIComponent(name)}`), name).toMatchObject({
        status: 308,
        location: '/board/ability/knowledge',
      });
    expect((await location('/board/ability/knowledge')).status).toBe(200);
    // The query string stays.
    expect(
      await location('/board/ability/%E4%B8%AD%E6%96%87%E7%89%B9%E5%AE%9A?open=1&lang=zh-CN'),
    ).toMatchObject({
      status: 308,
      location: '/board/ability/chinese_specific?open=1&lang=zh-CN',
    });
  });

  it('a method by its Chinese or English name likewise', async () => {
    for (const [name, id] of [
      ['指标评估', 'metrics'],
      ['Scoring', 'scoring'],
      ['对比评估', 'comparative'],
    ] as const)
      expect(await location(`/board/method/${encodeURIComponent(name)}`), name).toMatchObject({
        status: 308,
        location: `/board/method/${id}`,
      });
    expect((await location('/board/method/metrics')).status).toBe(200);
  });

  it('an unknown name keeps its 404 naming it and the known ones', async () => {
    const ab = await location('/board/ability/%E7%9F%A5');
    expect(ab.status).toBe(404);
    expect(ab.text).toContain('unknown ability "知"');
    expect(ab.text).toContain('knowledge');
    const m = await location('/board/method/nope?lang=zh-CN');
    expect(m.status).toBe(404);
    expect(m.text).toContain('nope');
  });

  it('the results’ ability filter by display name is redirected to the id, the other parameters kept', async () => {
    for (const path of ['/runs/7/items', '/runs/7/items.csv', '/runs/7/items.jsonl'])
      expect(
        await location(`${path}?dataset=c3&ability=%E7%9F%A5%E8%AF%86&failed=1`),
        path,
      ).toMatchObject({ status: 308, location: `${path}?dataset=c3&ability=knowledge&failed=1` });
    // An id, or a name of no ability, is the filter's to check (here: no such run).
    expect((await location('/runs/7/items?ability=knowledge')).status).toBe(404);
    expect((await location('/runs/7/items?ability=nope')).status).toBe(404);
  });
});
