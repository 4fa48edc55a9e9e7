/**
 * @module storage/pglite-template
 * The prepared embedded database: a migrated PGlite data folder, archived at install time, that fills an empty
 * data folder on the first start instead of PGlite's initdb.
 *
 * Creating a PGlite folder runs initdb in a second WebAssembly instance beside the first (~5–6 s and ~0.84 GB
 * on the 2-core machine we measure on); unpacking the same folder from an archive and opening it costs about
 * what reopening an existing folder costs (bench/first-start.ts prints both). The archive is written by
 * {@link buildTemplate} (`npm run build`, which `npm install` / `npm ci` run through `prepare`) into `dist/`:
 *
 * - `dist/pglite-template.tar`: the folder after every migration of this version, its WAL emptied
 *   ({@link emptyWal}) and shut down cleanly (an uncompressed tar without the files' trailing zeros,
 *   storage/tar-unpack.ts says why);
 * - `dist/pglite-template.json`: {@link TemplateMeta}, what made it (PGlite version, PostgreSQL major version,
 *   the migrations it has, how many entries the archive holds, a hash of the migration sources).
 *
 * {@link seedFromTemplate} uses it only when the folder is empty or missing and the archive was made by the
 * PGlite version installed here with migrations this code knows; `migrateToLatest` then runs only the newer ones.
 * Anything else (no archive, another PGlite version, an archive that does not unpack completely) is logged and
 * the folder is created by initdb as before: the archive can only make the first start faster, never stop it.
 * The archive unpacks into a private folder beside the data folder and is renamed into place, so a crash midway
 * leaves the data folder empty, never half-filled.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { makeDirsSync } from '../core/make-dirs.ts';
import { said, sayCli } from '../i18n/cli.ts';
import { dataDirRefusal } from './data-folder.ts';
import { isMountPoint } from './pglite-create.ts';
import { PGLITE_PG_MAJOR } from './pglite-settings.ts';
import type { Database } from './schema.ts';
import { packFolder, unpackTarFile } from './tar-unpack.ts';
import {
  isEmptyOrMissing,
  privateFillFolder,
  removeStaleFills,
  TEMPLATE_ARCHIVE,
  takeTemplateFill,
} from './template-fill.ts';

export { defaultTemplateDir, TEMPLATE_ARCHIVE } from './template-fill.ts';

/** The description's file name inside the template folder. */
export const TEMPLATE_META = 'pglite-template.json';

/** What made an archive (`pglite-template.json`). */
export interface TemplateMeta {
  /** 1; another value is a format this code does not read. */
  readonly format: 1;
  /** The `@electric-sql/pglite` version that wrote the folder, e.g. "0.5.17". */
  readonly pglite: string;
  /** The PostgreSQL major version of the folder (its `PG_VERSION`), e.g. "18". */
  readonly pgMajor: string;
  /** The migrations applied in the archived database, by name. */
  readonly migrations: readonly string[];
  /** How many files and folders the archive holds (a partly unpacked archive is refused). */
  readonly entries: number;
  /** sha256 (hex) of the PGlite version and the migration sources: {@link buildTemplate} skips an equal one. */
  readonly sourceHash: string;
}

/** Where logs go (a pino logger fits). */
export interface TemplateLog {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** The installed `@electric-sql/pglite` version (from its package.json). */
export function installedPgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // …/@electric-sql/pglite/dist/index.cjs → …/@electric-sql/pglite/package.json
  const pkg = join(dirname(dirname(entry)), 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** Files and folders under `dir`, recursively (the folder itself not counted). */
function countEntries(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    n += 1;
    if (e.isDirectory()) n += countEntries(join(dir, e.name));
  }
  return n;
}

/**
 * What {@link buildTemplate} does besides the migrations (part of the archive's source hash, so a changed recipe
 * makes a new archive): `drop-templates` is {@link dropTemplateDatabases}.
 */
const RECIPE = 'migrations, drop-templates, wal switched, plain tar without trailing zeros';

/**
 * Drops the template databases (`template0`, `template1`) from an embedded database, leaving `postgres`, the one
 * PGlite opens. Nothing here creates databases (CREATE DATABASE copies a template), and initdb's copies of the
 * catalogues are 600 of a fresh folder's 1,120 files (14 of its 40 MB): without them the prepared database unpacks
 * in about half the file writes (bench/first-start.ts).
 * @throws database errors (the caller builds a template and stops on them).
 */
export async function dropTemplateDatabases(db: Kysely<Database>): Promise<void> {
  for (const name of ['template1', 'template0']) {
    // DROP DATABASE refuses a template and cannot run in a transaction: one statement each.
    await sql`ALTER DATABASE ${sql.id(name)} IS_TEMPLATE false`.execute(db);
    await sql`DROP DATABASE ${sql.id(name)}`.execute(db);
  }
}

/**
 * Leaves the embedded database's WAL (write-ahead log) nearly empty: a switch to a new segment file and a
 * checkpoint, which deletes the old segment rather than keeping it for reuse (`wal_recycle` off, PostgreSQL
 * "Write Ahead Log" settings; the records before a checkpoint are not needed to start). initdb and the
 * migrations wrote ~9 MB into the first 16 MB segment; the new one holds the checkpoint's few records and zeros,
 * which the archive does not store (storage/tar-unpack `packFolder`).
 * @throws database errors (the caller builds a template and stops on them).
 */
export async function emptyWal(db: Kysely<Database>): Promise<void> {
  await sql`SET wal_recycle = off`.execute(db);
  await sql`SELECT pg_switch_wal()`.execute(db);
  await sql`CHECKPOINT`.execute(db);
}

/** sha256 of the recipe, the PGlite version and every file of the migrations folder (names and contents, sorted). */
function sourceHashOf(pglite: string): string {
  const h = createHash('sha256').update(`recipe ${RECIPE}\npglite ${pglite}\n`);
  const dir = fileURLToPath(new URL('../../migrations/', import.meta.url));
  for (const f of readdirSync(dir).sort()) {
    if (statSync(join(dir, f)).isFile()) h.update(`${f}\n`).update(readFileSync(join(dir, f)));
  }
  return h.digest('hex');
}

/** Reads and checks a template's description; undefined when it is missing or unreadable. */
export function readTemplateMeta(templateDir: string): TemplateMeta | undefined {
  try {
    const m = JSON.parse(readFileSync(join(templateDir, TEMPLATE_META), 'utf8')) as TemplateMeta;
    if (
      m.format !== 1 ||
      typeof m.pglite !== 'string' ||
      typeof m.pgMajor !== 'string' ||
      !Array.isArray(m.migrations) ||
      typeof m.entries !== 'number'
    )
      return undefined;
    return m;
  } catch {
    return undefined;
  }
}

/**
 * Why a template cannot fill a folder for this code, or undefined when it can: the archive or its description
 * is missing, it was made by another PGlite or PostgreSQL version, or it has a migration this code does not know.
 */
export function templateMismatch(
  templateDir: string,
  known: Record<string, Migration>,
  pglite: string = installedPgliteVersion(),
): string | undefined {
  const meta = readTemplateMeta(templateDir);
  if (!meta || !existsSync(join(templateDir, TEMPLATE_ARCHIVE)))
    return `no prepared database in ${templateDir}`;
  if (meta.pglite !== pglite) return `prepared for PGlite ${meta.pglite}, installed ${pglite}`;
  if (meta.pgMajor !== PGLITE_PG_MAJOR)
    return `prepared for PostgreSQL ${meta.pgMajor}, this PGlite runs ${PGLITE_PG_MAJOR}`;
  const unknown = meta.migrations.filter((m) => !(m in known));
  if (unknown.length > 0)
    return `prepared with migrations this version lacks (${unknown.join(', ')})`;
  return undefined;
}

/**
 * Fills an empty or missing data folder from the prepared database in `templateDir` (the caller holds the
 * folder's lock, storage/data-dir-lock.ts). Does nothing, and returns false, when the folder has anything in it,
 * or when the template does not fit this code ({@link templateMismatch}; logged at info) or cannot be unpacked
 * completely (logged as a warning, the private folder removed): the caller then lets PGlite create the folder.
 * @param known the migrations this code has (`migrations/index.ts`).
 * @returns true when the folder now holds the prepared database.
 */
export async function seedFromTemplate(
  dataDir: string,
  templateDir: string,
  known: Record<string, Migration>,
  log?: TemplateLog,
): Promise<boolean> {
  const target = resolve(dataDir);
  removeStaleFills(target); // left by a process killed while it unpacked
  if (!isEmptyOrMissing(target)) return false;
  const why = isMountPoint(target)
    ? 'the data folder is a mount point: a prepared folder cannot be renamed over it'
    : templateMismatch(templateDir, known);
  if (why !== undefined) {
    log?.info({ dataDir }, `creating a new embedded database (${why})`);
    return false;
  }
  const meta = readTemplateMeta(templateDir) as TemplateMeta;
  let work: string | undefined;
  try {
    // Unpacked ahead of need as the process started (storage/template-fill), else now.
    work = await takeTemplateFill(target);
    if (work === undefined) {
      makeDirsSync(dirname(target));
      work = privateFillFolder(target);
      await unpackTarFile(join(templateDir, TEMPLATE_ARCHIVE), work);
    }
    const got = countEntries(work);
    const version = existsSync(join(work, 'PG_VERSION'))
      ? readFileSync(join(work, 'PG_VERSION'), 'utf8').trim()
      : undefined;
    if (got !== meta.entries || version !== PGLITE_PG_MAJOR)
      throw new Error(
        `it unpacked into ${got} entries (expected ${meta.entries})${version === PGLITE_PG_MAJOR ? '' : ' without a PG_VERSION file'}`,
      );
    if (existsSync(target)) rmdirSync(target);
    renameSync(work, target);
    work = undefined;
    log?.info(
      { dataDir, migrations: meta.migrations.length },
      'embedded database filled from the prepared one',
    );
    return true;
  } catch (err) {
    // A full disk is no fault of the prepared database: a new one would not fit either.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw dataDirRefusal(dataDir, err);
    const unusable = said('cli.db.templateUnusable');
    log?.warn(
      {
        dataDir,
        archive: join(templateDir, TEMPLATE_ARCHIVE),
        err: (err as Error).message,
        said: unusable,
      },
      sayCli('en', unusable),
    );
    return false;
  } finally {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Writes the prepared database into `templateDir` ({@link TEMPLATE_ARCHIVE} and {@link TEMPLATE_META}): creates
 * a PGlite folder in a private temporary folder, runs every migration of `migrations/index.ts`, drops the template
 * databases ({@link dropTemplateDatabases}), closes it and archives it (tar, uncompressed). Skips the work when the template there was made from the same PGlite version and
 * migration sources. The archive and its description are written under temporary names and renamed into place.
 * @returns `built` (written now) or `current` (already up to date).
 * @throws Error from PGlite or the file system (the caller decides whether that stops a build).
 */
export async function buildTemplate(templateDir: string): Promise<'built' | 'current'> {
  const pglite = installedPgliteVersion();
  const sourceHash = sourceHashOf(pglite);
  const have = readTemplateMeta(templateDir);
  if (have?.sourceHash === sourceHash && existsSync(join(templateDir, TEMPLATE_ARCHIVE)))
    return 'current';
  const { migrations } = await import('../../migrations/index.ts');
  const { migrateToLatest, openDb } = await import('./db.ts');
  const { tmpdir } = await import('node:os');
  const work = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-template-'));
  try {
    const dataDir = join(work, 'pg');
    const d = await openDb({ kind: 'pglite', dataDir });
    try {
      await migrateToLatest(d.db, migrations);
      await dropTemplateDatabases(d.db);
      await emptyWal(d.db);
    } finally {
      await d.close();
    }
    const archive = join(templateDir, `.${TEMPLATE_ARCHIVE}.${process.pid}`);
    writeFileSync(archive, await packFolder(dataDir));
    const meta: TemplateMeta = {
      format: 1,
      pglite,
      pgMajor: readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim(),
      migrations: Object.keys(migrations),
      entries: countEntries(dataDir),
      sourceHash,
    };
    const metaTmp = join(templateDir, `.${TEMPLATE_META}.${process.pid}`);
    writeFileSync(metaTmp, `${JSON.stringify(meta, null, 2)}\n`);
    renameSync(archive, join(templateDir, TEMPLATE_ARCHIVE));
    renameSync(metaTmp, join(templateDir, TEMPLATE_META));
    return 'built';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
