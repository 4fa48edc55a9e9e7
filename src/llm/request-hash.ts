/**
 * @module llm/request-hash
 * The response cache key: a SHA-256 over a canonical JSON (keys sorted) of everything that determines an answer:
 * the provider's model id, the endpoint's base URL, every sampling parameter, the full messages, the prompt
 * template version and the JSON schema asked for (if any). Two requests share a key exactly when all of these are
 * equal; any difference (one parameter, one character of a message) gives another key, so another call.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';
import type { ChatMessage, JsonSchemaFormat } from './types.ts';

/** What the cache key covers. */
export interface RequestIdentity {
  /** The provider's model id (models.yaml `model`), or the configured name for recorded models. */
  readonly model: string;
  /** The endpoint (models.yaml `base_url`); a trailing slash is ignored. */
  readonly baseUrl: string;
  /** The effective sampling parameters (configured `params` overridden by the request's). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly messages: readonly ChatMessage[];
  readonly templateVersion: string;
  readonly jsonSchema?: JsonSchemaFormat | undefined;
  /**
   * The model's reasoning mode (llm/reply): the stored answer is the text after it applied. Part of the key only
   * when not `auto`, so answers stored before the mode existed (all read as `auto`) keep their key.
   */
  readonly reasoning?: 'auto' | 'strip' | 'keep' | undefined;
}

/** Bump when the meaning of the key changes (old cached answers then stop matching). */
export const REQUEST_HASH_VERSION = 1;

/**
 * The request hash (64 hex characters).
 * @example requestHash({ model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1', params: { temperature: 0 },
 *   messages: [{ role: 'user', content: '1+1?' }], templateVersion: 'c3@1' })
 */
export function requestHash(id: RequestIdentity): string {
  const canonical = stringify({
    v: REQUEST_HASH_VERSION,
    model: id.model,
    base_url: id.baseUrl.replace(/\/+$/u, ''),
    params: id.params,
    messages: id.messages.map((m) => ({ role: m.role, content: m.content })),
    template_version: id.templateVersion,
    json_schema: id.jsonSchema ?? null,
    ...(id.reasoning !== undefined && id.reasoning !== 'auto' ? { reasoning: id.reasoning } : {}),
  });
  return createHash('sha256')
    .update(canonical ?? '')
    .digest('hex');
}
