/**
 * @module llm/openai-client
 * An {@link LlmClient} for any OpenAI-compatible chat-completions endpoint, over the `openai` package (the only
 * importer of it), with the response cache in front.
 *
 * What the SDK already does and we rely on (openai 7.59, `client.js` makeRequest / retryRequest / shouldRetry):
 * - retries 408, 409, 429, every 5xx and connection errors/timeouts, `max_retries` times (default 2);
 * - waits what `retry-after-ms` or `Retry-After` (seconds or an HTTP date) asks before retrying, else an
 *   exponential backoff of 0.5 s · 2^n (max 8 s) with jitter;
 * - obeys `x-should-retry: true|false` from the server;
 * - applies `timeout` per attempt and aborts on the caller's `signal`.
 *
 * What it lacks, added here:
 * - **a cap on `Retry-After`**: the SDK sleeps whatever the server asks (an hour if it says so), and that sleep does
 *   not listen to the abort signal. A fetch wrapper marks any response asking to wait longer than
 *   `max_retry_after_ms` with `x-should-retry: false`, so the SDK stops and the request fails at once as
 *   `rate_limited`, saying how long the server asked for;
 * - **a per-endpoint concurrency limit** (`max_concurrency`, p-limit), shared by every run using this client;
 * - **accounting**: latency (wall time of the call, retries included) and token usage per request;
 * - **failures as values**: endpoint faults become {@link CompletionResult} failures with a code, never throws;
 * - **the response cache**: an identical request is answered from the database with no call; only non-empty
 *   answers are stored;
 * - **requests sent ahead** ({@link OpenAiCompatibleClient.sendAhead}): a run's first requests leave before the
 *   database that stores their answers is open (eval/requests-ahead); the run takes each answer as its own call;
 * - **a breaker for refused credentials** (llm/auth-breaker): after a few consecutive HTTP 401/403 answers the
 *   client sends nothing more for a while and fails every request at once with the same cause, which names the
 *   model and its `api_key_env` variable (the SDK does not retry 401/403, but a run would still send one request
 *   per item).
 */
import OpenAI from 'openai';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Logger } from '../core/logger.ts';
import { AuthBreaker, type AuthBreakerOptions, isAuthRefusal } from './auth-breaker.ts';
import { httpExchange } from './http-exchange.ts';
import { redactSecrets } from './redact.ts';
import { type ReasoningMode, readReply, splitReasoningText } from './reply.ts';
import { requestHash } from './request-hash.ts';
import type { ResponseCache, StoredResponse } from './response-cache.ts';
import type { CompletionRequest, CompletionResult, LlmClient } from './types.ts';

/** Options of {@link OpenAiCompatibleClient}. */
export interface OpenAiClientOptions {
  /** Configured model name. */
  readonly name: string;
  /** Endpoint, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  readonly baseUrl: string;
  /** Provider model id sent as `model`. */
  readonly model: string;
  /** API key; endpoints that need none get a placeholder (the SDK requires one). */
  readonly apiKey?: string | undefined;
  /** The variable the key comes from (config/models.yaml `api_key_env`), named when the endpoint refuses it. */
  readonly apiKeyEnv?: string | undefined;
  /**
   * Where the model's entry is written, as errors name it: the models file actually read (config/files.ts), or
   * an approved submission; default `config/models.yaml`.
   */
  readonly entryIn?: string | undefined;
  /** The breaker of refused credentials (default: open after 3 consecutive 401/403, probe after 60 s). */
  readonly authBreaker?: AuthBreakerOptions;
  /** How reasoning in replies is treated (llm/reply; default `auto`). */
  readonly reasoning?: ReasoningMode;
  /** Default sampling parameters (a request's `params` override them key by key). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Per-attempt timeout, ms (default 60,000). */
  readonly timeoutMs?: number;
  /** Requests in flight at once (default 4). */
  readonly maxConcurrency?: number;
  /** SDK retries (default 2). */
  readonly maxRetries?: number;
  /** Longest Retry-After waited out, ms (default 60,000). */
  readonly maxRetryAfterMs?: number;
  readonly cache: ResponseCache;
  readonly logger: Logger;
}

/** How long a response asks us to wait (retry-after-ms, else Retry-After in seconds or as a date), in ms. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && !Number.isNaN(Number.parseFloat(ms))) return Number.parseFloat(ms);
  const ra = headers.get('retry-after');
  if (ra === null) return undefined;
  const secs = Number.parseFloat(ra);
  if (!Number.isNaN(secs)) return secs * 1000;
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : at - now;
}

/** `p`'s value, or undefined as soon as `signal` aborts (at once when it already has). */
async function untilAborted<T>(
  p: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) return undefined;
  let onAbort = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A `Response` of `text` that holds no WHATWG body stream: `text()`, `json()` and `arrayBuffer()` answer from
 * `text` itself. The SDK reads a JSON answer with `text()` (openai's `internal/parse.js`); a stream built around
 * each answer and drained again cost ~25–40 µs of the event loop per completion (Node 22), the loop that the
 * lanes of a run share (bench/first-start.ts).
 */
export function textResponse(text: string, init: ResponseInit): Response {
  const r = new Response(null, init);
  Object.defineProperties(r, {
    text: { value: () => Promise.resolve(text) },
    json: { value: () => Promise.resolve().then(() => JSON.parse(text)) },
    arrayBuffer: { value: () => Promise.resolve(new TextEncoder().encode(text).buffer) },
  });
  return r;
}

/** One call's outcome: a non-empty answer with its latency and usage, or a failure (not yet stored). */
type CallOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      readonly reasoning?: string;
      readonly reasoningTokens?: number;
      readonly latencyMs: number;
      readonly usage: OpenAI.CompletionUsage | undefined;
    }
  | Extract<CompletionResult, { ok: false }>;

/** A call sent ahead ({@link OpenAiCompatibleClient.sendAhead}): its outcome, and that outcome once it has come. */
interface AheadCall {
  readonly call: Promise<CallOutcome>;
  came?: CallOutcome;
}

/** The OpenAI-compatible client. */
export class OpenAiCompatibleClient implements LlmClient {
  readonly name: string;
  readonly maxConcurrency: number;
  readonly #o: OpenAiClientOptions;
  readonly #sdk: OpenAI;
  readonly #limit: LimitFunction;
  readonly #log: Logger;
  readonly #maxRetryAfterMs: number;
  readonly #breaker: AuthBreaker;
  /** The requests on their way to the endpoint (sent, not yet answered and stored), by cache key. */
  readonly #sent = new Map<string, Promise<CompletionResult>>();
  /** Cache keys found missing from the response cache by {@link prefetch} and not sent since. */
  readonly #absent = new Set<string>();
  /** Calls made by {@link sendAhead} that nobody has asked for yet, by cache key. */
  readonly #ahead = new Map<string, AheadCall>();
  /**
   * True once {@link complete} was asked a request not sent ahead: the caller has caught up with (or left) the
   * order {@link sendAhead} sends in, which then sends nothing more.
   */
  #aheadOver = false;
  /** {@link sendAhead}'s lanes waiting for one of its answers to be taken. */
  #aheadWaiting: (() => void)[] = [];

  /** Where the model's entry is written, as errors name it ({@link OpenAiClientOptions.entryIn}). */
  get #entry(): string {
    return this.#o.entryIn ?? 'config/models.yaml';
  }
  /** The cache keys sent while a {@link prefetch} look-up is on its way, one set per look-up. */
  readonly #sentDuringPrefetch = new Set<Set<string>>();

  constructor(o: OpenAiClientOptions) {
    this.#o = o;
    this.#breaker = new AuthBreaker(o.authBreaker);
    this.name = o.name;
    this.maxConcurrency = o.maxConcurrency ?? 4;
    this.#limit = pLimit(this.maxConcurrency);
    this.#maxRetryAfterMs = o.maxRetryAfterMs ?? 60_000;
    this.#log = o.logger.child({ component: 'llm', model: o.name });
    const log = this.#log;
    this.#sdk = new OpenAI({
      baseURL: o.baseUrl,
      apiKey: o.apiKey ?? 'no-key',
      timeout: o.timeoutMs ?? 60_000,
      maxRetries: o.maxRetries ?? 2,
      logLevel: 'warn',
      logger: {
        error: (msg: string) => log.error(this.#redact(msg)),
        warn: (msg: string) => log.warn(this.#redact(msg)),
        info: (msg: string) => log.debug(this.#redact(msg)),
        debug: (msg: string) => log.trace(this.#redact(msg)),
      },
      fetch: (url, init) => this.#fetch(url, init),
    });
  }

  /** Endpoint text without the model's key or anything like a bearer token (llm/redact). */
  #redact(text: string): string {
    return redactSecrets(text, [this.#o.apiKey]);
  }

  /**
   * One HTTP attempt, as the SDK's `fetch`. The SDK's own timeout stops when the headers arrive
   * (`client.js` fetchWithTimeout clears it before the body is read); here the whole body is read within the
   * same `timeout_ms` of the attempt's start, else the attempt is aborted and fails as a timeout, which the SDK
   * retries like any timeout. With the body in hand:
   * - a 200 whose body is not JSON becomes a 502 marked `x-zhujiu-bad-response`, so the SDK retries it like a
   *   5xx and the final failure is named `bad_response`;
   * - an error asking to wait longer than `max_retry_after_ms` is marked `x-should-retry: false`: the SDK
   *   would sleep, unabortably, that long.
   */
  async #fetch(url: string | URL | Request, init: RequestInit | undefined): Promise<Response> {
    const ms = this.#o.timeoutMs ?? 60_000;
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, ms);
    const outer = init?.signal;
    const onAbort = () => attempt.abort();
    if (outer?.aborted) attempt.abort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    let res: Pick<Response, 'status' | 'statusText' | 'headers'>;
    let bytes: Uint8Array | ArrayBuffer;
    try {
      // Over node:http where it can (llm/http-exchange: a third of fetch's CPU), else through fetch.
      const got = await httpExchange(url instanceof Request ? url.url : url, {
        ...init,
        signal: attempt.signal,
      });
      if (got) {
        res = got;
        bytes = got.bytes;
      } else {
        const r = await fetch(url, { ...init, signal: attempt.signal });
        res = r;
        bytes = await r.arrayBuffer();
      }
    } catch (err) {
      // The SDK names an error matching /timed out/ a timeout (and retries it); an abort of the caller's own
      // signal stays an abort.
      if (timedOut && !outer?.aborted)
        throw new Error(`request timed out: no complete answer within ${ms} ms`, { cause: err });
      throw err;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
    // fetch's headers cannot be changed: copied; ours (llm/http-exchange) are this answer's own.
    const headers = res instanceof Response ? new Headers(res.headers) : res.headers;
    headers.delete('content-length');
    headers.delete('content-encoding');
    if (res.status >= 200 && res.status < 300) {
      const text = new TextDecoder().decode(bytes);
      try {
        JSON.parse(text);
      } catch {
        headers.set('x-zhujiu-bad-response', '1');
        headers.set('content-type', 'text/plain');
        const start = this.#redact(text.slice(0, 80)).replace(/\s+/gu, ' ');
        this.#log.info({ status: res.status }, 'endpoint answered with a body that is not JSON');
        return new Response(`HTTP ${res.status} body is not JSON: "${start}"`, {
          status: 502,
          headers,
        });
      }
      return textResponse(text, { status: res.status, statusText: res.statusText, headers });
    }
    const wait = retryAfterMs(res.headers);
    this.#log.info({ status: res.status, retryAfterMs: wait }, 'endpoint answered with an error');
    if (wait !== undefined && wait > this.#maxRetryAfterMs) {
      // Longer than we are willing to wait: tell the SDK not to retry.
      headers.set('x-should-retry', 'false');
      headers.set('x-zhujiu-retry-after-capped', String(Math.round(wait)));
    }
    const nullBody = [101, 204, 205, 304].includes(res.status);
    return new Response(nullBody ? null : bytes, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  }

  /** The effective sampling parameters of a request. */
  #params(request: CompletionRequest): Record<string, unknown> {
    return { ...(this.#o.params ?? {}), ...(request.params ?? {}) };
  }

  /** The cache key of a request (see llm/request-hash). */
  hashOf(request: CompletionRequest): string {
    return requestHash({
      model: this.#o.model,
      baseUrl: this.#o.baseUrl,
      params: this.#params(request),
      messages: request.messages,
      templateVersion: request.templateVersion,
      jsonSchema: request.jsonSchema,
      reasoning: this.#o.reasoning,
    });
  }

  /**
   * Answers `request`: with the answer of the same request sent ahead ({@link sendAhead}), as this request's own
   * call (not `cached`), stored now; else from the response cache when it holds the request's hash; else, when an
   * identical request is on its way to the endpoint (another item or run asking the same), with that request's
   * answer once it comes (as a cache hit: `cached`, no call of its own; when that request fails, this one is sent
   * itself); else with a call.
   */
  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const hash = this.hashOf(request);
    const ahead = this.#ahead.get(hash)?.call;
    if (ahead === undefined) this.#aheadOver = true;
    this.#ahead.delete(hash);
    for (const wake of this.#aheadWaiting.splice(0)) wake();
    const hit =
      ahead !== undefined || this.#absent.has(hash) ? undefined : await this.#o.cache.lookup(hash);
    if (hit) return this.#fromCache(hit);
    const sent = ahead === undefined ? this.#sent.get(hash) : undefined;
    if (sent) {
      const shared = await untilAborted(sent, request.signal);
      if (shared === undefined)
        return { ok: false, code: 'aborted', message: 'cancelled', latencyMs: 0 };
      if (shared.ok) return { ...shared, cached: true };
    }
    // Registered before any await, so an identical request whose cache look-up answers next finds it; from now on
    // the answer may be stored, so the request is looked up again.
    this.#absent.delete(hash);
    for (const during of this.#sentDuringPrefetch) during.add(hash);
    const answer =
      ahead === undefined ? this.#send(request, hash) : this.#takeAhead(request, hash, ahead);
    if (!sent) {
      this.#sent.set(hash, answer);
      const done = () => void this.#sent.delete(hash);
      answer.then(done, done); // a rejection reaches the caller through `answer` itself
    }
    return answer;
  }

  /**
   * Sends `requests`, in their order, before anybody asks for them, each only once (by cache key), at most
   * `maxConcurrency` at once within the same concurrency limit as every other call, and at most `most` (≥ 1) whose
   * answers nobody has asked for yet. Each answer waits, unstored, for {@link complete} to ask for its request: it
   * is then that request's own call (stored with its `itemId`, not `cached`), or its failure. Nothing is looked
   * up: the caller knows the response cache holds none of them (eval/requests-ahead sends a run's requests, in
   * the run's order, while a new embedded database is being created, and goes on while the run asks for them).
   * Sending ends when `requests` ends, when `signal` aborts (which aborts the calls on their way: abort it when
   * nothing more will be asked), or when {@link complete} is asked a request not sent ahead (the asker has caught
   * up, or asks in another order). Answers nobody asks for are wasted.
   */
  sendAhead(requests: Iterable<CompletionRequest>, most: number, signal: AbortSignal): void {
    const next = requests[Symbol.iterator]();
    const sending = () => !this.#aheadOver && !signal.aborted;
    const onAbort = () => {
      for (const wake of this.#aheadWaiting.splice(0)) wake();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const lane = async () => {
      while (sending()) {
        if (this.#ahead.size >= most) {
          await new Promise<void>((wake) => this.#aheadWaiting.push(wake));
          continue;
        }
        const r = next.next();
        if (r.done) return;
        const hash = this.hashOf(r.value);
        if (this.#ahead.has(hash)) continue;
        const call = this.#limit(() => this.#call({ ...r.value, signal }));
        const entry: AheadCall = { call };
        this.#ahead.set(hash, entry);
        // A throw reaches whoever asks, through `call` itself.
        entry.came = await call.catch(() => undefined);
      }
    };
    const lanes = Array.from({ length: this.maxConcurrency }, lane);
    void Promise.all(lanes).finally(() => signal.removeEventListener('abort', onAbort));
  }

  /**
   * The answer of `request` sent ahead (`ahead`), stored under `hash`; when it was aborted before its answer came
   * (the sending stopped), the request is sent now.
   */
  async #takeAhead(
    request: CompletionRequest,
    hash: string,
    ahead: Promise<CallOutcome>,
  ): Promise<CompletionResult> {
    const got = await untilAborted(ahead, request.signal);
    if (got === undefined)
      return { ok: false, code: 'aborted', message: 'cancelled', latencyMs: 0 };
    if (!got.ok && got.code === 'aborted') return this.#send(request, hash);
    return this.#store(request, hash, got);
  }

  /** How many answers sent ahead have come and were not asked for yet ({@link keepAhead} stores them). */
  get answeredAhead(): number {
    let n = 0;
    for (const { came } of this.#ahead.values()) if (came?.ok) n++;
    return n;
  }

  /**
   * Sends nothing more ahead and stores the answers sent ahead that have come and were never asked for, each with
   * the `itemId` of the request of `requests` it answers (LlmClient.keepAhead); `requests` is read only while such
   * answers are left. Calls still on their way are left to the signal given to {@link sendAhead}.
   * @returns how many answers were stored.
   * @throws AppError `db_unavailable` from the response cache.
   */
  async keepAhead(requests: Iterable<CompletionRequest>): Promise<number> {
    this.#aheadOver = true;
    for (const wake of this.#aheadWaiting.splice(0)) wake();
    const answers = new Map<string, CallOutcome>();
    for (const [hash, { came }] of this.#ahead) if (came?.ok) answers.set(hash, came);
    if (answers.size === 0) return 0;
    const saves: Promise<CompletionResult>[] = [];
    for (const request of requests) {
      const hash = this.hashOf(request);
      const answer = answers.get(hash);
      if (answer === undefined) continue;
      answers.delete(hash);
      this.#ahead.delete(hash);
      saves.push(this.#store(request, hash, answer));
      if (answers.size === 0) break;
    }
    this.drain(); // nothing joins these saves: stored at once
    await Promise.all(saves);
    return saves.length;
  }

  /** Answers are stored as they come from now on (LlmClient.drain, llm/response-cache). */
  drain(): void {
    this.#o.cache.drain?.();
  }

  /**
   * Looks up which of `requests` have a stored answer, in one query (LlmClient.prefetch): the others are sent
   * without a look-up of their own when they come (a run on an empty cache saves one grouped look-up per few
   * items), unless this client sent them since, or until the returned function forgets them.
   * @throws AppError `db_unavailable` from the response cache.
   */
  async prefetch(requests: readonly CompletionRequest[]): Promise<() => void> {
    const hashes = requests.map((r) => this.hashOf(r));
    const during = new Set<string>();
    this.#sentDuringPrefetch.add(during);
    let stored: Set<string>;
    try {
      stored = await this.#o.cache.stored(hashes);
    } finally {
      this.#sentDuringPrefetch.delete(during);
    }
    const absent = hashes.filter((h) => !stored.has(h) && !during.has(h) && !this.#sent.has(h));
    for (const h of absent) this.#absent.add(h);
    return () => {
      for (const h of absent) this.#absent.delete(h);
    };
  }

  /** A stored answer as a result (`cached`), read like a reply (llm/reply). */
  #fromCache(hit: StoredResponse): CompletionResult {
    // Answers stored before reasoning was separated may still hold their `<think>` blocks: read them the same way.
    const split =
      (this.#o.reasoning ?? 'auto') === 'keep'
        ? { ok: true as const, answer: hit.output, reasoning: [] }
        : splitReasoningText(hit.output);
    if (!split.ok)
      return {
        ok: false,
        code: 'reasoning_unclosed',
        message: `the stored answer ends inside <${split.tag}>: the model ran out of tokens while reasoning; raise params.max_tokens of the model in ${this.#entry}`,
        latencyMs: 0,
      };
    if (split.answer === '')
      return {
        ok: false,
        code: 'empty_reply',
        message: 'the stored answer holds reasoning but no answer',
        latencyMs: 0,
      };
    return {
      ok: true,
      text: split.answer,
      ...(split.reasoning.length > 0 && this.#o.reasoning !== 'strip'
        ? { reasoning: split.reasoning.join('\n\n') }
        : {}),
      cached: true,
      responseId: hit.id,
      latencyMs: hit.latencyMs ?? 0,
      ...(hit.promptTokens !== null ? { promptTokens: hit.promptTokens } : {}),
      ...(hit.completionTokens !== null ? { completionTokens: hit.completionTokens } : {}),
    };
  }

  /** Sends `request` (cache key `hash`) within the concurrency limit and stores a non-empty answer. */
  async #send(request: CompletionRequest, hash: string): Promise<CompletionResult> {
    // The concurrency slot covers the HTTP call only: storing the answer happens after it is given back, so the
    // next request starts while this answer is written (the cache groups concurrent saves into one insert).
    return this.#store(request, hash, await this.#limit(() => this.#call(request)));
  }

  /** Stores the non-empty answer `answer` of `request` (cache key `hash`); a failure is returned as it is. */
  async #store(
    request: CompletionRequest,
    hash: string,
    answer: CallOutcome,
  ): Promise<CompletionResult> {
    if (!answer.ok) return answer;
    const { text, latencyMs, usage, reasoning, reasoningTokens } = answer;
    const responseId = await this.#o.cache.save({
      requestHash: hash,
      itemId: request.itemId ?? null,
      output: text,
      reasoning,
      reasoningTokens,
      latencyMs,
      promptTokens: usage?.prompt_tokens,
      completionTokens: usage?.completion_tokens,
    });
    this.#log.debug(
      { latencyMs, promptTokens: usage?.prompt_tokens, completionTokens: usage?.completion_tokens },
      'answered',
    );
    return {
      ok: true,
      text,
      cached: false,
      responseId,
      latencyMs,
      ...(reasoning !== undefined ? { reasoning } : {}),
      ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
      ...(usage
        ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
        : {}),
    };
  }

  /** One call to the endpoint: a non-empty answer with its latency and usage, or a failure. */
  async #call(request: CompletionRequest): Promise<CallOutcome> {
    const t0 = performance.now();
    const elapsed = () => Math.round(performance.now() - t0);
    if (request.signal?.aborted)
      return { ok: false, code: 'aborted', message: 'cancelled before the call', latencyMs: 0 };
    // Checked when the request has its slot, so requests queued behind a refused one are not sent either.
    const refused = this.#breaker.admit();
    if (refused)
      return {
        ok: false,
        code: 'auth_refused',
        status: refused.status,
        message: refused.message,
        latencyMs: 0,
      };
    const body = {
      ...this.#params(request),
      model: this.#o.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      stream: false,
      ...(request.jsonSchema
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: request.jsonSchema.name,
                schema: request.jsonSchema.schema,
                strict: true,
              },
            },
          }
        : {}),
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    let completion: OpenAI.Chat.ChatCompletion;
    // The SDK adds an abort listener to the signal it is given and never removes it: give it a per-request
    // signal, linked to the caller's, so a long-lived run signal does not collect one listener per request.
    const own = new AbortController();
    const onAbort = () => own.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      completion = await this.#sdk.chat.completions.create(body, { signal: own.signal });
    } catch (err) {
      const raw = this.#failure(err, elapsed());
      const failure = { ...raw, message: this.#redact(raw.message) };
      if (failure.code === 'auth_refused')
        this.#breaker.refused({ status: failure.status ?? 0, message: failure.message });
      else this.#breaker.inconclusive();
      // A cancelled request (Ctrl-C, a cancelled run) is no failure worth a warning.
      this.#log[failure.code === 'aborted' ? 'debug' : 'warn'](
        { code: failure.code, status: failure.status, latencyMs: failure.latencyMs },
        `request failed: ${failure.message}`,
      );
      return failure;
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
    this.#breaker.accepted();
    const latencyMs = elapsed();
    // The SDK hands back the parsed body as the server sent it, whatever its shape: llm/reply reads it.
    const reply = readReply(completion, this.#o.reasoning ?? 'auto', this.#entry);
    if (!reply.ok) {
      const message = this.#redact(reply.message);
      this.#log.warn({ code: reply.code, latencyMs }, `reply not usable: ${message}`);
      return { ok: false, code: reply.code, message, latencyMs };
    }
    const usage = (completion as { usage?: unknown }).usage;
    return {
      ok: true,
      text: reply.answer,
      ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
      ...(reply.reasoningTokens !== undefined ? { reasoningTokens: reply.reasoningTokens } : {}),
      latencyMs,
      usage:
        typeof usage === 'object' && usage !== null ? (usage as OpenAI.CompletionUsage) : undefined,
    };
  }

  /** The endpoint as failure messages name it: the base URL's host (`api.openai.com`, `127.0.0.1:8000`). */
  get endpoint(): string {
    try {
      return new URL(this.#o.baseUrl).host || this.#o.baseUrl;
    } catch {
      return this.#o.baseUrl;
    }
  }

  /** The path of the base URL (`/v1`), or '' when it does not parse. */
  #basePath(): string {
    try {
      return new URL(this.#o.baseUrl).pathname;
    } catch {
      return '';
    }
  }

  /** "after 3 attempts": the first try plus the SDK's retries. */
  #attempts(): string {
    const n = (this.#o.maxRetries ?? 2) + 1;
    return n === 1 ? 'after 1 attempt' : `after ${n} attempts`;
  }

  #failure(err: unknown, latencyMs: number): Extract<CompletionResult, { ok: false }> {
    const host = this.endpoint;
    if (err instanceof OpenAI.APIUserAbortError)
      return { ok: false, code: 'aborted', message: 'cancelled', latencyMs };
    if (err instanceof OpenAI.APIConnectionTimeoutError)
      return {
        ok: false,
        code: 'timeout',
        message: `no answer from ${host} within ${this.#o.timeoutMs ?? 60_000} ms (${this.#attempts()})`,
        latencyMs,
      };
    if (err instanceof OpenAI.APIConnectionError)
      return {
        ok: false,
        code: 'network',
        message: `cannot reach ${host} ${this.#attempts()} (${err.message.replace(/\.$/u, '')}); check base_url of model ${this.name} in ${this.#entry} and that the server is up`,
        latencyMs,
      };
    if (err instanceof OpenAI.APIError) {
      const status = err.status ?? 0;
      const capped = err.headers?.get('x-zhujiu-retry-after-capped');
      if (capped) {
        return {
          ok: false,
          code: 'rate_limited',
          status,
          message: `HTTP ${status}: ${host} asked to wait ${Math.round(Number(capped) / 1000)} s, more than max_retry_after_ms (${this.#maxRetryAfterMs} ms)`,
          latencyMs,
        };
      }
      if (isAuthRefusal(status)) {
        // No endpoint detail: the same cause for every request, so a run lists it once (eval/summary).
        const env = this.#o.apiKeyEnv;
        return {
          ok: false,
          code: 'auth_refused',
          status,
          message: env
            ? `model ${this.name}: the endpoint ${host} refused the API key (HTTP ${status}); check ${env} (${this.#entry} api_key_env)`
            : `model ${this.name}: the endpoint ${host} refused the request without an API key (HTTP ${status}); set api_key_env of model ${this.name} in ${this.#entry} to the variable that holds its key, and export that variable`,
          latencyMs,
        };
      }
      const detail = this.#redact(err.message).slice(0, 300);
      if (err.headers?.get('x-zhujiu-bad-response'))
        return {
          ok: false,
          code: 'bad_response',
          message: `${host} answered with a body that is not JSON ${this.#attempts()} (${detail.replace(/^502 /u, '')}); check that base_url of model ${this.name} in ${this.#entry} points at an OpenAI-compatible API`,
          latencyMs,
        };
      if (status === 404 && !/\/v\d+\/?$/u.test(this.#basePath()))
        return {
          ok: false,
          code: 'http_error',
          status,
          message: `HTTP 404 from ${host}: base_url ${this.#o.baseUrl} of model ${this.name} does not end in /v1; add it (e.g. ${this.#o.baseUrl.replace(/\/+$/u, '')}/v1) in ${this.#entry} (${detail})`,
          latencyMs,
        };
      return {
        ok: false,
        code: status === 429 ? 'rate_limited' : 'http_error',
        status,
        message:
          status >= 500 || status === 429
            ? `HTTP ${status} from ${host} ${this.#attempts()}: ${detail}`
            : `HTTP ${status} from ${host}: ${detail}`,
        latencyMs,
      };
    }
    return {
      ok: false,
      code: 'network',
      message: `request to ${host} failed: ${this.#redact((err as Error)?.message ?? String(err))}`,
      latencyMs,
    };
  }
}
