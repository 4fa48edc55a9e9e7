/**
 * @module llm/node-fetch
 * A lean `fetch` for the OpenAI SDK over node:http / node:https with keep-alive agents. Node's built-in fetch
 * (undici) costs about a millisecond of CPU per request in WHATWG Request/Headers/stream machinery (measured by
 * bench/eval: about half the runner's CPU per item against a local endpoint); this one sends the request with
 * node:http and buffers the reply into a `Response`, at a fraction of that.
 *
 * Scope: whole (non-streamed) replies only, which is all the clients here ask for (`stream: false`). Requests it
 * does not cover are handed to the global fetch unchanged: a body that is not a string or bytes (streams, forms),
 * a URL that is not http(s). Compressed replies (gzip, deflate, br) are decoded, as fetch does. Abort (the SDK's
 * timeout or the caller's signal) rejects with an `AbortError`, so the SDK tells a timeout from a connection
 * failure as it does with fetch; network errors reject with `TypeError('fetch failed', { cause })` like undici.
 */
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

const agents: Readonly<Record<string, http.Agent>> = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Flattens fetch's HeadersInit into node:http's header object. */
function headerObject(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) {
    h.forEach((v, k) => {
      out[k] = v;
    });
  } else if (Array.isArray(h)) {
    for (const [k, v] of h) if (k !== undefined && v !== undefined) out[k.toLowerCase()] = v;
  } else {
    for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

/** The reply body decoded from its content-encoding (as fetch does); unknown encodings are left as they are. */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

/**
 * `fetch(url, init)` over node:http(s) for string or byte bodies (see the module notes); anything else goes to
 * the global fetch.
 * @returns a `Response` holding the whole reply body.
 * @throws DOMException `AbortError` when `init.signal` aborts; TypeError `fetch failed` (cause: the socket error)
 *   when the endpoint cannot be reached or the connection breaks.
 */
export function nodeFetch(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  const body = init.body;
  const plainBody =
    body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (!url || !plainBody || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return fetch(input, init);
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError());
  return new Promise<Response>((resolve, reject) => {
    const headers = headerObject(init.headers);
    const payload = typeof body === 'string' ? Buffer.from(body) : (body ?? undefined);
    if (payload && headers['content-length'] === undefined)
      headers['content-length'] = String(payload.byteLength);
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? 'GET',
      headers,
      agent: agents[url.protocol],
    });
    const onAbort = () => {
      req.destroy();
      fail(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => fail(new TypeError('fetch failed', { cause: err })));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => fail(new TypeError('fetch failed', { cause: err })));
      res.on('end', () => {
        if (settled) return;
        let data: Buffer;
        try {
          data = decode(Buffer.concat(chunks), res.headers['content-encoding']);
        } catch (err) {
          fail(new TypeError('fetch failed: the reply could not be decompressed', { cause: err }));
          return;
        }
        const h = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2)
          h.append(raw[i] as string, raw[i + 1] as string);
        const status = res.statusCode ?? 0;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        try {
          resolve(
            new Response(status === 204 || status === 205 || status === 304 ? null : data, {
              status,
              statusText: res.statusMessage ?? '',
              headers: h,
            }),
          );
        } catch (err) {
          reject(new TypeError(`fetch failed: unusable reply (HTTP ${status})`, { cause: err }));
        }
      });
    });
    req.end(payload);
  });
}
