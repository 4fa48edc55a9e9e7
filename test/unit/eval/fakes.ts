/** Small in-memory datasets and model clients for the unit tests of the run's parts (no database). */
import type { PreparedDataset } from '../../../src/eval/types.ts';
import type { CompletionRequest, CompletionResult, LlmClient } from '../../../src/llm/types.ts';

/** A dataset of `keys` whose answer scores 1 of 1 when it equals the item's reference (`ref-<key>`). */
export function dataset(
  name: string,
  keys: readonly string[],
  over: Partial<PreparedDataset> = {},
): PreparedDataset {
  return {
    name,
    ability: 'knowledge',
    method: 'metric',
    metric: 'exact_match',
    profile: 'default',
    templateVersion: 't1',
    items: keys.map((key) => ({ key, prompt: `q-${key}`, reference: `ref-${key}`, metadata: {} })),
    messages: (item) => [{ role: 'user', content: item.prompt }],
    score: (item, output) => ({
      raw: output === item.reference ? 1 : 0,
      max: 1,
      metric: 'exact_match',
      profile: 'default',
    }),
    ...over,
  } as PreparedDataset;
}

/** A client answering with `answer(request)`; records the requests. */
export function client(
  answer: (r: CompletionRequest) => CompletionResult | Promise<CompletionResult>,
): LlmClient & { readonly requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'fake',
    maxConcurrency: 1,
    requests,
    complete: async (r) => {
      requests.push(r);
      return answer(r);
    },
  };
}

/** A successful answer. */
export const ok = (text: string, over: Partial<Extract<CompletionResult, { ok: true }>> = {}) =>
  ({ ok: true, text, cached: false, latencyMs: 5, ...over }) as Extract<
    CompletionResult,
    { ok: true }
  >;
