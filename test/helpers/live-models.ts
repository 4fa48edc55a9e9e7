/**
 * Scripted live models for the `/ask` tests and bench: every model is an OpenAI-compatible endpoint on the local
 * fake server (test/fakes/openai.ts), reached through the real `openai` client built by the real factory
 * (llm/factory.ts, response cache included). `answer(model, messages)` returns the text, `{ status }` for an HTTP
 * error, `{ content, delayMs }`, or `{ hang: true }` (answers after 30 s, long after any timeout of the tests).
 */
import type { Kysely } from 'kysely';
import type { LiveModel } from '../../src/arena/ask.ts';
import { modelsFileSchema } from '../../src/config/schema.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { openLlmClient } from '../../src/llm/factory.ts';
import type { ChatMessage, LlmClient } from '../../src/llm/types.ts';
import type { Database } from '../../src/storage/schema.ts';
import { type FakeReply, startFakeOpenAi } from '../fakes/openai.ts';

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

/** A set of scripted models on one fake server. */
export interface ScriptedModels {
  /** Every request the fake received, in arrival order. */
  readonly calls: readonly ScriptedCall[];
  setAnswer(fn: (model: string, messages: readonly ChatMessage[]) => Script): void;
  /** Live models (clients through the real factory) for these names, with optional `arena_weight`s. */
  live(names: readonly string[], weights?: Readonly<Record<string, number>>): Promise<LiveModel[]>;
  client(name: string): Promise<LlmClient>;
  close(): Promise<void>;
}

function toReply(s: Script): string | FakeReply {
  if (typeof s === 'string') return s;
  if ('status' in s) return { status: s.status };
  if ('hang' in s) return { content: 'too late', delayMs: 30_000 };
  return s.delayMs === undefined
    ? { content: s.content }
    : { content: s.content, delayMs: s.delayMs };
}

/** Starts the fake server; clients are made on demand (one per model, retries off so a 500 fails at once). */
export async function scriptedModels(
  db: Kysely<Database>,
  answer: (model: string, messages: readonly ChatMessage[]) => Script,
): Promise<ScriptedModels> {
  let fn = answer;
  const fake = await startFakeOpenAi({
    answer: (call) => toReply(fn(call.model, call.messages as readonly ChatMessage[])),
  });
  const clients = new Map<string, LlmClient>();
  const client = async (name: string): Promise<LlmClient> => {
    const have = clients.get(name);
    if (have) return have;
    const cfg = modelsFileSchema.parse({
      models: [
        {
          name,
          provider: 'openai',
          base_url: fake.baseUrl,
          model: name,
          max_retries: 0,
          arena: true,
        },
      ],
    }).models[0];
    if (!cfg) throw new Error('no model config');
    const opened = await openLlmClient(cfg, {
      db,
      logger: silentLogger,
      apiKeyFor: () => undefined,
    });
    clients.set(name, opened.client);
    return opened.client;
  };
  return {
    get calls() {
      return fake.calls.map((c) => ({
        model: c.model,
        messages: c.messages as readonly ChatMessage[],
      }));
    },
    setAnswer: (f) => {
      fn = f;
    },
    live: async (names, weights = {}) =>
      Promise.all(
        names.map(async (n) => ({ name: n, weight: weights[n] ?? 1, client: await client(n) })),
      ),
    client,
    close: () => fake.close(),
  };
}
