/**
 * @module storage/pglite-thread
 * The embedded database in a worker thread, for long-lived processes (`zhujiu bot`, `zhujiu worker`).
 *
 * PGlite runs PostgreSQL as WebAssembly on the thread that calls it, and a query cannot be interrupted: on the bot's
 * own thread a 60 ms query is a 60 ms frozen event loop (no vote, no gateway heartbeat, no health check in
 * between). Here the queries run in a worker thread (storage/pglite-worker.ts) and the bot's thread only posts the
 * query text and receives the rows (copied by the structured clone algorithm), so it keeps turning while a query runs.
 * One-shot CLI commands keep PGlite on their own thread: they have no event loop to protect, and skip the copy.
 *
 * The object returned by {@link openPGliteThread} has what Kysely's PGlite dialect uses (`query`, `transaction`,
 * `close`, `ready`, `closed`, `waitReady`). A transaction is `begin` … `commit` (or `rollback`) sent as queries, and
 * it is exclusive the way PGlite's own `transaction` is: a query from outside it waits until it ends, so no other
 * caller's statement runs inside it. Errors come back as `Error`s with PostgreSQL's fields (`code`, `detail`,
 * `constraint`…) copied.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { startWorkerBeside } from '../core/worker-thread.ts';
import { diskFullNow, isDiskFull } from './pglite-disk-full.ts';

/** How often a query on its way checks whether the disk it writes to is full ({@link diskFullNow}), ms. */
const DISK_CHECK_MS = 1_000;

/**
 * PGlite may never end a statement the full disk refused (storage/pglite-disk-full): while queries are on their
 * way (`watch(true)` when the first leaves, `watch(false)` when none is left), the disk holding `dataDir` is looked
 * at every {@link DISK_CHECK_MS}, and `onFull` is called when it is full.
 */
function diskWatch(dataDir: string, onFull: () => void): (on: boolean) => void {
  let timer: NodeJS.Timeout | undefined;
  return (on) => {
    if (!on) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    timer ??= setInterval(() => {
      if (diskFullNow(dataDir)) onFull();
    }, DISK_CHECK_MS).unref();
  };
}

/**
 * The error of a statement that cannot end because the disk is full: PostgreSQL's `disk_full` (SQLSTATE 53100)
 * in the shape storage/pglite-disk-full reads.
 */
function diskFullError(dataDir: string): Error {
  return Object.assign(new Error(`the disk holding ${dataDir} is full: No space left on device`), {
    code: '53100',
  });
}

type Reply = {
  id: number;
  ok: boolean;
  rows?: unknown[];
  affectedRows?: number;
  error?: Record<string, unknown>;
};

type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };

/** An error sent back from the worker, with its fields restored. */
function restore(e: Record<string, unknown> | undefined): Error {
  const err = new Error(String(e?.message ?? 'the embedded database failed'));
  if (e)
    for (const [k, v] of Object.entries(e)) if (k !== 'message') Object.assign(err, { [k]: v });
  return err;
}

/** Runs `callback` between `begin` and `commit` (or `rollback` when it throws or rolls back itself) through `run`. */
async function inTransaction<T>(
  // biome-ignore lint/suspicious/noExplicitAny: PGlite's generic row type is decided by the caller
  run: (text: string, params?: unknown[]) => Promise<any>,
  callback: (tx: Transaction) => Promise<T>,
): Promise<T> {
  await run('begin');
  let ended = false;
  const tx = {
    query: run,
    rollback: async () => {
      ended = true;
      await run('rollback');
    },
  } as unknown as Transaction;
  try {
    const value = await callback(tx);
    if (!ended) await run('commit');
    return value;
  } catch (err) {
    if (!ended) await run('rollback').catch(() => undefined);
    throw err;
  }
}

/**
 * Starts a worker thread and opens the PGlite folder `dataDir` in it (the caller holds the folder's lock).
 * Resolves when the database is ready (~1 s for an existing folder, ~6 s when it is created). `onLost` is called
 * once if the thread fails or exits after that and before `close()`: every query from then on is rejected.
 * @throws Error with PGlite's message when the folder cannot be opened (the worker is stopped).
 */
export async function openPGliteThread(
  dataDir: string,
  onLost?: (err: Error) => void,
): Promise<PGlite> {
  const worker = startWorkerBeside(import.meta.url, 'pglite-worker');
  const pending = new Map<number, Pending>();
  let next = 1;
  let dead: Error | undefined;
  let opened = false;
  let closing = false;
  const fail = (err: Error) => {
    const first = dead === undefined;
    dead ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    watchDisk(false);
    if (first && opened && !closing) onLost?.(err);
  };
  // The thread keeps the process alive only while a query is in flight (an open database alone does not).
  worker.unref();
  const watchDisk = diskWatch(dataDir, () => {
    fail(diskFullError(dataDir));
    void worker.terminate();
  });
  worker.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) {
      worker.unref();
      watchDisk(false);
    }
    if (m.ok) return p.resolve(m);
    const err = restore(m.error);
    p.reject(err);
    if (isDiskFull(err)) fail(err); // nothing more is sent, not even a rollback (storage/pglite-disk-full)
  });
  worker.on('error', fail);
  worker.on('exit', (code) =>
    fail(new Error(`the embedded database's thread exited (code ${code})`)),
  );
  const send = (job: Record<string, unknown>): Promise<Reply> => {
    if (dead) return Promise.reject(dead);
    const id = next++;
    return new Promise((resolve, reject) => {
      if (pending.size === 0) {
        worker.ref();
        watchDisk(true);
      }
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...job, id });
    });
  };
  try {
    await send({ kind: 'open', dataDir });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  opened = true;
  // biome-ignore lint/suspicious/noExplicitAny: PGlite's generic row type is decided by the caller
  const run = async (text: string, params?: unknown[]): Promise<any> => {
    const r = await send({ kind: 'query', text, params: params ?? [] });
    return { rows: r.rows ?? [], affectedRows: r.affectedRows, fields: [] };
  };
  // The open transaction, if any: queries from outside it wait for it (PGlite's own transaction does the same).
  const exclusive = oneAtATime();
  let closed = false;
  const client: Pick<PGlite, 'query' | 'transaction' | 'close' | 'ready' | 'closed' | 'waitReady'> =
    {
      query: (text, params) => exclusive(() => run(text, params)),
      transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
        exclusive(() => inTransaction(run, callback)),
      close: async () => {
        closed = true;
        closing = true;
        try {
          if (!dead) await send({ kind: 'close' });
        } finally {
          await worker.terminate();
        }
      },
      ready: true,
      get closed() {
        return closed;
      },
      waitReady: Promise.resolve(),
    };
  // `terminate` stops the thread without PGlite's shutdown (storage/pglite-disk-full: the disk refused a write).
  return Object.assign(client, { terminate: () => worker.terminate() }) as unknown as PGlite;
}

/** Runs the functions given one at a time, each once the one before has settled, in the order given. */
function oneAtATime(): <T>(fn: () => Promise<T>) => Promise<T> {
  let current: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const result = current.then(fn, fn);
    current = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
}
