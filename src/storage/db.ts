/**
 * @module storage/db
 * The Kysely factory: real Postgres through `pg` when a URL is given, embedded PGlite in a data folder otherwise.
 * Also runs the migrations.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  Kysely,
  type Migration,
  type MigrationResultSet,
  Migrator,
  PostgresDialect,
  sql,
} from 'kysely';
import type pg from 'pg';
import { migrations } from '../../migrations/index.ts';
import { AppError } from '../core/errors.ts';
import type { Database } from './schema.ts';

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
    connect: async () => {
      const client = await pool.connect();
      return {
        // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (text + values, or a cursor) pass through
        query: (q: any, values?: readonly unknown[]): any => {
          const m = typeof q === 'string' ? PREPARED.exec(q) : null;
          if (m) return client.query({ name: m[1], text: q, values: values as unknown[] });
          return values === undefined ? client.query(q) : client.query(q, values as unknown[]);
        },
        release: (destroy?: boolean) => client.release(destroy),
      };
    },
  };
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
  close(): Promise<void>;
}

/** Describes a Postgres URL without credentials. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded database's folder for this process. PGlite is one process's database: a second process
 * opening the same folder would write over the first one's pages and lose data, so it is refused. The lock is a
 * file `<data dir>.lock` holding the owner's pid; a lock left by a process that no longer runs is taken over.
 * @returns a function that releases the lock (idempotent).
 * @throws AppError `db_unavailable` naming the pid that holds the folder and what to do.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = `${dataDir.replace(/[/\\]+$/, '')}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        process.off('exit', release);
        try {
          unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      } catch {
        /* removed meanwhile: retry */
      }
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
        throw new AppError(
          'db_unavailable',
          `the embedded database in ${dataDir} is in use by another zhujiu process (pid ${pid}). ` +
            'Only one process can use an embedded database: stop that process first (e.g. stop the bot before ' +
            '`zhujiu import`), use another ZHUJIU_DATA_DIR, or set DATABASE_URL so that several processes share ' +
            `one Postgres. If no such process runs, delete ${lockPath}.`,
        );
      }
      try {
        unlinkSync(lockPath); // stale: its process is gone
      } catch {
        /* someone else took it over: retry */
      }
    }
  }
  throw new AppError(
    'db_unavailable',
    `could not lock ${dataDir} (lock file ${lockPath} keeps changing)`,
  );
}

/**
 * Opens the database. PGlite takes ~1 s to reopen an existing folder and ~6 s to create one (it runs initdb).
 * @throws AppError `db_unavailable` when Postgres cannot be reached or the PGlite folder cannot be opened.
 */
export async function openDb(target: DbTarget): Promise<Db> {
  // The drivers load only for the backend in use (PGlite alone costs ~100 MB and ~0.3 s to load).
  if (target.kind === 'postgres') {
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
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: preparingPool(pool) }),
    });
    try {
      const c = await pool.connect();
      c.release();
    } catch (err) {
      await db.destroy();
      throw new AppError(
        'db_unavailable',
        `cannot connect to Postgres at ${redactUrl(target.url)}: ${(err as Error).message}. ` +
          'Check DATABASE_URL, or unset it to use the embedded database.',
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
  const releaseLock = lockDataDir(target.dataDir);
  let pglite: PGlite;
  let PGliteDialect: typeof import('kysely-pglite-dialect').PGliteDialect;
  try {
    const [{ PGlite }, dialect] = await Promise.all([
      import('@electric-sql/pglite'),
      import('kysely-pglite-dialect'),
    ]);
    PGliteDialect = dialect.PGliteDialect;
    mkdirSync(target.dataDir, { recursive: true });
    pglite = new PGlite(target.dataDir);
    await pglite.waitReady;
  } catch (err) {
    releaseLock();
    throw new AppError(
      'db_unavailable',
      `cannot open the embedded database in ${target.dataDir}: ${(err as Error).message}. ` +
        'Set ZHUJIU_DATA_DIR to another folder, or move the damaged one away.',
      { cause: err },
    );
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    target,
    describe: `PGlite at ${target.dataDir}`,
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
 * Runs every pending migration.
 * @throws AppError `db_migration_failed` naming the failed migration.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  list: Record<string, Migration> = migrations,
): Promise<MigrationResultSet> {
  // Migration numbers are pre-assigned and may land out of order (0006 before 0003): allow that.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? '(unknown)';
    throw new AppError(
      'db_migration_failed',
      `migration ${failed} failed: ${(result.error as Error).message ?? String(result.error)}`,
      { cause: result.error },
    );
  }
  return result;
}

/** Rolls back the last migration (tests and `zhujiu migrate --down`). */
export async function migrateDown(
  db: Kysely<Database>,
  list: Record<string, Migration> = migrations,
): Promise<MigrationResultSet> {
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
