/**
 * @module jobs/in-process
 * The in-process {@link JobQueue} of the embedded (PGlite) default. Why not pg-boss on PGlite through
 * pglite-socket: PGlite is one process's database (the data folder is locked), so there is never a second worker
 * to share with, and pglite-socket multiplexes connections onto one session without transaction isolation, which
 * pg-boss's locking relies on. Jobs run in this process; durability comes from the application tables (a run left
 * active by a killed process is taken back when the next process opens the folder, main.ts, and re-sent by the eval
 * service's sweep). A job that fails is logged with its cause and not retried (the sweep re-sends its run).
 */
import type { Logger } from '../core/logger.ts';
import type { JobHandler, JobQueue } from './queue.ts';

/** Runs jobs in this process, up to `concurrency` (default 4) at once, in the order sent. */
export class InProcessQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  readonly #handlers = new Map<string, JobHandler>();
  readonly #pending = new Map<string, Record<string, unknown>[]>();
  readonly #running = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  readonly #log: Logger;
  readonly #concurrency: number;
  #started = false;

  constructor(o: { logger: Logger; concurrency?: number }) {
    this.#log = o.logger.child({ component: 'jobs', queue: 'in-process' });
    this.#concurrency = o.concurrency ?? 4;
  }

  async start(): Promise<void> {
    this.#started = true;
    this.#pump();
  }

  async stop(timeoutMs = 30_000): Promise<void> {
    this.#started = false;
    this.#stop.abort();
    await Promise.race([
      Promise.allSettled([...this.#running]),
      new Promise((r) => setTimeout(r, timeoutMs).unref?.()),
    ]);
  }

  async send(queue: string, data: Record<string, unknown>): Promise<void> {
    const list = this.#pending.get(queue) ?? [];
    list.push(data);
    this.#pending.set(queue, list);
    this.#pump();
  }

  async work(queue: string, handler: JobHandler): Promise<void> {
    this.#handlers.set(queue, handler);
    this.#pump();
  }

  #pump(): void {
    if (!this.#started || this.#stop.signal.aborted) return;
    for (const [queue, list] of this.#pending) {
      const handler = this.#handlers.get(queue);
      if (!handler) continue;
      while (list.length > 0 && this.#running.size < this.#concurrency) {
        const data = list.shift() as Record<string, unknown>;
        const p: Promise<void> = handler(data, this.#stop.signal)
          .catch((err) => this.#log.error({ err, queue, data }, 'job failed'))
          .finally(() => {
            this.#running.delete(p);
            this.#pump();
          });
        this.#running.add(p);
      }
    }
  }
}
