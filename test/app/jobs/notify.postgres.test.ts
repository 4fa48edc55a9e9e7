/**
 * A job sent on PostgreSQL wakes the workers of its queue through LISTEN/NOTIFY (jobs/pg-boss.ts): with a poll far
 * longer than the test's bound, the job is still worked, so only the notification can have delivered it. A queue
 * created without notifications (as an earlier version did) gets them at the next start. Only with
 * TEST_DATABASE_URL.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PgBoss } from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { PgBossQueue } from '../../../src/jobs/pg-boss.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

/** The poll of these workers: longer than any wait below, so a job worked within them was notified. */
const POLL_SECONDS = 600;

describe.runIf(process.env.TEST_DATABASE_URL)('pg-boss job notifications', () => {
  const queues: PgBossQueue[] = [];
  let db: TestDb | undefined;
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop(5_000);
    await db?.destroy();
  });

  const queue = (url: string) => {
    const q = new PgBossQueue({
      connectionString: url,
      logger: createLogger('silent'),
      pollingIntervalSeconds: POLL_SECONDS,
      queues: ['notified'],
    });
    queues.push(q);
    return q;
  };

  /** Starts a worker, lets its first fetch pass (it finds nothing), sends a job, and waits for it. */
  async function sentJobIsWorked(url: string): Promise<void> {
    const worker = queue(url);
    await worker.start();
    const worked: unknown[] = [];
    await worker.work('notified', async (data) => {
      worked.push(data);
    });
    await sleep(1_000);
    const sender = queue(url);
    await sender.start();
    await sender.send('notified', { runId: 1 });
    const t0 = Date.now();
    while (worked.length === 0 && Date.now() - t0 < 120_000) await sleep(50);
    expect(worked).toEqual([{ runId: 1 }]);
  }

  it('a sent job is worked without waiting for the poll', async () => {
    db = await freshDb('postgres');
    await sentJobIsWorked(db.url as string);
  });

  it('a queue created without notifications gets them at the next start', async () => {
    db = await freshDb('postgres');
    const boss = new PgBoss({ connectionString: db.url as string });
    await boss.start();
    await boss.createQueue('notified', { policy: 'standard' });
    expect((await boss.getQueue('notified'))?.notify).not.toBe(true);
    await boss.stop({ graceful: false });
    await sentJobIsWorked(db.url as string);
  });
});
