/**
 * @module storage/data-folder
 * What an embedded database folder (ZHUJIU_DATA_DIR) may hold before PGlite opens it: nothing (it is filled from
 * the prepared database, storage/pglite-template.ts, or created), or a PostgreSQL data folder, which always has a
 * `PG_VERSION` file at its top. Anything else is someone's files: PGlite would write its own beside them (initdb
 * makes `base/`, `global/`, `pg_wal/`, … in whatever folder it is given), so such a folder is refused before it is
 * opened, by every command and by `zhujiu config check`; so is a folder this process cannot read, or a database in
 * it cannot write.
 *
 * Every refusal of the folder names the path at fault and says the system's reason in words in both languages
 * (`no permission, EACCES`, `没有权限，EACCES`: i18n/error-cause.ts `causeExplained`), with the fix: besides the
 * folder itself, zhujiu writes in its parent (the lock, storage/data-dir-lock.ts, and the newly unpacked database,
 * storage/template-fill.ts) and creates its missing levels ({@link dataDirRefusal}).
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError, type Said } from '../core/errors.ts';
import { folderState } from '../core/folder-state.ts';
import { said, saidError } from '../i18n/cli.ts';
import { causeExplained } from '../i18n/error-cause.ts';

/**
 * Refuses a data folder path that is a file, a folder this process cannot read, a folder that holds files but no
 * `PG_VERSION` (not a database), or a database folder this process cannot write. A missing or empty folder, and a
 * PostgreSQL data folder it can write, pass.
 * @param dataDir the embedded database's folder (absolute or relative to the working folder).
 * @throws AppError `db_unavailable` naming the path, what is wrong with it (how many entries it holds and the first
 *   by name; the system's reason in words) and the fix.
 */
export function refuseForeignDataDir(dataDir: string): void {
  const problem = foreignDataDir(dataDir);
  if (problem) throw problem;
}

/** The system's code of `err` (`EACCES` …), or its message when it has none. */
function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err);
}

/** {@link refuseForeignDataDir}'s refusal, or undefined when the folder may be used. */
function foreignDataDir(dataDir: string): AppError | undefined {
  let entries: string[];
  try {
    if (!statSync(dataDir).isDirectory())
      return saidError('db_unavailable', said('cli.db.isFile', { dir: dataDir }));
    entries = readdirSync(dataDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Missing: created on first start; a level above it a file: taking the lock names that file.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return saidError(
      'db_unavailable',
      said('cli.db.unreadable', { dir: dataDir, cause: causeExplained(codeOf(err)) }),
      { cause: err },
    );
  }
  if (entries.length === 0) return undefined;
  if (!entries.includes('PG_VERSION'))
    return saidError(
      'db_unavailable',
      said('cli.db.foreignFolder', {
        dir: dataDir,
        n: entries.length,
        first: entries.sort()[0] as string,
      }),
    );
  try {
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    return saidError(
      'db_unavailable',
      said('cli.db.unwritable', { dir: dataDir, cause: causeExplained(codeOf(err)) }),
      { cause: err },
    );
  }
  return undefined;
}

/**
 * The refusal of data folder `dataDir` for the system error `err` met while creating its missing levels or writing
 * beside it (the lock, the unpacked database: `err.path` names what could not be made, so its folder is the one at
 * fault): AppError `db_unavailable` naming that folder (or the file in the way), the reason in words in both
 * languages, and the fix. `err` itself when it is an AppError already.
 */
export function dataDirRefusal(dataDir: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const made = (err as NodeJS.ErrnoException).path ?? resolve(dataDir);
  const folder = dirname(resolve(made));
  const cause = causeExplained(codeOf(err));
  const elsewhere = said('cli.db.fix.elsewhere');
  let why: Said;
  let fix = elsewhere;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      why =
        folder === dirname(resolve(dataDir))
          ? said('cli.db.why.noWrite', { path: folder, cause })
          : said('cli.db.why.noWriteAbove', { path: folder, cause, dir: dataDir });
      if (code !== 'EROFS') fix = said('cli.db.fix.writable', { path: folder });
      break;
    case 'ENOENT':
      // A folder that exists but takes no new folders (/proc, /sys) answers ENOENT.
      why =
        folderState(folder).kind === 'folder'
          ? said('cli.db.why.noNewFolders', { path: folder, cause })
          : said('cli.db.why.other', { path: folder, cause });
      break;
    case 'ENOTDIR':
    case 'EEXIST':
      why = said('cli.db.why.fileInPath', { path: fileInWay(made), cause });
      break;
    case 'ENOSPC':
    case 'EDQUOT':
      why = said('cli.db.why.diskFull', { path: folder, cause });
      fix = said('cli.db.fix.space');
      break;
    default:
      why = said('cli.db.why.other', { path: made, cause });
  }
  return saidError('db_unavailable', said('cli.db.cannotUse', { dir: dataDir, why, fix }), {
    cause: err,
  });
}

/** The file that stands where a folder of `path` should be: `path` itself, or a level above it. */
function fileInWay(path: string): string {
  const state = folderState(path);
  return state.kind === 'underFile' ? state.file : path;
}

/** Emscripten's errno numbers (PGlite's file system, `ERRNO_CODES` in its build) of the codes worth a word. */
const WASM_ERRNO: Readonly<Record<number, string>> = {
  2: 'EACCES',
  20: 'EEXIST',
  29: 'EIO',
  31: 'EISDIR',
  32: 'ELOOP',
  33: 'EMFILE',
  44: 'ENOENT',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  55: 'ENOTEMPTY',
  63: 'EPERM',
  69: 'EROFS',
};

/**
 * The text of PGlite's failure to open a folder: its message; for a file-system error of its WebAssembly
 * (emscripten's `ErrnoError`, which has a name and an `errno` number but no message) the code the number stands
 * for (`EACCES`), else `ErrnoError errno N`.
 */
export function pgliteFailureText(err: unknown): string {
  const e = err as { message?: unknown; name?: unknown; errno?: unknown } | undefined;
  // Its own full stop dropped: the text goes inside a sentence ("Aborted(). Build with -sASSERTIONS for more info.").
  if (typeof e?.message === 'string' && e.message !== '') return e.message.replace(/\.+$/u, '');
  if (typeof e?.errno === 'number')
    return WASM_ERRNO[e.errno] ?? `${String(e.name ?? 'error')} errno ${e.errno}`;
  return String(err);
}
