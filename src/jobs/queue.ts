/**
 * @module jobs/queue
 * The work-queue port. Two implementations: {@link PgBossQueue} (pg-boss on the shared Postgres of
 * `DATABASE_URL`, so any number of `zhujiu worker` processes share the work) and {@link InProcessQueue} (the
 * embedded PGlite default, where only one process can open the database anyway). Jobs carry small JSON payloads
 * (a run id); durable state lives in the application's own tables, so a lost job is re-sent by the owner of that
 * state (see eval/service `sweep`).
 */

/** A job handler: its data, and a signal that fires when the worker stops. */
export type JobHandler = (data: Record<string, unknown>, signal: AbortSignal) => Promise<void>;

/** Options of a sent job. */
export interface SendOptions {
  /** Seconds a job may stay active before the queue hands it to another worker (pg-boss `expireInSeconds`). */
  readonly expireInSeconds?: number;
}

/** The queue. */
export interface JobQueue {
  /** `pg-boss` or `in-process`, for logs and status. */
  readonly kind: 'pg-boss' | 'in-process';
  start(): Promise<void>;
  /** Stops taking jobs, aborts running handlers' signals and waits for them (up to `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
  send(queue: string, data: Record<string, unknown>, options?: SendOptions): Promise<void>;
  /** Registers the handler of a queue in this process (a worker). */
  work(queue: string, handler: JobHandler): Promise<void>;
}

/** The queue of evaluation runs (payload `{ runId }`). */
export const EVAL_RUN_QUEUE = 'eval-run';
