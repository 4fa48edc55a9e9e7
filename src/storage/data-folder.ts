/**
 * @module storage/data-folder
 * What an embedded database folder (ZHUJIU_DATA_DIR) may hold before PGlite opens it: nothing (it is filled from
 * the prepared database, storage/pglite-template.ts, or created), or a PostgreSQL data folder, which always has a
 * `PG_VERSION` file at its top. Anything else is someone's files: PGlite would write its own beside them (initdb
 * makes `base/`, `global/`, `pg_wal/`, … in whatever folder it is given), so such a folder is refused before it is
 * opened, by every command and by `zhujiu config check`.
 */
import { readdirSync, statSync } from 'node:fs';
import type { AppError } from '../core/errors.ts';
import { said, saidError } from '../i18n/cli.ts';

/**
 * Refuses a data folder path that is a file, or a folder that holds files but no `PG_VERSION` (not a database).
 * A missing or empty folder, and a PostgreSQL data folder, pass.
 * @param dataDir the embedded database's folder (absolute or relative to the working folder).
 * @throws AppError `db_unavailable` naming the path, how many entries it holds and the first by name, and the fix.
 */
export function refuseForeignDataDir(dataDir: string): void {
  const problem = foreignDataDir(dataDir);
  if (problem) throw problem;
}

/** {@link refuseForeignDataDir}'s refusal, or undefined when the folder may be used. */
function foreignDataDir(dataDir: string): AppError | undefined {
  let entries: string[];
  try {
    if (!statSync(dataDir).isDirectory())
      return saidError('db_unavailable', said('cli.db.isFile', { dir: dataDir }));
    entries = readdirSync(dataDir);
  } catch {
    return undefined; // missing (created on first start) or unreadable (opening it says why)
  }
  if (entries.length === 0 || entries.includes('PG_VERSION')) return undefined;
  return saidError(
    'db_unavailable',
    said('cli.db.foreignFolder', {
      dir: dataDir,
      n: entries.length,
      first: entries.sort()[0] as string,
    }),
  );
}
