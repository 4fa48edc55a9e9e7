import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { createHttpApp, startHttp } from '../../../src/http/server.ts';

describe('health server', () => {
  const app = createHttpApp({ registry: new Registry(), checkDb: async () => {} });

  it('answers /healthz and reports /readyz from the database check', async () => {
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok' });
    const down = createHttpApp({
      registry: new Registry(),
      checkDb: async () => {
        throw new Error('connection refused');
      },
    });
    const r = await down.request('/readyz');
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: 'unavailable', error: 'connection refused' });
  });

  it('a port in use is a clear configuration error naming PORT', async () => {
    const first = await startHttp(app, 0, '127.0.0.1');
    try {
      const err = await startHttp(app, first.port, '127.0.0.1').catch((e: unknown) => e);
      expect(isAppError(err, 'config_invalid')).toBe(true);
      expect((err as Error).message).toContain(`port 127.0.0.1:${first.port} is already in use`);
      expect((err as Error).message).toContain('PORT=0');
    } finally {
      await new Promise<void>((resolve) => first.server.close(() => resolve()));
    }
  });
});
