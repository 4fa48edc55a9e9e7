/**
 * @module llm/recorded-client
 * A model whose answers are whatever was imported (`zhujiu import outputs`): asking it never calls anything. An
 * item it has no answer to is a per-item failure `no_recorded_answer`, not a crash; so is a request that answers
 * no stored item. The recorded text is split like a live reply (llm/reply): `<think>` blocks are reasoning, not the
 * answer.
 */
import { splitReasoningText } from './reply.ts';
import type { ResponseCache } from './response-cache.ts';
import type { CompletionRequest, CompletionResult, LlmClient } from './types.ts';

/** The recorded-outputs client. */
export class RecordedClient implements LlmClient {
  readonly name: string;
  /** Reading the database: a few at a time is plenty. */
  readonly maxConcurrency: number;
  readonly #cache: ResponseCache;

  constructor(o: { name: string; cache: ResponseCache; maxConcurrency?: number }) {
    this.name = o.name;
    this.#cache = o.cache;
    this.maxConcurrency = o.maxConcurrency ?? 8;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    if (request.itemId === undefined) {
      return {
        ok: false,
        code: 'no_recorded_answer',
        message: `${this.name} is a recorded model: it answers only stored items`,
        latencyMs: 0,
      };
    }
    const r = await this.#cache.recorded(request.itemId);
    if (!r || r.output.trim() === '') {
      return {
        ok: false,
        code: 'no_recorded_answer',
        message: `${this.name} has no recorded answer (import its outputs with \`zhujiu import outputs\`)`,
        latencyMs: 0,
      };
    }
    // Imported outputs of reasoning models carry their `<think>` blocks: the answer alone is scored (llm/reply).
    const split = splitReasoningText(r.output);
    if (!split.ok)
      return {
        ok: false,
        code: 'reasoning_unclosed',
        message: `${this.name}'s recorded answer ends inside <${split.tag}> (its reasoning ran out of tokens): there is no answer to score`,
        latencyMs: 0,
      };
    if (split.answer === '')
      return {
        ok: false,
        code: 'no_recorded_answer',
        message: `${this.name}'s recorded answer holds reasoning but no answer`,
        latencyMs: 0,
      };
    return {
      ok: true,
      text: split.answer,
      ...(split.reasoning.length > 0 ? { reasoning: split.reasoning.join('\n\n') } : {}),
      cached: true,
      responseId: r.id,
      latencyMs: r.latencyMs ?? 0,
      ...(r.promptTokens !== null ? { promptTokens: r.promptTokens } : {}),
      ...(r.completionTokens !== null ? { completionTokens: r.completionTokens } : {}),
    };
  }
}
