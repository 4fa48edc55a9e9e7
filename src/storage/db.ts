/**
 * @module storage/db
 * The Kysely factory: real Postgres through `pg` when a URL is given, embedded PGlite in a data folder otherwise.
 * Also runs the migrations.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import type pg from 'pg';
import { migrations } from '../../migrations/index.ts';
import { STARTUP_LOCK } from '../core/advisory-locks.ts';
import { AppError } from '../core/errors.ts';
import { makeDirsSync } from '../core/make-dirs.ts';
import { installBrokenError, listSaid, said, saidError } from '../i18n/cli.ts';
import { causeExplained, causeSaid } from '../i18n/error-cause.ts';
import { copyRequest, copyToPg, pgliteQuery } from './copy-rows.ts';
import { type LockLog, lockDataDir } from './data-dir-lock.ts';
import { dataDirRefusal, pgliteFailureText, refuseForeignDataDir } from './data-folder.ts';
import { QueuedPGliteDialect } from './pglite-dialect.ts';
import { diskFullGuard, diskFullNow, isDiskFull } from './pglite-disk-full.ts';
import { loadPglite } from './pglite-load.ts';
import { PGLITE_PG_MAJOR, pgliteStartOptions } from './pglite-settings.ts';
import type { TemplateLog } from './pglite-template.ts';
import { redactUrl } from './redact-url.ts';
import type { Database } from './schema.ts';
import { isEmptyOrMissing } from './template-fill.ts';

export { redactUrl } from './redact-url.ts';

/** SQL that starts with this comment is run as a named prepared statement on Postgres (hot paths only). */
const PREPARED = /^\/\* prepared:([A-Za-z_][A-Za-z0-9_]*) \*\//;

/**
 * Wraps a pg pool so that queries whose text starts with `/* prepared:NAME *\/` run as named prepared statements
 * (parsed and planned once per connection: ~1.4× the vote throughput measured by bench/votes). Only fixed-text
 * hot-path queries carry the marker, so the per-connection statement cache stays bounded.
 */
function preparingPool(pool: pg.Pool) {
  return {
    end: () => pool.end(),
    // Kysely reads the pool's options (and a client's `processID`) to cancel a query whose signal aborts.
    options: pool.options,
    connect: async () => {
      const client = await pool.connect();
      return {
        processID: (client as { processID?: number }).processID,
        // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (text + values, or a cursor) pass through
        query: (q: any, values?: readonly unknown[]): any => {
          const copy = copyRequest(q, values);
          if (copy) return copyToPg(client, copy);
          const m = typeof q === 'string' ? PREPARED.exec(q) : null;
          if (m) return client.query({ name: m[1], text: q, values: values as unknown[] });
          return values === undefined ? client.query(q) : client.query(q, values as unknown[]);
        },
        release: (destroy?: boolean) => client.release(destroy),
      };
    },
  };
}

/**
 * PGlite runs each query synchronously on this thread (WASM) and settles it as a microtask, so queries awaited
 * one after another (a chat handler's ten or so) would hold the event loop for their sum: no timer, socket or
 * other chat event would run in between. This client first waits for the loop's next turn (`setImmediate`) before
 * each query, so the loop is held at most as long as one query runs. One query still cannot be interrupted:
 * queries on the chat path are kept independent of the number of stored votes (bench/chat-path.ts prints the
 * loop delay). It has what Kysely's PGlite dialect uses: `query`, `transaction` (PGlite's own, exclusive: other
 * queries wait for it), `close`, `ready`, `closed`, `waitReady`.
 */
export function yieldingClient(p: PGlite): PGlite {
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const client: Pick<PGlite, 'query' | 'transaction' | 'close' | 'ready' | 'closed' | 'waitReady'> =
    {
      query: async (text, params, options) => {
        await nextTurn();
        return pgliteQuery(p, text, params, options);
      },
      transaction: (callback) =>
        p.transaction((tx) =>
          callback({
            query: async (text: string, params?: unknown[], options?: QueryOptions) => {
              await nextTurn();
              return pgliteQuery(tx, text, params, options);
            },
            rollback: () => tx.rollback(),
          } as unknown as Transaction),
        ),
      close: () => p.close(),
      get ready() {
        return p.ready;
      },
      get closed() {
        return p.closed;
      },
      get waitReady() {
        return p.waitReady;
      },
    };
  return client as PGlite;
}

/** The PostgreSQL major version that made the data folder (its `PG_VERSION` file), or undefined when new. */
function pgVersionOf(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Refuses a PGlite folder made by another PostgreSQL major version (PostgreSQL opens only its own).
 * @throws AppError `db_unavailable` naming `zhujiu migrate --upgrade-data-dir`.
 */
function refuseOtherMajor(dataDir: string): void {
  const made = pgVersionOf(dataDir);
  if (made === undefined || made === PGLITE_PG_MAJOR) return;
  throw saidError(
    'db_unavailable',
    said('cli.db.otherMajor', { dir: dataDir, made, major: PGLITE_PG_MAJOR }),
  );
}

/** Options of {@link openDb}. */
export interface OpenDbOptions {
  /** Lock takeovers and the prepared database's use are logged here. */
  readonly logger?: LockLog & TemplateLog;
  /** PGlite in a worker thread (long-lived processes). */
  readonly pgliteThread?: boolean;
  /** Called once if that thread dies while the database is open. */
  readonly onLost?: (err: Error) => void;
  /** A folder holding the prepared database (storage/pglite-template.ts) to fill an empty PGlite folder from. */
  readonly template?: string;
  /**
   * Called once the PGlite folder is locked for this process, before anything is placed in it or opened: with
   * true when it is empty or missing (the database about to be opened is new: no runs, no stored answers).
   */
  readonly onLocked?: (created: boolean) => void;
}

/** How to reach the database. */
export type DbTarget =
  | { readonly kind: 'postgres'; readonly url: string; readonly poolSize?: number }
  | { readonly kind: 'pglite'; readonly dataDir: string };

/** An open database with its description (for logs: never the URL's password). */
export interface Db {
  readonly db: Kysely<Database>;
  readonly target: DbTarget;
  /** Human description: "PGlite at ./data/pg" or "Postgres at host:port/db". */
  readonly describe: string;
  /** True when this open created the embedded database (its folder was empty or missing). */
  readonly created?: boolean;
  close(): Promise<void>;
}

/**
 * `dataDir` itself, checked before it is locked (storage/data-folder.ts): a file where the folder should be
 * (ZHUJIU_DATA_DIR naming a file) is the user's path to fix, not a damaged database (PGlite would say "EEXIST:
 * file already exists, mkdir"), and a folder of other files is not one PGlite may write a database into.
 * @throws AppError `db_unavailable` naming the path and the fix.
 */
function dataFolder(dataDir: string): string {
  refuseForeignDataDir(dataDir);
  return dataDir;
}

/**
 * The refusal of an embedded database folder that cannot be created or locked (a file in its path, no
 * permission, a file system that refuses new folders): `err` itself when it is an AppError already, else AppError
 * `db_unavailable` naming the folder at fault (the data folder's parent, where the lock and the unpacked database
 * go, or a level above it), the system's reason in words and the fix (storage/data-folder.ts `dataDirRefusal`).
 * Used by {@link openDb} and `config check`.
 */
export function unusableDataDir(dataDir: string, err: unknown): AppError {
  return dataDirRefusal(dataDir, err);
}

/** {@link openDb} for a PostgreSQL server: a pool, checked with one connection. */
async function openPostgres(target: Extract<DbTarget, { kind: 'postgres' }>): Promise<Db> {
  const { default: pg } = await import('pg');
  // int8 (bigserial ids, counts) as JS numbers: every id and count we store stays far below 2^53.
  pg.types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    connectionTimeoutMillis: 10_000,
  });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  // The pool takes its own error listener off a client it hands out, so a connection that dies while a client
  // is out (between two statements of a transaction, or in the same packet that completed its connection, as
  // when the server is restarting) would emit 'error' with no listener: an uncaught exception that ends the
  // process. Every client gets a listener for its whole life when it connects; the next statement on it fails
  // with the cause, and the pool drops a failed client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(pool) }),
  });
  try {
    const c = await pool.connect();
    c.release();
  } catch (err) {
    await db.destroy();
    throw saidError(
      'db_unavailable',
      said('cli.db.noPostgres', {
        where: redactUrl(target.url),
        detail: causeSaid((err as Error).message),
      }),
      { cause: err },
    );
  }
  return {
    db,
    target,
    describe: `Postgres at ${redactUrl(target.url)}`,
    close: () => db.destroy(),
  };
}

/**
 * Opens the database. PGlite takes ~1 s to reopen an existing folder and ~6 s to create one (it runs initdb).
 * With `opts.pgliteThread`, PGlite runs in a worker thread (storage/pglite-thread.ts): long-lived processes and
 * `zhujiu eval` use it so that no query holds their event loop; other one-shot commands keep it on their own
 * thread. `opts.onLost` is called once if that thread dies while the database is open (every later query would
 * fail).
 * The PGlite folder is locked for this process first (storage/data-dir-lock.ts: only a live zhujiu process on the
 * same folder refuses; a stale lock is taken over and logged through `opts.logger`). With `opts.template` (a
 * folder holding the prepared database, storage/pglite-template.ts), an empty or missing PGlite folder is filled
 * from it first (~1 s instead of initdb's ~6 s); the caller's `migrateToLatest` then runs only newer migrations.
 * @throws AppError `db_unavailable` when Postgres cannot be reached, the PGlite folder cannot be opened, or
 *   another live process holds it; `install_broken` when a module PGlite needs (its package, the worker thread's
 *   module or a bundle chunk) cannot be loaded.
 */
export async function openDb(target: DbTarget, opts: OpenDbOptions = {}): Promise<Db> {
  // The drivers load only for the backend in use (PGlite alone costs ~100 MB and ~0.3 s to load).
  if (target.kind === 'postgres') return openPostgres(target);
  return openPglite({ kind: 'pglite', dataDir: followLink(target.dataDir) }, opts);
}

/**
 * `dataDir`, or the folder it links to when it is a symbolic link: PGlite cannot open a folder through a link,
 * and one folder must have one lock however it is named (storage/data-dir-lock.ts).
 * @throws AppError `db_unavailable` when the link points to nothing.
 */
function followLink(dataDir: string): string {
  try {
    if (!lstatSync(dataDir).isSymbolicLink()) return dataDir;
  } catch {
    return dataDir; // missing: made below
  }
  try {
    return realpathSync(dataDir);
  } catch {
    throw saidError(
      'db_unavailable',
      said('cli.db.danglingLink', { dir: dataDir, to: readlinkSync(dataDir) }),
    );
  }
}

/** {@link openDb} on the embedded database, its folder's links followed. */
async function openPglite(
  target: { readonly kind: 'pglite'; readonly dataDir: string },
  opts: OpenDbOptions,
): Promise<Db> {
  let releaseLock: () => void;
  try {
    releaseLock = await lockDataDir(dataFolder(target.dataDir), opts.logger);
  } catch (err) {
    throw unusableDataDir(target.dataDir, err);
  }
  let client: PGlite;
  const loading = opts.pgliteThread ? undefined : loadPglite();
  loading?.catch(() => undefined); // awaited below, or dropped with the lock's error
  const created = isEmptyOrMissing(target.dataDir);
  opts.onLocked?.(created);
  const placed = placeDatabase(target.dataDir, opts.template, loading, opts.logger);
  const filling = loading !== undefined && created;
  try {
    if (!filling) {
      await placed;
      refuseOtherMajor(target.dataDir);
    }
    if (opts.pgliteThread) {
      const { openPGliteThread } = await import('./pglite-thread.ts');
      client = await openPGliteThread(target.dataDir, opts.onLost);
    } else {
      client = await startPglite(
        target.dataDir,
        loading ?? loadPglite(),
        filling ? placed : undefined,
      );
      await placed;
    }
  } catch (err) {
    await placed.catch(() => undefined); // the folder is not renamed into place after the lock is given back
    releaseLock();
    if (err instanceof AppError) throw err;
    // A module of the installation that cannot be loaded (PGlite's package, the thread's module or a chunk it
    // imports) is not the folder's fault: moving the folder away would not help; nor is a full disk, on which
    // PGlite's start fails as `Aborted()`.
    throw (
      installBrokenError(err) ??
      (isDiskFull(err) || diskFullNow(target.dataDir)
        ? saidError(
            'db_unavailable',
            said('cli.db.diskFull', { dir: target.dataDir, detail: pgliteFailureText(err) }),
            { cause: err },
          )
        : undefined) ??
      saidError(
        'db_unavailable',
        said('cli.db.cannotOpen', {
          dir: target.dataDir,
          detail: causeExplained(pgliteFailureText(err)),
        }),
        { cause: err },
      )
    );
  }
  const db = new Kysely<Database>({
    dialect: new QueuedPGliteDialect({ pglite: diskFullGuard(client, target.dataDir) }),
  });
  return {
    db,
    target,
    describe: `PGlite at ${target.dataDir}`,
    created,
    close: async () => {
      try {
        await db.destroy();
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * Puts a database into the data folder `dataDir` when it is empty or missing (the caller holds its lock): the
 * prepared database of `template` (storage/pglite-template, much cheaper than PGlite's initdb), else one that
 * PGlite's initdb creates aside (storage/pglite-create; one-shot commands, whose PGlite runs on this thread). On
 * this thread PGlite may start meanwhile and open the folder once this resolves (storage/pglite-fill-fs).
 * @param loading PGlite's load started on this thread (one-shot commands); undefined for a long-lived process.
 * @throws as storage/pglite-create `createDatabaseAside` (through the promise).
 */
async function placeDatabase(
  dataDir: string,
  template: string | undefined,
  loading: ReturnType<typeof loadPglite> | undefined,
  log: OpenDbOptions['logger'],
): Promise<void> {
  const seeded =
    template !== undefined &&
    (await (
      await import('./pglite-template.ts')
    ).seedFromTemplate(dataDir, template, migrations, log));
  // On this thread only: PGlite on a thread of its own (bot, worker, eval) still runs initdb in the folder.
  if (!seeded && loading !== undefined)
    await (await import('./pglite-create.ts')).createDatabaseAside(dataDir, () => loading);
}

/**
 * Starts PGlite on this thread on the folder `dataDir` (created when missing) and waits until it is ready.
 * @param loading PGlite's module and WebAssembly (storage/pglite-load; may wait for the WebAssembly that a fill's
 *   thread compiles, cli/early-fill).
 * @param filled when given, the folder is being filled: PGlite starts at once and looks into the folder only
 *   once this resolves (storage/pglite-fill-fs); its rejection is thrown.
 * @throws whatever PGlite or the load throws (the caller words it).
 */
async function startPglite(
  dataDir: string,
  loading: ReturnType<typeof loadPglite>,
  filled?: Promise<unknown>,
): Promise<PGlite> {
  (await import('./template-fill.ts')).keepFillsAlive();
  const { PGlite, wasm } = await loading;
  const fs =
    filled === undefined
      ? undefined
      : new (await import('./pglite-fill-fs.ts')).FolderBeingFilledFS(dataDir, filled);
  if (fs === undefined) makeDirsSync(dataDir);
  const pglite = new PGlite({
    ...(fs === undefined ? { dataDir } : { fs }),
    ...pgliteStartOptions(PGlite.defaultStartParams, wasm),
  });
  await (fs === undefined ? pglite.waitReady : Promise.race([pglite.waitReady, fs.failed]));
  return yieldingClient(pglite);
}

/**
 * Runs every pending migration (processes sharing a PostgreSQL server call it under {@link withStartupLock}).
 * @throws AppError `db_newer` when the database has migrations this code does not know (a newer zhujiu migrated
 *   it); `db_migration_failed` naming the failed migration.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  list: Record<string, Migration> = migrations,
): Promise<MigrationResultSet> {
  // Every start migrates, and nearly always there is nothing to do. Kysely's migrator finds that out with a
  // dozen catalogue queries and a lock (~0.4 s on PGlite); one read of the migration table tells the same when
  // exactly the known migrations are applied. Anything else (a fresh database, pending or unknown migrations)
  // goes through the migrator, which takes its lock and reports as before.
  const status = await migrationStatus(db, list);
  if (status.pending.length === 0 && status.unknown.length === 0) return { results: [] };
  refuseNewer(status);
  // Migration numbers are pre-assigned and may land out of order (0006 before 0003): allow that.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  // Another process may have applied a newer version's migrations while this one waited for the migrator's lock.
  if (result.error) refuseNewer(await migrationStatus(db, list));
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw migrationFailed(failed, result.error);
  }
  return result;
}

/**
 * The refusal of a failed migration `name` (undefined: the migrator did not say which), keeping the driver's
 * detail of `error` (its message, in the driver's words) as catalogue data (`cli.db.migrationFailed`: the command
 * line says it in its language).
 * @returns AppError `db_migration_failed` whose cause is `error`.
 */
export function migrationFailed(name: string | undefined, error: unknown): AppError {
  return saidError(
    'db_migration_failed',
    said('cli.db.migrationFailed', {
      name: name ?? said('cli.db.migrationUnknown'),
      detail: (error as Error).message ?? String(error),
    }),
    { cause: error },
  );
}

/** Which migrations a database has: applied (all), pending (known here, not applied), unknown (applied, not known). */
export interface MigrationStatus {
  readonly applied: readonly string[];
  readonly pending: readonly string[];
  /** Applied by another (newer) version of zhujiu: this code does not have them. */
  readonly unknown: readonly string[];
}

/**
 * Reads the applied migrations (Kysely's `kysely_migration` table; none on a fresh database) against `list`.
 * Two catalogue reads, no lock.
 */
export async function migrationStatus(
  db: Kysely<Database>,
  list: Record<string, Migration> = migrations,
): Promise<MigrationStatus> {
  const t = await sql<{
    present: boolean;
  }>`select to_regclass('kysely_migration') is not null as present`.execute(db);
  const known = Object.keys(list);
  if (t.rows[0]?.present !== true) return { applied: [], pending: known, unknown: [] };
  const r = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    db,
  );
  const applied = r.rows.map((x) => x.name);
  const has = new Set(applied);
  return {
    applied,
    pending: known.filter((n) => !has.has(n)),
    unknown: applied.filter((n) => !(n in list)),
  };
}

/**
 * Refuses a database that a newer zhujiu migrated (it has migrations this code lacks): this code would read and
 * write tables whose shape it does not know, and Kysely's migrator would only say "corrupted migrations".
 * @throws AppError `db_newer` "… migrated by a newer version (…); upgrade zhujiu".
 */
export function refuseNewer(status: MigrationStatus): void {
  if (status.unknown.length === 0) return;
  const known = status.applied.filter((n) => !status.unknown.includes(n));
  throw saidError(
    'db_newer',
    said('cli.db.newer', {
      n: status.unknown.length,
      unknown: listSaid(status.unknown),
      known: known.at(-1) ?? said('cli.db.noMigration'),
    }),
  );
}

/**
 * Runs `fn` while holding the start-up advisory lock ({@link STARTUP_LOCK}, a session lock on one connection of
 * the pool) on PostgreSQL; on PGlite, whose folder is one process's already, just runs it. The server releases
 * the lock if the connection is lost.
 */
export async function withStartupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.target.kind !== 'postgres') return fn();
  return db.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(conn);
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(conn).catch(() => undefined);
    }
  });
}

/**
 * Rolls back the last migration (tests and `zhujiu migrate --down`).
 * @throws AppError `db_newer` when a newer zhujiu migrated the database (its last migration is not known here).
 */
export async function migrateDown(
  db: Kysely<Database>,
  list: Record<string, Migration> = migrations,
): Promise<MigrationResultSet> {
  refuseNewer(await migrationStatus(db, list));
  // Migration numbers are pre-assigned and may land out of order (0006 before 0003): allow that.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    allowUnorderedMigrations: true,
  });
  return migrator.migrateDown();
}

/** Resolves when the database answers a trivial query (readiness checks). */
export async function pingDb(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
