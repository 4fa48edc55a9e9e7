/**
 * @module eval/datasets/source
 * Reads the files of a dataset: a path relative to the datasets folder, or a URL with the SHA-256 of its bytes,
 * downloaded once (with `fetch`), verified and cached under the cache folder by checksum. A download whose bytes
 * do not match is refused and nothing is cached.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { DatasetFileSpec } from '../../config/schema.ts';
import { AppError } from '../../core/errors.ts';
import { cannotRead } from '../../core/utf8.ts';
import { decodeUtf8 } from './decode.ts';

/** Where dataset files are read from. */
export interface DatasetLocation {
  /** Folder that relative paths are resolved against (`ZHUJIU_DATASETS_DIR`). */
  readonly datasetsDir: string;
  /** Folder for verified downloads (`ZHUJIU_DATASETS_CACHE`). */
  readonly cacheDir: string;
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

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function download(url: string, expected: string, loc: DatasetLocation): Promise<string> {
  const cached = join(loc.cacheDir, `${expected}-${basename(new URL(url).pathname) || 'data'}`);
  if (existsSync(cached)) {
    const bytes = await readFile(cached);
    if (sha256(bytes) === expected) return cached;
  }
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(loc.downloadTimeoutMs ?? 120_000) });
  } catch (err) {
    throw new AppError(
      'dataset_invalid',
      `${url}: download failed (${(err as Error).message}); check the URL and the network, or download it and give a local path`,
      { cause: err },
    );
  }
  if (!res.ok) {
    throw new AppError(
      'dataset_invalid',
      `${url}: download failed with HTTP ${res.status}; check the URL`,
    );
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const actual = sha256(bytes);
  if (actual !== expected) {
    throw new AppError(
      'dataset_invalid',
      `${url}: checksum mismatch: sha256 is ${actual}, the suite expects ${expected}; the file changed upstream or the checksum is wrong (nothing was cached)`,
    );
  }
  await mkdir(loc.cacheDir, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, cached);
  return cached;
}

/** The local path of a file spec given as a path (relative ones resolved against the datasets folder); undefined for a URL. */
export function localFileOf(spec: DatasetFileSpec, loc: DatasetLocation): string | undefined {
  if (typeof spec !== 'string') return undefined;
  return isAbsolute(spec) ? spec : resolve(loc.datasetsDir, spec);
}

/** The local path of a file spec (downloading and verifying a URL first). */
export async function localPath(spec: DatasetFileSpec, loc: DatasetLocation): Promise<string> {
  if (typeof spec === 'string') return isAbsolute(spec) ? spec : resolve(loc.datasetsDir, spec);
  return download(spec.url, spec.sha256, loc);
}

/**
 * Reads and decodes one dataset file.
 * @throws AppError `dataset_invalid` when the file is missing (naming the datasets folder and how to set it),
 *   not UTF-8, or a download fails or does not match its checksum.
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
    throw new AppError(
      'dataset_invalid',
      `${path}: no such file (datasets folder ${loc.datasetsDir}); put the dataset files there or set ZHUJIU_DATASETS_DIR to the folder that holds them`,
      { cause: err },
    );
  }
  const name = typeof spec === 'string' ? path : spec.url;
  return { name, text: decodeUtf8(bytes, name) };
}
