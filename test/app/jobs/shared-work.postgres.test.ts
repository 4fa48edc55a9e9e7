/**
 * Shared periodic work on one PostgreSQL shared by two bots (both holding the same Discord, as two replicas would)
 * and two workers, each with its own connection pool, clock and claims (jobs/shared-work.ts), with votes arriving:
 * each change of the board's inputs is built once (counted by the processes' metrics), the daily post goes out
 * once, each scheduled-battle interval posts one battle and the due battles are closed once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { DISCORD_CAPABILITIES } from '../../../src/chat/discord/adapter.ts';
import type {
  ChatHandlers,
  ChatPlatform,
  MessageContent,
  MessageRef,
  PlatformName,
} from '../../../src/chat/port.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { type AppMetrics, noMetrics } from '../../../src/core/metrics.ts';
import { SharedWork } from '../../../src/jobs/shared-work.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { closeBattle, listOpenBattles } from '../../../src/storage/battles.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { claimTask, finishTask } from '../../../src/storage/task-leases.ts';
import { addBattles } from '../../helpers/board-data.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testConfig } from '../arena/helpers.ts';

/** A chat platform that records posts into a log shared by every process (as the real channel would be). */
class RecordingPlatform implements ChatPlatform {
  readonly botUserId = 'bot';
  readonly capabilities = DISCORD_CAPABILITIES;
  #n = 0;
  constructor(
    readonly name: PlatformName,
    readonly by: string,
    readonly log: { channelId: string; content: MessageContent }[],
  ) {}
  async start(_h: ChatHandlers): Promise<void> {}
  async stop(): Promise<void> {}
  async post(channelId: string, content: MessageContent): Promise<MessageRef> {
    this.log.push({ channelId, content });
    return { platform: this.name, channelId, messageId: `${this.by}-${++this.#n}`, partIds: [] };
  }
  async edit(): Promise<void> {}
  async addReactions(): Promise<void> {}
  async listReactions() {
    return [];
  }
  async delete(): Promise<void> {}
}

/** Counts of what the metrics saw, over every process. */
const counts = { boardBuilds: 0, scheduled: 0, closed: 0, ran: 0, skipped: 0 };
const counting: AppMetrics = {
  ...noMetrics,
  boardBuilt: () => {
    counts.boardBuilds++;
  },
  battlePosted: (_p, origin) => {
    if (origin === 'scheduled') counts.scheduled++;
  },
  battlesClosed: (_r, n) => {
    counts.closed += n;
  },
  sharedTask: (_t, outcome) => {
    counts[outcome]++;
  },
};

const CONFIG = testConfig({
  arena: {
    window_hours: 1,
    identity_guard: { words: ['openai'], patterns: [] },
    schedule: { every_minutes: 60, channels: [{ platform: 'discord', channel_id: 'arena-ch' }] },
  },
  leaderboard: {
    refresh_seconds: 0,
    daily_post: {
      cron: '0 9 * * *',
      timezone: 'Asia/Shanghai',
      channels: [{ platform: 'discord', channel_id: 'board-d' }],
    },
  },
});

describe.runIf(process.env.TEST_DATABASE_URL)('shared work on one PostgreSQL', () => {
  let db: TestDb;
  const pools: Db[] = [];
  beforeAll(async () => {
    db = await freshDb('postgres');
    await seedModels(db.db);
    await addBattles(db.db, 'arena', 'language', votes(30, 10), 'first');
  });
  afterAll(async () => {
    for (const p of pools) await p.close();
    await db?.destroy();
  });

  function votes(left: number, right: number) {
    return [
      ...Array.from({ length: left }, () => ({ a: 'x', b: 'y', choice: 'left' as const })),
      ...Array.from({ length: right }, () => ({ a: 'x', b: 'y', choice: 'right' as const })),
    ];
  }

  async function start(
    name: string,
    on: TestDb,
    clock: ManualClock,
    log: { channelId: string; content: MessageContent }[],
    chat: boolean,
    Shared: typeof SharedWork = SharedWork,
  ) {
    if (!on.url) throw new Error('a PostgreSQL test database has a URL');
    const d = await openDb({ kind: 'postgres', url: on.url });
    pools.push(d);
    const shared = new Shared({ db: d.db, clock, metrics: counting, holder: name });
    const leaderboard = new LeaderboardService({
      db: d.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 20, seed: 1 },
      compute: 'inline',
      inlineChart: false,
      shared,
      metrics: counting,
      waitPollMs: 20,
    });
    const bot = new BotService({
      db: d.db,
      config: CONFIG,
      platforms: chat ? [new RecordingPlatform('discord', name, log)] : [],
      logger: silentLogger,
      clock,
      voterSecret: 'shared-work-secret-0123456789',
      loopIntervalMs: 0,
      leaderboard,
      shared,
      metrics: counting,
    });
    await bot.start();
    return { bot, leaderboard, pool: d, stop: () => bot.stop().then(() => leaderboard.close()) };
  }

  it('two bots and two workers, votes arriving: one build per change, one daily post, one battle per interval', async () => {
    const log: { channelId: string; content: MessageContent }[] = [];
    // Counted from here: the other test of this file may have run first (shuffled order).
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] = 0;
    // 08:30 in Shanghai (UTC+8): the daily post (09:00) is not due yet.
    const clock = new ManualClock(new Date('2026-11-30T00:30:00Z'));
    const procs = [];
    for (const [name, chat] of [
      ['bot-a', true],
      ['bot-b', true],
      ['worker-1', false],
      ['worker-2', false],
    ] as const)
      procs.push(await start(name, db, clock, log, chat));
    const arena = () => log.filter((p) => p.channelId === 'arena-ch').length;
    // The first start posted the channel's battle of this interval; the others found it posted.
    expect(arena()).toBe(1);
    expect(counts.scheduled).toBe(1);

    // The board, asked of all four at once, three times with new votes between: one build per change.
    const ids: number[] = [];
    for (let change = 0; change < 3; change++) {
      if (change > 0) await addBattles(db.db, 'arena', 'language', votes(5, 5), `more${change}`);
      const snaps = await Promise.all(procs.map((p) => p.leaderboard.refresh()));
      expect(new Set(snaps.map((s) => s.id)).size).toBe(1);
      ids.push(snaps[0]!.id);
    }
    expect(new Set(ids).size).toBe(3);
    expect(counts.boardBuilds).toBe(3);
    const stored = await db.db.selectFrom('leaderboard_snapshots').select('id').execute();
    expect(stored).toHaveLength(3);

    // 10:00 in Shanghai: the daily post is due, the next scheduled interval has begun and the first battle's
    // window (one hour) has ended. All four tick at once.
    clock.set(new Date('2026-11-30T02:00:00Z'));
    await Promise.all(procs.map((p) => p.bot.tick()));
    expect(log.filter((p) => p.channelId === 'board-d')).toHaveLength(1);
    expect(arena()).toBe(2);
    expect(counts.closed).toBe(1);
    // The new scheduled battle moved the board's inputs (its id is one of the marks, storage/leaderboard.ts
    // boardInputMarks); the daily post, made by whichever process won it in the same instant, shows the board of
    // before or after that post. Asked of all four now, that change is built once: four builds, four snapshots.
    const snapshots = async () =>
      (await db.db.selectFrom('leaderboard_snapshots').select('id').execute()).length;
    const after = await Promise.all(procs.map((p) => p.leaderboard.refresh()));
    expect(new Set(after.map((s) => s.id)).size).toBe(1);
    expect(counts.boardBuilds).toBe(4);
    expect(await snapshots()).toBe(4);

    // Two more intervals, each ticked twice by everyone: one battle each, each due battle closed once.
    for (const at of ['2026-11-30T03:00:00Z', '2026-11-30T04:00:00Z']) {
      clock.set(new Date(at));
      await Promise.all(procs.map((p) => p.bot.tick()));
      await Promise.all(procs.map((p) => p.bot.tick()));
    }
    expect(arena()).toBe(4);
    expect(counts.scheduled).toBe(4);
    expect(counts.closed).toBe(3);
    expect(log.filter((p) => p.channelId === 'board-d')).toHaveLength(1);
    const battles = await db.db
      .selectFrom('battles')
      .select(['status'])
      .where('source', '=', 'arena')
      .where('channel_id', '=', 'arena-ch')
      .execute();
    expect(battles.map((b) => b.status).sort()).toEqual(['closed', 'closed', 'closed', 'open']);
    expect(counts.skipped).toBeGreaterThan(0);
    // Still one build per stored snapshot (no board was computed twice).
    expect(counts.boardBuilds).toBe(await snapshots());
    await Promise.all(procs.map((p) => p.stop()));
  });

  it('a process that loses the closing waits for it: its tick ends after the holder finished, battles closed', async () => {
    const log: { channelId: string; content: MessageContent }[] = [];
    // Its own database: the tests of this file run in a shuffled order (vitest.config.ts).
    const own = await freshDb('postgres');
    const clock = new ManualClock(new Date('2026-12-01T00:30:00Z'));
    await seedModels(own.db);
    // Counts this process's looks at whether another process holds the closing (SharedWork.waitWhileBusy).
    let looks = 0;
    class Watched extends SharedWork {
      override async busy(task: string): Promise<boolean> {
        if (task === 'arena.close') looks++;
        return super.busy(task);
      }
    }
    const p = await start('bot-c', own, clock, log, true, Watched);
    // The battle posted at start is due an hour later. Another process claims its closing first and holds it.
    clock.set(new Date('2026-12-01T01:40:00Z'));
    const due = await listOpenBattles(own.db, clock.now());
    expect(due.length).toBeGreaterThan(0);
    const key = due.map((b) => b.id).join(',');
    const task = { task: 'arena.close', key, holder: 'elsewhere' };
    expect(await claimTask(own.db, { ...task, now: clock.now(), leaseMs: 600_000 })).toBe(true);
    let ended = false;
    const tick = p.bot.tick().then((r) => {
      ended = true;
      return r;
    });
    // The tick either ends (it did not wait) or looks at the claim again and again (it waits); while the claim is
    // held the wait has no other exit, so the outcome does not depend on the machine's speed.
    while (!ended && looks < 3) await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(false);
    expect(log.filter((m) => m.channelId === 'arena-ch')).toHaveLength(1); // the next interval's post waits too
    // The holder closes them and finishes: the waiting tick goes on and finds nothing left to close.
    for (const b of due) await closeBattle(own.db, b.id, clock.now());
    await finishTask(own.db, { ...task, now: clock.now(), done: true });
    const report = await tick;
    expect(report.closed).toEqual([]);
    await p.stop();
    pools.splice(pools.indexOf(p.pool), 1);
    await p.pool.close();
    await own.destroy();
  });
});
