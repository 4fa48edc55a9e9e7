/**
 * @module eval/datasets/source
 * Reads the files of a dataset: a path relative to the datasets folder, or a URL with the SHA-256 of its bytes,
 * downloaded once (with `fetch`), verified and cached under the cache folder by checksum. A download whose bytes
 * do not match is refused and nothing is cached. Every path read stays inside its folder (datasets or cache):
 * one that resolves outside it (`../..`, an absolute path elsewhere, a symlink leading out) is refused before
 * anything is read ({@link insideFolder}).
 */
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { DatasetFileSpec } from '../../config/schema.ts';
import { AppError } from '../../core/errors.ts';
import { makeDirs } from '../../core/make-dirs.ts';
import { cannotRead } from '../../core/utf8.ts';
import { said, saidError } from '../../i18n/cli.ts';
import { causeSaid } from '../../i18n/error-cause.ts';
import { decodeUtf8 } from './decode.ts';

/** Where dataset files are read from. */
export interface DatasetLocation {
  /** Folder that relative paths are resolved against (`ZHUJIU_DATASETS_DIR`). */
  readonly datasetsDir: string;
  /** Folder for verified downloads (`ZHUJIU_DATASETS_CACHE`). */
  readonly cacheDir: string;
  /**
   * More folders where the real file behind a symlink of the datasets folder may lie (`ZHUJIU_DATASETS_ROOTS`);
   * the path as written must still be inside the datasets folder.
   */
  readonly roots?: readonly string[];
  /** Timeout of one download, ms (default 120 000). */
  readonly downloadTimeoutMs?: number;
}

/** One file's decoded text and the name to show in messages. */
export interface DatasetText {
  readonly name: string;
  readonly text: string;
}

/** A short name for a file spec, for messages. */
export function describeFile(spec: DatasetFileSpec): string {
  return typeof spec === 'string' ? spec : spec.url;
}

/** Whether `path` is `root` or below it (both absolute, normalised). */
function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `p` (symlinks followed), or `p` itself when it does not exist. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * `spec` resolved against `folder`, checked to stay inside it: lexically (no `..` out of it, no absolute path
 * elsewhere) and after following symlinks (of the file and of every folder above it, when they exist), whose
 * target must lie inside the folder or one of `roots` (`ZHUJIU_DATASETS_ROOTS`).
 * @param what names the folder in the message (`datasets folder`, `datasets cache`).
 * @throws AppError `dataset_invalid` naming the path and the folder; nothing is read.
 */
export function insideFolder(
  spec: string,
  folder: string,
  what = 'datasets folder',
  roots: readonly string[] = [],
): string {
  const root = resolve(folder);
  const path = resolve(root, spec);
  const target = real(path);
  if (!isWithin(root, path) || ![root, ...roots].some((r) => isWithin(real(resolve(r)), target)))
    throw saidError(
      'dataset_invalid',
      said('cli.dataset.outside', {
        spec,
        what: said(what === 'datasets cache' ? 'cli.dataset.cache' : 'cli.dataset.folder'),
        root,
        symlink: isWithin(root, path) ? said('cli.dataset.symlink') : '',
      }),
    );
  return path;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function download(url: string, expected: string, loc: DatasetLocation): Promise<string> {
  const cached = insideFolder(
    join(loc.cacheDir, `${expected}-${basename(new URL(url).pathname) || 'data'}`),
    loc.cacheDir,
    'datasets cache',
  );
  if (existsSync(cached)) {
    const bytes = await readFile(cached);
    if (sha256(bytes) === expected) return cached;
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(loc.downloadTimeoutMs ?? 120_000) });
  } catch (err) {
    throw saidError(
      'dataset_invalid',
      said('cli.dataset.downloadFailed', { url, why: causeSaid((err as Error).message) }),
      { cause: err },
    );
  }
  if (!res.ok) {
    throw saidError(
      'dataset_invalid',
      said('cli.dataset.downloadHttp', { url, status: res.status }),
    );
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const actual = sha256(bytes);
  if (actual !== expected) {
    throw saidError('dataset_invalid', said('cli.dataset.checksum', { url, actual, expected }));
  }
  const tmp = `${cached}.${process.pid}.tmp`;
  try {
    await makeDirs(loc.cacheDir);
    await writeFile(tmp, bytes);
    await rename(tmp, cached);
  } catch (err) {
    throw cacheUnwritable(loc.cacheDir, err);
  }
  return cached;
}

/**
 * The refusal of a datasets cache folder (`ZHUJIU_DATASETS_CACHE`) that a download or a constructed dataset cannot
 * be written into: AppError `file_unwritable` naming the folder, why (a file in its path names that file) and the
 * fix; `err` itself when it is an AppError already.
 */
export function cacheUnwritable(dir: string, err: unknown): Error {
  if (err instanceof AppError) return err;
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'ENOTDIR' || e.code === 'EEXIST'
      ? said('cli.dataset.cacheUnderFile', { file: e.path ?? dir })
      : (e.code ?? e.message);
  return saidError('file_unwritable', said('cli.dataset.cacheUnwritable', { dir, why }), {
    cause: err,
  });
}

/**
 * The local path of a file spec given as a path (resolved against the datasets folder); undefined for a URL.
 * @throws AppError `dataset_invalid` when the path leads outside the datasets folder ({@link insideFolder}).
 */
export function localFileOf(spec: DatasetFileSpec, loc: DatasetLocation): string | undefined {
  if (typeof spec !== 'string') return undefined;
  return insideFolder(spec, loc.datasetsDir, 'datasets folder', loc.roots);
}

/**
 * The local path of a file spec (downloading and verifying a URL first).
 * @throws AppError `dataset_invalid` when the path leads outside the datasets folder ({@link insideFolder}).
 */
export async function localPath(spec: DatasetFileSpec, loc: DatasetLocation): Promise<string> {
  if (typeof spec === 'string')
    return insideFolder(spec, loc.datasetsDir, 'datasets folder', loc.roots);
  return download(spec.url, spec.sha256, loc);
}

/**
 * Reads and decodes one dataset file.
 * @throws AppError `dataset_invalid` when the path leads outside the datasets folder, the file is missing (naming
 *   the datasets folder and how to set it), not UTF-8, or a download fails or does not match its checksum.
 */
export async function readDatasetFile(
  spec: DatasetFileSpec,
  loc: DatasetLocation,
): Promise<DatasetText> {
  const path = await localPath(spec, loc);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw cannotRead(path, 'dataset_invalid', err);
    throw saidError('dataset_invalid', said('cli.dataset.noFile', { path, dir: loc.datasetsDir }), {
      cause: err,
    });
  }
  const name = typeof spec === 'string' ? path : spec.url;
  return { name, text: decodeUtf8(bytes, name) };
}
