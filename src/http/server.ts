/**
 * @module http/server
 * Health (`/healthz`: the process is up), readiness (`/readyz`: the database answers) and Prometheus metrics
 * (`/metrics`), and the read-only results page (`/board`, `/board/ability/:ability`, `/board/model/:model`,
 * `/board/chart.png`, `/board.json`) from the latest board snapshot, and the maintainers' item-level results
 * (`/runs`, `/runs/:id/items`: http/results-page.ts), on hono + @hono/node-server.
 */
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import { BOARD_ABILITIES, type BoardAbility } from '../aggregate/index.ts';
import { AppError } from '../core/errors.ts';
import { abilityPage, emptyPage, modelPage, overallPage } from '../leaderboard/page.ts';
import type { Snapshot } from '../leaderboard/service.ts';
import { boardJson } from '../leaderboard/views.ts';
import { addResultsRoutes, type ResultsDeps } from './results-page.ts';

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
    readonly checkStale?: (s: Snapshot) => Promise<string | undefined>;
    /** With no snapshot yet: start the first build when there are inputs; true when one started. */
    readonly startFirstBuild?: () => Promise<boolean>;
  };
  /** The item-level results of evaluation runs (omitted: no `/runs` routes). */
  readonly results?: ResultsDeps;
}

/** Builds the routes (testable with `app.request()` without a port). */
export function createHttpApp(deps: HttpDeps): Hono {
  const app = new Hono();
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
  if (deps.results) addResultsRoutes(app, deps.results);
  const board = deps.board;
  if (board) {
    app.get('/board', async (c) => {
      const s = await board.latest();
      if (!s) return c.html(emptyPage(board.now(), (await board.startFirstBuild?.()) ?? false));
      return c.html(overallPage(s, board.now(), await board.checkStale?.(s)));
    });
    app.get('/board.json', async (c) => {
      const s = await board.latest();
      return c.json(s ? boardJson(s.board) : { models: [], scoring_judge: null });
    });
    app.get('/board/chart.png', async (c) => {
      const s = await board.latest();
      if (!s?.chart) return c.text('no chart yet', 404);
      c.header('content-type', 'image/png');
      c.header('cache-control', 'no-cache');
      return c.body(new Uint8Array(s.chart));
    });
    app.get('/board/ability/:ability', async (c) => {
      const a = c.req.param('ability');
      if (!(BOARD_ABILITIES as readonly string[]).includes(a))
        return c.text(`unknown ability "${a}"; use one of ${BOARD_ABILITIES.join(', ')}`, 404);
      const s = await board.latest();
      if (!s) return c.html(emptyPage(board.now(), (await board.startFirstBuild?.()) ?? false));
      return c.html(abilityPage(s, a as BoardAbility, board.now()));
    });
    app.get('/board/model/:model', async (c) => {
      const m = c.req.param('model');
      const s = await board.latest();
      const page = s ? modelPage(s, m, board.now()) : undefined;
      return page ? c.html(page) : c.text(`no model "${m}" on the board`, 404);
    });
  }
  return app;
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
        reject(
          new AppError(
            'config_invalid',
            `the health/metrics port ${where} is already in use (another zhujiu process?): give each process ` +
              'its own PORT, or PORT=0 to run without the health server',
            { cause: err },
          ),
        );
      } else if (
        err.code === 'ENOTFOUND' ||
        err.code === 'EADDRNOTAVAIL' ||
        err.code === 'EACCES'
      ) {
        reject(
          new AppError(
            'config_invalid',
            `cannot listen on ${where} (${err.code}): check ZHUJIU_HTTP_HOST / http.host and PORT / http.port`,
            { cause: err },
          ),
        );
      } else {
        reject(err);
      }
    });
  });
}
