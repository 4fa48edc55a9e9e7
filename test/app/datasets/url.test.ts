/**
 * A dataset given by URL + SHA-256: downloaded from a local HTTP server on 127.0.0.1, verified, cached (the second
 * load makes no request), and refused on a checksum mismatch with nothing cached.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteSchema } from '../../../src/config/schema.ts';
import { isAppError } from '../../../src/core/errors.ts';
import { prepareDataset } from '../../../src/eval/datasets/index.ts';

const BODY = [
  '{"id":1,"sentence1":"他在北京工作","sentence2":"他有工作","label":"entailment"}',
  '{"id":2,"sentence1":"今天下雨","sentence2":"今天是晴天","label":"contradiction"}',
  '{"id":3,"sentence1":"她买了书","sentence2":"她喜欢读书","label":"neutral"}',
].join('\n');
const SHA = createHash('sha256').update(BODY).digest('hex');

describe('datasets by URL with a checksum', () => {
  let server: Server;
  let base = '';
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/ocnli.jsonl') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.end(BODY);
      } else {
        res.writeHead(404);
        res.end('not found');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const entry = (url: string, sha256: string) =>
    suiteSchema.parse({
      name: 't',
      datasets: [
        {
          name: 'ocnli',
          loader: 'ocnli',
          ability: 'reasoning',
          method: 'metrics',
          files: [{ url, sha256 }],
        },
      ],
    }).datasets[0] as NonNullable<ReturnType<typeof suiteSchema.parse>['datasets'][number]>;

  it('downloads once, verifies, caches; the second load makes no request', async () => {
    requests.length = 0; // this test counts its own requests only
    const cacheDir = mkdtempSync(join(tmpdir(), 'zj-cache-'));
    const loc = { datasetsDir: '/nonexistent', cacheDir };
    const d1 = await prepareDataset('t', entry(`${base}/ocnli.jsonl`, SHA), loc);
    expect(d1.items.map((i) => i.key)).toEqual(['1', '2', '3']);
    expect(d1.provenance?.files).toEqual([`${base}/ocnli.jsonl`]);
    expect(requests).toEqual(['/ocnli.jsonl']);
    expect(readdirSync(cacheDir)).toEqual([`${SHA}-ocnli.jsonl`]);
    const d2 = await prepareDataset('t', entry(`${base}/ocnli.jsonl`, SHA), loc);
    expect(d2.items).toHaveLength(3);
    expect(requests).toHaveLength(1);
  });

  it('a checksum mismatch is refused and nothing is cached; an HTTP error names the status', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'zj-cache-'));
    const wrong = '0'.repeat(64);
    const err = await prepareDataset('t', entry(`${base}/ocnli.jsonl`, wrong), {
      datasetsDir: '/x',
      cacheDir,
    }).catch((e) => e);
    expect(isAppError(err, 'dataset_invalid')).toBe(true);
    expect(err.message).toBe(
      `${base}/ocnli.jsonl: checksum mismatch: sha256 is ${SHA}, the suite expects ${wrong}; the file changed upstream or the checksum is wrong (nothing was cached)`,
    );
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([]);
    const e404 = await prepareDataset('t', entry(`${base}/missing.jsonl`, SHA), {
      datasetsDir: '/x',
      cacheDir,
    }).catch((e) => e);
    expect(e404.message).toBe(
      `${base}/missing.jsonl: download failed with HTTP 404; check the URL`,
    );
  });

  it('the suite schema wants 64 hex digits', () => {
    const r = suiteSchema.safeParse({
      name: 't',
      datasets: [
        {
          name: 'x',
          loader: 'ocnli',
          ability: 'language',
          method: 'metrics',
          files: [{ url: `${base}/a`, sha256: 'abc' }],
        },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toContain('64 lower-case hex digits');
  });
});
