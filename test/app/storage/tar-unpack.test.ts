/**
 * storage/tar-unpack: a folder packed as `npm run build` packs the prepared database (modern-tar's `packTar`,
 * gzip) comes back identical, a long name included (a pax header); a damaged archive is refused.
 */
import {
  createWriteStream,
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
import { packTar } from 'modern-tar/fs';
import { afterAll, describe, expect, it } from 'vitest';
import { unpackTarGz } from '../../../src/storage/tar-unpack.ts';

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

  /** A fresh archive of {@link files} (each test packs its own: tests run in any order). */
  async function packed(): Promise<string> {
    const src = mkdtempSync(join(dir, 'src-'));
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(join(src, name, '..'), { recursive: true });
      writeFileSync(join(src, name), data);
    }
    mkdirSync(join(src, 'pg_logical', 'snapshots'), { recursive: true });
    const archive = `${src}.tar.gz`;
    await pipeline(packTar(src), createGzip(), createWriteStream(archive));
    return archive;
  }

  it('unpacks every file and folder of a packTar archive, long names included', async () => {
    const archive = await packed();
    const out = join(dir, 'out');
    const n = await unpackTarGz(archive, out);
    for (const [name, data] of Object.entries(files))
      expect(readFileSync(join(out, name)).equals(data), name).toBe(true);
    expect(statSync(join(out, 'pg_logical', 'snapshots')).isDirectory()).toBe(true);
    // 5 files, their folders (base, base/5, pg_wal, global, deep, deep/ddd…) and pg_logical/snapshots.
    expect(n).toBe(5 + 6 + 2);
  });

  it('refuses a damaged archive', async () => {
    const archive = await packed();
    const tar = gunzipSync(readFileSync(archive));
    tar[0] = (tar[0] as number) ^ 0x01; // the first header's name: its checksum no longer matches
    const bad = join(dir, 'bad.tar.gz');
    writeFileSync(bad, gzipSync(tar));
    await expect(unpackTarGz(bad, join(dir, 'bad-out'))).rejects.toThrow(/checksum/iu);
    writeFileSync(bad, gzipSync(gunzipSync(readFileSync(archive)).subarray(0, 2048)));
    await expect(unpackTarGz(bad, join(dir, 'short-out'))).rejects.toThrow();
  });
});
