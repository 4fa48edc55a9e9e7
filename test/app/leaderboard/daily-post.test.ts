/**
 * The daily board post on one database shared by several processes (on Postgres each "process" has its own
 * connection pool): two bots and a worker each run their start-up scheduling code, one bot restarts twice, the
 * injected clock reaches 09:00 Asia/Shanghai → exactly one post per channel for that day, one schedule row. A bot
 * that was down from 08:59 to 09:03 posts the 09:00 board once, late.
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
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { listPosts } from '../../../src/storage/leaderboard.ts';
import { addBattles } from '../../helpers/board-data.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { testConfig } from '../arena/helpers.ts';

/** What reached a channel (shared by every process, as the real channel would be). */
interface Delivered {
  readonly platform: PlatformName;
  readonly channelId: string;
  readonly content: MessageContent;
  readonly by: string;
}

/** A chat platform that only records posts (the daily post needs nothing else). */
class RecordingPlatform implements ChatPlatform {
  readonly botUserId = 'bot';
  readonly capabilities = DISCORD_CAPABILITIES;
  #n = 0;
  constructor(
    readonly name: PlatformName,
    readonly by: string,
    readonly log: Delivered[],
  ) {}
  async start(_h: ChatHandlers): Promise<void> {}
  async stop(): Promise<void> {}
  async post(channelId: string, content: MessageContent): Promise<MessageRef> {
    this.log.push({ platform: this.name, channelId, content, by: this.by });
    return { platform: this.name, channelId, messageId: `${this.by}-${++this.#n}`, partIds: [] };
  }
  async edit(): Promise<void> {}
  async addReactions(): Promise<void> {}
  async listReactions() {
    return [];
  }
  async delete(): Promise<void> {}
}

const CONFIG = testConfig({
  locale: 'zh-CN',
  leaderboard: {
    daily_post: {
      cron: '0 9 * * *',
      timezone: 'Asia/Shanghai',
      channels: [
        { platform: 'discord', channel_id: 'board-d' },
        { platform: 'slack', channel_id: 'board-s' },
      ],
    },
  },
});

describe.each(flowBackends())('daily post (%s)', (backend) => {
  let db: TestDb;
  const pools: Db[] = [];
  /** A database handle per process: its own pool on Postgres; PGlite has one connection for all. */
  async function connect(): Promise<Db> {
    if (!db.url) return db;
    const d = await openDb({ kind: 'postgres', url: db.url });
    pools.push(d);
    return d;
  }
  beforeAll(async () => {
    db = await freshDb(backend);
  });
  // Each test starts from the same votes and no schedule or post rows (its own days of posts).
  useCleanRows(
    () => db,
    (d) =>
      addBattles(d.db, 'arena', 'language', [
        ...Array.from({ length: 30 }, () => ({ a: 'x', b: 'y', choice: 'left' as const })),
        ...Array.from({ length: 10 }, () => ({ a: 'x', b: 'y', choice: 'right' as const })),
      ]),
  );
  afterAll(async () => {
    for (const p of pools) await p.close();
    await db.destroy();
  });

  async function process(name: string, clock: ManualClock, log: Delivered[], chat: boolean) {
    const d = await connect();
    const leaderboard = new LeaderboardService({
      db: d.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 50, seed: 1 },
      compute: 'inline',
    });
    const platforms = chat
      ? [new RecordingPlatform('discord', name, log), new RecordingPlatform('slack', name, log)]
      : [];
    const bot = new BotService({
      db: d.db,
      config: CONFIG,
      platforms,
      logger: silentLogger,
      clock,
      voterSecret: 'daily-post-secret-0123456789',
      loopIntervalMs: 0,
      leaderboard,
      schedule: !chat,
    });
    await bot.start(); // start-up scheduling code + one tick
    return {
      bot,
      stop: async () => {
        await bot.stop();
        await leaderboard.close();
      },
    };
  }

  it('two bots and a worker, one restarted twice: one post per channel on 2026-11-30, one schedule row', async () => {
    const log: Delivered[] = [];
    // 08:59 in Shanghai (UTC+8).
    const clock = new ManualClock(new Date('2026-11-30T00:59:00Z'));
    const a = await process('a', clock, log, true);
    let b = await process('b', clock, log, true);
    const w = await process('w', clock, log, false);
    expect(log).toEqual([]); // nothing due yet (yesterday's 09:00 predates the schedule)
    await b.stop();
    b = await process('b', clock, log, true); // restart 1

    clock.set(new Date('2026-11-30T01:00:00Z')); // 09:00 Asia/Shanghai
    await Promise.all([a.bot.tick(), b.bot.tick(), w.bot.tick()]);
    await b.stop();
    b = await process('b', clock, log, true); // restart 2 (its start-up tick finds the posts made)
    clock.advance(45_000);
    await Promise.all([a.bot.tick(), b.bot.tick(), w.bot.tick()]);

    expect(log.map((p) => `${p.platform}:${p.channelId}`).sort()).toEqual([
      'discord:board-d',
      'slack:board-s',
    ]);
    for (const p of log) {
      expect(p.content.title).toBe('每日排行榜 2026-11-30');
      expect(p.content.image?.mimeType).toBe('image/png');
      // A new install's locale (zh-CN): the whole post is Chinese, not only its title.
      expect(p.content.sections?.[0]?.heading).toBe('首次每日发布');
      expect(p.content.text).toMatch(/^每日排行榜 2026-11-30：/);
      expect(p.content.footer).toMatch(/^排行榜生成于 /);
      expect(p.content.table?.columns.slice(0, 2)).toEqual(['名次', '模型']);
    }
    const posts = await listPosts(db.db, 'leaderboard.daily');
    expect(posts.map((p) => [p.platform, p.channelId, p.key, p.status])).toEqual(
      expect.arrayContaining([
        ['discord', 'board-d', '2026-11-30', 'posted'],
        ['slack', 'board-s', '2026-11-30', 'posted'],
      ]),
    );
    expect(posts).toHaveLength(2);
    const schedules = await db.db.selectFrom('schedules').selectAll().execute();
    expect(schedules.map((s) => [s.name, s.cron, s.tz])).toEqual([
      ['leaderboard.daily', '0 9 * * *', 'Asia/Shanghai'],
    ]);
    expect(new Date(schedules[0]!.last_tick_at!).toISOString()).toBe('2026-11-30T01:00:00.000Z');

    // The next day: one more post per channel, comparing with the first.
    clock.set(new Date('2026-12-01T01:00:30Z'));
    await Promise.all([a.bot.tick(), b.bot.tick(), w.bot.tick()]);
    expect(log).toHaveLength(4);
    expect(log.slice(2).every((p) => p.content.title === '每日排行榜 2026-12-01')).toBe(true);
    expect(log[2]!.content.sections?.[0]?.heading).toBe('自上次发布以来的显著名次变化');
    await Promise.all([a.stop(), b.stop(), w.stop()]);
  });

  it('a bot down from 08:59 to 09:03 posts the 09:00 board once, late', async () => {
    const log: Delivered[] = [];
    // (The same database as above: the 2026-12-01 posts exist, so nothing older is due.)
    const clock = new ManualClock(new Date('2026-12-02T00:58:00Z'));
    let c = await process('c', clock, log, true);
    clock.set(new Date('2026-12-02T00:59:00Z'));
    await c.bot.tick();
    await c.stop(); // down at 08:59
    clock.set(new Date('2026-12-02T01:03:00Z'));
    c = await process('c', clock, log, true); // back at 09:03: the start-up tick posts late
    expect(log.map((p) => `${p.platform}:${p.channelId}`).sort()).toEqual([
      'discord:board-d',
      'slack:board-s',
    ]);
    expect(log.every((p) => p.content.title === '每日排行榜 2026-12-02')).toBe(true);
    // Posted at 09:03, 3 minutes after the 09:00 tick it belongs to.
    const posts = (await listPosts(db.db, 'leaderboard.daily')).filter(
      (p) => p.key === '2026-12-02',
    );
    expect(posts.map((p) => p.status)).toEqual(['posted', 'posted']);
    expect(posts.every((p) => p.postedAt.toISOString() === '2026-12-02T01:03:00.000Z')).toBe(true);
    clock.advance(30_000);
    await c.bot.tick();
    await c.stop();
    c = await process('c', clock, log, true);
    expect(log).toHaveLength(2);
    await c.stop();
  });
});
