/**
 * storage/tar-unpack: a folder packed as `npm run build` packs the prepared database (modern-tar's `packTar`, a
 * plain tar) comes back identical, a long name included (a pax header), and so does a gzip-compressed one; a
 * damaged archive is refused.
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
import { unpackTarFile } from '../../../src/storage/tar-unpack.ts';

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
});
