/**
 * A long-lived process whose database connection is lost while it starts (after the database opened: the
 * migrations, the job queue, the chat set-up) begins the start again instead of failing (cli/serve
 * `startService`). Made to happen at a known step: the test holds the start-up advisory lock, so the worker waits
 * for it in its migration step, and the waiting connection is terminated (`pg_terminate_backend`, what a server
 * restart does); once the retry is logged the lock is released and the worker starts. Only with
 * TEST_DATABASE_URL.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';
import { STARTUP_LOCK } from '../../../src/core/advisory-locks.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('a connection lost while starting', () => {
  let root: string;
  let d: TestDb;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'zhujiu-start-lost-'));
    mkdirSync(join(root, 'config'));
    writeFileSync(join(root, 'config', 'default.yaml'), 'database:\n  start_retry_seconds: 120\n');
    d = await freshDb('postgres', { poolSize: 1 });
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts again and comes up once the database answers', async () => {
    const url = d.url as string;
    const dbName = new URL(url).pathname.slice(1);
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => {});
    await holder.connect();
    await holder.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(l) });
    const starting = startService('worker', {
      worker: true,
      env: {
        ZHUJIU_CONFIG_DIR: join(root, 'config'),
        ZHUJIU_DATA_DIR: join(root, 'data', 'pg'),
        DATABASE_URL: url,
        ZHUJIU_VOTER_SECRET: 'start-lost-test-secret-0123456789',
      },
      httpPort: 0,
      logger,
    });
    const outcome = starting.then(
      () => 'started',
      (e: unknown) => `failed: ${(e as Error).message}`,
    );
    try {
      // The worker's connection waiting for the lock is terminated, as a server restart would.
      let terminated = 0;
      for (let i = 0; i < 600 && terminated === 0; i++) {
        const r = await holder.query<{ n: number }>(
          `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid() and wait_event = 'advisory') t`,
          [dbName],
        );
        terminated = r.rows[0]?.n ?? 0;
        if (terminated === 0) await sleep(50);
      }
      expect(terminated).toBe(1);
      for (let i = 0; i < 600 && !lines.some((l) => l.includes('starting again')); i++) {
        if (i > 0) await sleep(50);
        // A start that failed instead of starting again says so here.
        const done = await Promise.race([outcome, sleep(0).then(() => undefined)]);
        if (done) expect(done).toBe('started');
      }
      expect(lines.find((l) => l.includes('starting again'))).toMatch(
        /"msg":"database connection lost while starting; starting again"/,
      );
    } finally {
      await holder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
      await holder.end();
    }
    expect(await outcome).toBe('started');
    const svc = await starting;
    await svc.stop();
    expect(lines.some((l) => l.includes('zhujiu worker started'))).toBe(true);
  }, 60_000);
});
