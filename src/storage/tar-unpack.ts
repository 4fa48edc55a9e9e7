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
 * The archive is stored uncompressed (26 MB instead of 3): decompressing it was ~0.1 s of every first start on the
 * 2-core machine we measure on (bench/first-start.ts). A gzip-compressed archive is decompressed on the thread pool (zlib's asynchronous `gunzip`), so this thread is free meanwhile
 * (the caller opens the database's WebAssembly then, storage/db.ts), into one output buffer of the size the gzip
 * trailer states (ISIZE, RFC 1952 §2.3.1): decompressed in zlib's default 16 KB chunks and joined, the same 42 MB
 * took ~0.45 CPU-s on this thread instead of ~0.2 CPU-s on another.
 */
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { unpackTar } from 'modern-tar';

/** Files written at once by default: creating a file costs the thread pool's disk time, not this thread's CPU. */
const WRITES_AT_ONCE = 16;

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
  const root = resolve(target);
  const data = await readFile(archive);
  const entries = await tarEntries(isGzip(data) ? await gunzipWhole(data) : data, root);
  const made = new Set<string>([root]);
  mkdirSync(root, { recursive: true });
  const folder = (dir: string) => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
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
  let next = 0;
  const writer = async () => {
    for (let e = files[next++]; e !== undefined; e = files[next++])
      await writeFile(e.path, e.data as Buffer, { mode: e.mode });
  };
  const writers = Math.max(1, Math.min(writesAtOnce, files.length));
  await Promise.all(Array.from({ length: writers }, writer));
  return entries.length;
}

/** A file (with its data) or folder (no data) of an archive, its path resolved inside the target folder. */
interface TarEntry {
  readonly path: string;
  readonly mode: number;
  readonly data?: Buffer;
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
      return { path, mode, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
    throw new Error(
      `tar entry ${JSON.stringify(header.name)} has type ${JSON.stringify(header.type)}`,
    );
  });
}
