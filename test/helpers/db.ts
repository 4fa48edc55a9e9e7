/**
 * Test databases. The backend matrix is kept where SQL lives: storage tests and the vote rules (with
 * {@link backends}) run against embedded PGlite and, when `TEST_DATABASE_URL` is set (CI sets
 * `postgres://postgres@127.0.0.1:5432/test`), against that real server too; flows through the terminal, the chat
 * fakes or the model fakes run on one backend ({@link flowBackends}), since the SQL under them is the same. Each call gets a fresh, migrated
 * database: a copy of the PGlite template folder, or a new Postgres database created for the test and dropped after.
 *
 * One database serves a whole test file; {@link useCleanRows} empties it before each test (and re-seeds what the
 * file declares), so the tests of a file run in any order (the `app` project shuffles them).
 */

import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { beforeEach, inject } from 'vitest';
import { type Db, migrateToLatest, openDb } from '../../src/storage/db.ts';

/** The backends this run tests against. */
export type Backend = 'pglite' | 'postgres';

/** `['pglite']`, plus `'postgres'` when TEST_DATABASE_URL is set: for tests of SQL (storage/, vote rules). */
export function backends(): Backend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * `['pglite']`: the one backend of flow tests (the zero-setup default, so every machine runs the same set). A flow
 * whose correctness depends on the server (several processes sharing work) names `'postgres'` itself.
 */
export function flowBackends(): Backend[] {
  return ['pglite'];
}

/** A fresh database plus its cleanup. */
export interface TestDb extends Db {
  /** For postgres: the URL of the fresh database (to open more pools in concurrency tests). */
  readonly url?: string;
  /** For pglite: the data folder. */
  readonly dataDir?: string;
  /** Closes and deletes the database. */
  destroy(): Promise<void>;
}

function withDbName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh migrated embedded-database folder (a copy of the template) that is not opened here, for a `zhujiu`
 * process to open (the embedded database belongs to one process). Returns the folder and its cleanup.
 */
export function pgliteDataDir(): { dataDir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-test-'));
  const dataDir = join(dir, 'pg');
  cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  return { dataDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a fresh migrated database of the given backend. */
export async function freshDb(backend: Backend, opts: { poolSize?: number } = {}): Promise<TestDb> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-test-'));
    const dataDir = join(dir, 'pg');
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const d = await openDb({ kind: 'pglite', dataDir });
    await migrateToLatest(d.db);
    return {
      ...d,
      dataDir,
      destroy: async () => {
        await d.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `zhujiu_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDbName(base, name);
  const d = await openDb({ kind: 'postgres', url, poolSize: opts.poolSize ?? 10 });
  await migrateToLatest(d.db);
  return {
    ...d,
    url,
    destroy: async () => {
      await d.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Row count of a table (for "nothing was written" assertions). */
export async function countRows(d: Db, table: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
    d.db,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Tables whose rows {@link clearRows} keeps: Kysely's migration bookkeeping, so the database stays migrated.
 * Only the tables of the current schema (`public`) are cleared: pg-boss's own schema (`pgboss`, PostgreSQL only)
 * is left as it is.
 */
export const KEPT_TABLES: readonly string[] = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Deletes every row of every application table (the current schema's tables, listed from the catalogue, but
 * {@link KEPT_TABLES}) and starts every sequence of the schema again at 1, in one statement: the database is then
 * as freshly migrated (battle ids, run ids start at 1; the derived counters `arena_pair_load`, `battle_numbers`…
 * are empty too). Rows go by `DELETE` with triggers and foreign-key checks off for the transaction
 * (`session_replication_role = replica`), not by `TRUNCATE`, which makes new files for every table and costs
 * seconds on PGlite; sequences that were used restart by `setval`. Works on PGlite and PostgreSQL (a superuser, as the tests
 * connect). Nothing a runtime writes at open lives in the tables (the voter secret is a file beside the data
 * folder), so nothing else is lost.
 */
export async function clearRows(d: Db): Promise<void> {
  const kept = KEPT_TABLES.map((t) => `'${t}'`).join(', ');
  await sql
    .raw(
      `DO $clear$
DECLARE r record;
BEGIN
  PERFORM set_config('session_replication_role', 'replica', true);
  FOR r IN SELECT schemaname, tablename FROM pg_tables
            WHERE schemaname = current_schema() AND tablename NOT IN (${kept}) LOOP
    EXECUTE format('DELETE FROM %I.%I', r.schemaname, r.tablename);
  END LOOP;
  PERFORM setval(format('%I.%I', schemaname, sequencename), 1, false)
     FROM pg_sequences WHERE schemaname = current_schema() AND last_value IS NOT NULL;
  PERFORM set_config('session_replication_role', 'origin', true);
END
$clear$`,
    )
    .execute(d.db);
}

/**
 * Registers a `beforeEach` (in the calling `describe`, or the file) that empties the file's database
 * ({@link clearRows}) and then runs `seed` on it, so every test starts from a migrated, empty database plus the
 * file's declared seed, whatever ran before it. `getDb` is read when the hook runs (the database is usually opened
 * in a `beforeAll`); it returns the {@link Db} (e.g. `() => d`, `() => t.rt.db`). State a test file keeps outside
 * the database (a service's cached model ids, a chat fake's messages) is the file's to reset.
 */
export function useCleanRows(getDb: () => Db, seed?: (d: Db) => Promise<unknown>): void {
  beforeEach(async () => {
    const d = getDb();
    await clearRows(d);
    if (seed) await seed(d);
  });
}
