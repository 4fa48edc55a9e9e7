/**
 * @module http/server
 * Health (`/healthz`: the process is up), readiness (`/readyz`: the database answers) and Prometheus metrics
 * (`/metrics`), and the read-only results page (`/board` (`?open=1`: open weights only), `/board/ability/:ability`,
 * `/board/method/:method`, `/board/model/:model`, `/board/chart.png`, `/board.json`) from the latest board
 * snapshot, and the maintainers' item-level results (`/runs`, `/runs/:id/items`: http/results-page.ts), on hono +
 * @hono/node-server. Pages are in the configured locale ({@link HttpDeps.locale}) or the one of `?lang=en|zh-CN`
 * (their links keep it); `/assets/noto-sans-sc-400-<version>.ttf` serves the shipped CJK font they use. An ability
 * or method given by its display name in either language (`/board/ability/知识`, `/board/method/Metrics`) is
 * redirected (308) to its id's page, as the command line reads it; every response carries {@link SECURITY_HEADERS}.
 */

import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { type ServerType, serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import type { Registry } from 'prom-client';
import { BOARD_ABILITIES, BOARD_METHODS } from '../aggregate/index.ts';
import type { ModelInfo } from '../config/schema.ts';
import { listText, said, saidError } from '../i18n/cli.ts';
import { idOfName } from '../i18n/display-names.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import { isLocale, type Locale, t } from '../i18n/index.ts';
import { shippedFontPath } from '../leaderboard/font.ts';
import {
  abilityPage,
  emptyPage,
  FONT_URL,
  methodPage,
  modelPage,
  overallPage,
} from '../leaderboard/page.ts';
import type { Snapshot } from '../leaderboard/service.ts';
import { boardPageJson } from '../leaderboard/views.ts';
import type { BoardHistoryPoint } from '../storage/leaderboard.ts';
import { addResultsRoutes, type ResultsDeps } from './results-page.ts';

/** How long a page waits for the first board before answering "being built" (with a reload), ms. */
export const FIRST_BUILD_WAIT_MS = 15_000;

/** What the HTTP server needs from the app. */
export interface HttpDeps {
  /** Resolves when the database answers; rejects otherwise. */
  readonly checkDb: () => Promise<void>;
  readonly registry: Registry;
  /** The board for the results page (omitted: no `/board` routes). */
  readonly board?: {
    /** The latest snapshot (the community's board). */
    readonly latest: () => Promise<Snapshot | undefined>;
    readonly now: () => Date;
    /** What a stale snapshot misses (and start its rebuild); see LeaderboardService.checkStale. */
    readonly checkStale?: (s: Snapshot, locale: Locale) => Promise<string | undefined>;
    /** With no snapshot yet: start the first build when there are inputs; true when one started. */
    readonly startFirstBuild?: () => Promise<boolean>;
    /**
     * With no snapshot yet: build the first board from the stored scores and votes (undefined: nothing to build
     * from, or the build failed). A page waits for it up to `firstBuildWaitMs` (default {@link FIRST_BUILD_WAIT_MS})
     * and then shows it, so the board is served as soon as there is anything to show.
     */
    readonly firstBuild?: () => Promise<Snapshot | undefined>;
    readonly firstBuildWaitMs?: number;
    /** Card details of configured models (config/models.yaml), by name. */
    readonly models?: ReadonlyMap<string, ModelInfo>;
    /** One model's history (rank and score per day), oldest first. */
    readonly history?: (model: string) => Promise<readonly BoardHistoryPoint[]>;
  };
  /** The item-level results of evaluation runs (omitted: no `/runs` routes). */
  readonly results?: ResultsDeps;
  /** The pages' language when a request gives no `?lang=` (config `locale`; default en). */
  readonly locale?: Locale;
}

/** A request's page language: a valid `?lang=` (kept in the page's links), else `fallback`. */
export function requestLocale(
  c: Context,
  fallback: Locale,
): { locale: Locale; langInLinks: boolean } {
  const q = c.req.query('lang');
  return isLocale(q) ? { locale: q, langInLinks: true } : { locale: fallback, langInLinks: false };
}

/** Seconds a versioned asset may be cached (a year: its URL changes with its content). */
const ASSET_MAX_AGE = 365 * 24 * 3600;

/** `promise`'s value, or undefined when it has not settled within `ms` (or rejected). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The security headers of every response of the server, whatever its route, status or type (pages, 404 and error
 * texts, JSON, PNG, CSV, the font): same-origin resource and referrer policies, never framed, never sniffed, and a
 * content security policy with no script (the pages are plain HTML: inline styles, the shipped font, the board's
 * chart from the same origin, GET forms to the same origin). README "The results pages".
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'",
};

/** Builds the routes (testable with `app.request()` without a port). */
export function createHttpApp(deps: HttpDeps): Hono {
  const app = new Hono();
  // Before every route, so that each answer gets them: the routes', the 404 of an unknown path and the 500 of an
  // error (hono's compose hands both back to this middleware as `c.res`).
  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await deps.checkDb();
      return c.json({ status: 'ready' });
    } catch (err) {
      return c.json({ status: 'unavailable', error: (err as Error).message }, 503);
    }
  });
  app.get('/metrics', async (c) => {
    c.header('content-type', deps.registry.contentType);
    return c.body(await deps.registry.metrics());
  });
  // Streamed from the package's file at each request (browsers keep it a year): the ≈ 10 MB are never held in the
  // process's memory.
  app.get(FONT_URL, (c) => {
    const path = shippedFontPath();
    c.header('content-type', 'font/ttf');
    c.header('content-length', String(statSync(path).size));
    c.header('cache-control', `public, max-age=${ASSET_MAX_AGE}, immutable`);
    return c.body(Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>);
  });
  const locale = deps.locale ?? 'en';
  if (deps.results) addResultsRoutes(app, deps.results, locale);
  if (deps.board) addBoardRoutes(app, deps.board, locale);
  return app;
}

/** A board route's 404 for a method or ability nobody knows (`site.unknownMethod`), the known ones listed in `locale`. */
function unknownName(
  locale: Locale,
  key: 'site.unknownMethod' | 'site.unknownAbility',
  typed: string,
  known: readonly string[],
): string {
  const list = listText(locale, known);
  return key === 'site.unknownMethod'
    ? t(locale, key, { method: typed, methods: list })
    : t(locale, key, { ability: typed, abilities: list });
}

/**
 * The 308 redirect of a request to `path` (its query string kept): an ability or method asked by its display name
 * (`/board/ability/知识`, `/board/ability/Knowledge`) has one address, its id's (`/board/ability/knowledge`).
 */
function redirectTo(c: Context, path: string): Response {
  return c.redirect(`${path}${new URL(c.req.url).search}`, 308);
}

/** The results page's routes (see the module comment), from `board`. */
function addBoardRoutes(app: Hono, board: NonNullable<HttpDeps['board']>, locale: Locale): void {
  /** The latest snapshot, else the first one built now (waited for a while), else whether one is being built. */
  const current = async (): Promise<{ s?: Snapshot; building: boolean }> => {
    const s = await board.latest();
    if (s) return { s, building: false };
    if (board.firstBuild) {
      const built = await within(board.firstBuild(), board.firstBuildWaitMs ?? FIRST_BUILD_WAIT_MS);
      if (built) return { s: built, building: false };
    }
    return { building: (await board.startFirstBuild?.()) ?? false };
  };
  const extras = (c: Context, open = false) => ({
    ...(board.models ? { models: board.models } : {}),
    openOnly: open,
    ...requestLocale(c, locale),
  });
  const lang = (c: Context) => requestLocale(c, locale).locale;
  app.get('/board', async (c) => {
    const { s, building } = await current();
    if (!s) return c.html(emptyPage(board.now(), building, extras(c)));
    return c.html(
      overallPage(
        s,
        board.now(),
        await board.checkStale?.(s, lang(c)),
        extras(c, c.req.query('open') === '1'),
      ),
    );
  });
  app.get('/board.json', async (c) => {
    const { s } = await current();
    return c.json(
      s ? boardPageJson(s, board.models) : { models: [], scoring_judge: null, provenance: null },
    );
  });
  // An ability or a method by its id or its display name in either language, as the command line and chat take
  // them (i18n/display-names.ts `idOfName`); a name other than the id is redirected to the id's page.
  app.get('/board/method/:method', async (c) => {
    const typed = c.req.param('method');
    const m = idOfName(typed, BOARD_METHODS, 'method');
    if (m === undefined)
      return c.text(unknownName(lang(c), 'site.unknownMethod', typed, BOARD_METHODS), 404);
    if (m !== typed) return redirectTo(c, `/board/method/${m}`);
    const { s, building } = await current();
    if (!s) return c.html(emptyPage(board.now(), building, extras(c)));
    return c.html(methodPage(s, m, board.now(), extras(c, c.req.query('open') === '1')));
  });
  app.get('/board/chart.png', async (c) => {
    const s = await board.latest();
    if (!s?.chart) return c.text(t(lang(c), 'site.noChart'), 404);
    c.header('content-type', 'image/png');
    c.header('cache-control', 'no-cache');
    return c.body(new Uint8Array(s.chart));
  });
  app.get('/board/ability/:ability', async (c) => {
    const typed = c.req.param('ability');
    const a = idOfName(typed, BOARD_ABILITIES, 'ability');
    if (a === undefined)
      return c.text(unknownName(lang(c), 'site.unknownAbility', typed, BOARD_ABILITIES), 404);
    if (a !== typed) return redirectTo(c, `/board/ability/${a}`);
    const { s, building } = await current();
    if (!s) return c.html(emptyPage(board.now(), building, extras(c)));
    return c.html(abilityPage(s, a, board.now(), extras(c, c.req.query('open') === '1')));
  });
  app.get('/board/model/:model', async (c) => {
    const m = c.req.param('model');
    const { s } = await current();
    const history = s && board.history ? await board.history(m) : undefined;
    const page = s
      ? modelPage(s, m, board.now(), { ...extras(c), ...(history ? { history } : {}) })
      : undefined;
    return page ? c.html(page) : c.text(t(lang(c), 'site.unknownModel', { model: m }), 404);
  });
}

/** Starts listening; resolves with the server and its bound port once listening. */
export function startHttp(
  app: Hono,
  port: number,
  host: string,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) =>
      resolve({ server, port: info.port }),
    );
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (err.code === 'EADDRINUSE') {
        reject(saidError('config_invalid', said('cli.serve.portInUse', { where }), { cause: err }));
      } else if (
        err.code === 'ENOTFOUND' ||
        err.code === 'EADDRNOTAVAIL' ||
        err.code === 'EACCES'
      ) {
        reject(
          saidError(
            'config_invalid',
            said('cli.serve.cannotListen', { where, code: causeSaid(err.code ?? '') }),
            {
              cause: err,
            },
          ),
        );
      } else {
        reject(err);
      }
    });
  });
}
