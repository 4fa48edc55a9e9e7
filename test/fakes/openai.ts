/**
 * A local OpenAI-compatible chat-completions server for tests and benches (node:http on 127.0.0.1, port 0),
 * driven by the real `openai` client through its `baseURL`. Nothing leaves the machine.
 *
 * ## API
 * ```ts
 * const fake = await startFakeOpenAi({ answer: (call) => 'B' });   // or no options: answers "ok"
 * const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: 'test' });   // fake.baseUrl ends in /v1
 * ...
 * fake.calls            // every request received, in arrival order (FakeCall below)
 * fake.callCount        // fake.calls.length
 * fake.peakInFlight     // the most requests that were being answered at the same time
 * fake.answered         // replies fully sent (any status)
 * fake.setAnswer(fn)    // replace the answer function
 * fake.reset()          // forget calls and the peak
 * await fake.close()
 * ```
 * - `POST /v1/chat/completions` is answered by `answer(call)`, which returns (or resolves to) either a string (a
 *   200 reply with that content) or a {@link FakeReply}: `status` (429, 500...), `headers` (e.g.
 *   `{ 'retry-after': '1' }`), `content`, `usage` (token counts), `delayMs` (wait before answering), `body` (a raw
 *   JSON body that replaces the generated one), `finishReason`, `message` (fields merged into the generated
 *   `message`: `reasoning_content`, `content` as an array of parts, `refusal`, `tool_calls`...), `raw` (a body
 *   sent verbatim as `application/json`, e.g. text that is not JSON), `stall` (send the headers and the first
 *   bytes of the body, then nothing more until the client goes away), `echoAuthorization` (an error whose
 *   message repeats the request's `Authorization` header, as some proxies do).
 * - `FakeCall` carries the parsed JSON body, the messages, the model, the `authorization` header, `n` (the 0-based
 *   index of this call overall) and `attempt` (how many earlier calls had the same body: 0 for the first, 1 for the
 *   SDK's first retry of it...), so "500 on the first try, then succeed" is `call.attempt === 0 ? { status: 500 } : 'A'`.
 * - Options: `delayMs` (default delay of every reply), `usage` (default token counts: prompt = characters of the
 *   messages / 4 rounded up, completion = characters of the answer / 4 rounded up, unless given).
 * - Errors are answered with OpenAI's error shape `{ error: { message, type, code } }`. Any other route is a 404.
 * - `GET /v1/models` lists `fake-model`.
 * - Option `requireKey`: every request whose `Authorization` is not `Bearer <requireKey>` is answered 401.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake received it. */
export interface FakeCall {
  /** 0-based index of the call among all calls. */
  readonly n: number;
  /** How many earlier calls had exactly the same body (0 = first try). */
  readonly attempt: number;
  readonly model: string;
  readonly messages: readonly { role: string; content: string }[];
  /** The whole parsed request body (temperature, max_tokens, response_format...). */
  readonly body: Record<string, unknown>;
  readonly authorization: string | undefined;
  /** Milliseconds since the fake started (for ordering only, never for assertions on speed). */
  readonly at: number;
}

/** A scripted reply. */
export interface FakeReply {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly content?: string;
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
  readonly delayMs?: number;
  readonly finishReason?: string;
  /** Raw JSON body replacing the generated one. */
  readonly body?: unknown;
  /** Fields merged into the generated 200 reply's `message`. */
  readonly message?: Readonly<Record<string, unknown>>;
  /** `usage.completion_tokens_details.reasoning_tokens` of the generated reply. */
  readonly reasoningTokens?: number;
  /** A body sent verbatim (content type `application/json`), whatever it holds. */
  readonly raw?: string;
  /** Send the headers and the start of the body, then stall (the socket stays open until the client leaves). */
  readonly stall?: boolean;
  /** With an error `status`: the error message repeats the request's `Authorization` header. */
  readonly echoAuthorization?: boolean;
}

/** What the answer function returns. */
export type FakeAnswer = (call: FakeCall) => string | FakeReply | Promise<string | FakeReply>;

/** Options of {@link startFakeOpenAi}. */
export interface FakeOpenAiOptions {
  readonly answer?: FakeAnswer;
  readonly delayMs?: number;
  /** Refuse (401) every request not carrying this key. */
  readonly requireKey?: string;
}

/** A running fake. */
export interface FakeOpenAi {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly port: number;
  readonly calls: readonly FakeCall[];
  readonly callCount: number;
  readonly peakInFlight: number;
  /** Replies fully sent (any status). */
  readonly answered: number;
  setAnswer(answer: FakeAnswer): void;
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on 127.0.0.1 (a free port). */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let answer: FakeAnswer = options.answer ?? (() => 'ok');
  let calls: FakeCall[] = [];
  const seen = new Map<string, number>();
  let inFlight = 0;
  let peak = 0;
  let answered = 0;
  const t0 = performance.now();
  const sockets = new Set<import('node:net').Socket>();

  const server: Server = createServer(async (req, res) => {
    res.on('finish', () => {
      answered++;
    });
    try {
      const url = req.url ?? '';
      if (
        options.requireKey !== undefined &&
        req.headers.authorization !== `Bearer ${options.requireKey}`
      ) {
        sendJson(res, 401, {
          error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
        });
        return;
      }
      if (req.method === 'GET' && url.startsWith('/v1/models')) {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: 'fake-model', object: 'model', owned_by: 'fake' }],
        });
        return;
      }
      if (req.method !== 'POST' || !url.startsWith('/v1/chat/completions')) {
        sendJson(res, 404, {
          error: { message: `no route ${req.method} ${url}`, type: 'not_found' },
        });
        return;
      }
      const raw = await readBody(req);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        sendJson(res, 400, {
          error: { message: 'body is not JSON', type: 'invalid_request_error' },
        });
        return;
      }
      const attempt = seen.get(raw) ?? 0;
      seen.set(raw, attempt + 1);
      const call: FakeCall = {
        n: calls.length,
        attempt,
        model: String(body.model ?? ''),
        messages: (body.messages as FakeCall['messages']) ?? [],
        body,
        authorization: req.headers.authorization,
        at: performance.now() - t0,
      };
      calls.push(call);
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        const got = await answer(call);
        const reply: FakeReply = typeof got === 'string' ? { content: got } : got;
        const delay = reply.delayMs ?? options.delayMs ?? 0;
        if (delay > 0) await sleep(delay);
        const status = reply.status ?? 200;
        if (reply.stall) {
          res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
          res.write('{"id":"chatcmpl-stall","choices":[');
          await new Promise<void>((r) => res.on('close', () => r()));
          return;
        }
        if (reply.raw !== undefined) {
          res.writeHead(status, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(reply.raw),
            ...reply.headers,
          });
          res.end(reply.raw);
          return;
        }
        if (reply.body !== undefined) {
          sendJson(res, status, reply.body, reply.headers);
          return;
        }
        if (status >= 400) {
          sendJson(
            res,
            status,
            {
              error: {
                message: reply.echoAuthorization
                  ? `${reply.content ?? `scripted ${status}`} (request had Authorization: ${call.authorization ?? ''})`
                  : (reply.content ?? `scripted ${status}`),
                type: status === 429 ? 'rate_limit_exceeded' : 'server_error',
                code: null,
              },
            },
            reply.headers,
          );
          return;
        }
        const content = reply.content ?? '';
        const promptChars = call.messages.reduce((s, m) => s + String(m.content).length, 0);
        const usage = reply.usage ?? {
          prompt_tokens: Math.ceil(promptChars / 4),
          completion_tokens: Math.ceil(content.length / 4),
        };
        sendJson(
          res,
          status,
          {
            id: `chatcmpl-fake-${call.n}`,
            object: 'chat.completion',
            created: 1_700_000_000,
            model: call.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content, refusal: null, ...reply.message },
                finish_reason: reply.finishReason ?? 'stop',
                logprobs: null,
              },
            ],
            usage: {
              ...usage,
              total_tokens: usage.prompt_tokens + usage.completion_tokens,
              ...(reply.reasoningTokens !== undefined
                ? { completion_tokens_details: { reasoning_tokens: reply.reasoningTokens } }
                : {}),
            },
          },
          reply.headers,
        );
      } finally {
        inFlight--;
      }
    } catch (err) {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `fake failed: ${(err as Error).message}` } });
    }
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    get calls() {
      return calls;
    },
    get callCount() {
      return calls.length;
    },
    get peakInFlight() {
      return peak;
    },
    get answered() {
      return answered;
    },
    setAnswer(a) {
      answer = a;
    },
    reset() {
      calls = [];
      seen.clear();
      peak = 0;
      answered = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
