/**
 * bench/reactions: reaction events per second the bot turns into stored votes end to end — the fake Discord
 * gateway dispatches MESSAGE_REACTION_ADD, the real discord.js client receives it, DiscordAdapter maps it,
 * ArenaService finds the battle, hashes the voter and applies the vote event in the database — and the delay from
 * the gateway dispatch to the committed vote (p50/p99).
 *
 *   npx tsx bench/reactions.ts [--events 4000] [--rate 200] [--only pglite|postgres]
 *
 * Two phases per database: a burst (all events dispatched at once: throughput) and a paced run at `--rate`
 * events/s (latency without a queue). Postgres runs when TEST_DATABASE_URL or DATABASE_URL is set, in a fresh
 * database that is dropped afterwards. Each phase also prints this process's CPU per event (the rates follow the
 * machine's other load; the CPU per event much less) and the statements the bot sent per event.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BotService } from '../src/bot/service.ts';
import { DiscordAdapter } from '../src/chat/discord/adapter.ts';
import type { ReactionEvent } from '../src/chat/port.ts';
import { appConfigSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { ensureDataset, ensureItems } from '../src/storage/items.ts';
import { ensureModels } from '../src/storage/models.ts';
import { insertResponses } from '../src/storage/responses.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID } from '../test/fakes/discord.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '4000' },
    rate: { type: 'string', default: '200' },
    only: { type: 'string' },
  },
});
const EVENTS = Number(values.events);
const RATE = Number(values.rate);
const BATTLES = 20;
const EMOJI = ['⬅️', '🟰', '➡️'] as const;

async function seed(d: Db): Promise<void> {
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
    Array.from({ length: BATTLES }, (_, i) => ({ key: `b${i}`, prompt: `Prompt ${i}` })),
  );
  const models = await ensureModels(d.db, ['bench-a', 'bench-b', 'bench-c'], 'recorded');
  const rows = [];
  for (const mid of models.values())
    for (const iid of items.values())
      rows.push({
        modelId: mid,
        itemId: iid,
        requestHash: 'recorded',
        output: `Answer ${mid}/${iid}`,
      });
  await insertResponses(d.db, rows);
}

/** The q-quantile of the finite values (an event never committed is NaN: counted apart, see `missing`). */
function pct(xs: number[], q: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

/** This process's CPU time (user + system) per event, in ms: less sensitive to other load than rates are. */
function cpuMs(u: NodeJS.CpuUsage, events: number): string {
  return ((u.user + u.system) / 1000 / events).toFixed(2);
}

/** Events that were not committed before the wait gave up. */
function missing(xs: number[]): number {
  return xs.filter((x) => !Number.isFinite(x)).length;
}

async function run(label: string, d: Db): Promise<void> {
  await seed(d);
  const fake = await FakeDiscord.start();
  const adapter = new DiscordAdapter({
    token: 'bench',
    guildIds: [GUILD_ID],
    restApi: fake.restApi,
    logger: silentLogger,
    restRetries: 0,
  });
  const config = appConfigSchema.parse({});
  // Counts the statements the bot sends (every Kysely query, raw SQL included; not a transaction's begin/commit).
  let statements = 0;
  const counted = d.db.withPlugin({
    transformQuery: (a) => {
      statements++;
      return a.node;
    },
    transformResult: async (a) => a.result,
  });
  const bot = new BotService({
    db: counted,
    config,
    platforms: [adapter],
    logger: silentLogger,
    clock: systemClock,
    voterSecret: 'bench-voter-secret-0123456789',
    loopIntervalMs: 0,
  });
  await bot.start();
  const messages: string[] = [];
  for (let i = 0; i < BATTLES; i++) {
    const r = await bot.arena.postBattle('discord', CHANNEL_ID);
    if (!r.ok) throw new Error(JSON.stringify(r.reason));
    messages.push(r.value.ref.messageId);
  }
  // Time of commit per event id (wraps the service method the adapter's handler calls).
  const committed = new Map<string, number>();
  const orig = bot.arena.onReaction.bind(bot.arena);
  bot.arena.onReaction = async (ev: ReactionEvent) => {
    const r = await orig(ev);
    committed.set(ev.eventId, performance.now());
    return r;
  };
  const session = () => `discord:${fake.sessionId}:`;
  let voter = 0;
  const react = (): [number, number] => {
    const msg = messages[voter % BATTLES] as string;
    const user = `16${String(voter).padStart(17, '0')}`;
    const emoji = EMOJI[voter % 3] as string;
    voter++;
    const t = performance.now();
    return [fake.userReact(msg, emoji, user, true), t];
  };
  // Waits until every event is committed. A committed event stays committed, so each look starts at the first one
  // not committed at the last look (rescanning the committed ones every 5 ms cost the bench ~1 s of CPU per burst).
  const waitAll = async (seqs: [number, number][]): Promise<void> => {
    const end = Date.now() + 300_000;
    let i = 0;
    for (;;) {
      while (i < seqs.length && committed.has(`${session()}${(seqs[i] as [number, number])[0]}`))
        i++;
      if (i === seqs.length || Date.now() >= end) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  // Burst.
  const burst: [number, number][] = [];
  const s0 = statements;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++) burst.push(react());
  await waitAll(burst);
  const t1 = Math.max(...burst.map(([s]) => committed.get(`${session()}${s}`) ?? 0));
  const burstCpu = process.cpuUsage(c0);
  const burstStatements = statements - s0;
  const burstLat = burst.map(([s, t]) => (committed.get(`${session()}${s}`) ?? Number.NaN) - t);
  // Paced.
  const paced: [number, number][] = [];
  const n = Math.min(EVENTS, RATE * 10);
  const s1 = statements;
  const c1 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    paced.push(react());
  }
  await waitAll(paced);
  const pacedCpu = process.cpuUsage(c1);
  const pacedStatements = statements - s1;
  const pacedLat = paced.map(([s, t]) => (committed.get(`${session()}${s}`) ?? Number.NaN) - t);
  const votes = await d.db
    .selectFrom('votes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(
    `${label.padEnd(9)} burst ${EVENTS} events: ${(EVENTS / ((t1 - t0) / 1000)).toFixed(0)} events/s stored, ` +
      `dispatch→commit p50 ${pct(burstLat, 0.5).toFixed(1)} ms p99 ${pct(burstLat, 0.99).toFixed(1)} ms, ` +
      `process CPU ${cpuMs(burstCpu, EVENTS)} ms/event, ${(burstStatements / EVENTS).toFixed(2)} statements/event | ` +
      `paced ${RATE}/s × ${n}: p50 ${pct(pacedLat, 0.5).toFixed(1)} ms p99 ${pct(pacedLat, 0.99).toFixed(1)} ms, ` +
      `process CPU ${cpuMs(pacedCpu, n)} ms/event, ${(pacedStatements / n).toFixed(2)} statements/event | votes stored ${Number(votes.n)}` +
      `${missing(burstLat) + missing(pacedLat) > 0 ? ` | NOT COMMITTED within 300 s: ${missing(burstLat)} burst, ${missing(pacedLat)} paced (figures are of the committed ones)` : ''}`,
  );
  await bot.stop();
  await fake.close();
}

async function main(): Promise<void> {
  console.log(
    `bench/reactions: fake Discord gateway → discord.js → DiscordAdapter → ArenaService → storage (${BATTLES} battles, one reaction per new voter)`,
  );
  if (values.only !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-'));
    const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
    try {
      await run('PGlite', d);
    } finally {
      await d.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (values.only !== 'pglite' && base) {
    const name = `zhujiu_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    const d = await openDb({ kind: 'postgres', url: u.toString(), poolSize: 10 });
    try {
      await run('Postgres', d);
    } finally {
      await d.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } else if (values.only !== 'pglite') {
    console.log('Postgres: skipped (set TEST_DATABASE_URL or DATABASE_URL)');
  }
}

await main();
