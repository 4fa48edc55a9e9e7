/**
 * llm/http-fetch against a local HTTP server: what the OpenAI-compatible client relies on when its requests go
 * over `node:http` instead of `fetch` (method, headers and body sent; status, headers and body read whole; a
 * compressed answer decoded; a redirect followed as `fetch` follows it; an abort and a cut connection rejected).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange } from '../../../src/llm/http-fetch.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('llm/http-fetch exchange', () => {
  let server: Server;
  let base: string;
  const routes = new Map<string, Handler>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        const h = routes.get(req.url ?? '');
        if (h) h(req, body, res);
        else res.writeHead(404).end('no route');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the method, headers and body, and reads status, headers and the whole body', async () => {
    routes.set('/echo', (req, body, res) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-a': 'b' });
      res.write('{"method":');
      res.end(
        JSON.stringify({
          method: req.method,
          auth: req.headers.authorization,
          length: req.headers['content-length'],
          body,
        }).slice(10),
      );
    });
    const text = JSON.stringify({ q: '问题' });
    const got = await exchange(`${base}/echo`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: text,
    });
    expect(got.status).toBe(201);
    expect(got.statusText).toBe('Made');
    expect(got.headers.get('x-a')).toBe('b');
    expect(JSON.parse(new TextDecoder().decode(got.bytes))).toEqual({
      method: 'POST',
      auth: 'Bearer k',
      length: String(Buffer.byteLength(text)),
      body: text,
    });
  });

  it('decodes a gzip answer and follows a redirect as fetch does', async () => {
    routes.set('/gz', (_req, _body, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
    });
    routes.set('/moved', (_req, _body, res) => {
      res.writeHead(307, { location: '/echo2' }).end();
    });
    routes.set('/echo2', (req, body, res) => {
      res.writeHead(200).end(`${req.method} ${body}`);
    });
    const gz = await exchange(`${base}/gz`, { method: 'GET' });
    expect(new TextDecoder().decode(gz.bytes)).toBe('{"ok":true}');
    const moved = await exchange(`${base}/moved`, { method: 'POST', body: 'x' });
    expect(moved.status).toBe(200);
    expect(new TextDecoder().decode(moved.bytes)).toBe('POST x');
  });

  it('rejects with an AbortError when the signal aborts mid-answer, and on a cut connection', async () => {
    routes.set('/slow', (_req, _body, res) => {
      res.writeHead(200);
      res.write('{"part":');
    });
    routes.set('/cut', (_req, _body, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"part":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const ac = new AbortController();
    const slow = exchange(`${base}/slow`, { method: 'GET', signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' });
    await expect(exchange(`${base}/slow`, { signal: ac.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(exchange(`${base}/cut`, { method: 'GET' })).rejects.toBeInstanceOf(Error);
  });
});
