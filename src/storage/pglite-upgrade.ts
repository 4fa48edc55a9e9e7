/**
 * @module storage/pglite-upgrade
 * The in-place upgrade of an embedded data folder made by PostgreSQL 17 (PGlite 0.4, earlier zhujiu) to the
 * bundled PostgreSQL 18 (PGlite 0.5), keeping every row: `zhujiu migrate --upgrade-data-dir`.
 *
 * PostgreSQL opens only a data folder of its own major version (the folder's `PG_VERSION` file), and its on-disk
 * catalogue changes between majors, so the rows are carried over as data, the way `pg_dump` | `psql` would:
 *
 * 1. The folder is locked for this process (storage/data-dir-lock.ts) for the whole upgrade.
 * 2. The old folder is opened with PGlite 0.4.6 (the `pglite-0-4` dependency) with every transaction read-only.
 * 3. A new folder `<dir>.pg18-upgrade` is created with the bundled PGlite and migrated to exactly the migrations
 *    the old folder has applied, so both have the same tables and columns.
 * 4. In one transaction on the new folder, with `session_replication_role = replica` (no trigger runs, so a
 *    counter a trigger keeps is not counted a second time, and no foreign key is checked mid-copy): every table
 *    of the public schema (the migration bookkeeping `kysely_migration*` included) is emptied, then copied with
 *    `COPY … TO/FROM '/dev/blob'` (PGlite's in-memory COPY target) in foreign-key order (parents first); each
 *    sequence is set to the old one's value (never below the largest id its column holds); the row count of
 *    every table is compared with the old one's.
 * 5. The new folder is migrated to the latest migration; a marker file says it is complete.
 * 6. The folders are swapped by two renames: the old one to `<dir>.pg17-backup-<UTC time>` (never deleted), the
 *    new one to `<dir>`.
 *
 * An upgrade stopped before step 6 leaves the old folder as it was (a read-only open of it; PGlite 0.4 still
 * opens it) and a partial `<dir>.pg18-upgrade`, which the next attempt deletes and makes again. Stopped between
 * the two renames of step 6, `<dir>` is missing and the complete new folder still carries its marker: the next
 * attempt finishes the swap.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PGlite as PGlite05 } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { PGlite as PGlite04 } from 'pglite-0-4';
import { migrations as allMigrations } from '../../migrations/index.ts';
import { AppError } from '../core/errors.ts';
import { makeDirsSync } from '../core/make-dirs.ts';
import { listSaid, said, saidError } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import { type LockLog, lockDataDir } from './data-dir-lock.ts';
import { migrateToLatest } from './db.ts';
import { PGLITE_PG_MAJOR, PGLITE_SETTINGS, pgliteStartOptions } from './pglite-settings.ts';
import type { Database } from './schema.ts';

/** The PostgreSQL major version PGlite 0.4 ran: the only one this upgrade reads. */
export const OLD_PG_MAJOR = '17';

/** Marker file in the new folder once its copy is complete and verified (removed after the swap). */
const COMPLETE_MARKER = 'zhujiu-upgrade-complete';

/** One copied table. */
export interface UpgradedTable {
  readonly table: string;
  /** Rows in the old folder, equal to the rows in the new one. */
  readonly rows: number;
}

/** What {@link upgradeDataDir} did. */
export interface UpgradeReport {
  /** `upgraded`: copied and swapped; `current`: already the bundled version, nothing done; `finished`: an
   *  earlier attempt had copied everything and stopped before its last rename, which this one made. */
  readonly outcome: 'upgraded' | 'current' | 'finished' | 'empty';
  readonly dataDir: string;
  /** Where the old folder now is (`upgraded` only; `finished`: when it can be told). */
  readonly backupDir?: string;
  /** Tables copied, in copy order (`upgraded` only). */
  readonly tables: readonly UpgradedTable[];
  /** Migrations the old folder had applied, and those applied afterwards on the new one. */
  readonly migrationsKept: readonly string[];
  readonly migrationsApplied: readonly string[];
  /** Wall time of the whole upgrade (ms). */
  readonly ms: number;
}

/** Options of {@link upgradeDataDir}. */
export interface UpgradeOptions {
  /** Lock takeovers are reported here. */
  readonly logger?: LockLog;
  /** The time that names the backup folder (default: now). */
  readonly now?: () => Date;
  /** Progress (one call per table copied, with its row count), for a terminal to say in its language. */
  readonly progress?: (copied: { readonly table: string; readonly rows: number }) => void;
  /** The migration list (tests); default migrations/index.ts. */
  readonly migrations?: Record<string, Migration>;
  /** Called after each table is copied (tests interrupt the upgrade here). */
  readonly afterTable?: (table: string) => void | Promise<void>;
}

function pgVersionOf(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** `"name"` with embedded quotes doubled (PostgreSQL identifier quoting). */
function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The folder names beside `dataDir` that the upgrade uses. */
export function upgradePaths(dataDir: string, at: Date): { work: string; backup: string } {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');
  return { work: `${dataDir}.pg18-upgrade`, backup: `${dataDir}.pg17-backup-${stamp}` };
}

/**
 * Orders tables so that each comes after every table its foreign keys reference (Kahn's algorithm; a
 * self-reference is ignored). Ties keep name order, so the order is stable.
 * @param tables the table names.
 * @param edges `[child, parent]` pairs: `child` has a foreign key to `parent`.
 * @throws Error naming the tables of a foreign-key cycle (none exists in our schema).
 */
export function foreignKeyOrder(
  tables: readonly string[],
  edges: readonly (readonly [string, string])[],
): string[] {
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const [child, parent] of edges)
    if (child !== parent && parents.has(child) && parents.has(parent))
      parents.get(child)?.add(parent);
  const done = new Set<string>();
  const order: string[] = [];
  const sorted = [...tables].sort();
  while (order.length < sorted.length) {
    const next = sorted.find(
      (t) => !done.has(t) && [...(parents.get(t) ?? [])].every((p) => done.has(p)),
    );
    if (next === undefined) {
      const left = sorted.filter((t) => !done.has(t));
      throw new Error(`foreign keys form a cycle among ${left.join(', ')}`);
    }
    done.add(next);
    order.push(next);
  }
  return order;
}

interface Queryable {
  query<T>(text: string, params?: unknown[], options?: object): Promise<{ rows: T[]; blob?: Blob }>;
}

async function publicTables(q: Queryable): Promise<string[]> {
  const r = await q.query<{ t: string }>(
    `select tablename as t from pg_tables where schemaname = 'public' order by tablename`,
  );
  return r.rows.map((x) => x.t);
}

async function foreignKeys(q: Queryable): Promise<[string, string][]> {
  const r = await q.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid
       join pg_class p on p.oid = k.confrelid
       join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public'`,
  );
  return r.rows.map((x) => [x.child, x.parent]);
}

/** Columns COPY can write (generated columns are computed again by the new folder), in table order. */
async function copyColumns(q: Queryable, table: string): Promise<string[]> {
  const r = await q.query<{ c: string }>(
    `select column_name as c from information_schema.columns
      where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'
      order by ordinal_position`,
    [table],
  );
  return r.rows.map((x) => x.c);
}

async function countRows(q: Queryable, table: string): Promise<number> {
  const r = await q.query<{ n: string }>(`select count(*)::text as n from public.${ident(table)}`);
  return Number(r.rows[0]?.n ?? 0);
}

/** Tables outside the public schema (none in a zhujiu folder): the upgrade refuses rather than lose them. */
async function otherTables(q: Queryable): Promise<string[]> {
  const r = await q.query<{ t: string }>(
    `select schemaname || '.' || tablename as t from pg_tables
      where schemaname not in ('public', 'pg_catalog', 'information_schema') order by 1`,
  );
  return r.rows.map((x) => x.t);
}

/**
 * Upgrades the embedded data folder `dataDir` from PostgreSQL 17 (PGlite 0.4) to the bundled PostgreSQL 18
 * (PGlite 0.5) in place, keeping every row of every table (module doc: the steps, and what an interruption
 * leaves). A folder of 10,000 votes took 7 s on 2 cores: 5 s creating and migrating the new folder, 1.5 s copying
 * (bench/pglite-upgrade.ts). Each table's rows pass through memory once as COPY text (~100 bytes per vote).
 * @param dataDir the folder (ZHUJIU_DATA_DIR).
 * @returns what was done; `outcome: 'current'` when the folder is already PostgreSQL 18, `'empty'` when it is
 *   missing or empty (no database yet; nothing is touched or created in either case).
 * @throws AppError `db_unavailable` when another live process holds the folder, the folder is missing or was made
 *   by another PostgreSQL than 17 or 18, it holds migrations this zhujiu does not know, or tables outside the
 *   public schema; `db_migration_failed` when the copy fails or a row count differs (the old folder is left as
 *   it was, the partial new one is deleted).
 */
export async function upgradeDataDir(
  dataDir: string,
  opts: UpgradeOptions = {},
): Promise<UpgradeReport> {
  const started = Date.now();
  const list = opts.migrations ?? allMigrations;
  const progress = opts.progress ?? (() => {});
  const at = (opts.now ?? (() => new Date()))();
  const { work, backup } = upgradePaths(dataDir, at);
  // No database there yet (and no upgrade to finish): nothing to do, and nothing is created, not even the lock.
  if (
    !existsSync(join(work, COMPLETE_MARKER)) &&
    (!existsSync(dataDir) || readdirSync(dataDir).length === 0)
  )
    return {
      outcome: 'empty',
      dataDir,
      tables: [],
      migrationsKept: [],
      migrationsApplied: [],
      ms: Date.now() - started,
    };
  const release = await lockDataDir(dataDir, opts.logger);
  try {
    // An earlier attempt copied and verified everything, renamed the old folder away and stopped there.
    if (!existsSync(join(dataDir, 'PG_VERSION')) && existsSync(join(work, COMPLETE_MARKER))) {
      renameSync(work, dataDir);
      rmSync(join(dataDir, COMPLETE_MARKER));
      const prefix = `${basename(dataDir)}.pg17-backup-`;
      const backups = readdirSync(dirname(dataDir))
        .filter((n) => n.startsWith(prefix))
        .sort();
      const last = backups.at(-1);
      return {
        outcome: 'finished',
        dataDir,
        ...(last === undefined ? {} : { backupDir: join(dirname(dataDir), last) }),
        tables: [],
        migrationsKept: [],
        migrationsApplied: [],
        ms: Date.now() - started,
      };
    }
    const made = pgVersionOf(dataDir);
    if (made === undefined)
      throw saidError('db_unavailable', said('cli.upgrade.notDb', { dir: dataDir }));
    if (made === PGLITE_PG_MAJOR)
      return {
        outcome: 'current',
        dataDir,
        tables: [],
        migrationsKept: [],
        migrationsApplied: [],
        ms: Date.now() - started,
      };
    if (made !== OLD_PG_MAJOR)
      throw saidError(
        'db_unavailable',
        said('cli.upgrade.otherVersion', {
          dir: dataDir,
          made,
          old: OLD_PG_MAJOR,
          new: PGLITE_PG_MAJOR,
        }),
      );
    // A partial new folder of an interrupted attempt: made again from the start.
    rmSync(work, { recursive: true, force: true });
    const result = await copyInto(dataDir, work, list, progress, opts.afterTable);
    writeFileSync(join(work, COMPLETE_MARKER), `${at.toISOString()}\n`);
    renameSync(dataDir, backup);
    renameSync(work, dataDir);
    rmSync(join(dataDir, COMPLETE_MARKER));
    return { outcome: 'upgraded', dataDir, backupDir: backup, ...result, ms: Date.now() - started };
  } finally {
    release();
  }
}

/** Steps 2 to 5 of the module doc: copies `oldDir` into a new folder `work`; deletes `work` on failure. */
async function copyInto(
  oldDir: string,
  work: string,
  list: Record<string, Migration>,
  progress: NonNullable<UpgradeOptions['progress']>,
  afterTable: UpgradeOptions['afterTable'],
): Promise<Pick<UpgradeReport, 'tables' | 'migrationsKept' | 'migrationsApplied'>> {
  const { PGlite: Old } = await import('pglite-0-4');
  const { PGlite: New } = await import('@electric-sql/pglite');
  let old: PGlite04 | undefined;
  let fresh: PGlite05 | undefined;
  let kysely: Kysely<Database> | undefined;
  let ok = false;
  try {
    try {
      old = new Old(oldDir, {
        startParams: [
          ...Old.defaultStartParams,
          ...PGLITE_SETTINGS,
          '-c',
          'default_transaction_read_only=on',
        ],
      });
      await old.waitReady;
    } catch (err) {
      throw saidError(
        'db_unavailable',
        said('cli.upgrade.cannotOpen', {
          dir: oldDir,
          old: OLD_PG_MAJOR,
          detail: causeSaid((err as Error).message),
        }),
        { cause: err },
      );
    }
    const others = await otherTables(old);
    if (others.length > 0)
      throw saidError(
        'db_unavailable',
        said('cli.upgrade.otherSchemas', { dir: oldDir, tables: listSaid(others) }),
      );
    const tables = await publicTables(old);
    const kept = tables.includes('kysely_migration')
      ? (
          await old.query<{ name: string }>('select name from kysely_migration order by name')
        ).rows.map((r) => r.name)
      : [];
    const unknown = kept.filter((n) => !(n in list));
    if (unknown.length > 0)
      throw saidError(
        'db_unavailable',
        said('cli.upgrade.newer', { dir: oldDir, names: listSaid(unknown) }),
      );

    makeDirsSync(dirname(work));
    fresh = new New(work, pgliteStartOptions(New.defaultStartParams));
    await fresh.waitReady;
    kysely = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: fresh }) });
    // The same migrations as the old folder, so both have the same tables and columns.
    const subset = Object.fromEntries(Object.entries(list).filter(([n]) => kept.includes(n)));
    if (kept.length > 0) await migrateToLatest(kysely, subset);

    const newTables = await publicTables(fresh);
    const missing = tables.filter((t) => !newTables.includes(t));
    if (missing.length > 0)
      throw saidError(
        'db_migration_failed',
        said('cli.upgrade.lostTables', { tables: listSaid(missing) }),
      );
    const order = foreignKeyOrder(tables, await foreignKeys(old));
    const columns = new Map<string, string[]>();
    for (const t of order) {
      const oc = await copyColumns(old, t);
      const nc = await copyColumns(fresh, t);
      if (oc.join(',') !== nc.join(','))
        throw saidError(
          'db_migration_failed',
          said('cli.upgrade.columns', { table: t, old: listSaid(oc), new: listSaid(nc) }),
        );
      columns.set(t, oc);
    }
    const sequences = (
      await old.query<{ name: string; last: string | null }>(
        `select sequencename as name, last_value::text as last
           from pg_sequences where schemaname = 'public' order by sequencename`,
      )
    ).rows;
    const owned = (
      await old.query<{ seq: string; tbl: string; col: string }>(
        `select s.relname as seq, t.relname as tbl, a.attname as col
           from pg_depend d
           join pg_class s on s.oid = d.objid and s.relkind = 'S'
           join pg_class t on t.oid = d.refobjid
           join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
           join pg_namespace n on n.oid = s.relnamespace
          where n.nspname = 'public' and d.deptype in ('a', 'i')`,
      )
    ).rows;

    const copied: UpgradedTable[] = [];
    const target = fresh;
    const source = old;
    await target.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      // What the migrations themselves inserted (the bookkeeping rows, any seed rows) gives way to the old rows.
      if (order.length > 0)
        await tx.query(`truncate ${order.map((t) => `public.${ident(t)}`).join(', ')}`);
      for (const t of order) {
        const cols = (columns.get(t) ?? []).map(ident).join(', ');
        const out = await source.query(`copy public.${ident(t)} (${cols}) to '/dev/blob'`);
        // PGlite 0.4 gives no blob for an empty table; the row counts below tell a missing one.
        const blob = out.blob;
        if (blob !== undefined && blob.size > 0)
          await tx.query(`copy public.${ident(t)} (${cols}) from '/dev/blob'`, [], { blob });
        const before = await countRows(source, t);
        const after = await countRows(tx, t);
        if (before !== after)
          throw saidError(
            'db_migration_failed',
            said('cli.upgrade.rows', { table: t, before, after }),
          );
        copied.push({ table: t, rows: after });
        progress({ table: t, rows: after });
        await afterTable?.(t);
      }
      for (const s of sequences) {
        // Never below the largest value the sequence's column holds (ids given explicitly by an import).
        let value = s.last === null ? null : Number(s.last);
        for (const o of owned.filter((x) => x.seq === s.name)) {
          const m = await tx.query<{ m: string | null }>(
            `select max(${ident(o.col)})::text as m from public.${ident(o.tbl)}`,
          );
          const max = m.rows[0]?.m;
          if (max !== null && max !== undefined && (value === null || Number(max) > value))
            value = Number(max);
        }
        if (value !== null)
          await tx.query('select setval($1::regclass, $2::bigint, true)', [
            `public.${ident(s.name)}`,
            String(value),
          ]);
      }
    });
    const applied = await migrateToLatest(kysely, list);
    ok = true;
    return {
      tables: copied,
      migrationsKept: kept,
      migrationsApplied: (applied.results ?? [])
        .filter((r) => r.status === 'Success')
        .map((r) => r.migrationName),
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw saidError(
      'db_migration_failed',
      said('cli.upgrade.failed', { dir: oldDir, detail: causeSaid((err as Error).message) }),
      { cause: err },
    );
  } finally {
    await old?.close().catch(() => {});
    if (kysely) await kysely.destroy().catch(() => {});
    else await fresh?.close().catch(() => {});
    if (!ok) rmSync(work, { recursive: true, force: true });
  }
}
