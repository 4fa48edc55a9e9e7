/**
 * The lean fetch the OpenAI client uses (src/llm/node-fetch.ts), against local node:http servers: request and
 * reply as fetch gives them, compressed replies decoded, abort as an AbortError, an unreachable endpoint as
 * `fetch failed`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../../src/llm/node-fetch.ts';

describe('nodeFetch', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/echo') {
          res.writeHead(201, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
          res.end(
            JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }),
          );
        } else if (req.url === '/gzip') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          res.end(gzipSync(JSON.stringify({ text: '答案：Ｂ' })));
        } else if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 5_000).unref();
        } else {
          res.writeHead(429, { 'retry-after': '1' });
          res.end('{"error":{"message":"slow down"}}');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends method, headers and body, and returns status, headers and body as fetch does', async () => {
    const res = await nodeFetch(`${base}/echo`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"q":"问"}',
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"q":"问"}', auth: 'Bearer k' });
    const err = await nodeFetch(new URL(`${base}/other`), { method: 'GET' });
    expect(err.status).toBe(429);
    expect(err.headers.get('retry-after')).toBe('1');
    expect(await err.text()).toContain('slow down');
  });

  it('decodes a gzip reply', async () => {
    const res = await nodeFetch(`${base}/gzip`);
    expect(await res.json()).toEqual({ text: '答案：Ｂ' });
  });

  it('rejects with an AbortError when the signal aborts, and with fetch failed when nothing listens', async () => {
    const ac = new AbortController();
    const pending = nodeFetch(`${base}/slow`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((r) => dead.close(r));
    await expect(nodeFetch(`http://127.0.0.1:${port}/`)).rejects.toThrow('fetch failed');
  });
});
