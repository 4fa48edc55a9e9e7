/**
 * @module jobs/pg-boss
 * The {@link JobQueue} on pg-boss 12 (the only importer of pg-boss), for a shared Postgres (`DATABASE_URL`):
 * every `zhujiu worker` process polls the queue, a job is active in one worker at a time, and a job active longer
 * than its expiry (its worker died, or is still busy) is failed and retried by pg-boss's maintenance, so another
 * worker picks it up. The eval runner makes that safe: items are claimed with leases, so a duplicate handler of the
 * same run only takes items nobody holds. pg-boss awaits each job's completion or failure and reports a lost
 * connection through its `error` event (logged here), so a PostgreSQL restart costs a retry, not the process.
 *
 * A database whose `pgboss` schema was made by pg-boss 10 (schema version 24) cannot be migrated by pg-boss 12,
 * whose migrations start at version 25 (pg-boss 11's new job table): {@link upgradeFromPgBoss10} moves that schema
 * aside, lets pg-boss create its own, sends the old schema's waiting jobs again, and drops it.
 */
import { PgBoss } from 'pg-boss';
import { STARTUP_LOCK } from '../core/advisory-locks.ts';
import type { Logger } from '../core/logger.ts';
import type { JobHandler, JobQueue, SendOptions } from './queue.ts';

/** Options of {@link PgBossQueue}. */
export interface PgBossQueueOptions {
  readonly connectionString: string;
  readonly logger: Logger;
  /** Pool size of pg-boss's own connections (default 4). */
  readonly poolSize?: number;
  /** Default expiry of an active job, s (default 4 h; pg-boss caps it below 24 h). */
  readonly expireInSeconds?: number;
  /** Retries of a failed or expired job (default 20), `retryDelaySeconds` apart (default 5). */
  readonly retryLimit?: number;
  readonly retryDelaySeconds?: number;
  /** How often this process checks for expired jobs, s (default 60). */
  readonly maintenanceIntervalSeconds?: number;
  /** How often a worker polls for jobs, s (default 2). */
  readonly pollingIntervalSeconds?: number;
  /** Queues created by `start()` under the start-up lock (others are created on their first use). */
  readonly queues?: readonly string[];
}

/** pg-boss behind the {@link JobQueue} port. */
export class PgBossQueue implements JobQueue {
  readonly kind = 'pg-boss' as const;
  readonly #boss: PgBoss;
  readonly #o: PgBossQueueOptions;
  readonly #log: Logger;
  readonly #created = new Set<string>();
  readonly #running = new Set<Promise<void>>();
  readonly #stop = new AbortController();

  constructor(o: PgBossQueueOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'jobs', queue: 'pg-boss' });
    this.#boss = new PgBoss({
      connectionString: o.connectionString,
      max: o.poolSize ?? 4,
      application_name: 'zhujiu-jobs',
      maintenanceIntervalSeconds: o.maintenanceIntervalSeconds ?? 60,
      // A sent job wakes the workers of its queue at once through PostgreSQL's LISTEN/NOTIFY (one more held
      // connection per process) instead of waiting for their next poll; polling stays as the backstop, and when the
      // listening connection is lost pg-boss warns and polls only until it is back.
      useListenNotify: true,
    });
    this.#boss.on('warning', (w) => this.#log.warn({ warning: briefError(w) }, 'pg-boss warning'));
    // pg-boss reports a lost connection (a database restart) here and goes on; the pool's error carries the
    // whole pg client, so only the error's own fields are logged.
    this.#boss.on('error', (err) => this.#log.error({ err: briefError(err) }, 'pg-boss error'));
  }

  /**
   * Starts pg-boss (creating or migrating its schema) and creates `queues`, holding the start-up advisory lock
   * (core/advisory-locks.ts) throughout, so processes started together on a fresh database set the queue up one
   * after another.
   */
  async start(): Promise<void> {
    await upgradeFromPgBoss10(this.#o.connectionString, this.#log, async () => {
      await this.#boss.start();
      for (const q of this.#o.queues ?? []) await this.#ensureQueue(q);
      return async (name, data) => this.send(name, data);
    });
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    this.#stop.abort();
    await Promise.race([
      Promise.allSettled([...this.#running]),
      new Promise((r) => setTimeout(r, timeoutMs).unref?.()),
    ]);
    await this.#boss.stop({ graceful: false, timeout: 5_000 });
  }

  async #ensureQueue(name: string): Promise<void> {
    if (this.#created.has(name)) return;
    const existing = await this.#boss.getQueue(name);
    if (!existing) {
      await this.#boss.createQueue(name, {
        policy: 'standard',
        retryLimit: this.#o.retryLimit ?? 20,
        retryDelay: this.#o.retryDelaySeconds ?? 5,
        expireInSeconds: this.#o.expireInSeconds ?? 4 * 3600,
        notify: true,
      });
    } else if (existing.notify !== true) {
      // A queue an earlier version created: its sends notify from now on.
      await this.#boss.updateQueue(name, { notify: true });
    }
    this.#created.add(name);
  }

  async send(
    queue: string,
    data: Record<string, unknown>,
    options: SendOptions = {},
  ): Promise<void> {
    await this.#ensureQueue(queue);
    await this.#boss.send(queue, data, {
      retryLimit: this.#o.retryLimit ?? 20,
      retryDelay: this.#o.retryDelaySeconds ?? 5,
      expireInSeconds: options.expireInSeconds ?? this.#o.expireInSeconds ?? 4 * 3600,
    });
  }

  async work(queue: string, handler: JobHandler): Promise<void> {
    await this.#ensureQueue(queue);
    await this.#boss.work<Record<string, unknown>>(
      queue,
      {
        batchSize: 1,
        pollingIntervalSeconds: this.#o.pollingIntervalSeconds ?? 2,
        // While the notifications arrive, the poll is only a backstop; at the same pace as without them, a lost
        // notification costs no more than before.
        notifyPollingIntervalSeconds: this.#o.pollingIntervalSeconds ?? 2,
      },
      async (jobs) => {
        for (const job of jobs) {
          if (this.#stop.signal.aborted) throw new Error('worker stopping');
          const p = handler(job.data, this.#stop.signal);
          this.#running.add(p);
          try {
            await p;
          } catch (err) {
            // pg-boss stores the error on the job and retries it, but says nothing: each failed attempt is
            // logged here with its cause, as the in-process queue does.
            this.#log.error({ err, queue, jobId: job.id, data: job.data }, 'job failed');
            throw err;
          } finally {
            this.#running.delete(p);
          }
        }
      },
    );
  }
}

/** An error reported by pg-boss (an Error, or a plain object with its fields) as name, message, code, queue. */
function briefError(err: unknown): Record<string, unknown> {
  if (typeof err !== 'object' || err === null) return { message: String(err) };
  const e = err as Record<string, unknown>;
  const out: Record<string, unknown> = { message: String(e.message ?? err) };
  for (const k of ['name', 'code', 'queue', 'worker', 'stack'])
    if (typeof e[k] === 'string' || typeof e[k] === 'number') out[k] = e[k];
  return out;
}

/** The schema pg-boss uses (its default; {@link PgBossQueue} does not change it). */
const PGBOSS_SCHEMA = 'pgboss';
/** Where a pg-boss 10 schema waits while its jobs move to the new one. */
const PGBOSS_10_SCHEMA = 'pgboss_v10';
/** The oldest pg-boss schema version pg-boss 12 migrates (pg-boss 11.0's); pg-boss 10.x made version 24. */
const OLDEST_MIGRATED_SCHEMA = 25;

/**
 * Brings a pg-boss 10 queue (schema version < 25) over to pg-boss 12, which has no migration from it:
 * 1. renames the `pgboss` schema to `pgboss_v10` (one transaction);
 * 2. `start()` starts pg-boss, which creates its current schema, and returns a function that sends a job;
 * 3. sends every job of the old schema that was waiting or running (states `created`, `retry`, `active`) again,
 *    with its queue name and data, then drops `pgboss_v10`.
 * All three steps hold the start-up advisory lock (a session lock, `STARTUP_LOCK`, also held by the schema
 * migrations), so processes started together set the queue up and move the jobs once, one after another. A process stopped between
 * 2 and 3 leaves `pgboss_v10` in place, and the next start sends its jobs (a job sent twice is harmless: the runs'
 * items are claimed with leases, eval/runner.ts). Finished jobs (completed, failed, cancelled) are not carried
 * over. A database without pg-boss, or with a current schema, only costs one short transaction.
 * @throws the database's error when it cannot be reached or a step fails (nothing is dropped before the jobs
 *   were sent).
 */
export async function upgradeFromPgBoss10(
  connectionString: string,
  log: Logger,
  start: () => Promise<(queue: string, data: Record<string, unknown>) => Promise<void>>,
): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString, application_name: 'zhujiu-jobs-upgrade' });
  // A connection lost while this client waits (pg-boss starting) fails its next statement; unheard, the client's
  // 'error' event would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    await client.query('begin');
    const installed = await client.query<{ present: boolean }>(
      `select to_regclass('${PGBOSS_SCHEMA}.version') is not null as present`,
    );
    const version = installed.rows[0]?.present
      ? (
          await client.query<{ version: number }>(
            `select version::int as version from ${PGBOSS_SCHEMA}.version limit 1`,
          )
        ).rows[0]?.version
      : undefined;
    if (version != null && version < OLDEST_MIGRATED_SCHEMA) {
      await client.query(`alter schema ${PGBOSS_SCHEMA} rename to ${PGBOSS_10_SCHEMA}`);
      log.info(
        { fromSchemaVersion: version },
        `the job queue was made by pg-boss 10: moved aside as schema ${PGBOSS_10_SCHEMA} to carry its jobs over`,
      );
    }
    await client.query('commit');
    const send = await start();
    await client.query('begin');
    const present = await client.query<{ present: boolean }>(
      `select to_regclass('${PGBOSS_10_SCHEMA}.job') is not null as present`,
    );
    if (present.rows[0]?.present) {
      const jobs = await client.query<{ name: string; data: Record<string, unknown> | null }>(
        `select name, data from ${PGBOSS_10_SCHEMA}.job
          where state in ('created', 'retry', 'active') order by created_on`,
      );
      for (const j of jobs.rows) await send(j.name, j.data ?? {});
      await client.query(`drop schema ${PGBOSS_10_SCHEMA} cascade`);
      log.info(
        { jobs: jobs.rows.length },
        `carried the pg-boss 10 jobs over to the current queue and dropped schema ${PGBOSS_10_SCHEMA}`,
      );
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}
