/**
 * bench/ask: how long `/ask` takes from the command to the posted battle when both live models need 2 s to answer
 * (the target: within 2.5 s). The models are endpoints on the local fake OpenAI-compatible server (each answer
 * delayed by --delay ms), reached through the real openai client and the response cache; the bot is the real
 * BotService with the terminal adapter on an embedded PGlite database, the classifier model answering alongside.
 * Each run asks a new prompt (no cache hit). Prints every run and the median, p95 and worst figure.
 *
 *   npx tsx bench/ask.ts [--runs 20] [--delay 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { BotService } from '../src/bot/service.ts';
import type { MessageContent, PostOptions } from '../src/chat/port.ts';
import { ShellAdapter } from '../src/chat/shell/adapter.ts';
import { appConfigSchema, modelsFileSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { openLlmClient } from '../src/llm/factory.ts';
import { migrateToLatest, openDb } from '../src/storage/db.ts';
import { startFakeOpenAi } from '../test/fakes/openai.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, delay: { type: 'string', default: '2000' } },
});
const RUNS = Number(values.runs);
const DELAY = Number(values.delay);
const TARGET_MS = 2500;

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-ask-'));
const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
await migrateToLatest(d.db);
const fake = await startFakeOpenAi({
  answer: (call) =>
    call.model === 'judge'
      ? { content: '{"ability":"knowledge"}', delayMs: DELAY }
      : { content: `An answer to "${call.messages.at(-1)?.content}".`, delayMs: DELAY },
});
const names = ['live-one', 'live-two', 'live-three'];
const client = async (name: string) => {
  const cfg = modelsFileSchema.parse({
    models: [{ name, provider: 'openai', base_url: fake.baseUrl, model: name, arena: true }],
  }).models[0];
  if (!cfg) throw new Error('no config');
  return (await openLlmClient(cfg, { db: d.db, logger: silentLogger, apiKeyFor: () => undefined }))
    .client;
};
const config = appConfigSchema.parse({
  arena: { ask: { rate_limit: { max: 1000, window_minutes: 1 }, progress_every_ms: 2000 } },
});
const input = new PassThrough();
const output = new PassThrough();
output.resume();
const shell = new ShellAdapter({
  input,
  output,
  user: { id: 'bench', name: 'bench', maintainer: true },
  voteEmoji: config.arena.emoji.shell,
  logger: silentLogger,
});
// Record when each battle message is handed to the platform (the moment it is posted).
let postedAt = 0;
const post = shell.post.bind(shell);
shell.post = async (channelId: string, content: MessageContent, options?: PostOptions) => {
  const ref = await post(channelId, content, options);
  if (content.title?.startsWith('Arena battle #')) postedAt = performance.now();
  return ref;
};
const bot = new BotService({
  db: d.db,
  config,
  platforms: [shell],
  logger: silentLogger,
  clock: systemClock,
  voterSecret: 'bench-voter-secret-0123456789',
  loopIntervalMs: 0,
  live: {
    models: await Promise.all(
      names.map(async (n) => ({ name: n, weight: 1, client: await client(n) })),
    ),
    classifier: await client('judge'),
  },
});
await bot.start();

const figures: number[] = [];
for (let i = 0; i < RUNS; i++) {
  postedAt = 0;
  const t0 = performance.now();
  await shell.say(`/ask Question number ${i}: why is the sky blue?`);
  if (postedAt === 0) throw new Error(`run ${i + 1}: no battle was posted`);
  const ms = postedAt - t0;
  figures.push(ms);
  process.stdout.write(
    `run ${String(i + 1).padStart(2)}: battle posted ${ms.toFixed(0)} ms after the command\n`,
  );
}
await bot.stop();
await fake.close();
await d.close();
rmSync(dir, { recursive: true, force: true });

const sorted = [...figures].sort((a, b) => a - b);
const q = (p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
const within = figures.filter((x) => x <= TARGET_MS).length;
process.stdout.write(
  `\n/ask with both models answering in ${DELAY} ms, ${RUNS} runs: median ${q(0.5).toFixed(0)} ms, ` +
    `p95 ${q(0.95).toFixed(0)} ms, worst ${(sorted.at(-1) as number).toFixed(0)} ms; ` +
    `${within}/${RUNS} within ${TARGET_MS} ms (overhead over the models: median ${(q(0.5) - DELAY).toFixed(0)} ms)\n`,
);
