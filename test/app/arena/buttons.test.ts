/**
 * Buttons mode (`arena.voting: buttons`) through the real discord.js and @slack/bolt against the wire fakes: the
 * battle message carries four buttons (left, equal, right, both bad) and no reactions; a press is answered
 * privately (Discord: a deferred ephemeral reply, flags 64; Slack: chat.postEphemeral), within the 3 s both
 * platforms allow; the message shows no tally before the battle closes; a voter can change their vote; with
 * `arena.reveal_after_vote` only the voter is told the models and their vote is final; a press after closing
 * changes nothing and says so; the hygiene rules flag button votes (the daily cap); re-reads leave button battles alone (a reaction on one is no vote); the reveal
 * removes the buttons and shows the tally; both bad by button round-trips through `export battles` and
 * `ratings --battles`.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import type { AppMetrics } from '../../../src/core/metrics.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { createPromMetrics } from '../../../src/http/metrics.ts';
import { closeBattle, getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, liveVotes } from '../../../src/storage/votes.ts';
import { CHANNEL_ID as D_CHANNEL, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { clearRows } from '../../helpers/db.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { MODELS, SECRET, seedModels, testBot, testConfig, until } from './helpers.ts';

const U = ['1300000000000000001', '1300000000000000002', '1300000000000000003'] as const;
const CHOICE_IDS = ['vote:left', 'vote:equal', 'vote:right', 'vote:bothbad'];

describe('buttons mode', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-buttons-'));
  let t: TestRuntime;
  let clock: ManualClock;
  const stops: (() => Promise<void>)[] = [];
  const zhujiu = (...args: string[]) => inProcess(args, { rt: t.rt });
  const db = () => t.rt.db.db;

  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: join(tmp, 'config') });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await clearRows(t.rt.db);
    await seedModels(db());
    clock = new ManualClock(new Date());
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  function config(platform: 'discord' | 'slack', over: Record<string, unknown> = {}) {
    return testConfig({
      arena: {
        window_hours: 1,
        identity_guard: { words: ['openai'], patterns: [] },
        voting: { [platform]: 'buttons' },
        ...over,
      },
    });
  }

  async function discord(over: Record<string, unknown> = {}, metrics?: AppMetrics) {
    const fake = await FakeDiscord.start();
    stops.push(() => fake.close());
    const adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: fake.restApi,
      logger: silentLogger,
      restRetries: 0,
      restTimeoutMs: 60_000, // a guard against a hang only
      voting: 'buttons',
    });
    const bot = testBot({
      db: db(),
      config: config('discord', over),
      platforms: [adapter],
      clock,
      ...(metrics ? { metrics } : {}),
    });
    await bot.start();
    stops.push(() => bot.stop());
    const posted = await bot.arena.postBattle('discord', D_CHANNEL);
    if (!posted.ok) throw new Error(JSON.stringify(posted.reason));
    const msgId = posted.value.ref.messageId;
    /** Presses a button as `user`; resolves with the private answer's text once it is there. */
    const press = async (user: string, choice: string, locale?: string): Promise<string> => {
      const id = fake.pressButton(msgId, `vote:${choice}`, {
        id: user,
        ...(locale ? { locale } : {}),
      });
      const original = await until(
        () => fake.responsesFor(id).find((r) => r.kind === 'original'),
        `answer to ${user}'s ${choice}`,
      );
      // Deferred as ephemeral (flags 64) before anything else.
      const callback = fake.responsesFor(id).find((r) => r.kind === 'callback');
      expect(callback?.body).toMatchObject({ type: 5, data: { flags: 64 } });
      return String(original.body.content);
    };
    return { fake, bot, battleId: posted.value.battleId, msgId, press };
  }

  async function slack(over: Record<string, unknown> = {}) {
    const fake = await FakeSlack.start();
    stops.push(async () => {
      await fake.waitSocketClosed();
      await fake.close();
    });
    const adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      appToken: 'xapp-fake',
      slackApiUrl: fake.apiUrl,
      logger: silentLogger,
      apiRetries: 0,
      apiTimeoutMs: 60_000,
      voting: 'buttons',
    });
    const bot = testBot({ db: db(), config: config('slack', over), platforms: [adapter], clock });
    await bot.start();
    stops.push(() => bot.stop());
    const posted = await bot.arena.postBattle('slack', S_CHANNEL);
    if (!posted.ok) throw new Error(JSON.stringify(posted.reason));
    const ts = posted.value.ref.messageId;
    /** Presses a button as `user`; resolves with the ephemeral answer's text once it is there. */
    const press = async (user: string, choice: string): Promise<string> => {
      const before = fake.ephemerals.length;
      await fake.pressButton({ channel: S_CHANNEL, ts, actionId: `vote:${choice}`, user });
      const e = await until(
        () => fake.ephemerals.slice(before).find((x) => x.user === user),
        `ephemeral to ${user}`,
      );
      return e.text;
    };
    return { fake, bot, battleId: posted.value.battleId, ts, press };
  }

  const live = async (battleId: number, platform: 'discord' | 'slack') => {
    const votes = await liveVotes(db(), battleId);
    const byHash = new Map(votes.map((v) => [v.voterHash, v.choice]));
    return Object.fromEntries(
      U.map((u) => [u, byHash.get(hashVoterId(SECRET, platform, u)) ?? null]),
    );
  };

  it('Discord: four buttons, private answers, no tally before close, a change, a press after close, the reveal', async () => {
    const { fake, bot, battleId, msgId, press } = await discord();
    const msg = fake.messages.get(msgId);
    const buttons = ((msg?.components ?? []) as { components: { custom_id: string }[] }[]).flatMap(
      (row) => row.components.map((c) => c.custom_id),
    );
    expect(buttons).toEqual(CHOICE_IDS);
    // No vote reactions in buttons mode; the footer says to press a button.
    expect(fake.reactions.get(msgId)?.size ?? 0).toBe(0);
    expect(JSON.stringify(msg?.embeds)).toContain('Vote with the buttons');

    expect(await press(U[0], 'left')).toMatch(
      /^You voted ⬅️ left is better on battle #1\. Only you see this\. You can change it/u,
    );
    expect(await press(U[1], 'bothbad')).toContain('You voted 👎 both are bad on battle #1.');
    expect(await press(U[0], 'right')).toContain(
      'You changed your vote on battle #1 to ➡️ right is better.',
    );
    expect(await live(battleId, 'discord')).toEqual({
      [U[0]]: 'right',
      [U[1]]: 'bothbad',
      [U[2]]: null,
    });
    // The message shows no tally while voting is open: it was never edited and carries no reactions.
    expect(fake.messages.get(msgId)?.edited_timestamp).toBeNull();
    expect(JSON.stringify(fake.messages.get(msgId))).not.toMatch(/tally ⬅️|model-/u);

    // Re-reads leave a button battle alone, and a reaction on its message is no vote.
    const report = await bot.arena.reconcile('discord');
    expect(report.battles).toBe(0);
    expect(
      await bot.arena.onReaction({
        platform: 'discord',
        eventId: 'r1',
        channelId: D_CHANNEL,
        messageId: msgId,
        userId: U[2],
        emoji: '⬅️',
        added: true,
        at: new Date(),
      }),
    ).toEqual({ kind: 'ignored', reason: 'buttons_battle' });
    expect(await live(battleId, 'discord')).toMatchObject({ [U[2]]: null });

    // Closed (not yet revealed): a press is told so and changes nothing.
    await closeBattle(db(), battleId, clock.now());
    const events = (await listVoteEvents(db(), battleId)).length;
    expect(await press(U[2], 'equal')).toBe(
      'This battle has closed: voting on battle #1 ended (its voting window ended). Your press changed nothing.',
    );
    expect((await listVoteEvents(db(), battleId)).length).toBe(events);

    // The reveal shows the tally and the models, and removes the buttons.
    await bot.tick();
    expect((await getBattle(db(), battleId))?.revealedAt).not.toBeNull();
    const revealed = fake.messages.get(msgId);
    expect(revealed?.components).toEqual([]);
    expect(JSON.stringify(revealed?.embeds)).toContain('tally ⬅️ 0 🟰 0 ➡️ 1 👎 1');
    expect(fake.lateInteractions).toEqual([]);
  });

  it("Discord: the private answer to a press is in the presser's language (zh-CN, en-GB)", async () => {
    const { press } = await discord();
    expect(await press(U[0], 'left', 'zh-CN')).toMatch(
      /^你在第 1 场对战中投了 ⬅️ 左边更好。只有你能看到这条消息。 投票结束前可以按其他按钮修改/u,
    );
    expect(await press(U[0], 'right', 'zh-CN')).toContain('你把第 1 场对战的投票改为 ➡️ 右边更好。');
    expect(await press(U[1], 'equal', 'en-GB')).toContain('You voted 🟰 equal on battle #1.');
  });

  it('Discord: reveal after vote tells only the voter the models, and their vote is then final', async () => {
    const { fake, battleId, msgId, press } = await discord({ reveal_after_vote: true });
    const answer = await press(U[0], 'left');
    expect(answer).toContain('You voted ⬅️ left is better on battle #1.');
    const b = await getBattle(db(), battleId);
    expect(answer).toContain(`Left was ${b?.leftModel}, right was ${b?.rightModel}.`);
    // Only in the ephemeral answer: the channel message names no model.
    const channel = JSON.stringify([...fake.messages.values()].filter((m) => m.flags !== 64));
    for (const m of MODELS) expect(channel).not.toContain(m);
    expect(await press(U[0], 'right')).toBe(
      'Your vote on battle #1 (⬅️ left is better) is final: you have seen the models. The tally is shown when voting closes.',
    );
    expect(await live(battleId, 'discord')).toMatchObject({ [U[0]]: 'left' });
    expect(fake.messages.get(msgId)?.edited_timestamp).toBeNull();
  });

  it('Discord: the hygiene rules flag button votes as they flag reactions (the daily cap)', async () => {
    const { fake, bot, battleId, press } = await discord({ hygiene: { daily_vote_cap: 1 } });
    expect(await press(U[0], 'left')).toContain('You voted ⬅️ left is better on battle #1.');
    const second = await bot.arena.postBattle('discord', D_CHANNEL);
    if (!second.ok) throw new Error(JSON.stringify(second.reason));
    const id = fake.pressButton(second.value.ref.messageId, 'vote:right', { id: U[0] });
    await until(() => fake.responsesFor(id).find((r) => r.kind === 'original'), 'second answer');
    const flags = await db()
      .selectFrom('votes')
      .select(['battle_id', 'flag'])
      .where('retracted_at', 'is', null)
      .orderBy('battle_id')
      .execute();
    expect(flags).toEqual([
      { battle_id: battleId, flag: null },
      { battle_id: second.value.battleId, flag: 'daily_cap' },
    ]);
  });

  it('Slack: four buttons, chat.postEphemeral answers, a change, no tally before close, the reveal; both bad round-trips', async () => {
    const { fake, bot, battleId, ts, press } = await slack();
    const blocks = fake.messages.get(`${S_CHANNEL}:${ts}`)?.blocks as {
      type: string;
      elements?: { action_id: string; text: { text: string } }[];
    }[];
    const actions = blocks.filter((x) => x.type === 'actions');
    expect(actions).toHaveLength(1);
    expect(actions[0]?.elements?.map((e) => e.action_id)).toEqual(CHOICE_IDS);
    expect(actions[0]?.elements?.[0]?.text.text).toBe(':arrow_left: Left is better');
    expect(fake.callsOf('reactions.add')).toEqual([]);

    expect(await press(U[0], 'bothbad')).toContain('You voted :-1: both are bad on battle #1.');
    expect(await press(U[1], 'equal')).toContain('You voted :heavy_equals_sign: equal');
    expect(await press(U[1], 'left')).toContain(
      'You changed your vote on battle #1 to :arrow_left: left is better.',
    );
    expect(await press(U[2], 'bothbad')).toContain('You voted :-1: both are bad');
    expect(fake.ephemerals.every((e) => e.channel === S_CHANNEL)).toBe(true);
    expect(await live(battleId, 'slack')).toEqual({
      [U[0]]: 'bothbad',
      [U[1]]: 'left',
      [U[2]]: 'bothbad',
    });
    // No tally, no model on the message before close: it was never updated.
    expect(fake.callsOf('chat.update')).toEqual([]);
    expect(fake.lateAcks).toEqual([]);

    clock.advance(2 * 3_600_000);
    await bot.tick();
    const update = fake.callsOf('chat.update').at(-1);
    const after = JSON.stringify(update?.args.blocks);
    expect(after).toContain('tally :arrow_left: 1 :heavy_equals_sign: 0 :arrow_right: 0 :-1: 2');
    expect(after).not.toContain('"actions"');

    // Both bad by button: exported as FastChat's tie (bothbad) and rated as a tie by ratings --battles.
    const out = await zhujiu('export', 'battles', '--format', 'fastchat');
    expect(out.code, out.stderr).toBe(0);
    const winners = out.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { winner: string }).winner)
      .sort();
    expect(winners.filter((w) => w === 'tie (bothbad)')).toHaveLength(2);
    expect(winners).toHaveLength(3);
    const file = join(tmp, 'export.jsonl');
    writeFileSync(file, out.stdout);
    const rated = await zhujiu('ratings', '--battles', file, '--bootstrap', '0', '--json');
    expect(rated.code, rated.stderr).toBe(0);
    expect((JSON.parse(rated.stdout) as { models: unknown[] }).models).toHaveLength(2);
  });

  it('Slack: reveal after vote tells only the voter the models (chat.postEphemeral), and their vote is then final', async () => {
    const { fake, battleId, ts, press } = await slack({ reveal_after_vote: true });
    const answer = await press(U[0], 'right');
    expect(answer).toContain('You voted :arrow_right: right is better on battle #1.');
    const b = await getBattle(db(), battleId);
    expect(answer).toContain(`Left was ${b?.leftModel}, right was ${b?.rightModel}.`);
    // Only in the ephemeral answer to that voter: the channel message names no model and was never updated.
    expect(fake.ephemerals.map((e) => e.user)).toEqual([U[0]]);
    const channel = JSON.stringify(fake.messages.get(`${S_CHANNEL}:${ts}`));
    for (const m of MODELS) expect(channel).not.toContain(m);
    expect(fake.callsOf('chat.update')).toEqual([]);
    expect(await press(U[0], 'left')).toContain('is final: you have seen the models');
    expect(await live(battleId, 'slack')).toMatchObject({ [U[0]]: 'right' });
  });

  it('Discord: button votes and the battle their cap closes are counted in the application metrics', async () => {
    const registry = new Registry();
    const { press } = await discord({ vote_cap: 2 }, createPromMetrics(registry));
    await press(U[0], 'left');
    await press(U[0], 'right');
    await press(U[1], 'bothbad');
    // The press that reaches the cap is answered before the battle's closing is counted: polled, not timed.
    await expect
      .poll(() => registry.metrics(), { timeout: 20_000, interval: 20 })
      .toContain('zhujiu_battles_closed_total{reason="cap"} 1');
    const text = await registry.metrics();
    expect(text).toContain('zhujiu_votes_total{platform="discord",kind="cast"} 2');
    expect(text).toContain('zhujiu_votes_total{platform="discord",kind="changed"} 1');
  });
});
