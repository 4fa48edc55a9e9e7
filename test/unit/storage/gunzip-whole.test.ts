import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipWhole } from '../../../src/storage/tar-unpack.ts';

describe('gunzipWhole', () => {
  it('gives back the data, whether small or larger than one zlib chunk', async () => {
    for (const size of [0, 10, 70_000, 1_000_000]) {
      const data = Buffer.concat([randomBytes(size >> 1), Buffer.alloc(size - (size >> 1), 7)]);
      expect((await gunzipWhole(gzipSync(data))).equals(data)).toBe(true);
    }
  });

  it('joins several gzip members, whose trailer states only the last one’s size', async () => {
    const a = Buffer.alloc(200_000, 1);
    const b = Buffer.from('tail');
    const out = await gunzipWhole(Buffer.concat([gzipSync(a), gzipSync(b)]));
    expect(out.equals(Buffer.concat([a, b]))).toBe(true);
  });

  it('refuses damaged data', async () => {
    const gz = gzipSync(Buffer.alloc(100_000, 3));
    gz.writeUInt32LE(12, gz.length - 4); // a trailer whose size is wrong
    await expect(gunzipWhole(gz)).rejects.toThrow();
    await expect(gunzipWhole(gz.subarray(0, gz.length >> 1))).rejects.toThrow();
  });
});
