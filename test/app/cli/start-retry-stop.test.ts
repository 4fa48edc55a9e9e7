/**
 * A long-lived process asked to stop while it still tries to reach its PostgreSQL server at start
 * (`database.start_retry_seconds`, main.ts `openDbRetrying`) gives up at once instead of trying on for the rest of
 * the retry time with the signal only handled after a start that may never come.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-retry-stop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('stopping during the start-up retries', () => {
  it('an abort while the database is tried again ends the start with the connection error', async () => {
    const dir = join(root, 'config');
    mkdirSync(dir);
    // An hour of retries: only the abort can end this start within the test.
    writeFileSync(join(dir, 'default.yaml'), 'database:\n  start_retry_seconds: 3600\n');
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => lines.push(l) });
    const stop = new AbortController();
    const starting = startService('worker', {
      worker: true,
      env: {
        ZHUJIU_CONFIG_DIR: dir,
        ZHUJIU_DATA_DIR: join(root, 'data', 'pg'),
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        ZHUJIU_VOTER_SECRET: 'a-long-enough-secret-0123',
        LOG_LEVEL: 'warn',
      },
      httpPort: 0,
      logger,
      signal: stop.signal,
    }).then(
      async (s) => {
        await s.stop();
        return new Error('started');
      },
      (e: unknown) => e as Error,
    );
    while (!lines.some((l) => l.includes('database not reachable; trying again')))
      await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    const err = await starting;
    expect(err.message).toMatch(/^cannot connect to Postgres at 127\.0\.0\.1:1\/none/);
  }, 60_000);
});
