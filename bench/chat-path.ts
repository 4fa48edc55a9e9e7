/**
 * bench/chat-path: the bot's chat path with 1 M stored votes (once, after 200,000 imported votes every `/arena`
 * froze the bot for ~25 s). Prints, per database, the latency of `/arena`, of a reaction (vote), of
 * `/models`, of `/leaderboard` and of the loop's close-and-reveal tick (p50 / p99 / max), and the event-loop delay
 * measured with `perf_hooks.monitorEventLoopDelay` while they run (p50 / p99 / max and the sample count). PGlite on
 * the bot's own thread would make every query a frozen bot for its duration; the bot opens it in a worker thread.
 * Targets: `/arena` under 1 s; no handler holds the event loop for more than 100 ms.
 *
 * How the loop delay is measured: the histogram's timer (resolution 5 ms) can only fire when the loop turns, and
 * PGlite's queries resolve as microtasks, so a run of handlers awaited back to back never lets it fire (an
 * earlier version printed 0.0 from an empty histogram). Here every handler is started from a fresh macrotask
 * (`setImmediate`), as chat events arriving from the network are, and the histogram is read after one more timer
 * period; each sample is then the interval between two timer firings, i.e. the resolution plus the longest stretch
 * the loop was held. The load average is printed with each database, since the machine is shared.
 *
 *   npx tsx bench/chat-path.ts [--votes 1000000] [--rounds 20] [--only pglite|postgres] [--source public|arena]
 *                              [--pglite-on worker|main]
 *
 * `--pglite-on worker` (the default) opens PGlite in a worker thread, as `zhujiu bot` and `zhujiu worker` do
 * (storage/pglite-thread.ts); `main` runs it on the bot's own thread, as before, for comparison.
 *
 * The votes are public imported votes (source `public`, 129 models, one vote per battle, inserted in bulk with
 * SQL), plus two recorded models with 805 answered items each, as after the README's quick start. With
 * `--source arena` they are the community's own instead: closed battles of those two models on their items. Postgres runs
 * when TEST_DATABASE_URL or DATABASE_URL is set, in a fresh database that is dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { ArenaService } from '../src/arena/service.ts';
import { createCommandHandler } from '../src/bot/commands/handlers.ts';
import type { ChatPlatform, CommandContext, MessageContent } from '../src/chat/port.ts';
import { SHELL_CAPABILITIES } from '../src/chat/shell/adapter.ts';
import { appConfigSchema } from '../src/config/schema.ts';
import { ManualClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { LeaderboardService } from '../src/leaderboard/service.ts';
import { analyzeVoteTables } from '../src/storage/battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { ensureDataset, ensureItems } from '../src/storage/items.ts';
import { ensureModels } from '../src/storage/models.ts';
import { insertResponses } from '../src/storage/responses.ts';

const { values } = parseArgs({
  options: {
    votes: { type: 'string', default: '1000000' },
    source: { type: 'string', default: 'public' },
    rounds: { type: 'string', default: '20' },
    only: { type: 'string' },
    'pglite-on': { type: 'string', default: 'worker' },
  },
});
/** Where PGlite runs: `worker` (a worker thread, as `zhujiu bot` opens it) or `main` (the bot's own thread). */
const PGLITE_ON = values['pglite-on'] === 'main' ? 'main' : 'worker';
const VOTES = Number(values.votes);
/** `public`: imported votes (129 external models); `arena`: the community's own closed battles of the two models. */
const SOURCE = values.source === 'arena' ? 'arena' : 'public';
const KIND = SOURCE === 'arena' ? 'community (arena)' : 'imported';
const ROUNDS = Number(values.rounds);

function platform(): ChatPlatform {
  let n = 0;
  return {
    name: 'shell',
    capabilities: SHELL_CAPABILITIES,
    botUserId: 'bot',
    start: async () => {},
    stop: async () => {},
    post: async (channelId) => ({
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

async function seed(db: Db): Promise<void> {
  const ds = await ensureDataset(db.db, {
    name: 'alpaca_eval',
    ability: 'language',
    method: 'comparative',
    language: 'en',
  });
  const items = await ensureItems(
    db.db,
    ds,
    Array.from({ length: 805 }, (_, i) => ({ key: `q${i}`, prompt: `Instruction ${i}?` })),
  );
  const models = await ensureModels(db.db, ['claude-2', 'alpaca-7b'], 'recorded');
  const rows = [];
  for (const [m, mid] of models)
    for (const [k, iid] of items)
      rows.push({
        modelId: mid,
        itemId: iid,
        requestHash: 'recorded',
        output: `Answer ${k} of ${m === 'claude-2' ? 'one' : 'two'}.`,
        source: 'import',
      });
  await insertResponses(db.db, rows);
  await ensureModels(
    db.db,
    Array.from({ length: 129 }, (_, i) => `public-${i}`),
    'external',
  );
  const t0 = performance.now();
  if (SOURCE === 'public') {
    // Bulk insert: battles, one vote each, one event each (as `zhujiu import battles` stores them).
    await sql`
      INSERT INTO battles (ability, model_left_id, model_right_id, source, import_key, status, created_at, closed_at)
      SELECT 'language', l.id, r.id, 'public', g::text, 'closed', now(), now()
        FROM generate_series(1, ${VOTES}) g
        JOIN models l ON l.name = 'public-' || (g % 129)
        JOIN models r ON r.name = 'public-' || ((g + 1 + g % 7) % 129)`.execute(db.db);
  } else {
    // The community's own: closed, revealed battles of the two recorded models on their items, one vote each.
    const [a, b] = [...models.values()] as [number, number];
    const first = Math.min(...items.values());
    await sql`
      INSERT INTO battles (item_id, ability, model_left_id, model_right_id, source, import_key, status, created_at,
                           closed_at, revealed_at)
      SELECT ${first}::bigint + g % 805, 'language', CASE WHEN g % 2 = 0 THEN ${a}::bigint ELSE ${b}::bigint END,
             CASE WHEN g % 2 = 0 THEN ${b}::bigint ELSE ${a}::bigint END, 'arena', 'bench:' || g, 'closed', now(),
             now(), now()
        FROM generate_series(1, ${VOTES}) g`.execute(db.db);
  }
  await sql`
    INSERT INTO votes (battle_id, voter_hash, choice, cast_at, updated_at, last_event_at)
    SELECT id, 'import:' || source || ':' || import_key, (ARRAY['left','equal','right'])[1 + id % 3], now(), now(), now()
      FROM battles WHERE import_key IS NOT NULL`.execute(db.db);
  await sql`
    INSERT INTO vote_events (battle_id, voter_hash, platform, platform_event_id, kind, choice, event_at, effect)
    SELECT battle_id, voter_hash, 'import', voter_hash, 'import', choice, now(), 'cast' FROM votes`.execute(
    db.db,
  );
  await analyzeVoteTables(db.db);
  process.stdout.write(
    `  seeded ${VOTES.toLocaleString('en')} ${KIND} votes in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${(s.at(-1) ?? 0).toFixed(1)} ms (n=${s.length})`;
}

/** The histogram's figures in ms (each sample: timer resolution + the longest stretch the loop was held). */
function loopStats(h: ReturnType<typeof monitorEventLoopDelay>): string {
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  return `p50 ${ms(h.percentile(50))} ms, p99 ${ms(h.percentile(99))} ms, max ${ms(h.max)} ms (samples ${h.count}, resolution ${RESOLUTION_MS} ms)`;
}

const RESOLUTION_MS = 5;

async function run(db: Db, label: string): Promise<void> {
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  process.stdout.write(`${label} (load average ${load})\n`);
  await seed(db);
  const config = appConfigSchema.parse({ arena: { window_hours: 1 } });
  const clock = new ManualClock(new Date());
  const arena = new ArenaService({
    db: db.db,
    platforms: [platform()],
    arena: config.arena,
    clock,
    logger: silentLogger,
    voterSecret: 'bench-secret-0123456789abcdef',
  });
  const leaderboard = new LeaderboardService({
    db: db.db,
    clock,
    logger: silentLogger,
    aggregation: config.aggregation,
  });
  const onCommand = createCommandHandler({
    db: db.db,
    arena,
    config,
    logger: silentLogger,
    leaderboard,
  });
  let last: MessageContent | undefined;
  const ctx = (name: string): CommandContext => ({
    platform: 'shell',
    eventId: `e-${name}-${performance.now()}`,
    name,
    args: {},
    text: '',
    user: { id: 'local', roles: ['maintainer'] },
    channelId: 'terminal',
    reply: async (c) => {
      last = c;
    },
  });
  /** Runs one handler from a fresh macrotask, as a chat event is; returns its latency in ms. */
  const timed = async (f: () => Promise<unknown>): Promise<number> => {
    await nextMacrotask();
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  await onCommand(ctx('arena')); // warm up
  await onCommand(ctx('leaderboard')); // the first board is built once (off the loop)
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  const arenaMs: number[] = [];
  const voteMs: number[] = [];
  const modelsMs: number[] = [];
  const boardMs: number[] = [];
  const tickMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    arenaMs.push(await timed(() => onCommand(ctx('arena'))));
    if (!/^Battle #\d+ posted/.test(last?.text ?? '')) throw new Error(`/arena: ${last?.text}`);
    for (let v = 0; v < 10; v++) {
      voteMs.push(
        await timed(() =>
          arena.onReaction({
            platform: 'shell',
            eventId: `r${r}-${v}`,
            channelId: 'terminal',
            messageId: `m${r + 2}`,
            userId: `u${v}`,
            emoji: v % 2 ? '⬅️' : '➡️',
            added: true,
            at: clock.now(),
          }),
        ),
      );
    }
    modelsMs.push(await timed(() => onCommand(ctx('models'))));
    boardMs.push(await timed(() => onCommand(ctx('leaderboard'))));
    tickMs.push(await timed(() => arena.closeDue(clock.now())));
  }
  clock.advance(2 * 3_600_000);
  tickMs.push(await timed(() => arena.closeDue(clock.now())));
  await sleep(4 * RESOLUTION_MS); // let the histogram's timer fire after the last handler
  delay.disable();
  await leaderboard.close();
  process.stdout.write(`  /arena        ${stats(arenaMs)}\n`);
  process.stdout.write(`  reaction      ${stats(voteMs)}\n`);
  process.stdout.write(`  /models       ${stats(modelsMs)}\n`);
  process.stdout.write(`  /leaderboard  ${stats(boardMs)}\n`);
  process.stdout.write(`  loop tick     ${stats(tickMs)}\n`);
  process.stdout.write(`  event-loop delay while they ran: ${loopStats(delay)}\n`);
}

if (values.only !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-chat-'));
  const db = await openDb(
    { kind: 'pglite', dataDir: join(dir, 'pg') },
    { pgliteThread: PGLITE_ON === 'worker' },
  );
  try {
    await migrateToLatest(db.db);
    await run(
      db,
      `PGlite (embedded, ${PGLITE_ON === 'worker' ? 'in a worker thread, as the bot opens it' : "on the bot's own thread"}), ${VOTES.toLocaleString('en')} stored ${KIND} votes`,
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (values.only !== 'pglite' && base) {
  const name = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const db = await openDb({ kind: 'postgres', url: u.toString() });
  try {
    await migrateToLatest(db.db);
    await run(db, `Postgres, ${VOTES.toLocaleString('en')} stored ${KIND} votes`);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
