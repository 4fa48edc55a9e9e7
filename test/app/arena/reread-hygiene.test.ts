/**
 * Vote hygiene (docs/scoring.md §4.3) holds for votes the bot only learns of by re-reading a message (a missed
 * dispatch, through the real discord.js against the Discord fake): a vote over the voter's daily cap is flagged
 * whether its event arrived or the re-read found it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID, MAINTAINER_ROLE_ID } from '../../fakes/discord.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig } from './helpers.ts';

const U = '1300000000000000001';

describe.each(flowBackends())('vote hygiene of re-read votes (%s)', (backend) => {
  let db: TestDb;
  let fake: FakeDiscord;
  let bot: BotService;
  const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));

  beforeAll(async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    fake = await FakeDiscord.start();
    const adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: fake.restApi,
      logger: silentLogger,
      maintainerRoleIds: [MAINTAINER_ROLE_ID],
      restRetries: 0,
      restTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
    });
    bot = testBot({
      db: db.db,
      config: testConfig({
        arena: { hygiene: { daily_vote_cap: 1 } },
        platforms: {
          discord: { guild_ids: [GUILD_ID], maintainer_role_ids: [MAINTAINER_ROLE_ID] },
        },
      }),
      platforms: [adapter],
      clock,
    });
    await bot.start();
  });

  afterAll(async () => {
    await bot?.stop();
    await fake?.close();
    await db?.destroy();
  });

  const flags = async () =>
    (
      await db.db
        .selectFrom('votes')
        .select(['battle_id', 'flag'])
        .where('retracted_at', 'is', null)
        .orderBy('battle_id')
        .execute()
    ).map((v) => v.flag);

  it('a vote over the daily cap found by a re-read is flagged daily_cap', async () => {
    const posted = [];
    for (let i = 0; i < 2; i++) {
      const r = await bot.arena.postBattle('discord', CHANNEL_ID);
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      posted.push(r.value.ref.messageId);
    }
    // Both dispatches are lost (the bot's clock, not the platform's, then dates both votes): the re-reads find
    // them, the first one within the cap of one, the second one over it.
    fake.userReact(posted[0] as string, '⬅️', U, true, { lost: true });
    expect((await bot.arena.reconcile('discord')).added).toBe(1);
    expect(await flags()).toEqual([null]);
    clock.advance(60_000);
    fake.userReact(posted[1] as string, '➡️', U, true, { lost: true });
    expect((await bot.arena.reconcile('discord')).added).toBe(1);
    expect(await flags()).toEqual([null, 'daily_cap']);
  });
});
