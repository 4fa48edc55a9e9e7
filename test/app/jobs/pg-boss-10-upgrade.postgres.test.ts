/**
 * A shared Postgres whose job queue was made by pg-boss 10.4.2 (schema version 24, which pg-boss 12 has no
 * migration from) is brought over in place when the first worker starts: a job waiting in the old queue is
 * handled by the current pg-boss, the old schema is gone, and a second start changes nothing.
 * Only with TEST_DATABASE_URL (a real server; pg-boss does not run on PGlite).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import PgBoss10 from 'pg-boss-10';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/logger.ts';
import { PgBossQueue } from '../../../src/jobs/pg-boss.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

const quiet = silentLogger;

describe.runIf(process.env.TEST_DATABASE_URL)('a pg-boss 10 queue', () => {
  let db: TestDb | undefined;
  const queues: PgBossQueue[] = [];
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop(5_000);
    await db?.destroy();
  });

  it('is carried over to the current pg-boss with its waiting jobs', async () => {
    db = await freshDb('postgres');
    const url = db.url as string;
    const old = new PgBoss10({ connectionString: url, max: 2 });
    old.on('error', () => undefined);
    await old.start();
    await old.createQueue('eval-run', { name: 'eval-run', policy: 'standard' });
    await old.send('eval-run', { runId: 7 });
    await old.send('eval-run', { runId: 8 });
    await old.stop({ graceful: false, wait: true, timeout: 2_000 });
    const before = await sql<{ version: number }>`select version from pgboss.version`.execute(
      db.db,
    );
    expect(before.rows[0]?.version).toBe(24);

    const queue = new PgBossQueue({
      connectionString: url,
      logger: quiet,
      pollingIntervalSeconds: 0.5,
    });
    queues.push(queue);
    await queue.start();
    const seen: unknown[] = [];
    await queue.work('eval-run', async (data) => {
      seen.push(data);
    });
    const t0 = Date.now();
    while (seen.length < 2 && Date.now() - t0 < 60_000) await sleep(50);
    expect(seen).toEqual(expect.arrayContaining([{ runId: 7 }, { runId: 8 }]));
    expect(seen).toHaveLength(2);

    const after = await sql<{ version: number; old: string | null }>`
      select (select version from pgboss.version)::int as version, to_regnamespace('pgboss_v10')::text as old
    `.execute(db.db);
    expect(after.rows[0]?.version).toBeGreaterThan(24);
    expect(after.rows[0]?.old).toBeNull();

    // A later start (another worker, a restart) finds the current schema and moves nothing.
    const again = new PgBossQueue({
      connectionString: url,
      logger: quiet,
      pollingIntervalSeconds: 0.5,
    });
    queues.push(again);
    await again.start();
    await again.send('eval-run', { runId: 9 });
    while (seen.length < 3 && Date.now() - t0 < 60_000) await sleep(50);
    expect(seen.slice(2)).toEqual([{ runId: 9 }]);
  });
});
