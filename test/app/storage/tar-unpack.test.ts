/**
 * storage/tar-unpack: a folder packed as `npm run build` packs the prepared database (modern-tar's `packTar`, a
 * plain tar) comes back identical, a long name included (a pax header), and so does a gzip-compressed one; a
 * damaged archive is refused. An archive of `packFolder` (the prepared database's own format: trailing zeros left
 * out, the whole size in a pax header) comes back byte for byte through both unpackers, and a declared size that
 * cannot be right is refused.
 */
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { packTar as packTarEntries, unpackTar } from 'modern-tar';
import { packTar } from 'modern-tar/fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FULL_SIZE_KEY,
  packFolder,
  unpackTarFile,
  unpackTarFileSync,
} from '../../../src/storage/tar-unpack.ts';

describe('storage/tar-unpack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-tar-unpack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const longName = `${'n'.repeat(120)}.dat`;
  const files: Record<string, Buffer> = {
    PG_VERSION: Buffer.from('18\n'),
    'base/5/1255': Buffer.alloc(8192 * 3 + 17, 7),
    'pg_wal/000000010000000000000001': Buffer.alloc(1 << 20),
    'global/empty': Buffer.alloc(0),
    [`deep/${'d'.repeat(90)}/${longName}`]: Buffer.from('long'),
  };

  /** A fresh archive of {@link files}, gzip-compressed or not (each test packs its own: tests run in any order). */
  async function packed(gzip = true): Promise<string> {
    const src = mkdtempSync(join(dir, 'src-'));
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(join(src, name, '..'), { recursive: true });
      writeFileSync(join(src, name), data);
    }
    mkdirSync(join(src, 'pg_logical', 'snapshots'), { recursive: true });
    const archive = gzip ? `${src}.tar.gz` : `${src}.tar`;
    if (gzip) await pipeline(packTar(src), createGzip(), createWriteStream(archive));
    else await pipeline(packTar(src), createWriteStream(archive));
    return archive;
  }

  it.each([
    ['plain', false],
    ['gzip-compressed', true],
  ])(
    'unpacks every file and folder of a %s packTar archive, long names included',
    async (kind, gzip) => {
      const archive = await packed(gzip);
      const out = join(dir, `out-${kind}`);
      const n = await unpackTarFile(archive, out);
      for (const [name, data] of Object.entries(files))
        expect(readFileSync(join(out, name)).equals(data), name).toBe(true);
      expect(statSync(join(out, 'pg_logical', 'snapshots')).isDirectory()).toBe(true);
      // 5 files, their folders (base, base/5, pg_wal, global, deep, deep/ddd…) and pg_logical/snapshots.
      expect(n).toBe(5 + 6 + 2);
    },
  );

  it('refuses a damaged archive', async () => {
    const archive = await packed();
    const tar = gunzipSync(readFileSync(archive));
    tar[0] = (tar[0] as number) ^ 0x01; // the first header's name: its checksum no longer matches
    const bad = join(dir, 'bad.tar.gz');
    writeFileSync(bad, gzipSync(tar));
    await expect(unpackTarFile(bad, join(dir, 'bad-out'))).rejects.toThrow(/checksum/iu);
    writeFileSync(bad, gzipSync(gunzipSync(readFileSync(archive)).subarray(0, 2048)));
    await expect(unpackTarFile(bad, join(dir, 'short-out'))).rejects.toThrow();
  });

  /** A folder of {@link files} and a file ending in zeros after data, as the prepared database's WAL does. */
  function folderOfFiles(): string {
    const src = mkdtempSync(join(dir, 'folder-'));
    const wal = Buffer.alloc(1 << 20);
    wal.write('records', 0);
    wal[8191] = 1; // the last non-zero byte, on a page boundary's last byte
    for (const [name, data] of Object.entries({
      ...files,
      'pg_wal/000000010000000000000002': wal,
    })) {
      mkdirSync(join(src, name, '..'), { recursive: true });
      writeFileSync(join(src, name), data);
    }
    mkdirSync(join(src, 'pg_logical', 'snapshots'), { recursive: true });
    return src;
  }

  it.each([
    ['on the thread pool', unpackTarFile],
    ['synchronously', unpackTarFileSync],
  ])(
    'packFolder leaves trailing zeros out and unpacking %s restores every file byte for byte',
    async (_, unpack) => {
      const src = folderOfFiles();
      const tar = await packFolder(src);
      // The 1 MB all-zero segment and the 1 MB one with 8 KB of data are stored as 0 and 8,192 bytes.
      expect(tar.length).toBeLessThan(64 * 1024);
      const stored = await unpackTar(tar);
      const wal = stored.find((e) => e.header.name === 'pg_wal/000000010000000000000002');
      expect(wal?.data?.length).toBe(8192);
      expect(wal?.header.pax?.[FULL_SIZE_KEY]).toBe(String(1 << 20));
      const archive = `${src}.tar`;
      writeFileSync(archive, tar);
      const out = `${src}-out`;
      expect(await unpack(archive, out)).toBe(5 + 1 + 6 + 2);
      for (const name of [...Object.keys(files), 'pg_wal/000000010000000000000002'])
        expect(readFileSync(join(out, name)).equals(readFileSync(join(src, name))), name).toBe(
          true,
        );
      expect(statSync(join(out, 'pg_logical', 'snapshots')).isDirectory()).toBe(true);
    },
  );

  it('a stoppable unpack never makes its folder again once it is removed mid-way (a signal ending the process)', async () => {
    const src = folderOfFiles();
    const archive = `${src}-stop.tar`;
    writeFileSync(archive, await packFolder(src));
    const out = `${src}-stopped`;
    mkdirSync(out);
    // The folder goes between a check that still said "go on" and the next folder or file it makes.
    let asked = 0;
    const stopped = () => {
      asked += 1;
      if (asked === 3) rmSync(out, { recursive: true, force: true });
      return false;
    };
    await expect(unpackTarFileSync(archive, out, stopped)).rejects.toThrow(/ENOENT/);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['smaller than the stored bytes', '3'],
    ['not a number', '1e6'],
    ['larger than 1 GiB', String(2 ** 31)],
  ])('refuses an entry whose declared whole size is %s', async (_, size) => {
    const tar = await packTarEntries([
      { header: { name: 'f', size: 5, pax: { [FULL_SIZE_KEY]: size } }, body: 'abcde' },
    ]);
    const archive = join(dir, `declared-${size}.tar`);
    writeFileSync(archive, tar);
    await expect(unpackTarFile(archive, `${archive}-out`)).rejects.toThrow(
      new RegExp(`"f" declares a size of "${size}"`, 'u'),
    );
  });
});
