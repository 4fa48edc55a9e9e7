/**
 * @module llm/factory
 * Builds the client of a configured model (config/models.yaml) and makes sure the model has its `models` row
 * (with its endpoint configuration, never its key).
 */

import type { Kysely } from 'kysely';
import type { ModelConfig } from '../config/schema.ts';
import { missingKeyReason } from '../config/start-checks.ts';
import type { Logger } from '../core/logger.ts';
import type { AppMetrics } from '../core/metrics.ts';
import { said, saidError, textsIn } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { ensureModels } from '../storage/models.ts';
import type { Database } from '../storage/schema.ts';
import { OpenAiCompatibleClient } from './openai-client.ts';
import { RecordedClient } from './recorded-client.ts';
import { dbResponseCache, type ResponseCache } from './response-cache.ts';
import type { LlmClient } from './types.ts';

/** Dependencies of {@link openLlmClient}. */
export interface LlmDeps {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  /** The API key of a model by name (LoadedConfig.apiKeyFor). */
  readonly apiKeyFor: (modelName: string) => string | undefined;
  /** True when the model's key variable is set but empty (LoadedConfig.apiKeyEmpty); absent: treated as unset. */
  readonly apiKeyEmpty?: ((modelName: string) => boolean) | undefined;
  /** Where each call's latency and failure go (default nowhere); cached answers are not calls and are not counted. */
  readonly metrics?: AppMetrics | undefined;
  /**
   * Where the model's entry is written, as errors name it: the models file read (config/files.ts `filesOf`), or
   * an approved submission; default `config/models.yaml`.
   */
  readonly entryIn?: string | undefined;
  /**
   * A client of one model made before the database opened, its run's first requests already sent
   * (eval/requests-ahead): {@link openLlmClient} uses it for that very configuration entry.
   */
  readonly ahead?: ClientAhead | undefined;
}

/** A model's client made before its database opened ({@link LlmDeps.ahead}). */
export interface ClientAhead {
  /** The configuration entry it was made from (the same object, config/models.yaml's). */
  readonly model: ModelConfig;
  /** Gives the client its response cache and returns it; a second call returns the same client. */
  adopt(cache: ResponseCache): LlmClient;
}

/**
 * The client of an OpenAI-compatible model entry (`provider: openai`), its calls' answers stored in `cache`.
 * @param o.apiKey the model's key, when it has one.
 */
export function newOpenAiClient(
  model: Extract<ModelConfig, { provider: 'openai' }>,
  o: {
    readonly apiKey: string | undefined;
    readonly logger: Logger;
    readonly entryIn?: string | undefined;
    readonly cache: ResponseCache;
  },
): OpenAiCompatibleClient {
  return new OpenAiCompatibleClient({
    name: model.name,
    baseUrl: model.base_url,
    model: model.model,
    apiKey: o.apiKey,
    apiKeyEnv: model.api_key_env,
    entryIn: o.entryIn,
    params: model.params,
    reasoning: model.reasoning,
    timeoutMs: model.timeout_ms,
    maxConcurrency: model.max_concurrency,
    maxRetries: model.max_retries,
    maxRetryAfterMs: model.max_retry_after_ms,
    cache: o.cache,
    logger: o.logger,
  });
}

/**
 * `client` with each request that reached the endpoint (not a cached answer) reported to `metrics`: its latency,
 * and its failure code when it failed.
 */
export function meteredClient(client: LlmClient, metrics: AppMetrics): LlmClient {
  return {
    name: client.name,
    maxConcurrency: client.maxConcurrency,
    complete: async (request) => {
      const res = await client.complete(request);
      if (res.ok && res.cached) return res;
      metrics.modelCall(client.name, res.latencyMs / 1000, res.ok ? undefined : res.code);
      return res;
    },
    // The optional parts are the client's own (a look-up, storing at once, keeping answers sent ahead).
    ...(client.prefetch && { prefetch: client.prefetch.bind(client) }),
    ...(client.drain && { drain: client.drain.bind(client) }),
    ...(client.keepAhead && { keepAhead: client.keepAhead.bind(client) }),
  };
}

/** A client plus the model's row id. */
export interface OpenedClient {
  readonly client: LlmClient;
  readonly modelId: number;
  /** The endpoint configuration without secrets (stored with runs). */
  readonly snapshot: Readonly<Record<string, unknown>>;
}

/**
 * Opens the client of `model`.
 * @throws AppError `config_invalid` when the model names an `api_key_env` variable that is unset or empty.
 */
export async function openLlmClient(model: ModelConfig, deps: LlmDeps): Promise<OpenedClient> {
  const ids = await ensureModels(deps.db, [model.name], model.provider);
  const modelId = ids.get(model.name);
  if (modelId === undefined) throw new Error(`model row for ${model.name} was not created`);
  const cache = dbResponseCache(deps.db, modelId);
  if (model.provider === 'recorded') {
    return {
      client: new RecordedClient({ name: model.name, cache }),
      modelId,
      snapshot: { provider: 'recorded' },
    };
  }
  const apiKey = deps.apiKeyFor(model.name);
  if (model.api_key_env && apiKey === undefined) {
    const empty = deps.apiKeyEmpty?.(model.name) ?? false;
    const reason = (locale: Locale) =>
      missingKeyReason(model.api_key_env as string, empty, locale, deps.entryIn);
    throw saidError(
      'config_invalid',
      said('cli.llm.keyMissing', {
        model: model.name,
        reason: textsIn(reason),
        variable: model.api_key_env,
      }),
    );
  }
  const client =
    deps.ahead?.model === model
      ? deps.ahead.adopt(cache)
      : newOpenAiClient(model, { apiKey, logger: deps.logger, entryIn: deps.entryIn, cache });
  return {
    client: deps.metrics ? meteredClient(client, deps.metrics) : client,
    modelId,
    snapshot: {
      provider: 'openai',
      base_url: model.base_url,
      model: model.model,
      params: model.params,
      reasoning: model.reasoning,
      timeout_ms: model.timeout_ms,
      max_concurrency: model.max_concurrency,
      max_retries: model.max_retries,
    },
  };
}
