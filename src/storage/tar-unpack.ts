/**
 * @module storage/tar-unpack
 * Unpacks the prepared database (storage/pglite-template, a gzip-compressed tar of a PGlite data folder written by
 * modern-tar's `packTar`) in one go: the archive is read and decompressed whole, its entries parsed in memory and
 * written with synchronous file calls. The folder is ~40 MB in ~1,150 entries (most of it a 16 MB WAL segment);
 * streamed through `createGunzip` and modern-tar's `unpackTar`, each entry cost several thread-pool round trips and
 * the whole ~1.3 s of a 2-core machine, a third of a first command's start (bench/first-start); this takes a fraction
 * of it and holds the archive in memory (~45 MB) only while it runs.
 *
 * Format (POSIX ustar, IEEE Std 1003.1-2001 "pax" interchange format): 512-byte headers, each followed by its data
 * padded to 512 bytes; an entry's name is `prefix/name`, or the `path` of a preceding pax extended header (type `x`);
 * type `0` (or NUL) is a regular file and `5` a directory; the archive ends with zero blocks. Any other entry type
 * (links, devices) is refused, as is a name that leaves the target folder.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Unpacks the gzip-compressed tar `archive` into the folder `target` (created; entries written as the archive holds
 * them, files with their mode).
 * @returns the number of entries written (files and folders, pax headers not counted).
 * @throws Error on a damaged archive (a bad checksum, a truncated entry), an entry type other than file or folder,
 *   or a name outside `target`; what was written by then stays (the caller unpacks into a scratch folder).
 */
export function unpackTarGzSync(archive: string, target: string): number {
  const tar = gunzipSync(readFileSync(archive));
  const root = resolve(target);
  mkdirSync(root, { recursive: true });
  const made = new Set<string>([root]);
  const folder = (dir: string) => {
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  };
  let entries = 0;
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
    const dest = resolve(root, name);
    const rel = relative(root, dest);
    if (rel.startsWith('..') || rel.startsWith(sep) || resolve(root, rel) !== dest)
      throw new Error(`tar entry ${JSON.stringify(name)} leaves the target folder`);
    if (type === '5') folder(dest);
    else if (type === '0' || type === '\0') {
      folder(dirname(dest));
      writeFileSync(dest, data, { mode: octal(h, 100, 8) & 0o777 });
    } else throw new Error(`tar entry ${JSON.stringify(name)} has type ${JSON.stringify(type)}`);
    entries += 1;
  }
  return entries;
}
