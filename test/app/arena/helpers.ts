/**
 * Shared set-up for the arena integration tests: a small dataset answered by three models, an app config, and a
 * counter seed source.
 */

import { PassThrough } from 'node:stream';
import type { Kysely } from 'kysely';
import { BotService } from '../../../src/bot/service.ts';
import type { ChatPlatform, MessageRef } from '../../../src/chat/port.ts';
import { SHELL_CAPABILITIES, ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { type AppConfig, appConfigSchema } from '../../../src/config/schema.ts';
import type { Clock } from '../../../src/core/clock.ts';
import { type Logger, silentLogger } from '../../../src/core/logger.ts';
import type { AppMetrics } from '../../../src/core/metrics.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import type { Database } from '../../../src/storage/schema.ts';

export const SECRET = 'test-voter-secret-0123456789';
export const MODELS = ['model-alpha', 'model-beta'] as const;

/** Items answered by both models; answers never name a model. Item 'leak' has a self-identifying answer. */
export async function seedModels(db: Kysely<Database>, items = 6): Promise<void> {
  const ds = await ensureDataset(db, {
    name: 'arena-test',
    ability: 'language',
    method: 'comparative',
    language: 'en',
  });
  const specs = Array.from({ length: items }, (_, i) => ({
    key: `q${i}`,
    prompt: `Question number ${i}: explain tides.`,
  }));
  const ids = await ensureItems(db, ds, specs);
  const models = await ensureModels(db, [...MODELS], 'recorded');
  const rows = [];
  for (const [m, mid] of models) {
    for (const [key, iid] of ids) {
      rows.push({
        modelId: mid,
        itemId: iid,
        requestHash: 'recorded',
        output: `Answer to ${key} by ${m === 'model-alpha' ? 'the first' : 'the second'} assistant.`,
        source: 'import',
      });
    }
  }
  await insertResponses(db, rows);
}

/**
 * A config with the given overrides (defaults elsewhere). The bot's automatic board builds are off
 * (`leaderboard.refresh_seconds: 0`) unless `over.leaderboard` is given: each one starts a board worker thread
 * that loads the board and chart modules anew (2–10 CPU-s) whenever a test's clock passes the refresh interval,
 * and only tests of those builds look at them. `/leaderboard` still builds the board it shows on demand; a test
 * of the start's first build or of the loop's refresh passes `leaderboard: { refresh_seconds: 60 }`.
 */
export function testConfig(over: Record<string, unknown> = {}): AppConfig {
  return appConfigSchema.parse({
    // The tests read the English texts; a new install's zh-CN is tested where a test sets it.
    locale: 'en',
    arena: { window_hours: 1, identity_guard: { words: ['openai'], patterns: [] } },
    leaderboard: { refresh_seconds: 0 },
    ...over,
  });
}

/** Seeds 1000, 1001, … */
export function counterSeeds(start = 1000): () => number {
  let n = start;
  return () => n++;
}

/** Terminal streams with everything written to output collected. */
export function terminal(): { input: PassThrough; output: PassThrough; text: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let buf = '';
  output.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
  });
  return { input, output, text: () => buf };
}

/**
 * The terminal adapter as the arena tests run it: the local user `you` (a maintainer) on `term`'s streams, the
 * configured terminal vote words, and `sessionTag` in its message ids.
 */
export function terminalShell(
  term: { input: PassThrough; output: PassThrough },
  config: AppConfig,
  o: { sessionTag: string; clock?: Clock; logger?: Logger; interactive?: boolean },
): ShellAdapter {
  return new ShellAdapter({
    ...(o.interactive !== undefined ? { interactive: o.interactive } : {}),
    input: term.input,
    output: term.output,
    user: { id: 'local', name: 'you', maintainer: true },
    voteEmoji: config.arena.emoji.shell,
    logger: o.logger ?? silentLogger,
    ...(o.clock ? { clock: o.clock } : {}),
    sessionTag: o.sessionTag,
  });
}

/** Polls until `cond` resolves truthy; the bound only stops a hang (far above any real wait on a busy machine). */
export async function until<T>(
  cond: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A bot over `platforms` as the arena tests run it: no loop timer (ticks are driven by hand), counter seeds. */
export function testBot(o: {
  db: Kysely<Database>;
  config: AppConfig;
  platforms: ChatPlatform[];
  clock: Clock;
  seedSource?: () => number;
  logger?: Logger;
  voterSecret?: string;
  metrics?: AppMetrics;
}): BotService {
  return new BotService({
    db: o.db,
    config: o.config,
    platforms: o.platforms,
    logger: o.logger ?? silentLogger,
    clock: o.clock,
    voterSecret: o.voterSecret ?? SECRET,
    loopIntervalMs: 0,
    seedSource: o.seedSource ?? counterSeeds(),
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
}

/** A chat platform (the terminal's capabilities) that accepts every post and has no reactions to list. */
export function acceptingPlatform(): ChatPlatform {
  let n = 0;
  return {
    name: 'shell',
    capabilities: SHELL_CAPABILITIES,
    botUserId: 'bot',
    start: async () => {},
    stop: async () => {},
    post: async (channelId): Promise<MessageRef> => ({
      platform: 'shell',
      channelId,
      messageId: `m${++n}`,
      partIds: [],
    }),
    edit: async () => {},
    addReactions: async () => {},
    listReactions: async () => [],
  };
}
