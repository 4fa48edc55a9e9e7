/**
 * @module storage/pglite-create
 * A new embedded database made aside: when the prepared database cannot be used (storage/pglite-template: none in
 * this installation, another PGlite version, a damaged archive), PGlite's initdb creates the database (~6 s). Run
 * in the data folder itself, a start stopped midway (killed, or a disk that fills up) left a half-made folder
 * without `PG_VERSION`, which every later start refuses as someone else's files (storage/data-folder). Here initdb
 * runs in a private folder beside the data folder (named as the prepared database's fills are, so that a start
 * that dies leaves nothing the next one does not remove: storage/template-fill `removeStaleFills`), and the
 * finished database is renamed into place.
 */
import { existsSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirsSync } from '../core/make-dirs.ts';
import { dataDirRefusal, pgliteFailureText } from './data-folder.ts';
import type { LoadedPglite } from './pglite-load.ts';
import { pgliteStartOptions } from './pglite-settings.ts';
import { isEmptyOrMissing, privateFillFolder } from './template-fill.ts';

/** True when `dir` is a folder on another file system than its parent's (a mount point: it cannot be renamed over). */
export function isMountPoint(dir: string): boolean {
  try {
    return statSync(dir).dev !== statSync(dirname(dir)).dev;
  } catch {
    return false;
  }
}

/**
 * Creates the embedded database of the empty or missing data folder `dataDir` in a private folder beside it and
 * renames it into place (the caller holds the folder's lock, storage/data-dir-lock). Does nothing when the
 * folder holds anything, or is a mount point (PGlite then creates the database in it, as a rename cannot replace
 * it).
 * @param load PGlite's module and WebAssembly (storage/pglite-load `loadPglite`).
 * @throws AppError `db_unavailable` (storage/data-folder `dataDirRefusal`: the folder named, the reason in
 *   words, the fix) when a file-system error stops the creation, e.g. a full disk; else PGlite's error. The data
 *   folder is then as it was.
 */
export async function createDatabaseAside(
  dataDir: string,
  load: () => Promise<LoadedPglite>,
): Promise<void> {
  if (!isEmptyOrMissing(dataDir) || isMountPoint(dataDir)) return;
  let work: string | undefined;
  try {
    makeDirsSync(dirname(dataDir));
    work = privateFillFolder(dataDir);
    const { PGlite, wasm } = await load();
    const pglite = new PGlite(work, pgliteStartOptions(PGlite.defaultStartParams, wasm));
    await pglite.waitReady;
    await pglite.close();
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(work, dataDir);
    work = undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? pgliteFailureText(err);
    if (/^E[A-Z]+$/u.test(code))
      throw dataDirRefusal(dataDir, Object.assign(new Error(code), { code, path: work }));
    throw err;
  } finally {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  }
}
