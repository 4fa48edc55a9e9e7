/**
 * @module core/out-file
 * Files the product writes at a path the user names (`export battles --out FILE`, `leaderboard --png FILE`):
 * the path is checked before any work starts, so a folder, a missing folder or a folder without write permission
 * is one clear line naming the flag and the fix, and the file is written to a temporary name beside it and renamed
 * when complete, so a failure (or Ctrl-C) never leaves a half-written file.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { constants, createWriteStream, existsSync } from 'node:fs';
import { access, lstat, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { said, saidError } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import { AppError, type Said } from './errors.ts';
import { folderState } from './folder-state.ts';

/**
 * Why an errno stops a write, in words, with the fix (a command line message, i18n/en-cli.ts); a folder is answered
 * with a file in it named `fileName` (`results/results.jsonl`), the name the command would give its file.
 */
function why(code: string | undefined, path: string, fileName: string): Said {
  switch (code) {
    case 'EISDIR':
      return said('cli.outFile.isFolder', { path, example: join(path, fileName) });
    case 'ENOENT':
      // A folder that exists but takes no new files (/proc, /sys) also answers ENOENT.
      return existsSync(dirname(resolve(path)))
        ? said('cli.outFile.noNewFiles', { dir: dirname(path) })
        : said('cli.outFile.noFolder', { dir: dirname(path) });
    case 'ENOTDIR': {
      // The file in the way: the folder named, or a level above it (core/folder-state.ts).
      const state = folderState(dirname(resolve(path)));
      return said('cli.outFile.notFolder', {
        dir: state.kind === 'underFile' ? state.file : dirname(path),
      });
    }
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return said('cli.outFile.noPermission', { dir: dirname(path), code });
    case 'ENOTREG':
      return said('cli.outFile.notRegular', { path });
    case 'ENOSPC':
    case 'EDQUOT':
      return said('cli.outFile.diskFull', { code });
    default:
      return said('cli.outFile.other', {
        code: code === undefined ? said('cli.outFile.unknown') : causeSaid(code),
      });
  }
}

/** An output file as the user named it: the flag, the path given, and a file name that fits what is written there. */
export interface OutputFile {
  /** The flag that named the path, e.g. `--out`. */
  readonly flag: string;
  readonly path: string;
  /**
   * The name the command would give its file (`results.csv`, `battles.jsonl`, `board.png`): the example in a folder
   * given instead of a file.
   */
  readonly fileName: string;
}

/**
 * The refusal of an output path: `FLAG PATH: cannot write (reason and fix)`, in English as its message and as
 * catalogue data for the command line's language ({@link saidError}).
 */
export function cannotWrite(file: OutputFile, err: unknown): AppError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const { flag, path } = file;
  return saidError(
    'file_unwritable',
    said('cli.outFile.cannotWrite', { flag, path, why: why(code, path, file.fileName) }),
    { cause: err },
  );
}

/**
 * Checks, before any work, that `file.path` can be created or replaced: it is not a folder, its folder exists and is
 * writable, a file can really be created there (an empty probe file, removed at once), and what is there now is a
 * regular file (a symbolic link counts as the file it points to).
 * @returns the absolute path to write: a symbolic link's target, else the path ({@link outputTarget}).
 * @throws AppError `file_unwritable` naming the flag, the path and the fix.
 */
export async function checkOutputPath(file: OutputFile): Promise<string> {
  const { path } = file;
  const full = await outputTarget(path);
  const st = await stat(full).catch(() => undefined);
  if (st?.isDirectory()) throw cannotWrite(file, { code: 'EISDIR' });
  // The file is replaced by renaming a new one over it: a pipe, a device or a socket would be replaced, not fed.
  if (st && !st.isFile()) throw cannotWrite(file, { code: 'ENOTREG' });
  const dir = dirname(full);
  const dst = await stat(dir).catch((err: NodeJS.ErrnoException) => err);
  if (dst instanceof Error) throw cannotWrite(file, dst);
  if (!dst.isDirectory()) throw cannotWrite(file, { code: 'ENOTDIR' });
  try {
    await access(dir, constants.W_OK);
    if (st) await access(full, constants.W_OK);
    // Permission bits do not tell everything (root passes `access` on /proc and on read-only mounts): create and
    // remove an empty file where the temporary file will go.
    const probe = tempPathBeside(full);
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
  } catch (err) {
    throw cannotWrite(file, err);
  }
  return full;
}

/**
 * The file an output path names, as an absolute path: for a symbolic link, the file it points to (written through,
 * so the link stays a link), else the path itself.
 */
export async function outputTarget(path: string): Promise<string> {
  const full = resolve(path);
  const l = await lstat(full).catch(() => undefined);
  return l?.isSymbolicLink() ? realpath(full).catch(() => full) : full;
}

/** A temporary name beside `path` (same folder, so the final rename is atomic). */
export function tempPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes `data` to `file.path` atomically: a temporary file beside it, renamed over the path when complete (through
 * a symbolic link to the file it points to); the temporary file is removed on failure.
 * @throws AppError `file_unwritable` naming the flag, the path and the fix.
 */
export async function writeFileAtomic(file: OutputFile, data: string | Uint8Array): Promise<void> {
  const target = await outputTarget(file.path);
  const tmp = tempPathBeside(target);
  try {
    await writeFile(tmp, data);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw cannotWrite(file, err);
  }
}

/**
 * Streams a file to `file.path` atomically: the path is checked first ({@link checkOutputPath}), `work` writes to
 * a UTF-8 stream on a temporary file beside it, and the file is renamed over the path when `work` has ended and the
 * stream has flushed; on any failure (of `work`, of a write, of `signal` checked after the flush) the temporary
 * file is removed and nothing is left at the path.
 * @param file the path, and the option that named it (`--out`) for the error.
 * @returns what `work` returned.
 * @throws AppError `file_unwritable` naming the flag, the path and the fix (also for a write of `work` the file
 *   system refused); whatever else `work` throws, as it is.
 */
export async function streamFileAtomic<T>(
  file: OutputFile,
  work: (out: Writable) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const target = await checkOutputPath(file);
  const tmp = tempPathBeside(target);
  const out = createWriteStream(tmp, { encoding: 'utf8' });
  const ioError = (err: unknown) => (err instanceof AppError ? err : cannotWrite(file, err));
  try {
    await once(out, 'open').catch((err: unknown) => {
      throw ioError(err);
    });
    const r = await work(out);
    out.end();
    await once(out, 'finish').catch((err: unknown) => {
      throw ioError(err);
    });
    signal?.throwIfAborted();
    await rename(tmp, target).catch((err: unknown) => {
      throw ioError(err);
    });
    return r;
  } catch (err) {
    out.destroy();
    await rm(tmp, { force: true });
    // A write of `work` that the file system refused (a full disk) is the file's failure, said as such.
    throw (err as { syscall?: unknown }).syscall !== undefined ? ioError(err) : err;
  }
}
