/**
 * @module storage/tar-unpack
 * Unpacks the prepared database (storage/pglite-template, a tar of a PGlite data folder written by modern-tar's
 * `packTar`, stored uncompressed; a gzip-compressed one is read too): the archive is read (and decompressed) whole, parsed in memory by modern-tar's
 * `unpackTar` (strict: checksums and the ustar magic checked; pax long names), and its files written several at a
 * time. The folder is ~40 MB in ~1,150 entries (most of it a 16 MB WAL segment); streamed through `createGunzip`
 * (16 KB chunks) and modern-tar's file-system `unpackTar` it cost ~0.7–1 CPU-s on the 2-core machine we measure on,
 * ~0.45 CPU-s this way (bench/first-start), holding the archive in memory (~45 MB) only while it runs. Entries other
 * than files and folders (links, devices) are refused, as is a name that leaves the target folder.
 *
 * Trailing zero bytes are not stored: {@link packFolder} cuts them off each file and records the file's whole
 * size in the entry's pax header ({@link FULL_SIZE_KEY}); unpacking writes the stored bytes and extends the file to
 * that size (`ftruncate`, which reads as zeros), so every file comes back byte for byte. The prepared database's
 * 16 MB WAL segment holds a few kilobytes of records after that (storage/pglite-template), and the archive is
 * ~9.5 MB instead of ~27 MB: ~0.3 s less to read, parse and write on the 2-core machine we measure on.
 *
 * The archive is stored uncompressed (26 MB instead of 3): decompressing it was ~0.1 s of every first start on the
 * 2-core machine we measure on (bench/first-start.ts). A gzip-compressed archive is decompressed on the thread pool (zlib's asynchronous `gunzip`), so this thread is free meanwhile
 * (the caller opens the database's WebAssembly then, storage/db.ts), into one output buffer of the size the gzip
 * trailer states (ISIZE, RFC 1952 §2.3.1): decompressed in zlib's default 16 KB chunks and joined, the same 42 MB
 * took ~0.45 CPU-s on this thread instead of ~0.2 CPU-s on another.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { type TarEntry as PackEntry, packTar, unpackTar } from 'modern-tar';

/**
 * The pax header key (POSIX.1-2001 pax format: a vendor's keys are `VENDOR.keyword`) holding a file's whole size
 * in bytes when the entry stores only its bytes up to the last non-zero one.
 */
export const FULL_SIZE_KEY = 'ZHUJIU.size';

/** The largest whole size an entry may declare: a damaged header cannot make a larger file than this. */
const MAX_FULL_SIZE = 1024 * 1024 * 1024;

/** Files written at once by default: creating a file costs the thread pool's disk time, not this thread's CPU. */
const WRITES_AT_ONCE = 16;

/** Files written synchronously between two turns of the thread's event loop ({@link unpackTarFileSync}). */
const YIELD_EVERY = 32;

/** The largest output buffer sized from the gzip trailer: a damaged trailer cannot ask for more memory than this. */
const MAX_OUTPUT_CHUNK = 256 * 1024 * 1024;

/**
 * Decompresses the gzip data `gz` on the thread pool into one buffer when its trailer's ISIZE (the uncompressed
 * size mod 2^32, RFC 1952 §2.3.1) is right, else in several that zlib joins: the trailer only sizes the buffer.
 * @throws Error from zlib on damaged data.
 */
export async function gunzipWhole(gz: Buffer): Promise<Buffer> {
  const isize = gz.length >= 18 ? gz.readUInt32LE(gz.length - 4) : 0;
  const chunkSize = Math.min(MAX_OUTPUT_CHUNK, Math.max(64 * 1024, isize));
  return promisify(gunzip)(gz, { chunkSize });
}

/** The first bytes of gzip data (RFC 1952 §2.3.1: ID1, ID2). */
function isGzip(data: Buffer): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}

/**
 * Unpacks the tar `archive` (gzip-compressed or not, told by its first bytes) into the folder `target` (created; entries written as the archive holds
 * them, files with their mode): the archive is parsed on this thread and its files written {@link WRITES_AT_ONCE}
 * at a time through the thread pool (a busy disk makes each file's creation take milliseconds).
 * @param writesAtOnce files written at once (default {@link WRITES_AT_ONCE}); fewer leave more of libuv's four
 *   pool threads to others (e.g. the module loader's file reads while a command starts, storage/template-fill).
 * @returns the number of entries written (files and folders, pax headers not counted).
 * @throws Error on a damaged archive (a bad checksum, a truncated archive), an entry type other than file or
 *   folder, or a name outside `target`; what was written by then stays (the caller unpacks into a scratch
 *   folder).
 */
export async function unpackTarFile(
  archive: string,
  target: string,
  writesAtOnce: number = WRITES_AT_ONCE,
): Promise<number> {
  const data = await readFile(archive);
  const { files, count } = await unpackFolders(
    isGzip(data) ? await gunzipWhole(data) : data,
    target,
  );
  let next = 0;
  const writer = async () => {
    for (let e = files[next++]; e !== undefined; e = files[next++]) {
      await writeFile(e.path, e.data as Buffer, { mode: e.mode });
      if (e.fullSize !== undefined) await truncate(e.path, e.fullSize);
    }
  };
  const writers = Math.max(1, Math.min(writesAtOnce, files.length));
  await Promise.all(Array.from({ length: writers }, writer));
  return count;
}

/**
 * {@link unpackTarFile} for a thread that has nothing else to do (storage/template-fill-worker): the archive is
 * read, decompressed and its files written synchronously, one after another, without the thread pool's round
 * trips; only the parsing awaits (modern-tar's `unpackTar` returns a promise).
 * @param stopped asked before each folder and file is made: once it answers true, nothing more is written (the
 *   process is ending and removes the folder, storage/template-fill). When given, `target` must exist and is
 *   never made here, and folders are made one level at a time, so a `target` removed meanwhile stays removed:
 *   a write that was under way when it was removed fails instead of making it again.
 * @returns the number of entries written (files and folders).
 * @throws Error as {@link unpackTarFile} does, or "unpacking stopped"; what was written by then stays.
 */
export async function unpackTarFileSync(
  archive: string,
  target: string,
  stopped?: () => boolean,
): Promise<number> {
  const data = readFileSync(archive);
  const tar = isGzip(data) ? gunzipSync(data) : data;
  const { files, count } = await unpackFolders(tar, target, stopped);
  for (const [i, e] of files.entries()) {
    // The thread's other work (its WebAssembly compile finishing, storage/template-fill-worker) goes on between
    // files now and then; `stopped` is asked after it, right before the write.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((go) => setImmediate(go));
    if (stopped?.()) throw new Error('unpacking stopped');
    writeFileSync(e.path, e.data as Buffer, { mode: e.mode });
    if (e.fullSize !== undefined) truncateSync(e.path, e.fullSize);
  }
  return count;
}

/**
 * Parses the tar `tar` for the folder `target`, creates `target` (unless `stopped` is given: it exists) and every
 * folder the archive holds, one level at a time, and returns its files (not yet written) and the number of its
 * entries.
 * @throws Error as {@link unpackTarFile} does.
 */
async function unpackFolders(
  tar: Uint8Array,
  target: string,
  stopped?: () => boolean,
): Promise<{ readonly files: readonly TarEntry[]; readonly count: number }> {
  const root = resolve(target);
  const entries = await tarEntries(tar, root);
  const made = new Set<string>([root]);
  if (stopped?.()) throw new Error('unpacking stopped');
  // A stoppable unpack's folder exists already and is never made again (unpackTarFileSync).
  if (stopped === undefined) mkdirSync(root, { recursive: true });
  const folder = (dir: string): void => {
    if (made.has(dir)) return;
    folder(dirname(dir));
    if (stopped?.()) throw new Error('unpacking stopped');
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    made.add(dir);
  };
  const files: TarEntry[] = [];
  for (const e of entries) {
    if (e.data === undefined) folder(e.path);
    else {
      folder(dirname(e.path));
      files.push(e);
    }
  }
  return { files, count: entries.length };
}

/** A file (with its data) or folder (no data) of an archive, its path resolved inside the target folder. */
interface TarEntry {
  readonly path: string;
  readonly mode: number;
  readonly data?: Buffer;
  /** The file's whole size when `data` stops before it (the rest is zeros, {@link FULL_SIZE_KEY}). */
  readonly fullSize?: number;
}

/**
 * The whole size an entry's pax header declares ({@link FULL_SIZE_KEY}), or undefined when it declares none.
 * @throws Error when it is not a whole number from the stored size up to {@link MAX_FULL_SIZE}.
 */
function fullSizeOf(name: string, pax: Record<string, string> | undefined, stored: number) {
  const text = pax?.[FULL_SIZE_KEY];
  if (text === undefined) return undefined;
  const size = /^\d{1,10}$/u.test(text) ? Number(text) : Number.NaN;
  if (!(size >= stored && size <= MAX_FULL_SIZE))
    throw new Error(`tar entry ${JSON.stringify(name)} declares a size of ${JSON.stringify(text)}`);
  return size;
}

/**
 * The files and folders of the tar `tar`, in archive order, their paths resolved under `root`.
 * @throws Error as {@link unpackTarFile} does.
 */
async function tarEntries(tar: Uint8Array, root: string): Promise<TarEntry[]> {
  return (await unpackTar(tar, { strict: true })).map(({ header, data }) => {
    const path = resolve(root, header.name);
    const rel = relative(root, path);
    if (rel.startsWith('..') || rel.startsWith(sep) || resolve(root, rel) !== path)
      throw new Error(`tar entry ${JSON.stringify(header.name)} leaves the target folder`);
    const mode = (header.mode ?? 0o644) & 0o777;
    if (header.type === 'directory') return { path, mode };
    if (header.type === 'file' && data !== undefined)
      return {
        path,
        mode,
        data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
        fullSize: fullSizeOf(header.name, header.pax, data.byteLength),
      };
    throw new Error(
      `tar entry ${JSON.stringify(header.name)} has type ${JSON.stringify(header.type)}`,
    );
  });
}

/**
 * Archives the folder `dir` (its files and folders, recursively, in name order; names relative to it with `/`)
 * as an uncompressed tar in the format {@link unpackTarFile} reads: each file's trailing zero bytes are left out
 * and its whole size recorded under {@link FULL_SIZE_KEY} when any were. Entries other than files and folders
 * are refused, as the unpacking refuses them.
 * @returns the archive's bytes.
 * @throws Error from the file system, or for a link or other special file in `dir`.
 */
export async function packFolder(dir: string): Promise<Uint8Array> {
  const entries: PackEntry[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const e of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const path = `${folder}/${e.name}`;
      const name = `${prefix}${e.name}`;
      const st = statSync(path);
      const mode = st.mode & 0o777;
      if (e.isDirectory()) {
        entries.push({
          header: { name: `${name}/`, type: 'directory', size: 0, mode, mtime: st.mtime },
        });
        walk(path, `${name}/`);
      } else if (e.isFile()) {
        const data = readFileSync(path);
        let end = data.length;
        while (end > 0 && data[end - 1] === 0) end--;
        const pax = end < data.length ? { [FULL_SIZE_KEY]: String(data.length) } : undefined;
        const header = { name, type: 'file' as const, size: end, mode, mtime: st.mtime, pax };
        entries.push({ header, body: data.subarray(0, end) });
      } else throw new Error(`${path} is neither a file nor a folder`);
    }
  };
  walk(resolve(dir), '');
  return packTar(entries);
}
