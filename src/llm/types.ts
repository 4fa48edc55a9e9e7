/**
 * @module llm/types
 * The model-client port: what evaluation runs, the judge and live battles ask of a model. Concrete clients (an
 * OpenAI-compatible endpoint through the `openai` package, recorded outputs) implement {@link LlmClient}; the
 * response cache sits inside the client, so callers never see whether an answer was cached except by `cached`.
 */

/** One chat message, as OpenAI's chat completions take it. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Structured output: a JSON schema the endpoint should follow (where it supports `response_format`). */
export interface JsonSchemaFormat {
  readonly name: string;
  readonly schema: Record<string, unknown>;
}

/** One request. Everything that determines the answer is part of the cache key. */
export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  /** Sampling parameters overriding the model's configured `params` (temperature, top_p, max_tokens, seed...). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** The version of the prompt template that produced `messages` (part of the cache key). */
  readonly templateVersion: string;
  /** The stored item this request answers, when there is one (the response row references it). */
  readonly itemId?: number;
  /** Ask for structured output. */
  readonly jsonSchema?: JsonSchemaFormat;
  /** Abort (e.g. the run was cancelled). */
  readonly signal?: AbortSignal;
}

/** Why a request produced no answer. Failures are never cached. */
export type CompletionFailureCode =
  | 'rate_limited'
  | 'timeout'
  | 'http_error'
  /** HTTP 401/403: the endpoint refused the credentials (llm/auth-breaker); no retry helps. */
  | 'auth_refused'
  | 'empty_reply'
  | 'refused'
  /** The model called a tool instead of answering (llm/reply). */
  | 'tool_call'
  /** A reply we cannot read: a body that is not JSON (retried like a 5xx), or a shape llm/reply does not know. */
  | 'bad_response'
  /** The reply ended inside `<think>` (the token budget ran out while reasoning): never scored (llm/reply). */
  | 'reasoning_unclosed'
  | 'no_recorded_answer'
  | 'aborted'
  | 'network';

/** The outcome of one request: an answer or a per-request failure (never thrown for endpoint faults). */
export type CompletionResult =
  | {
      readonly ok: true;
      /** The answer alone: the model's reasoning is never part of it (llm/reply). */
      readonly text: string;
      /** The model's reasoning, apart from the answer (stored with the response, never posted). */
      readonly reasoning?: string;
      /** Tokens spent reasoning, when the endpoint says (`completion_tokens_details.reasoning_tokens`). */
      readonly reasoningTokens?: number;
      /** True when answered from the response cache with no call. */
      readonly cached: boolean;
      /** The stored `responses` row, when the answer is stored. */
      readonly responseId?: number;
      readonly latencyMs: number;
      readonly promptTokens?: number;
      readonly completionTokens?: number;
    }
  | {
      readonly ok: false;
      readonly code: CompletionFailureCode;
      /** What went wrong, for logs and the run's failure list; never contains secrets. */
      readonly message: string;
      readonly status?: number;
      readonly latencyMs: number;
    };

/** A model that can be asked. */
export interface LlmClient {
  /** The configured model name (config/models.yaml `name`). */
  readonly name: string;
  /**
   * The most requests this endpoint takes at once (its `max_concurrency`). {@link complete} keeps to it by itself:
   * callers may call it more often at once (the runner does, to hide its own database time), the rest wait.
   */
  readonly maxConcurrency: number;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /**
   * Looks up, in one go, whether answers to requests about to be made (a run's items, eval/runner) are stored:
   * those found missing are later sent without a look-up of their own, unless this client has sent them
   * meanwhile. Optional (a client without a response cache has nothing to look up).
   * @returns a function that forgets what was found missing (call it when the run stops asking).
   * @throws AppError `db_unavailable` when the response cache cannot be read.
   */
  prefetch?(requests: readonly CompletionRequest[]): Promise<() => void>;
  /**
   * The caller has nothing more to ask for now (a run's last items are on their way): answers are stored as they
   * come, no longer held for others to join them (llm/response-cache). Optional.
   */
  drain?(): void;
  /**
   * The caller stops asking (a run was stopped): sends nothing more ahead, and stores each answer sent ahead
   * (llm/openai-client `sendAhead`) that has come but was never asked for, as the answer of the request of
   * `requests` it answers (stored with that request's `itemId`), so that nothing already paid for is asked again.
   * `requests` is read lazily, only while such answers are left. Optional.
   * @returns how many answers were stored.
   * @throws AppError `db_unavailable` when the response cache cannot be written.
   */
  keepAhead?(requests: Iterable<CompletionRequest>): Promise<number>;
}
