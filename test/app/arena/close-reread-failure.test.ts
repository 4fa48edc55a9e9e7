/**
 * The re-read just before a battle closes (ArenaService.closeDue, docs/architecture.md "Re-reads") is an extra:
 * when it fails for one battle (here a database refusal while storing what it found, injected with a trigger on the
 * real database), that battle still closes with its stored votes and every other due battle closes too, instead of
 * the failure stopping every close, tick after tick.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID, MAINTAINER_ROLE_ID } from '../../fakes/discord.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig } from './helpers.ts';

describe.each(flowBackends())('a failed closing re-read (%s)', (backend) => {
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
        arena: { window_hours: 1 },
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

  it('closes every due battle, the one whose re-read failed included', async () => {
    const posted: { id: number; msg: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await bot.arena.postBattle('discord', CHANNEL_ID);
      if (!r.ok) throw new Error(JSON.stringify(r.reason));
      posted.push({ id: r.value.battleId, msg: r.value.ref.messageId });
    }
    const [first, second] = posted as [{ id: number; msg: string }, { id: number; msg: string }];
    // A vote on the first battle that the bot missed: its closing re-read will try to store it, and fail.
    fake.userReact(first.msg, '⬅️', '1300000000000000001', true, { lost: true });
    await sql
      .raw(`CREATE FUNCTION zj_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'refused by the test'; END $$`)
      .execute(db.db);
    await sql
      .raw(`CREATE TRIGGER zj_test_refuse BEFORE INSERT ON vote_events FOR EACH ROW
            WHEN (NEW.battle_id = ${first.id}) EXECUTE FUNCTION zj_test_refuse()`)
      .execute(db.db);
    clock.advance(2 * 3_600_000);
    await bot.arena.closeDue(clock.now());
    expect((await getBattle(db.db, first.id))?.status).toBe('closed');
    expect((await getBattle(db.db, second.id))?.status).toBe('closed');
  });
});
