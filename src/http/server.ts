/**
 * @module http/server
 * Health (`/healthz`: the process is up), readiness (`/readyz`: the database answers) and Prometheus metrics
 * (`/metrics`), on hono + @hono/node-server.
 */
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import { AppError } from '../core/errors.ts';

/** What the HTTP server needs from the app. */
export interface HttpDeps {
  /** Resolves when the database answers; rejects otherwise. */
  readonly checkDb: () => Promise<void>;
  readonly registry: Registry;
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
