/**
 * Scripted live models for the `/ask` tests: each model answers through `answer(model, messages)`, which returns
 * the text, or `{ status }` for an HTTP error, or `{ content, delayMs }` / `{ hang: true }` (never answers).
 */
import type { LiveModel } from '../../src/arena/ask.ts';
import type {
  ChatMessage,
  CompletionRequest,
  CompletionResult,
  LlmClient,
} from '../../src/llm/types.ts';

/** What a scripted model does with one request. */
export type Script =
  | string
  | { readonly status: number }
  | { readonly content: string; readonly delayMs?: number }
  | { readonly hang: true };

/** One request a scripted model received. */
export interface ScriptedCall {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
}

/** A set of scripted models sharing one answer function and one call log. */
export interface ScriptedModels {
  readonly calls: ScriptedCall[];
  setAnswer(fn: (model: string, messages: readonly ChatMessage[]) => Script): void;
  live(names: readonly string[], weights?: Readonly<Record<string, number>>): LiveModel[];
  client(name: string): LlmClient;
  close(): Promise<void>;
}

/** In-process scripted clients implementing the {@link LlmClient} port. */
export async function scriptedModels(
  answer: (model: string, messages: readonly ChatMessage[]) => Script,
): Promise<ScriptedModels> {
  let fn = answer;
  const calls: ScriptedCall[] = [];
  const client = (name: string): LlmClient => ({
    name,
    maxConcurrency: 8,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const t0 = performance.now();
      calls.push({ model: name, messages: req.messages });
      const s = fn(name, req.messages);
      if (typeof s === 'string') return { ok: true, text: s, cached: false, latencyMs: 1 };
      if ('status' in s)
        return {
          ok: false,
          code: 'http_error',
          status: s.status,
          message: `HTTP ${s.status}`,
          latencyMs: 1,
        };
      if ('hang' in s) {
        return new Promise((resolve) => {
          req.signal?.addEventListener('abort', () =>
            resolve({
              ok: false,
              code: 'aborted',
              message: 'aborted',
              latencyMs: performance.now() - t0,
            }),
          );
        });
      }
      if (s.delayMs) await new Promise((r) => setTimeout(r, s.delayMs));
      return { ok: true, text: s.content, cached: false, latencyMs: performance.now() - t0 };
    },
  });
  return {
    calls,
    setAnswer: (f) => {
      fn = f;
    },
    live: (names, weights = {}) =>
      names.map((n) => ({ name: n, weight: weights[n] ?? 1, client: client(n) })),
    client,
    close: async () => undefined,
  };
}
