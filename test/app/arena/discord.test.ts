/**
 * The arena through the real discord.js (DiscordAdapter) against the local fake Discord: a battle posted by a
 * maintainer's /arena, three users vote, one changes, one retracts, a replayed dispatch counts once, the bot's own
 * reactions are ignored, votes cast and removed while the bot is down are reconciled on start (and a second
 * reconcile changes nothing), closing reveals the models in an edit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, liveVotes } from '../../../src/storage/votes.ts';
import {
  BOT_USER_ID,
  CHANNEL_ID,
  FakeDiscord,
  GUILD_ID,
  MAINTAINER_ROLE_ID,
} from '../../fakes/discord.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { counterSeeds, MODELS, SECRET, seedModels, testBot, testConfig, until } from './helpers.ts';

const U = [
  '1300000000000000001',
  '1300000000000000002',
  '1300000000000000003',
  '1300000000000000004',
] as const;
const [L, E, R] = ['⬅️', '🟰', '➡️'] as const;

describe.each(flowBackends())('arena through the fake Discord (%s)', (backend) => {
  let db: TestDb;
  let fake: FakeDiscord;
  let clock: ManualClock;
  let bot: BotService;
  const config = testConfig({
    platforms: { discord: { guild_ids: [GUILD_ID], maintainer_role_ids: [MAINTAINER_ROLE_ID] } },
  });
  const seeds = counterSeeds();

  function makeBot(): BotService {
    const adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: fake.restApi,
      logger: silentLogger,
      maintainerRoleIds: [MAINTAINER_ROLE_ID],
      restRetries: 0,
      restTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
    });
    return testBot({
      db: db.db,
      config,
      platforms: [adapter],
      clock,
      seedSource: seeds,
    });
  }

  beforeEach(async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    fake = await FakeDiscord.start();
    clock = new ManualClock(new Date());
    bot = makeBot();
    await bot.start();
  });

  afterEach(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  const events = async (battleId: number) => listVoteEvents(db.db, battleId);
  const h = (u: string) => hashVoterId(SECRET, 'discord', u);

  it('counts votes, changes, retractions, replays once, ignores the bot, reconciles after downtime, reveals', async () => {
    // A non-maintainer is refused (by the adapter's guard before the handler), a maintainer posts.
    const refusedId = fake.slashCommand('arena', {}, { id: U[0], roles: [] });
    await until(() => fake.responsesFor(refusedId).length > 0, 'refusal');
    const id = fake.slashCommand('arena', {}, { id: U[0], roles: [MAINTAINER_ROLE_ID] });
    await until(() => fake.responsesFor(id).some((r) => r.kind === 'original'), '/arena reply');
    const battle = await until(
      async () => (await getBattle(db.db, 1))?.status === 'open' && getBattle(db.db, 1),
      'battle open',
    );
    const msgId = battle.messageId as string;
    expect(fake.reactionUsers(msgId, L)).toEqual([BOT_USER_ID]);
    const msg = fake.messages.get(msgId);
    const posted = JSON.stringify(
      fake.requests
        .filter((r) => r.method === 'POST' && r.path.includes('/messages'))
        .map((r) => r.json),
    );
    for (const m of MODELS) expect(posted).not.toContain(m);
    expect(JSON.stringify(msg)).toContain('Arena battle #1');

    fake.userReact(msgId, L, U[0], true);
    fake.userReact(msgId, R, U[1], true);
    const seq = fake.userReact(msgId, E, U[2], true);
    await until(async () => (await events(1)).length === 3, '3 events');
    // A replayed dispatch (same sequence, as after RESUME) counts once.
    fake.dispatchWithSeq(
      'MESSAGE_REACTION_ADD',
      {
        user_id: U[2],
        channel_id: CHANNEL_ID,
        message_id: msgId,
        guild_id: GUILD_ID,
        emoji: { id: null, name: E },
        burst: false,
        type: 0,
        member: {
          user: { id: U[2], username: 'carol', discriminator: '0', avatar: null },
          roles: [],
          joined_at: '2024-01-01T00:00:00.000Z',
          deaf: false,
          mute: false,
          flags: 0,
        },
      },
      seq,
    );
    fake.userReact(msgId, L, U[1], true); // bob changes to left (still holds right)
    await until(async () => (await events(1)).length === 4, 'change');
    fake.userReact(msgId, E, U[2], false); // carol retracts
    await until(async () => (await events(1)).length === 5, 'retract');
    // An emoji that is not a vote changes nothing.
    fake.userReact(msgId, '🔥', U[3], true);
    const live1 = new Map((await liveVotes(db.db, 1)).map((v) => [v.voterHash, v.choice]));
    expect(live1).toEqual(
      new Map([
        [h(U[0]), 'left'],
        [h(U[1]), 'left'],
      ]),
    );
    expect((await events(1)).map((e) => e.effect)).toEqual([
      'cast',
      'cast',
      'cast',
      'changed',
      'retracted',
    ]);
    expect((await events(1)).every((e) => e.voterHash !== h(BOT_USER_ID))).toBe(true);

    // The bot goes down; meanwhile dave votes right, alice removes her vote, bob removes his stale right.
    await bot.stop();
    await fake.waitDisconnected();
    expect(fake.userReact(msgId, R, U[3], true)).toBe(-1);
    fake.userReact(msgId, L, U[0], false);
    fake.userReact(msgId, R, U[1], false);
    bot = makeBot();
    await bot.start();
    const live2 = new Map((await liveVotes(db.db, 1)).map((v) => [v.voterHash, v.choice]));
    expect(live2).toEqual(
      new Map([
        [h(U[1]), 'left'],
        [h(U[3]), 'right'],
      ]),
    );
    // Three events: dave's cast, alice's retraction, and bob's stale right taken off his stored set (his vote
    // stays left; without it, removing left later would bring back a right the message no longer shows).
    const n = (await events(1)).length;
    expect(n).toBe(8);
    expect(
      (await events(1))
        .slice(5)
        .map((e) => e.effect)
        .sort(),
    ).toEqual(['cast', 'ignored_not_live', 'retracted']);
    // Reconciling again changes nothing.
    expect(await bot.arena.reconcile('discord')).toMatchObject({
      battles: 1,
      added: 0,
      removed: 0,
    });
    expect((await events(1)).length).toBe(n);

    // Closing reveals the models in an edit of the battle message.
    clock.advance(2 * 3_600_000);
    expect(await bot.tick()).toMatchObject({ closed: [1], revealed: [1] });
    const patch = fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path === `/channels/${CHANNEL_ID}/messages/${msgId}`,
    );
    expect(patch).toHaveLength(1);
    expect(JSON.stringify(patch[0]?.json)).toMatch(
      /Left: model-(alpha|beta) · Right: model-(alpha|beta) · tally ⬅️ 1 🟰 0 ➡️ 1/u,
    );
  });

  const post = async () => {
    const r = await bot.arena.postBattle('discord', CHANNEL_ID);
    if (!r.ok) throw new Error(JSON.stringify(r.reason));
    return { id: r.value.battleId, msg: r.value.ref.messageId };
  };
  const live = async (id: number) =>
    new Map((await liveVotes(db.db, id)).map((v) => [v.voterHash, v.choice]));

  it('re-reads after a session that was not resumed: the votes of the gap are stored', async () => {
    const [one, two] = [await post(), await post()];

    // Step: a super (burst) reaction and a normal one count live.
    fake.userReact(one.msg, L, U[0], true, { burst: true });
    fake.userReact(one.msg, R, U[1], true);
    await until(async () => (await live(one.id)).size === 2, 'two live votes');

    // Step: the connection drops and Discord refuses to resume (a new IDENTIFY, READY): what happens in the gap is
    // never dispatched, and the re-read after the new READY brings it in.
    const identified = fake.identifies.length;
    fake.disconnect({ resumable: false });
    fake.userReact(one.msg, E, U[2], true);
    fake.userReact(one.msg, R, U[1], false);
    fake.userReact(two.msg, R, U[3], true);
    await until(() => fake.identifies.length > identified, 'a new IDENTIFY');
    expect(fake.resumes.length).toBeGreaterThan(0); // it tried to resume and was refused
    await until(
      async () => (await live(one.id)).get(h(U[2])) === 'equal' && (await live(two.id)).size === 1,
      'the gap re-read',
    );
    await bot.rereads.idle();
    expect(await live(one.id)).toEqual(
      new Map([
        [h(U[0]), 'left'],
        [h(U[2]), 'equal'],
      ]),
    );
    expect(await live(two.id)).toEqual(new Map([[h(U[3]), 'right']]));
  });

  it('keeps super reactions at a restart, withdraws a battle deleted meanwhile once, reveals what the message shows', async () => {
    const [one, two, gone] = [await post(), await post(), await post()];
    fake.userReact(one.msg, L, U[0], true, { burst: true });
    fake.userReact(one.msg, E, U[2], true);
    fake.userReact(two.msg, R, U[3], true);
    await until(
      async () => (await live(one.id)).size === 2 && (await live(two.id)).size === 1,
      'votes',
    );

    // Step: the bot restarts; while it is down the third battle's message is deleted. The start's re-read keeps
    // the super reaction and withdraws the deleted battle, once.
    await bot.stop();
    await fake.waitDisconnected();
    expect(fake.deleteMessage(gone.msg)).toBe(-1);
    bot = makeBot();
    await bot.start();
    expect((await live(one.id)).get(h(U[0]))).toBe('left');
    expect(
      (await events(one.id)).some((e) => e.effect === 'retracted' && e.voterHash === h(U[0])),
    ).toBe(false);
    expect((await getBattle(db.db, gone.id))?.status).toBe('void');
    expect(await bot.arena.reconcile('discord')).toMatchObject({
      battles: 2,
      withdrawn: 0,
      added: 0,
    });
    const goneCalls = () => fake.requests.filter((r) => r.path.includes(gone.msg)).length;
    const callsAfterWithdrawal = goneCalls();

    // Step: reactions whose dispatches were lost; closing re-reads first, so the revealed tally is what the message
    // shows (normal and super reactions of people, not the bot's). The withdrawn battle is never tried again.
    fake.userReact(one.msg, R, U[3], true, { lost: true });
    fake.userReact(one.msg, E, U[2], false, { lost: true });
    fake.userReact(two.msg, L, U[1], true, { lost: true, burst: true });
    clock.advance(2 * 3_600_000);
    const report = await bot.tick();
    expect(report.closed.sort()).toEqual([one.id, two.id]);
    expect(report.revealed.sort()).toEqual([one.id, two.id]);
    const shown = (msg: string, emoji: string) =>
      new Set(
        [...fake.reactionUsers(msg, emoji), ...fake.reactionUsers(msg, emoji, true)].filter(
          (u) => u !== BOT_USER_ID,
        ),
      ).size;
    for (const b of [one, two]) {
      const edit = fake.requests.find(
        (r) => r.method === 'PATCH' && r.path === `/channels/${CHANNEL_ID}/messages/${b.msg}`,
      );
      const tally = `tally ⬅️ ${shown(b.msg, L)} 🟰 ${shown(b.msg, E)} ➡️ ${shown(b.msg, R)}`;
      expect(JSON.stringify(edit?.json)).toContain(tally);
    }
    expect(JSON.stringify(fake.requests.at(-1))).not.toContain(gone.msg);
    clock.advance(3_600_000);
    await bot.tick();
    expect(goneCalls()).toBe(callsAfterWithdrawal);
  });
});
