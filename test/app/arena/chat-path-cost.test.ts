/**
 * After 200,000 imported votes every `/arena` froze the bot for ~25 s (on the embedded database
 * every query runs on the bot's own thread). The chat path must not read more rows when more votes are stored.
 *
 * Deterministic check (no timing): every query the chat path runs (`/arena`, a reaction with a vote cap, `/models`,
 * `/leaderboard` with the board rebuild it starts in the background, the loop's close-and-reveal tick) is
 * captured, then re-run under `EXPLAIN (ANALYZE, FORMAT JSON)`, and the rows its scans read from the vote tables
 * (returned + removed by filters, times loops) are summed. With 5,000 imported votes stored instead of 30, no
 * query may read more rows than it did with 30: a query that scans all votes fails it (the board's fingerprint
 * did, reading every vote twice on each `/leaderboard`). The statements inside `zj_apply_vote_event` are not
 * visible to EXPLAIN; each is a probe of a primary or unique key. The event-loop delay during the same actions
 * is recorded with `perf_hooks.monitorEventLoopDelay` (the test checks it has samples, i.e. the window is right),
 * but speed is for `bench/chat-path.ts` to print, not asserted.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ArenaService } from '../../../src/arena/service.ts';
import { createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { analyzeVoteTables, insertImportedBattles } from '../../../src/storage/battles.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { acceptingPlatform, counterSeeds, SECRET, seedModels, testConfig } from './helpers.ts';

// A fixed amount of work (every row of the file, thousands of stored votes), not a time limit: on a machine busy
// with other work it may take longer than the project's default per test.
vi.setConfig({ testTimeout: 120_000 });

/** Captures the SQL text and parameters of every query run through the wrapped Kysely. */
class Capture implements KyselyPlugin {
  readonly queries: { sql: string; parameters: readonly unknown[] }[] = [];
  #db: Kysely<Database> | undefined;
  bind(db: Kysely<Database>): this {
    this.#db = db;
    return this;
  }
  transformQuery(args: PluginTransformQueryArgs) {
    const c = this.#db?.getExecutor().compileQuery(args.node, args.queryId);
    if (c) this.queries.push({ sql: c.sql, parameters: c.parameters });
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

const VOTE_TABLES = new Set(['battles', 'votes', 'vote_events']);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows read from the vote tables by the scans of one plan. */
function rowsRead(node: PlanNode): number {
  let n = 0;
  if (node['Relation Name'] && VOTE_TABLES.has(node['Relation Name'])) {
    const loops = node['Actual Loops'] ?? 1;
    n +=
      ((node['Actual Rows'] ?? 0) +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0)) *
      loops;
  }
  for (const p of node.Plans ?? []) n += rowsRead(p);
  return n;
}

/** Runs the chat path once; returns per query shape the rows its read-only queries read from the vote tables. */
async function chatPath(
  d: TestDb,
  plain: Kysely<Database>,
  opts: { board: boolean } = { board: true },
): Promise<Map<string, number>> {
  const capture = new Capture();
  const db = plain.withPlugin(capture);
  capture.bind(db);
  const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));
  const config = testConfig({
    arena: { window_hours: 1, vote_cap: 50, identity_guard: { words: ['openai'], patterns: [] } },
    aggregation: { bootstrap: 20 },
  });
  const arena = new ArenaService({
    db,
    platforms: [acceptingPlatform()],
    arena: config.arena,
    clock,
    logger: silentLogger,
    voterSecret: SECRET,
    seedSource: counterSeeds(),
  });
  const leaderboard = new LeaderboardService({
    db,
    clock,
    logger: silentLogger,
    aggregation: config.aggregation,
    compute: 'inline',
    inlineChart: false,
  });
  const onCommand = createCommandHandler({ db, arena, config, logger: silentLogger, leaderboard });
  const replies: MessageContent[] = [];
  const ctx = (name: string): CommandContext => ({
    platform: 'shell',
    eventId: `e-${name}`,
    name,
    args: {},
    text: '',
    user: { id: 'local', roles: ['maintainer'] },
    channelId: 'terminal',
    reply: async (c) => {
      replies.push(c);
    },
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  if (opts.board) {
    await onCommand(ctx('leaderboard')); // no snapshot yet: builds the first board
    expect(replies.at(-1)?.text ?? '').not.toMatch(/went wrong/);
  }
  await onCommand(ctx('arena'));
  expect(replies.at(-1)?.text).toMatch(/^Battle #\d+ posted/);
  for (const [user, emoji] of [
    ['u1', '⬅️'],
    ['u2', '➡️'],
  ] as const) {
    const r = await arena.onReaction({
      platform: 'shell',
      eventId: `r-${user}`,
      channelId: 'terminal',
      messageId: 'm1',
      userId: user,
      emoji,
      added: true,
      at: clock.now(),
    });
    expect(r).toMatchObject({ kind: 'vote', effect: 'cast' });
  }
  await onCommand(ctx('models'));
  expect(replies.at(-1)?.text).toBe('2 models can battle');
  if (opts.board) {
    await onCommand(ctx('leaderboard')); // answers from the snapshot; the votes changed, so a rebuild starts
    expect(replies.at(-1)?.text ?? '').not.toMatch(/went wrong/);
  }
  await leaderboard.close(); // waits for that rebuild: its queries are on the path too
  clock.advance(2 * 3_600_000);
  expect((await arena.closeDue(clock.now())).closed).toHaveLength(1);
  await sleep(50); // the histogram's timer fires (and records) only when the loop turns
  delay.disable();
  expect(delay.count).toBeGreaterThan(0); // bench/chat-path.ts prints p99 and max

  // Re-run every read-only query under EXPLAIN ANALYZE inside a transaction that is rolled back.
  const cost = new Map<string, number>();
  for (const q of capture.queries) {
    const text = q.sql.trim();
    if (!/^(select|with)\b/i.test(text) || /zj_apply_vote_event/.test(text)) continue;
    const shape = text.replace(/\s+/g, ' ').slice(0, 90);
    const plan = await plain.transaction().execute(async (trx) => {
      const r = await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.raw(
        text.replace(/\$(\d+)/g, (_m, i: string) => {
          const v = q.parameters[Number(i) - 1];
          if (v === null || v === undefined) return 'NULL';
          if (typeof v === 'number') return String(v);
          if (Array.isArray(v))
            return `'{${v.map((x) => String(x).replace(/'/g, "''")).join(',')}}'`;
          if (v instanceof Date) return `'${v.toISOString()}'`;
          return `'${String(v).replace(/'/g, "''")}'`;
        }),
      )}`.execute(trx);
      const raw = r.rows[0]?.['QUERY PLAN'];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      return parsed[0]?.Plan as PlanNode;
    });
    cost.set(shape, (cost.get(shape) ?? 0) + rowsRead(plan));
  }
  void d;
  return cost;
}

describe.each(flowBackends())('chat path cost with imported votes (%s)', (backend) => {
  const dbs: TestDb[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.destroy();
  });

  it('reads no more rows from the vote tables with 5,000 imported votes than with 30', async () => {
    const costs: Map<string, number>[] = [];
    for (const imported of [30, 5_000]) {
      const d = await freshDb(backend);
      dbs.push(d);
      await seedModels(d.db);
      {
        const ids = await ensureModels(
          d.db,
          Array.from({ length: 40 }, (_, i) => `public-${i}`),
          'external',
        );
        const list = [...ids.values()];
        await d.db.transaction().execute((trx) =>
          insertImportedBattles(
            trx,
            'public',
            null,
            Array.from({ length: imported }, (_, k) => ({
              importKey: `${k}`,
              leftModelId: list[k % 40] as number,
              rightModelId: list[(k + 1 + (k % 7)) % 40] as number,
              choice: (['left', 'equal', 'right'] as const)[k % 3] as 'left',
            })),
            new Date('2026-11-01T00:00:00Z'),
          ),
        );
        await analyzeVoteTables(d.db);
      }
      costs.push(await chatPath(d, d.db));
    }
    const [none, many] = costs as [Map<string, number>, Map<string, number>];
    expect([...none.keys()].length).toBeGreaterThan(5);
    expect([...many.keys()].sort()).toEqual([...none.keys()].sort());
    // Query by query, the chat path reads no more rows of the vote tables with 5,000 imported votes than with
    // 30 (with tiny tables the planner may scan a whole table of 31 rows; with many it must use the indexes).
    const grew = [...many].filter(([shape, n]) => n > (none.get(shape) ?? 0));
    expect(grew).toEqual([]);
  });

  it("reads no more rows with 5,000 of the community's own votes than with 30 (/arena, votes, /models, tick)", async () => {
    // The board's rebuild reads every counted vote by design (it rates them); /arena must not: it reads the
    // per-pair and per-item counts of migration 0007.
    const costs: Map<string, number>[] = [];
    for (const own of [30, 5_000]) {
      const d = await freshDb(backend);
      dbs.push(d);
      await seedModels(d.db);
      await sql`
        INSERT INTO battles (item_id, ability, model_left_id, model_right_id, source, import_key, status,
                             created_at, closed_at, revealed_at)
        SELECT i.id, 'language', l.id, r.id, 'arena', 'old:' || g, 'closed', now(), now(), now()
          FROM generate_series(1, ${own}) g
          JOIN items i ON i.key = 'q' || (g % 6)
          JOIN models l ON l.name = CASE WHEN g % 2 = 0 THEN 'model-alpha' ELSE 'model-beta' END
          JOIN models r ON r.name = CASE WHEN g % 2 = 0 THEN 'model-beta' ELSE 'model-alpha' END`.execute(
        d.db,
      );
      await sql`
        INSERT INTO votes (battle_id, voter_hash, choice, cast_at, updated_at, last_event_at)
        SELECT id, 'voter-hash-' || import_key, 'left', now(), now(), now() FROM battles`.execute(
        d.db,
      );
      await analyzeVoteTables(d.db);
      costs.push(await chatPath(d, d.db, { board: false }));
    }
    const [few, many] = costs as [Map<string, number>, Map<string, number>];
    expect([...many.keys()].sort()).toEqual([...few.keys()].sort());
    const grew = [...many].filter(([shape, n]) => n > (few.get(shape) ?? 0));
    expect(grew).toEqual([]);
  });
});
