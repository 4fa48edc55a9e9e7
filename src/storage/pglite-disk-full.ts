/**
 * @module storage/pglite-disk-full
 * The embedded database on a full disk. PostgreSQL reports a write the disk refused as an error of the statement
 * (SQLSTATE 53100 `disk_full`: "could not extend file …", "could not write to file "pg_wal/…": No space left on
 * device"), but PGlite does not survive every such error: after a write-ahead log write failed, its next statement
 * never returns (it spins one core), and so does its `close`. So the first disk-full error ends the use of the
 * database in this process: that statement and every later one fail at once with one message that names the
 * folder and the fix (AppError `db_unavailable`), nothing more is sent to PGlite, and closing it skips its own
 * shutdown (a thread of its own is stopped instead; storage/pglite-thread). What was committed before stays: the
 * next start replays the log as PostgreSQL does after a crash.
 */
import { statfsSync } from 'node:fs';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { said, saidError } from '../i18n/cli.ts';

/** PostgreSQL's SQLSTATE for a write the disk refused (errcodes.txt, class 53 "Insufficient Resources"). */
const DISK_FULL = '53100';

/** True when `err` is PostgreSQL's (or the file system's) "the disk is full". */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return (
    e?.code === DISK_FULL ||
    e?.code === 'ENOSPC' ||
    (typeof e?.message === 'string' && /No space left on device/u.test(e.message))
  );
}

/**
 * Free space under which a disk counts as full, bytes: PostgreSQL writes its log and relations in blocks of 8 KB
 * to 16 MB (a log segment), so a disk that refused one write may keep a few free blocks that no write fits in.
 */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * True when the disk holding `dir` has less than {@link FULL_BELOW_BYTES} left that this process may write (`bfree`
 * for root, which may use the blocks kept back for it, else `bavail`); false when that cannot be told.
 */
export function diskFullNow(dir: string): boolean {
  try {
    const s = statfsSync(dir);
    return (process.getuid?.() === 0 ? s.bfree : s.bavail) * s.bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
}

/** A transaction whose every statement fails with `err`. */
function refusingTransaction(err: unknown): Transaction {
  const refuse = async () => {
    throw err;
  };
  return { query: refuse, rollback: async () => undefined } as unknown as Transaction;
}

/** A PGlite client that can be stopped without its own shutdown (storage/pglite-thread's has a thread to stop). */
type Stoppable = PGlite & { terminate?: () => Promise<unknown> };

/**
 * `client` (PGlite, or storage/pglite-thread's client) for the folder `dataDir`, guarded as the module comment
 * says: the first disk-full error of a statement (inside a transaction or not) is thrown as AppError
 * `db_unavailable` ("the disk holding the embedded database … is full"), as is every statement after it; `close`
 * then stops the client without its shutdown. It has what Kysely's PGlite dialect uses (`query`, `transaction`,
 * `close`, `ready`, `closed`, `waitReady`).
 */
export function diskFullGuard(client: Stoppable, dataDir: string): PGlite {
  /** The first disk-full error; each statement refused after it gets an error of its own (its own stack). */
  let full: Error | undefined;
  const refusal = (err: Error) =>
    saidError('db_unavailable', said('cli.db.diskFull', { dir: dataDir, detail: err.message }), {
      cause: err,
    });
  const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
    if (full) throw refusal(full);
    try {
      return await run();
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      full ??= err as Error;
      throw refusal(full);
    }
  };
  const g: Pick<PGlite, 'query' | 'transaction' | 'close' | 'ready' | 'closed' | 'waitReady'> = {
    query: (text: string, params?: unknown[], options?: QueryOptions) =>
      guarded(() => client.query(text, params, options)),
    transaction: async (callback) => {
      let begun = false;
      try {
        return await guarded(() =>
          client.transaction((tx) => {
            begun = true;
            return callback({
              query: (text: string, params?: unknown[], options?: QueryOptions) =>
                guarded(() => tx.query(text, params, options)),
              rollback: () => guarded(() => tx.rollback()),
            } as unknown as Transaction);
          }),
        );
      } catch (err) {
        // Kysely's PGlite dialect waits for its callback to begin (its `beginTransaction`): it begins, on a
        // transaction that refuses every statement, and ends when Kysely rolls it back.
        if (!begun) await callback(refusingTransaction(err)).catch(() => undefined);
        throw err;
      }
    },
    close: async () => {
      if (full === undefined) return client.close();
      await client.terminate?.();
    },
    get ready() {
      return client.ready;
    },
    get closed() {
      return client.closed;
    },
    get waitReady() {
      return client.waitReady;
    },
  };
  return g as PGlite;
}
