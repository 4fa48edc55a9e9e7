/**
 * A job attempt that fails is logged with its cause, on both queues: the in-process one (embedded database) and
 * pg-boss (a shared Postgres: only when TEST_DATABASE_URL is set). pg-boss retries the failed job: every attempt
 * is logged, each with the error that ended it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { InProcessQueue } from '../../../src/jobs/in-process.ts';
import { PgBossQueue } from '../../../src/jobs/pg-boss.ts';
import type { JobQueue } from '../../../src/jobs/queue.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

type Kind = JobQueue['kind'];
const kinds: Kind[] = process.env.TEST_DATABASE_URL ? ['in-process', 'pg-boss'] : ['in-process'];

describe.each(kinds)('a failed job attempt (%s queue)', (kind) => {
  let queue: JobQueue | undefined;
  let db: TestDb | undefined;
  afterEach(async () => {
    await queue?.stop(5_000);
    await db?.destroy();
  });

  it('is logged with its cause, once per attempt', async () => {
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger('info', {
      write: (s: string) => {
        logs.push(JSON.parse(s) as Record<string, unknown>);
      },
    });
    if (kind === 'pg-boss') {
      db = await freshDb('postgres');
      queue = new PgBossQueue({
        connectionString: db.url as string,
        logger,
        retryLimit: 1,
        retryDelaySeconds: 1,
        pollingIntervalSeconds: 0.5,
      });
    } else {
      queue = new InProcessQueue({ logger });
    }
    await queue.start();
    let attempts = 0;
    await queue.work('t', async () => {
      attempts += 1;
      throw new Error(`relation "eval_run_items" does not exist (attempt ${attempts})`);
    });
    await queue.send('t', { runId: 7 });
    const expectedAttempts = kind === 'pg-boss' ? 2 : 1;
    const failed = () => logs.filter((l) => l.msg === 'job failed');
    const t0 = Date.now();
    while (failed().length < expectedAttempts && Date.now() - t0 < 120_000) await sleep(50);
    expect(failed().map((l) => [(l.err as { message?: string }).message, l.data, l.queue])).toEqual(
      Array.from({ length: expectedAttempts }, (_, i) => [
        `relation "eval_run_items" does not exist (attempt ${i + 1})`,
        { runId: 7 },
        't',
      ]),
    );
  });
});
