/**
 * @module jobs/pg-boss
 * The {@link JobQueue} on pg-boss 10 (the only importer of pg-boss), for a shared Postgres (`DATABASE_URL`):
 * every `zhujiu worker` process polls the queue, a job is active in one worker at a time, and a job active longer
 * than its expiry (its worker died, or is still busy) is failed and retried by pg-boss's maintenance, so another
 * worker picks it up. The eval runner makes that safe: items are claimed with leases, so a duplicate handler of the
 * same run only takes items nobody holds. pg-boss 10 is the last line that runs on Node 20 (11 and 12 need 22).
 */
import PgBoss from 'pg-boss';
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
    });
    this.#boss.on('error', (err) => this.#log.error({ err }, 'pg-boss error'));
  }

  async start(): Promise<void> {
    await this.#boss.start();
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    this.#stop.abort();
    await Promise.race([
      Promise.allSettled([...this.#running]),
      new Promise((r) => setTimeout(r, timeoutMs).unref?.()),
    ]);
    await this.#boss.stop({ graceful: false, wait: true, timeout: 5_000 });
  }

  async #ensureQueue(name: string): Promise<void> {
    if (this.#created.has(name)) return;
    const existing = await this.#boss.getQueue(name);
    if (!existing) {
      await this.#boss.createQueue(name, {
        name,
        policy: 'standard',
        retryLimit: this.#o.retryLimit ?? 20,
        retryDelay: this.#o.retryDelaySeconds ?? 5,
        expireInSeconds: this.#o.expireInSeconds ?? 4 * 3600,
      });
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
      { batchSize: 1, pollingIntervalSeconds: this.#o.pollingIntervalSeconds ?? 2 },
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
