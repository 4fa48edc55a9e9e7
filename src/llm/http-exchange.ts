/**
 * @module llm/http-exchange
 * One HTTP exchange over `node:http` / `node:https` with keep-alive agents, the answer's body read whole: what the
 * OpenAI-compatible client (llm/openai-client) asks of `fetch`, at about a third of its CPU. 2,000 chat completions
 * at 32 at once took 0.5 CPU-s this way against 1.7 through the global `fetch` (Node 22, whose `fetch` builds WHATWG
 * streams around every request and answer); in a run, that CPU is the event loop's, which the lanes share
 * (bench/first-start.ts).
 *
 * It behaves as `fetch` does where the client can tell: a request that cannot be made is a `TypeError("fetch
 * failed")` with the cause (a refused connection, a reset, a bad host), an aborted one rejects with the signal's
 * reason, and a compressed answer (`Content-Encoding: gzip`, `deflate`, `br`) is decompressed. What it does not do
 * is left to `fetch` ({@link httpExchange} returns undefined): a URL other than http(s), a body other than text or
 * bytes, and a redirect (answered 301, 302, 303, 307 or 308 with a Location), which `fetch` follows.
 */
import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';

/** An answer: status, headers and the whole body. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

/** The agents, one per scheme, keeping connections open between requests (idle ones never hold the process). */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const;

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** `init.body` as bytes or text, or null when it is another kind of body (a stream, form data). */
function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return null;
}

/** Node's response headers as a `Headers` (repeated ones joined as `fetch` joins them). */
function headersOf(res: http.IncomingMessage): Headers {
  const h = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) h.append(raw[i] as string, raw[i + 1] as string);
  return h;
}

/** `fetch`'s error for a request that could not be made, with `err` as its cause. */
function fetchFailed(err: unknown): TypeError {
  return new TypeError('fetch failed', { cause: err });
}

/**
 * Sends `init` (method, headers, a text or bytes body, signal) to `url` and reads the whole answer.
 * @returns the answer; undefined, with nothing sent or a redirect answered, when this is a request for `fetch`
 *   (see the module's comment).
 * @throws TypeError("fetch failed") with the cause when the request could not be made or its answer was cut off;
 *   the signal's reason when it aborts.
 */
export async function httpExchange(
  url: string | URL,
  init: RequestInit = {},
): Promise<HttpAnswer | undefined> {
  const u = new URL(url);
  const body = bodyOf(init.body);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || body === null) return undefined;
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw signal.reason;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  const client = u.protocol === 'https:' ? https : http;
  const answer = await new Promise<{ res: http.IncomingMessage; bytes: Buffer }>(
    (resolve, reject) => {
      const req = client.request(
        u,
        {
          method: init.method ?? 'GET',
          headers,
          agent: agents[u.protocol as 'http:' | 'https:'],
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ res, bytes: Buffer.concat(chunks) }));
          res.on('error', reject);
          res.on('aborted', () => reject(new Error('the answer was cut off')));
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  ).catch((err: unknown) => {
    throw signal?.aborted ? signal.reason : fetchFailed(err);
  });
  const { res } = answer;
  const status = res.statusCode ?? 0;
  if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) return undefined;
  let bytes = answer.bytes;
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  const decode = encoding === undefined ? undefined : decoders[encoding];
  if (decode && bytes.length > 0)
    bytes = await decode(bytes).catch((err: unknown) => Promise.reject(fetchFailed(err)));
  return { status, statusText: res.statusMessage ?? '', headers: headersOf(res), bytes };
}
