/**
 * Through the real discord.js and Bolt against the wire-level fakes: reactions removed for
 * everyone by a moderator (Discord MESSAGE_REACTION_REMOVE_EMOJI, MESSAGE_REACTION_REMOVE_ALL), a moderator
 * removing one person's reaction, deleted battle messages (Discord MESSAGE_DELETE / MESSAGE_DELETE_BULK, Slack
 * `message_deleted`), variant forms of the vote emoji, and seeding the three reactions when one is refused.
 * Live votes always equal what the message shows, and every change is a logged vote event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { closeBattle, getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, tally } from '../../../src/storage/votes.ts';
import {
  BOT_USER_ID,
  CHANNEL_ID,
  FakeDiscord,
  GUILD_ID,
  MAINTAINER_ROLE_ID,
} from '../../fakes/discord.ts';
import {
  FakeSlack,
  BOT_USER_ID as SLACK_BOT,
  CHANNEL_ID as SLACK_CHANNEL,
} from '../../fakes/slack.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig, until } from './helpers.ts';

const [L, E, R] = ['⬅️', '🟰', '➡️'] as const;
const A = '1300000000000000001';
const B = '1300000000000000002';
const C = '1300000000000000003';
const D = '1300000000000000004';

describe.each(backends())('cleared reactions and variant emoji on Discord (%s)', (backend) => {
  let db: TestDb;
  let fake: FakeDiscord;
  let bot: BotService;
  const clock = new ManualClock(new Date());

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
      restTimeoutMs: 3000,
    });
    bot = testBot({
      db: db.db,
      config: testConfig({
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
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  async function post(): Promise<{ id: number; msg: string }> {
    const r = await bot.arena.postBattle('discord', CHANNEL_ID);
    if (!r.ok) throw new Error(JSON.stringify(r.reason));
    return { id: r.value.battleId, msg: r.value.ref.messageId };
  }
  const events = (id: number) => listVoteEvents(db.db, id);

  it('remove-emoji then remove-all: Left 1 / Right 1 → 1 / 0 → 0 / 0, each logged, bot reactions back', async () => {
    const { id, msg } = await post();
    fake.userReact(msg, L, A, true);
    fake.userReact(msg, R, B, true);
    await until(async () => (await events(id)).length === 2, 'two votes');
    expect(await tally(db.db, id)).toEqual({ left: 1, equal: 0, right: 1, bothbad: 0 });

    fake.moderatorRemoveEmoji(msg, R);
    await until(async () => (await tally(db.db, id)).right === 0, 'right cleared');
    expect(await tally(db.db, id)).toEqual({ left: 1, equal: 0, right: 0, bothbad: 0 });
    const afterEmoji = await events(id);
    expect(afterEmoji).toHaveLength(3);
    expect(afterEmoji[2]).toMatchObject({ kind: 'remove', choice: 'right', effect: 'retracted' });
    // The bot's own ➡️ went with the clear and is added back so people can still vote Right.
    await until(() => fake.reactionUsers(msg, R).includes(BOT_USER_ID), 'bot ➡️ re-added');

    fake.moderatorRemoveAll(msg);
    await until(async () => (await tally(db.db, id)).left === 0, 'all cleared');
    expect(await tally(db.db, id)).toEqual({ left: 0, equal: 0, right: 0, bothbad: 0 });
    const afterAll = await events(id);
    expect(afterAll).toHaveLength(4);
    expect(afterAll[3]).toMatchObject({ kind: 'remove', choice: 'left', effect: 'retracted' });
    for (const e of [L, E, R]) {
      await until(() => fake.reactionUsers(msg, e).includes(BOT_USER_ID), `bot ${e} re-added`);
    }
    // People can vote again, and a restart's reconcile agrees with the live votes (nothing to change).
    fake.userReact(msg, E, C, true);
    await until(async () => (await tally(db.db, id)).equal === 1, 'new vote');
    expect(await bot.arena.reconcile('discord')).toMatchObject({ added: 0, removed: 0 });
  });

  it('clearing the live emoji of someone who also holds another vote emoji moves their vote to it', async () => {
    const { id, msg } = await post();
    // One user's events are sent one at a time, each after the previous one is processed: the order the bot
    // handles two events that are in flight together is not the order they were sent on a busy machine.
    fake.userReact(msg, R, A, true);
    await until(async () => (await events(id)).length === 1, 'right');
    fake.userReact(msg, L, A, true); // latest add wins: live Left, still holding ➡️
    await until(async () => (await events(id)).length === 2, 'left');
    expect(await tally(db.db, id)).toEqual({ left: 1, equal: 0, right: 0, bothbad: 0 });
    fake.moderatorRemoveEmoji(msg, L);
    await until(async () => (await tally(db.db, id)).right === 1, 'moved to right');
    expect(await tally(db.db, id)).toEqual({ left: 0, equal: 0, right: 1, bothbad: 0 });
    // An emoji that is not a vote changes nothing.
    fake.userReact(msg, '🔥', B, true);
    fake.moderatorRemoveEmoji(msg, '🔥');
    fake.moderatorRemoveUserReaction(msg, R, A); // a moderator removes A's ➡️: a plain removal event
    await until(async () => (await tally(db.db, id)).right === 0, 'removed by a moderator');
    expect((await events(id)).map((e) => e.effect)).toEqual([
      'cast',
      'changed',
      'changed',
      'retracted',
    ]);
  });

  it('a deleted battle message retracts its votes and withdraws the battle (single and bulk)', async () => {
    const one = await post();
    const two = await post();
    const three = await post();
    fake.userReact(one.msg, L, A, true);
    fake.userReact(one.msg, R, B, true);
    fake.userReact(two.msg, E, C, true);
    fake.userReact(three.msg, E, D, true);
    // Every vote is processed before the deletes are sent (events in flight together may be handled in any order).
    await until(async () => (await events(one.id)).length === 2, 'votes on one');
    await until(async () => (await events(two.id)).length === 1, 'vote on two');
    await until(async () => (await events(three.id)).length === 1, 'vote on three');
    fake.deleteMessage(one.msg);
    await until(async () => (await getBattle(db.db, one.id))?.status === 'void', 'withdrawn');
    expect(await tally(db.db, one.id)).toEqual({ left: 0, equal: 0, right: 0, bothbad: 0 });
    expect((await events(one.id)).filter((e) => e.effect === 'retracted')).toHaveLength(2);
    fake.bulkDelete([two.msg, three.msg]);
    await until(async () => (await getBattle(db.db, three.id))?.status === 'void', 'bulk');
    await until(async () => (await getBattle(db.db, two.id))?.status === 'void', 'bulk 2');
    expect(await tally(db.db, two.id)).toEqual({ left: 0, equal: 0, right: 0, bothbad: 0 });
    // A withdrawn battle is not closed or revealed later.
    clock.advance(2 * 3_600_000);
    const { closed, revealed } = await bot.tick();
    for (const b of [one, two, three]) {
      expect(closed).not.toContain(b.id);
      expect(revealed).not.toContain(b.id);
    }
  });

  it('➡︎ (U+27A1 U+FE0E, text presentation) and other variant forms are votes', async () => {
    const { id, msg } = await post();
    fake.userReact(msg, '\u{27A1}\u{FE0E}', A, true);
    fake.userReact(msg, '\u{2B05}', B, true); // bare ⬅ without FE0F
    fake.userReact(msg, '🟰\u{FE0F}', C, true);
    await until(async () => (await events(id)).length === 3, 'three votes');
    expect(await tally(db.db, id)).toEqual({ left: 1, equal: 1, right: 1, bothbad: 0 });
    // Removing the variant form retracts the vote it cast.
    fake.userReact(msg, '\u{27A1}\u{FE0E}', A, false);
    await until(async () => (await tally(db.db, id)).right === 0, 'retracted');
  });

  it('one refused emoji does not stop the others when seeding a battle', async () => {
    fake.unknownEmoji.add(L);
    const { msg } = await post().finally(() => fake.unknownEmoji.clear());
    expect(fake.reactionUsers(msg, L)).toEqual([]);
    expect(fake.reactionUsers(msg, E)).toEqual([BOT_USER_ID]);
    expect(fake.reactionUsers(msg, R)).toEqual([BOT_USER_ID]);
  });
});

describe.each(backends())('deleted messages and refused reactions on Slack (%s)', (backend) => {
  let db: TestDb;
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let bot: BotService;

  beforeAll(async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    fake = await FakeSlack.start();
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: fake.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: fake.apiUrl,
      logger: silentLogger,
      apiRetries: 0,
      apiTimeoutMs: 3000,
    });
    bot = testBot({
      db: db.db,
      config: testConfig(),
      platforms: [adapter],
      clock: new ManualClock(new Date()),
    });
    await bot.start();
  });

  afterAll(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  it('message_deleted retracts the votes and withdraws the battle; reaction_removed variants retract', async () => {
    const posted = await bot.arena.postBattle('slack', SLACK_CHANNEL);
    if (!posted.ok) throw new Error(JSON.stringify(posted.reason));
    const { battleId: id, ref } = posted.value;
    const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
    const react = (user: string, name: string, add: boolean) =>
      fake.deliverEventHttp(
        url,
        fake.userReact({ channel: SLACK_CHANNEL, ts: ref.messageId, user, name, add }),
      );
    await react('U0000ALICE', 'arrow_left', true);
    await react('U0000BOB', 'arrow_right::skin-tone-2', true);
    await react('U0000CAROL', ':heavy_equals_sign:', true);
    await until(async () => (await listVoteEvents(db.db, id)).length === 3, 'three votes');
    // reaction_removed with a skin tone retracts the vote the plain name cast.
    await react('U0000ALICE', 'arrow_left::skin-tone-4', false);
    await until(async () => (await tally(db.db, id)).left === 0, 'retracted');
    expect(await tally(db.db, id)).toEqual({ left: 0, equal: 1, right: 1, bothbad: 0 });
    // The bot's own reaction events are not votes.
    await fake.deliverEventHttp(
      url,
      fake.reactionBody({
        channel: SLACK_CHANNEL,
        ts: ref.messageId,
        user: SLACK_BOT,
        name: 'arrow_left',
        add: true,
      }),
    );
    const res = await fake.deliverEventHttp(url, fake.deleteMessage(SLACK_CHANNEL, ref.messageId));
    expect(res.status).toBe(200);
    await until(async () => (await getBattle(db.db, id))?.status === 'void', 'withdrawn');
    expect(await tally(db.db, id)).toEqual({ left: 0, equal: 0, right: 0, bothbad: 0 });
    expect((await listVoteEvents(db.db, id)).map((e) => e.effect)).toEqual([
      'cast',
      'cast',
      'cast',
      'retracted',
      'retracted',
      'retracted',
    ]);
  });

  it('one refused reaction name does not stop the others when seeding a battle', async () => {
    fake.invalidReactionNames.add('arrow_left');
    const posted = await bot.arena
      .postBattle('slack', SLACK_CHANNEL)
      .finally(() => fake.invalidReactionNames.clear());
    expect(posted.ok).toBe(true);
    if (!posted.ok) return;
    const ts = posted.value.ref.messageId;
    expect(fake.reactionUsers(SLACK_CHANNEL, ts, 'arrow_left')).toEqual([]);
    expect(fake.reactionUsers(SLACK_CHANNEL, ts, 'heavy_equals_sign')).toEqual([SLACK_BOT]);
    expect(fake.reactionUsers(SLACK_CHANNEL, ts, 'arrow_right')).toEqual([SLACK_BOT]);
  });

  it('a tombstone (a deleted message with thread replies) withdraws the battle and retracts its votes', async () => {
    const posted = await bot.arena.postBattle('slack', SLACK_CHANNEL);
    if (!posted.ok) throw new Error(JSON.stringify(posted.reason));
    const { battleId: id, ref } = posted.value;
    const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
    await fake.deliverEventHttp(
      url,
      fake.userReact({
        channel: SLACK_CHANNEL,
        ts: ref.messageId,
        user: 'U0000ALICE',
        name: 'arrow_left',
        add: true,
      }),
    );
    await until(async () => (await tally(db.db, id)).left === 1, 'a vote');
    const res = await fake.deliverEventHttp(
      url,
      fake.tombstoneMessage(SLACK_CHANNEL, ref.messageId),
    );
    expect(res.status).toBe(200);
    await until(async () => (await getBattle(db.db, id))?.status === 'void', 'withdrawn');
    expect(await tally(db.db, id)).toEqual({ left: 0, equal: 0, right: 0, bothbad: 0 });
    expect((await listVoteEvents(db.db, id)).map((e) => e.effect)).toEqual(['cast', 'retracted']);
  });

  it('messages gone while nobody listened: an open battle is withdrawn at the re-read, a closed one at its reveal, once each', async () => {
    const open = await bot.arena.postBattle('slack', SLACK_CHANNEL);
    const shut = await bot.arena.postBattle('slack', SLACK_CHANNEL);
    if (!open.ok || !shut.ok) throw new Error('posting failed');
    const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
    const react = (ts: string) =>
      fake.deliverEventHttp(
        url,
        fake.userReact({
          channel: SLACK_CHANNEL,
          ts,
          user: 'U0000BOB',
          name: 'arrow_right',
          add: true,
        }),
      );
    await react(open.value.ref.messageId);
    await react(shut.value.ref.messageId);
    await until(async () => (await tally(db.db, shut.value.battleId)).right === 1, 'votes');
    // The second one closes (a worker's loop, say); then both messages are deleted and no event reaches the bot.
    await closeBattle(db.db, shut.value.battleId, new Date());
    fake.deleteMessage(SLACK_CHANNEL, open.value.ref.messageId);
    fake.deleteMessage(SLACK_CHANNEL, shut.value.ref.messageId);

    // Step: the re-read (as at start, after a gap, or periodically) finds the open battle's message gone.
    const first = await bot.arena.reconcile('slack');
    expect(first.withdrawn).toBe(1);
    expect((await getBattle(db.db, open.value.battleId))?.status).toBe('void');
    expect(await tally(db.db, open.value.battleId)).toEqual({
      left: 0,
      equal: 0,
      right: 0,
      bothbad: 0,
    });
    expect((await bot.arena.reconcile('slack')).withdrawn).toBe(0);

    // Step: the reveal finds the closed battle's message gone: withdrawn, and never tried again.
    const updates = () =>
      fake.callsOf('chat.update').filter((c) => c.args.ts === shut.value.ref.messageId).length;
    expect((await bot.arena.closeDue(new Date())).revealed).not.toContain(shut.value.battleId);
    expect(updates()).toBe(1);
    expect((await getBattle(db.db, shut.value.battleId))?.status).toBe('void');
    await bot.arena.closeDue(new Date());
    expect(updates()).toBe(1);
    expect(
      fake.callsOf('reactions.get').filter((c) => c.args.timestamp === open.value.ref.messageId),
    ).toHaveLength(1);
  });
});
