/**
 * Through the real discord.js against the fake Discord: answers that name their model glued to Chinese
 * text (`我是ChatGPT，…`, `我是Claude，由Anthropic开发…`) or in full-width letters are refused by the identity
 * guard, so `/arena` posts no such pair; an innocent Chinese pair is posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { testBot, testConfig } from './helpers.ts';

const LEAKS = [
  '我是ChatGPT，一个由OpenAI训练的大型语言模型。',
  '你好！我是Claude，由Anthropic开发的AI助手。',
  '我是ＣｈａｔＧＰＴ，很高兴为你服务。',
];

describe('identity guard on Chinese answers, through Discord', () => {
  let db: TestDb;
  let fake: FakeDiscord;
  let bot: BotService;

  beforeAll(async () => {
    db = await freshDb('pglite');
    fake = await FakeDiscord.start();
    bot = testBot({
      db: db.db,
      config: testConfig({
        arena: {
          window_hours: 1,
          identity_guard: { words: ['openai', 'chatgpt', 'anthropic'], patterns: [] },
        },
      }),
      platforms: [
        new DiscordAdapter({
          token: 'fake-token',
          guildIds: [GUILD_ID],
          restApi: fake.restApi,
          logger: silentLogger,
          restRetries: 0,
          restTimeoutMs: 60_000,
        }),
      ],
      clock: new ManualClock(new Date()),
    });
    await bot.start();
  });
  afterAll(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });
  // Each test posts from its own pair only.
  useCleanRows(() => db);

  async function seed(name: string, left: string, right: string): Promise<void> {
    const ds = await ensureDataset(db.db, {
      name,
      ability: 'language',
      method: 'comparative',
      language: 'zh',
    });
    const items = await ensureItems(db.db, ds, [
      { key: `${name}-q`, prompt: '请介绍一下你自己。' },
    ]);
    const models = await ensureModels(db.db, ['claude-2', 'gpt-3.5-turbo-0301'], 'recorded');
    const itemId = items.get(`${name}-q`) as number;
    await insertResponses(db.db, [
      {
        modelId: models.get('claude-2') as number,
        itemId,
        requestHash: 'recorded',
        output: left,
        source: 'import',
      },
      {
        modelId: models.get('gpt-3.5-turbo-0301') as number,
        itemId,
        requestHash: 'recorded',
        output: right,
        source: 'import',
      },
    ]);
  }

  it.each(LEAKS.map((l, i) => [i, l] as const))(
    'refuses pair %i (%s): nothing is posted',
    async (i, leak) => {
      await seed(`leak${i}`, leak, '我是一个AI助手，很高兴为你服务。');
      const refusedBefore = bot.arena.guardStats.refused;
      const before = fake.requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith('/messages'),
      ).length;
      const res = await bot.arena.postBattle('discord', CHANNEL_ID);
      expect(res.ok).toBe(false);
      const after = fake.requests.filter(
        (r) => r.method === 'POST' && r.path.endsWith('/messages'),
      ).length;
      expect(after).toBe(before);
      expect(bot.arena.guardStats.refused).toBeGreaterThan(refusedBefore);
    },
  );

  it('posts an innocent Chinese pair', async () => {
    await seed('clean', '今天的天气很好，适合出去散步。', 'Python的列表推导式很好用。');
    const res = await bot.arena.postBattle('discord', CHANNEL_ID);
    expect(res.ok).toBe(true);
  });
});
