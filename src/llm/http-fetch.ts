/**
 * @module llm/http-fetch
 * One HTTP exchange of the OpenAI-compatible client (llm/openai-client) over `node:http` / `node:https` with their
 * keep-alive global agents, the body read whole: status, headers and bytes. An evaluation run sends thousands of
 * small requests, and Node's `fetch` (undici, its web streams and WHATWG request objects) costs about as much CPU
 * per request again as this (bench/first-start: ~0.4 ms of ~0.9 ms per request with the SDK's own work); what the
 * client needs of a request is a method, headers, a text body and an abort signal, which this covers.
 *
 * Everything else goes through `fetch` as before ({@link exchange} falls back to it): a body that is not text or
 * bytes (a stream, form data), a URL that is not `http:` or `https:`, and any redirect (3xx with a `Location`), so
 * that redirects are followed exactly as `fetch` follows them. A compressed answer (`content-encoding` gzip,
 * deflate or br, which a server may send unasked) is decompressed, as `fetch` does.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The answer of one exchange, its body read whole. */
export interface Exchanged {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

/** `init.body` as a string or bytes, or undefined when it is something else (a stream, form data). */
function plainBody(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return undefined;
}

/** `init.headers` as a plain object (lower-case names). */
function headerObject(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (h === undefined) return out;
  if (h instanceof Headers) {
    h.forEach((v, k) => {
      out[k] = v;
    });
    return out;
  }
  const entries = Array.isArray(h) ? h : Object.entries(h);
  for (const [k, v] of entries) if (v !== undefined) out[k.toLowerCase()] = String(v);
  return out;
}

/** The body of `res` decoded as `content-encoding` says (none, gzip, deflate, br). */
function decoded(res: IncomingMessage, raw: Buffer): Uint8Array {
  const enc = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(raw);
  if (enc === 'deflate') return inflateSync(raw);
  if (enc === 'br') return brotliDecompressSync(raw);
  return raw;
}

/** An abort as `fetch` reports it (`AbortError`), so the OpenAI SDK tells it from a connection failure. */
function abortError(signal: AbortSignal): unknown {
  return signal.reason instanceof Error && signal.reason.name === 'AbortError'
    ? signal.reason
    : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Sends one request and reads its whole answer: over `node:http(s)` when it can ({@link module}), else with
 * `fetch`. A redirect is sent again through `fetch`, which follows it.
 * @throws the transport's error (a refused or reset connection), or an `AbortError` when `init.signal` aborts
 *   (before or during the exchange); never for an HTTP status.
 */
export async function exchange(url: string | URL | Request, init: RequestInit): Promise<Exchanged> {
  const body = plainBody(init.body);
  const target = typeof url === 'string' ? new URL(url) : url instanceof URL ? url : undefined;
  if (
    body === undefined ||
    !target ||
    (target.protocol !== 'http:' && target.protocol !== 'https:')
  )
    return viaFetch(url, init);
  const got = await viaNode(target, init, body);
  if (got.status >= 300 && got.status < 400 && got.headers.has('location'))
    return viaFetch(url, init);
  return got;
}

/** The exchange through `fetch` (undici). */
async function viaFetch(url: string | URL | Request, init: RequestInit): Promise<Exchanged> {
  const res = await fetch(url, init);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    statusText: res.statusText,
    headers: new Headers(res.headers),
    bytes,
  };
}

/** The exchange through `node:http(s)` and its keep-alive global agent. */
function viaNode(
  target: URL,
  init: RequestInit,
  body: string | Uint8Array | null,
): Promise<Exchanged> {
  const signal = init.signal ?? undefined;
  return new Promise<Exchanged>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const headers = headerObject(init.headers);
    if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const req = send(target, { method: init.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('aborted', () => fail(new Error('the connection closed before the answer ended')));
      res.on('end', () => {
        if (settled) return;
        let bytes: Uint8Array;
        try {
          bytes = decoded(res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
        } catch (err) {
          return fail(err);
        }
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        const h = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2)
          h.append(raw[i] as string, raw[i + 1] as string);
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: h,
          bytes,
        });
      });
    });
    const onAbort = () => {
      const err = abortError(signal as AbortSignal);
      req.destroy(err instanceof Error ? err : undefined);
      fail(err);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(body ?? undefined);
  });
}
