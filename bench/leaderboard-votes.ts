/**
 * bench/leaderboard-votes: `/leaderboard` while 200 votes/s arrive. The real bot service over the fake
 * Discord (gateway → discord.js → DiscordAdapter → ArenaService → storage, as bench/reactions.ts) takes paced
 * reaction votes in three phases of equal length:
 *
 *   1. votes only;
 *   2. votes plus a `/leaderboard` slash command every second (each answered from the stored snapshot; the
 *      changed votes make each one start a snapshot rebuild in the background);
 *   3. votes plus snapshot rebuilds back to back (`LeaderboardService.refresh()` in a loop, no commands).
 *
 * Per phase it prints the vote delay from gateway dispatch to committed vote (p50/p99/max), the event-loop delay
 * (perf_hooks.monitorEventLoopDelay, p99/max), the snapshots built; for phase 2 also the `/leaderboard` reply
 * time (slash command dispatched → reply with the chart received by the fake; p50/max) and whether every reply
 * came from a snapshot that existed when the command arrived. The board is built from stored data: 10 models ×
 * 4 datasets × 500 item scores and 20,000 one-vote battles in 7 abilities, with the product's default
 * `aggregation.bootstrap` rounds, in the board worker thread.
 *
 * With `--votes N`, N more votes are stored before the bot starts (N/4 closed arena battles of the board's models
 * with 4 votes each, inserted in bulk by SQL) so that each rebuild reads the board's inputs from a large vote
 * table; `--chunk N` sets `inputChunkVotes` of the board service (0: the inputs' votes in one query, as before
 * the chunked reads; default: the product's default). Before the phases, one rebuild's input load (`loadBoardInput`) is
 * timed alone (wall, event-loop delay max). For phase 3 it also prints the main thread's busy time
 * (performance.eventLoopUtilization, the bot's own thread only) and the process CPU time (process.cpuUsage, all
 * threads including the board worker), per rebuild.
 *
 *   npx tsx bench/leaderboard-votes.ts [--rate 200] [--seconds 10] [--only pglite|postgres] [--votes 0] [--chunk N]
 *     [--compare] [--no-phase2]
 *
 * `--compare` also times the input load and phase 3 with `inputChunkVotes: 0` (one query, as before the chunked reads) on
 * the same data; `--no-phase2` skips phase 2.
 *
 * Postgres runs when TEST_DATABASE_URL or DATABASE_URL is set (a fresh database, dropped afterwards). The fake
 * Discord runs in this process, so its own work (parsing the chart uploads) is on the measured event loop too.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { BotService } from '../src/bot/service.ts';
import { DiscordAdapter } from '../src/chat/discord/adapter.ts';
import type { ReactionEvent } from '../src/chat/port.ts';
import { ABILITIES } from '../src/config/abilities.ts';
import { appConfigSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { loadBoardInput } from '../src/leaderboard/inputs.ts';
import { DEFAULT_INPUT_CHUNK_VOTES, LeaderboardService } from '../src/leaderboard/service.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { ensureDataset, ensureItems } from '../src/storage/items.ts';
import { ensureModels } from '../src/storage/models.ts';
import { insertResponses } from '../src/storage/responses.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID } from '../test/fakes/discord.ts';
import { addBattles, addRun } from '../test/helpers/board-data.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    only: { type: 'string' },
    votes: { type: 'string', default: '0' },
    chunk: { type: 'string' },
    compare: { type: 'boolean', default: false },
    'no-phase2': { type: 'boolean', default: false },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const EXTRA_VOTES = Number(values.votes);
const CHUNK = values.chunk === undefined ? undefined : Number(values.chunk);
const BATTLES = 20;
const EMOJI = ['⬅️', '🟰', '➡️'] as const;

async function seed(d: Db): Promise<void> {
  await migrateToLatest(d.db);
  // The battles people vote on (as bench/reactions.ts).
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
  // The board's other inputs: item scores of 10 models and 20 k community battles.
  const boardModels = Array.from({ length: 10 }, (_, i) => `board-model-${i}`);
  for (let k = 0; k < 4; k++) {
    for (const [i, model] of boardModels.entries()) {
      await addRun(d.db, {
        model,
        suite: `suite-${k}`,
        dataset: `dataset-${k}`,
        ability: ABILITIES[k]!,
        method: k % 2 === 0 ? 'metrics' : 'scoring',
        scores: Array.from({ length: 500 }, (_, j) => ({
          key: `d${k}-${j}`,
          raw: (j * 7919 + i * 104729) % 100 < 85 - i * 5 ? 1 : 0,
          max: 1,
        })),
      });
    }
  }
  const battles: { a: string; b: string; choice: 'left' | 'right' | 'equal' }[][] = ABILITIES.map(
    () => [],
  );
  for (let k = 0; k < 20_000; k++) {
    const a = k % 10;
    const b = (a + 1 + ((k * 7) % 9)) % 10;
    const u = ((k * 2654435761) >>> 0) / 2 ** 32;
    const p = 1 / (1 + 10 ** ((a - b) / 8));
    battles[k % 7]!.push({
      a: boardModels[a]!,
      b: boardModels[b]!,
      choice: u < 0.1 ? 'equal' : u < 0.1 + 0.9 * p ? 'left' : 'right',
    });
  }
  for (const [i, ability] of ABILITIES.entries())
    await addBattles(d.db, 'arena', ability, battles[i]!, `seed-${ability}-`);
  // `--votes`: a large vote table, in steps of 50,000 battles.
  const nb = Math.floor(EXTRA_VOTES / 4);
  for (let g0 = 0; g0 < nb; g0 += 50_000) {
    const g1 = Math.min(nb, g0 + 50_000) - 1;
    await sql`
      INSERT INTO battles (ability, model_left_id, model_right_id, source, import_key, status, created_at, closed_at)
      SELECT (${[...ABILITIES]}::text[])[1 + g % 7], m[1 + g % 10], m[1 + (g % 10 + 1 + (g * 7) % 9) % 10],
             'arena', 'bulk-' || g, 'closed', now(), now()
        FROM generate_series(${g0}::int, ${g1}::int) g,
             (SELECT array_agg(id ORDER BY name) AS m FROM models WHERE name LIKE 'board-model-%') mm`.execute(
      d.db,
    );
    await sql`
      INSERT INTO votes (battle_id, voter_hash, choice, last_event_at)
      SELECT b.id, 'bulk-voter-' || k, (ARRAY['left','equal','right'])[1 + ((b.id * 31 + k * 17) % 3)::int], now()
        FROM battles b, generate_series(1, 4) k
       WHERE b.import_key IN (SELECT 'bulk-' || g FROM generate_series(${g0}::int, ${g1}::int) g)
         AND b.source = 'arena'`.execute(d.db);
  }
  if (nb > 0) {
    await sql`ANALYZE battles`.execute(d.db);
    await sql`ANALYZE votes`.execute(d.db);
  }
}

function pct(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
}

const f1 = (x: number) => x.toFixed(1);

async function run(label: string, d: Db): Promise<void> {
  const s0 = performance.now();
  await seed(d);
  const seedMs = performance.now() - s0;
  const fake = await FakeDiscord.start();
  const adapter = new DiscordAdapter({
    token: 'bench',
    guildIds: [GUILD_ID],
    restApi: fake.restApi,
    logger: silentLogger,
    restRetries: 0,
  });
  // No timed refresh: rebuilds start only from `/leaderboard` (phase 2) or the loop (phase 3).
  const config = appConfigSchema.parse({ leaderboard: { refresh_seconds: 0 } });
  const leaderboard = new LeaderboardService({
    db: d.db,
    clock: systemClock,
    logger: silentLogger,
    includeSources: config.ratings.include_sources,
    aggregation: config.aggregation,
    ...(CHUNK !== undefined ? { inputChunkVotes: CHUNK } : {}),
  });
  const bot = new BotService({
    leaderboard,
    db: d.db,
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
  // The first snapshot (the bot would build it at the first /leaderboard).
  const first = await bot.leaderboard.refresh();
  console.log(
    `${label}: seeded in ${(seedMs / 1000).toFixed(1)} s; first snapshot built in ${first.buildMs.toFixed(0)} ms (${config.aggregation.bootstrap.toLocaleString('en')} bootstrap rounds, worker thread)`,
  );

  // One rebuild's input load, alone (with --compare also as with the inputs read in one query).
  const inputAlone = async (chunkVotes: number) => {
    const eld1 = monitorEventLoopDelay({ resolution: 10 });
    let chunks = 0;
    eld1.enable();
    const c0 = process.cpuUsage();
    // The longest stretch between two chunks of votes read, in CPU time (the worker thread is idle here).
    let cl = c0;
    let longest = 0;
    const t = performance.now();
    const { summary } = await loadBoardInput(d.db, leaderboard.sources(), {
      chunkVotes,
      onChunk: () => {
        chunks++;
        const c = process.cpuUsage(cl);
        longest = Math.max(longest, (c.user + c.system) / 1000);
        cl = process.cpuUsage();
      },
    });
    const ms = performance.now() - t;
    const c = process.cpuUsage(c0);
    eld1.disable();
    console.log(
      `  input load alone, chunkVotes ${String(chunkVotes).padEnd(5)}: ${summary.votes.toLocaleString('en')} votes in ${summary.battles.toLocaleString('en')} battles, ${chunks} chunk(s): ${ms.toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU (longest chunk of votes ${longest.toFixed(0)} ms CPU), event loop delay max ${f1(eld1.max / 1e6)} ms`,
    );
  };
  await inputAlone(CHUNK ?? DEFAULT_INPUT_CHUNK_VOTES);
  if (values.compare) await inputAlone(0);

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
  const snapshots = async () =>
    Number(
      (
        await d.db
          .selectFrom('leaderboard_snapshots')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const eld = monitorEventLoopDelay({ resolution: 10 });
  const phase = async (
    name: string,
    side: 'none' | 'leaderboard' | 'rebuild',
    svc: LeaderboardService = leaderboard,
  ): Promise<{ p99: number }> => {
    const snaps0 = await snapshots();
    let active = true;
    const replies: number[] = [];
    let fromSnapshot = 0;
    let asked = 0;
    const sideJobs: Promise<unknown>[] = [];
    if (side === 'rebuild') {
      sideJobs.push(
        (async () => {
          while (active) await svc.refresh();
        })(),
      );
    }
    if (side === 'leaderboard') {
      sideJobs.push(
        (async () => {
          while (active) {
            await new Promise((r) => setTimeout(r, 1000));
            if (!active) break;
            const had = (await bot.leaderboard.latest()) !== undefined;
            const t = performance.now();
            const id = fake.slashCommand(
              'leaderboard',
              {},
              { id: '1500000000000000001', roles: [] },
            );
            asked++;
            const end = Date.now() + 120_000;
            while (!fake.responsesFor(id).some((r) => r.kind === 'original') && Date.now() < end)
              await new Promise((r) => setTimeout(r, 2));
            replies.push(performance.now() - t);
            if (had) fromSnapshot++;
          }
        })(),
      );
    }
    eld.reset();
    eld.enable();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const sent: [number, number][] = [];
    const n = RATE * SECONDS;
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(react());
    }
    const end = Date.now() + 300_000;
    while (sent.some(([s]) => !committed.has(`${session()}${s}`)) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 5));
    eld.disable();
    const elu = performance.eventLoopUtilization(elu0);
    const cpu = process.cpuUsage(cpu0);
    active = false;
    await Promise.all(sideJobs);
    const lat = sent.map(([s, t]) => (committed.get(`${session()}${s}`) ?? Number.NaN) - t);
    const built = (await snapshots()) - snaps0;
    const p99 = pct(lat, 0.99);
    console.log(
      `  ${name.padEnd(34)} votes ${n} at ${RATE}/s: dispatch→commit p50 ${f1(pct(lat, 0.5))} ms, p99 ${f1(p99)} ms, max ${f1(Math.max(...lat))} ms | event loop delay p99 ${f1(eld.percentile(99) / 1e6)} ms, max ${f1(eld.max / 1e6)} ms | snapshots built ${built}` +
        (side === 'leaderboard'
          ? ` | /leaderboard ×${asked}: reply p50 ${f1(pct(replies, 0.5))} ms, max ${f1(Math.max(...replies))} ms, from a stored snapshot ${fromSnapshot}/${asked}`
          : '') +
        (side === 'rebuild'
          ? `\n  ${''.padEnd(34)} main thread busy ${(elu.active / 1000).toFixed(2)} s of ${(elu.idle / 1000 + elu.active / 1000).toFixed(2)} s (${(elu.active / Math.max(1, built)) | 0} ms per rebuild incl. votes); process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (all threads)`
          : ''),
    );
    return { p99 };
  };
  const base = await phase('1. votes only', 'none');
  const withBoard = values['no-phase2']
    ? { p99: Number.NaN }
    : await phase('2. votes + /leaderboard every 1 s', 'leaderboard');
  const rebuild = await phase('3. votes + rebuilds back to back', 'rebuild');
  if (values.compare) {
    // The same phase with the inputs read in one query (as before the chunked reads).
    const before = new LeaderboardService({
      db: d.db,
      clock: systemClock,
      logger: silentLogger,
      includeSources: config.ratings.include_sources,
      aggregation: config.aggregation,
      inputChunkVotes: 0,
    });
    await phase('3b. same, inputs in one query', 'rebuild', before);
    await before.close();
  }
  console.log(
    `  vote p99: ${f1(base.p99)} ms alone, ${f1(withBoard.p99)} ms with /leaderboard, ${f1(rebuild.p99)} ms during rebuilds`,
  );
  await bot.stop();
  await leaderboard.close();
  console.log(
    `  load average at the end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  await fake.close();
}

async function main(): Promise<void> {
  console.log(
    `bench/leaderboard-votes: machine ${cpus().length} cores, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )}; ${RATE} votes/s for ${SECONDS} s per phase; ${EXTRA_VOTES.toLocaleString('en')} extra stored votes; chunkVotes ${CHUNK ?? `${DEFAULT_INPUT_CHUNK_VOTES} (default)`}`,
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
