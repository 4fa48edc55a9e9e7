/**
 * @module core/make-dirs
 * Creating a folder and its missing parents for paths people type (ZHUJIU_DATA_DIR, LOG_FILE, `--out`, caches).
 * Node's `mkdir(path, { recursive: true })` (Node 22 and 24, sync and async) never returns when a parent refuses
 * to hold a new folder with ENOENT although it exists, as /proc and /sys do (`mkdir -p /proc/x/y` fails at once):
 * these functions walk up to the nearest existing folder themselves and create each missing level on its own, so
 * every such path fails at once with the system's error (`code` ENOENT, ENOTDIR, EACCES, EROFS, …).
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The missing levels of `path`, outermost first, after checking that the nearest existing one is a folder. */
function missingLevels(path: string, isDir: (p: string) => boolean | undefined): string[] {
  const missing: string[] = [];
  let p = resolve(path);
  for (;;) {
    const d = isDir(p);
    if (d === true) return missing.reverse();
    if (d === false) {
      const err = new Error(`ENOTDIR: not a directory, mkdir '${path}' (${p} is a file)`);
      throw Object.assign(err, { code: 'ENOTDIR', path: p, syscall: 'mkdir' });
    }
    missing.push(p);
    const up = dirname(p);
    if (up === p) return missing.reverse();
    p = up;
  }
}

/**
 * statSync's answer: a folder, something else, or nothing there (undefined). A path under a file (ENOTDIR) is
 * nothing there too, so the walk up reaches that file and names it.
 */
function isDirSync(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * Creates folder `path` and its missing parents (like `mkdir -p`); nothing when it exists.
 * @throws the system's error (with `code`): ENOTDIR when a level is a file, ENOENT where a parent refuses new
 *   folders (/proc), EACCES / EPERM / EROFS without permission.
 * @returns the folders that were missing, outermost first (those this call made, or another process meanwhile).
 */
export function makeDirsSync(path: string): string[] {
  const levels = missingLevels(path, isDirSync);
  for (const level of levels) {
    try {
      mkdirSync(level);
    } catch (err) {
      // Made meanwhile by another process: fine when it is a folder.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || isDirSync(level) !== true) throw err;
    }
  }
  return levels;
}

/** {@link makeDirsSync} without blocking: the levels are looked at synchronously (a few stat calls), made async. */
export async function makeDirs(path: string): Promise<void> {
  for (const level of missingLevels(path, isDirSync)) {
    try {
      await mkdir(level);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stat(level)).isDirectory())
        throw err;
    }
  }
}
