/**
 * llm/http-exchange against a real HTTP server on 127.0.0.1: the answer read whole with its headers, a compressed
 * answer decompressed, a redirect left to fetch, and fetch's errors where a request cannot be made (refused, cut
 * off, aborted).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpExchange } from '../../../src/llm/http-exchange.ts';

let server: Server;
let base: string;
const seen: { method?: string; body: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method, body, headers: req.headers });
      if (req.url === '/json') {
        res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-a': '1' });
        res.end(JSON.stringify({ got: body }));
      } else if (req.url === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(gzipSync('答案：A'));
      } else if (req.url === '/moved') {
        res.writeHead(307, { location: '/json' });
        res.end();
      } else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '1000' });
        res.write('partial');
        setTimeout(() => res.destroy(), 20);
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000).unref();
      } else res.end('?');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('httpExchange', () => {
  it('sends the method, headers and body; reads the status, headers and the whole body', async () => {
    const a = await httpExchange(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"q":"你好"}',
    });
    expect(a?.status).toBe(201);
    expect(a?.statusText).toBe('Made');
    expect(a?.headers.get('x-a')).toBe('1');
    expect(JSON.parse(new TextDecoder().decode(a?.bytes))).toEqual({ got: '{"q":"你好"}' });
    const last = seen.at(-1);
    expect(last?.method).toBe('POST');
    expect(last?.headers.authorization).toBe('Bearer k');
    expect(last?.headers['content-length']).toBe(String(Buffer.byteLength('{"q":"你好"}')));
  });

  it('decompresses a gzip answer', async () => {
    const a = await httpExchange(`${base}/gzip`);
    expect(new TextDecoder().decode(a?.bytes)).toBe('答案：A');
  });

  it('leaves a redirect, another scheme and a streamed body to fetch', async () => {
    expect(await httpExchange(`${base}/moved`, { method: 'POST', body: 'x' })).toBeUndefined();
    expect(await httpExchange('data:text/plain,hi')).toBeUndefined();
    expect(
      await httpExchange(`${base}/json`, { method: 'POST', body: new ReadableStream() }),
    ).toBeUndefined();
  });

  it("fails as fetch does: refused or cut off is TypeError('fetch failed') with the cause", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = await httpExchange(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe('fetch failed');
    expect(((refused as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    const cut = await httpExchange(`${base}/cut`).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(TypeError);
    expect((cut as Error).message).toBe('fetch failed');
  });

  it("rejects with the signal's reason when aborted", async () => {
    const c = new AbortController();
    const p = httpExchange(`${base}/slow`, { signal: c.signal });
    setTimeout(() => c.abort(), 20);
    const err = await p.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });
});
