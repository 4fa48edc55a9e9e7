/**
 * bench/reread: what the periodic re-read of open battles costs the bot (docs/architecture.md "Arena battle"):
 * `ArenaService.reconcile` over N open battles posted on the fake Discord (each with the bot's three reactions
 * and `--voters` people's), through the real discord.js REST client and DiscordAdapter, on embedded PostgreSQL.
 *
 *   npx tsx bench/reread.ts [--battles 250,500,1000,2000] [--voters 3] [--passes 3] [--minutes 30]
 *
 * For each N: the first pass (it stores the votes the message shows but the database lacks: a restart after
 * downtime) and then `--passes` steady passes (nothing changed: the periodic case). CPU seconds are this
 * thread's (`process.threadCpuUsage`, user + system): discord.js, the adapter, the arena and PGlite (which the bot
 * runs in a thread of its own, also its CPU); the fake Discord answers from another thread (bench/reread-fake.ts).
 * The share is CPU-s of one steady pass / (`--minutes` × 60 s), the default `arena.reconcile_minutes` being 30.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { ArenaService } from '../src/arena/service.ts';
import { DiscordAdapter } from '../src/chat/discord/adapter.ts';
import { appConfigSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { createNumberedBattle, markPosted } from '../src/storage/battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { ensureDataset, ensureItems } from '../src/storage/items.ts';
import { ensureModels } from '../src/storage/models.ts';
import { insertResponses } from '../src/storage/responses.ts';
import { CHANNEL_ID, GUILD_ID } from '../test/fakes/discord.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '250,500,1000,2000' },
    voters: { type: 'string', default: '3' },
    passes: { type: 'string', default: '3' },
    minutes: { type: 'string', default: '30' },
  },
});
const SIZES = values.battles.split(',').map(Number);
const VOTERS = Number(values.voters);
const PASSES = Number(values.passes);
const INTERVAL_S = Number(values.minutes) * 60;

/** The fake Discord in its own worker thread (bench/reread-fake.ts); `ask` sends one message, awaits the answer. */
async function startFake(): Promise<{
  restApi: string;
  ask<T>(m: object): Promise<T>;
  stop(): Promise<void>;
}> {
  const worker = new Worker(new URL('./reread-fake.ts', import.meta.url));
  const next = <T>(): Promise<T> => new Promise((resolve) => worker.once('message', resolve));
  const { port } = await next<{ port: number }>();
  const ask = <T>(m: object): Promise<T> => {
    const answer = next<T>();
    worker.postMessage(m);
    return answer;
  };
  return {
    restApi: `http://127.0.0.1:${port}/api`,
    ask,
    stop: async () => {
      await ask({ op: 'close' });
      await worker.terminate();
    },
  };
}

/** N items answered by two models, and N open battles posted as the fake's messages with their reactions. */
async function seed(d: Db, messageIds: readonly string[]): Promise<void> {
  await migrateToLatest(d.db);
  const ds = await ensureDataset(d.db, {
    name: 'bench',
    ability: 'language',
    method: 'comparative',
    language: 'en',
  });
  const items = await ensureItems(
    d.db,
    ds,
    messageIds.map((_, i) => ({ key: `b${i}`, prompt: `Prompt ${i}` })),
  );
  const models = [...(await ensureModels(d.db, ['bench-a', 'bench-b'], 'recorded')).values()];
  const rows = [];
  for (const mid of models)
    for (const iid of items.values())
      rows.push({
        modelId: mid,
        itemId: iid,
        requestHash: 'r',
        output: `answer ${mid}/${iid}`,
        source: 'import' as const,
      });
  await insertResponses(d.db, rows);
  const responses = await d.db
    .selectFrom('responses')
    .select(['id', 'model_id', 'item_id'])
    .execute();
  const byKey = new Map(responses.map((r) => [`${r.model_id}:${r.item_id}`, Number(r.id)]));
  const now = new Date();
  let i = 0;
  for (const iid of items.values()) {
    const [a, b] = models as [number, number];
    const { id } = await createNumberedBattle(d.db, {
      itemId: iid,
      ability: 'language',
      leftModelId: a,
      rightModelId: b,
      responseLeftId: byKey.get(`${a}:${iid}`) as number,
      responseRightId: byKey.get(`${b}:${iid}`) as number,
      seed: iid,
    });
    await markPosted(d.db, id, {
      platform: 'discord',
      channelId: CHANNEL_ID,
      messageId: messageIds[i++] as string,
      partIds: [],
      postedAt: now,
      closesAt: new Date(now.getTime() + 86_400_000),
    });
  }
}

/** CPU seconds of this thread (the bot's: the fake runs in another) since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.threadCpuUsage(since);
  return (d.user + d.system) / 1e6;
}

async function measure(n: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-reread-'));
  const fake = await startFake();
  const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
  const adapter = new DiscordAdapter({
    token: 'fake-token',
    guildIds: [GUILD_ID],
    restApi: fake.restApi,
    logger: silentLogger,
    restRetries: 0,
    restTimeoutMs: 120_000,
  });
  try {
    const { ids } = await fake.ask<{ ids: string[] }>({ op: 'seed', n, voters: VOTERS });
    await seed(d, ids);
    await adapter.start(
      { onCommand: async () => undefined, onReaction: async () => undefined },
      [],
    );
    const arena = new ArenaService({
      db: d.db,
      platforms: [adapter],
      arena: appConfigSchema.parse({}).arena,
      clock: systemClock,
      logger: silentLogger,
      voterSecret: 'bench-secret-0123456789',
    });
    const pass = async (): Promise<{
      cpu: number;
      wall: number;
      requests: number;
      added: number;
    }> => {
      const before = (await fake.ask<{ requests: number }>({ op: 'requests' })).requests;
      const cpu0 = process.threadCpuUsage();
      const t0 = performance.now();
      const r = await arena.reconcile('discord');
      return {
        cpu: cpuSeconds(cpu0),
        wall: (performance.now() - t0) / 1000,
        requests: (await fake.ask<{ requests: number }>({ op: 'requests' })).requests - before,
        added: r.added,
      };
    };
    const first = await pass();
    const steady = [];
    for (let i = 0; i < PASSES; i++) steady.push(await pass());
    const cpu = steady.map((s) => s.cpu).sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? 0;
    const wall =
      steady.map((s) => s.wall).sort((x, y) => x - y)[Math.floor(steady.length / 2)] ?? 0;
    console.log(
      [
        `battles ${String(n).padStart(5)}`,
        `first pass ${first.cpu.toFixed(2)} CPU-s (${first.added} votes stored, ${first.requests} requests)`,
        `steady pass ${cpu.toFixed(2)} CPU-s, ${wall.toFixed(1)} s wall (median of ${PASSES}, ${steady[0]?.requests} requests)`,
        `${((cpu / n) * 1000).toFixed(2)} CPU-ms/battle`,
        `share of ${values.minutes} min ${((cpu / INTERVAL_S) * 100).toFixed(3)} %`,
      ].join(' | '),
    );
  } finally {
    await adapter.stop();
    await fake.stop();
    await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const load = (await import('node:os')).loadavg();
console.log(
  `bench/reread: ${VOTERS} voters per battle, interval ${values.minutes} min; load average ${load.map((x) => x.toFixed(1)).join(' ')}`,
);
for (const n of SIZES) await measure(n);
