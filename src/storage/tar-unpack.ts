/**
 * @module storage/tar-unpack
 * Unpacks the prepared database (storage/pglite-template, a gzip-compressed tar of a PGlite data folder written by
 * modern-tar's `packTar`): the archive is read and decompressed whole, its entries parsed in memory, and its files
 * written several at a time. The folder is ~40 MB in ~1,150 entries (most of it a 16 MB WAL segment); streamed
 * through `createGunzip` (16 KB chunks) and modern-tar's `unpackTar` it cost ~0.7–1 CPU-s on the 2-core machine we
 * measure on, ~0.45 CPU-s this way (bench/first-start), holding the archive in memory (~45 MB) only while it runs.
 *
 * Format (POSIX ustar, IEEE Std 1003.1-2001 "pax" interchange format): 512-byte headers, each followed by its data
 * padded to 512 bytes; an entry's name is `prefix/name`, or the `path` of a preceding pax extended header (type `x`);
 * type `0` (or NUL) is a regular file and `5` a directory; the archive ends with zero blocks. Any other entry type
 * (links, devices) is refused, as is a name that leaves the target folder.
 */
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

/** A NUL-terminated ASCII field of a header. */
function text(h: Buffer, at: number, len: number): string {
  const end = h.indexOf(0, at);
  return h.toString('utf8', at, end >= 0 && end < at + len ? end : at + len);
}

/** An octal number field of a header (size, mode); base-256 sizes (GNU, files ≥ 8 GiB) are refused. */
function octal(h: Buffer, at: number, len: number): number {
  if (((h[at] as number) & 0x80) !== 0) throw new Error('base-256 numbers are not supported');
  const s = text(h, at, len).trim();
  return s === '' ? 0 : Number.parseInt(s, 8);
}

/** The records (`length key=value\n`) of a pax extended header. */
function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space < 0) break;
    const len = Number.parseInt(data.toString('utf8', i, space), 10);
    if (!(len > 0)) break;
    const record = data.toString('utf8', space + 1, i + len - 1);
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    i += len;
  }
  return out;
}

/** Files written at once: creating a file costs the thread pool's disk time, not this thread's CPU. */
const WRITES_AT_ONCE = 16;

/**
 * Unpacks the gzip-compressed tar `archive` into the folder `target` (created; entries written as the archive holds
 * them, files with their mode): the archive is parsed on this thread and its files written {@link WRITES_AT_ONCE}
 * at a time through the thread pool (a busy disk makes each file's creation take milliseconds).
 * @returns the number of entries written (files and folders, pax headers not counted).
 * @throws Error on a damaged archive (a bad checksum, a truncated entry or archive), an entry type other than file
 *   or folder, or a name outside `target`; what was written by then stays (the caller unpacks into a scratch
 *   folder).
 */
export async function unpackTarGz(archive: string, target: string): Promise<number> {
  const root = resolve(target);
  const entries = tarEntries(gunzipSync(await readFile(archive)), root);
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
  await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, files.length) }, writer));
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
 * @throws Error as {@link unpackTarGz} does.
 */
function tarEntries(tar: Buffer, root: string): TarEntry[] {
  const out: TarEntry[] = [];
  let paxPath: string | undefined;
  for (let at = 0; ; ) {
    if (at + BLOCK > tar.length) throw new Error('truncated tar archive (no end-of-archive block)');
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break; // end of archive
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] as number);
    if (sum !== octal(h, 148, 8)) throw new Error(`damaged tar header at byte ${at}`);
    const size = octal(h, 124, 12);
    const type = String.fromCharCode(h[156] as number);
    const dataAt = at + BLOCK;
    if (dataAt + size > tar.length) throw new Error(`truncated tar entry at byte ${at}`);
    const data = tar.subarray(dataAt, dataAt + size);
    at = dataAt + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      paxPath = paxRecords(data).get('path');
      continue;
    }
    if (type === 'g') continue; // global pax header: nothing we use
    const prefix = text(h, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    paxPath = undefined;
    const path = resolve(root, name);
    const rel = relative(root, path);
    if (rel.startsWith('..') || rel.startsWith(sep) || resolve(root, rel) !== path)
      throw new Error(`tar entry ${JSON.stringify(name)} leaves the target folder`);
    const mode = octal(h, 100, 8) & 0o777;
    if (type === '5') out.push({ path, mode });
    else if (type === '0' || type === '\0') out.push({ path, mode, data });
    else throw new Error(`tar entry ${JSON.stringify(name)} has type ${JSON.stringify(type)}`);
  }
  return out;
}
