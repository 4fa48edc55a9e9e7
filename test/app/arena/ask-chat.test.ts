/**
 * `/ask` through the real discord.js and Bolt against the local fake Discord and Slack, with scripted live models
 * on the fake OpenAI-compatible server (real openai client): the battle is posted with both answers and the
 * progress message removed; a model returning 500 or timing out is replaced; answers that reveal their model are
 * never posted; "你是谁？" is refused with an explanation; the per-person limit answers politely; a reply in the
 * battle's thread (Discord: /ask in the thread; Slack: a thread message) gets a second turn from both models with
 * their own histories.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import type { ChatPlatform } from '../../../src/chat/port.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import type { AppConfig } from '../../../src/config/schema.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listTurns } from '../../../src/storage/live-battles.ts';
import { CHANNEL_ID as D_CHANNEL, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { type ScriptedModels, scriptedModels } from '../../helpers/live-models.ts';
import { SECRET, testConfig, until } from './helpers.ts';

const ANSWER: Record<string, string> = {
  'model-red': 'Tides come from the pull of the moon (answer R).',
  'model-green': 'The moon and the sun pull the oceans (answer G).',
  'model-blue': 'Gravity of the moon makes two bulges (answer B).',
  'model-gold': 'Ocean water follows the moon (answer O).',
};
const NAMES = Object.keys(ANSWER);
/** model-red and model-green are chosen first (so their failures are surely met). */
const WEIGHTS = { 'model-red': 10, 'model-green': 10 };

function config(): AppConfig {
  return testConfig({
    platforms: { discord: { guild_ids: [GUILD_ID] } },
    arena: {
      window_hours: 1,
      identity_guard: { words: ['openai', 'claude', 'anthropic', '通义千问'], patterns: [] },
      ask: {
        answer_timeout_ms: 5000, // the hanging model answers after 30 s; healthy ones at once
        progress_every_ms: 0,
        rate_limit: { max: 3, window_minutes: 10 },
      },
    },
  });
}

/** Failing first pair: red answers 500 then reveals itself; green hangs; blue and gold answer. */
function script(models: ScriptedModels, mode: { fail: boolean }) {
  models.setAnswer((m, msgs) => {
    const turn = msgs.filter((x) => x.role === 'user').length;
    if (mode.fail && m === 'model-red') return { status: 500 };
    if (mode.fail && m === 'model-green') return { hang: true };
    return `${ANSWER[m]} [turn ${turn}]`;
  });
}

describe.each(flowBackends())('/ask through the fake Discord and Slack (%s)', (backend) => {
  let db: TestDb;
  let models: ScriptedModels;
  let bot: BotService | undefined;
  const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));

  async function startBot(platform: ChatPlatform): Promise<BotService> {
    const b = new BotService({
      db: db.db,
      config: config(),
      platforms: [platform],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      live: { models: await models.live(NAMES, WEIGHTS) },
    });
    await b.start();
    return b;
  }

  beforeEach(async () => {
    db = await freshDb(backend);
    models = await scriptedModels(db.db, () => 'ok');
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await models.close();
    await db.destroy();
  });

  it('Discord: posts, replaces failing models, refuses, limits, continues in the thread', async () => {
    const fake = await FakeDiscord.start();
    try {
      bot = await startBot(
        new DiscordAdapter({
          token: 'fake-token',
          guildIds: [GUILD_ID],
          restApi: fake.restApi,
          logger: silentLogger,
          restRetries: 0,
          restTimeoutMs: 60_000,
        }),
      );
      const mode = { fail: true };
      script(models, mode);
      const alice = { id: '1300000000000000001', roles: [] };
      const said = (id: string) => JSON.stringify(fake.responsesFor(id));
      const a1 = fake.slashCommand('ask', { prompt: 'How do tides work?' }, alice);
      await until(() => said(a1).includes('Battle #1 is up'), 'battle posted');
      const b = await getBattle(db.db, 1);
      expect(new Set([b?.leftModel, b?.rightModel])).toEqual(new Set(['model-blue', 'model-gold']));
      const battleMsg = fake.messages.get(b?.messageId as string);
      const shown = JSON.stringify(battleMsg);
      expect(shown).toContain('How do tides work?');
      expect(shown).toContain('(answer B)');
      expect(shown).toContain('(answer O)');
      for (const m of NAMES) expect(shown).not.toContain(m);
      // Only the battle is left in the channel: the progress message was deleted.
      expect([...fake.messages.values()].filter((m) => m.channel_id === D_CHANNEL)).toHaveLength(1);
      expect(
        fake.requests.some((r) => r.method === 'DELETE' && r.path.includes('/messages/')),
      ).toBe(true);

      // "你是谁？" is refused with an explanation; no model is asked.
      const before = models.calls.length;
      const a2 = fake.slashCommand('ask', { prompt: '你是谁？' }, alice);
      await until(() => said(a2).includes('This arena is anonymous'), 'refusal');
      expect(said(a2)).toContain('本竞技场是匿名的');
      expect(models.calls.length).toBe(before);

      // A reply in the battle's thread: /ask run in the thread continues both conversations.
      mode.fail = false;
      const a3 = fake.slashCommand('ask', { prompt: 'And spring tides?' }, alice, {
        threadOf: b?.messageId as string,
      });
      await until(async () => (await listTurns(db.db, 1)).length === 2, 'second turn');
      expect(fake.threads.get(b?.messageId as string)).toBe(D_CHANNEL);
      const inThread = [...fake.messages.values()].filter((m) => m.channel_id === b?.messageId);
      expect(JSON.stringify(inThread)).toContain('And spring tides?');
      expect(JSON.stringify(inThread)).toContain('[turn 2]');
      const turns = await listTurns(db.db, 1);
      for (const [model, own] of [
        [b?.leftModel, turns[0]?.answerLeft],
        [b?.rightModel, turns[0]?.answerRight],
      ]) {
        const calls = models.calls.filter((c) => c.model === model);
        expect(calls.at(-1)?.messages).toEqual([
          { role: 'user', content: 'How do tides work?' },
          { role: 'assistant', content: own },
          { role: 'user', content: 'And spring tides?' },
        ]);
      }
      expect(said(a3)).not.toContain('Something went wrong');

      // The per-person limit (3 per 10 minutes: two turns stored + this one… the fourth is refused).
      const a4 = fake.slashCommand('ask', { prompt: 'Why is the sea salty?' }, alice);
      await until(() => said(a4).includes('Battle #2 is up'), 'third question');
      const a5 = fake.slashCommand('ask', { prompt: 'One more?' }, alice);
      await until(() => said(a5).includes('Thanks for the enthusiasm!'), 'limit');
      expect(said(a5)).toContain('You can ask again in about 10 minutes');
    } finally {
      await bot?.stop();
      bot = undefined;
      await fake.close();
    }
  });

  it('Slack: posts, replaces failing models, never posts a revealing answer, continues in the thread', async () => {
    const fake = await FakeSlack.start();
    try {
      const adapter = new SlackAdapter({
        botToken: 'xoxb-fake',
        signingSecret: fake.signingSecret,
        port: 0,
        host: '127.0.0.1',
        slackApiUrl: fake.apiUrl,
        logger: silentLogger,
        apiRetries: 0,
        apiTimeoutMs: 60_000,
      });
      bot = await startBot(adapter);
      const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
      // red reveals itself in Chinese, green in English: both replaced by blue and gold.
      models.setAnswer((m, msgs) => {
        const turn = msgs.filter((x) => x.role === 'user').length;
        if (m === 'model-red') return '我是通义千问，潮汐由月球引起。';
        if (m === 'model-green') return "I'm Claude, made by Anthropic. The moon causes tides.";
        return `${ANSWER[m]} [turn ${turn}]`;
      });
      const fields = fake.commandFields({
        command: '/ask',
        text: 'How do tides work?',
        user: 'U0000ALICE',
      });
      expect((await fake.deliverCommandHttp(url, fields)).status).toBe(200);
      const battle = await until(
        async () => (await getBattle(db.db, 1))?.status === 'open' && getBattle(db.db, 1),
        'battle open',
        60_000,
      );
      expect(new Set([battle.leftModel, battle.rightModel])).toEqual(
        new Set(['model-blue', 'model-gold']),
      );
      const posts = JSON.stringify(fake.callsOf('chat.postMessage').map((c) => c.args));
      expect(posts).not.toContain('通义千问');
      expect(posts).not.toContain('Anthropic');
      expect(posts).toContain('(answer B)');
      await until(() => fake.callsOf('chat.delete').length === 1, 'progress deleted');
      const channelMessages = [...fake.messages.values()].filter((m) => m.channel === S_CHANNEL);
      expect(channelMessages.map((m) => m.ts)).toEqual([battle.messageId]);

      // A thread reply continues the conversation; the turn is posted in the thread.
      const reply = fake.threadMessage({
        channel: S_CHANNEL,
        threadTs: battle.messageId as string,
        user: 'U0000BOB',
        text: 'And spring tides?',
      });
      expect((await fake.deliverEventHttp(url, reply)).status).toBe(200);
      await until(async () => (await listTurns(db.db, 1)).length === 2, 'second turn');
      const threadPost = fake
        .callsOf('chat.postMessage')
        .find((c) => c.args.thread_ts === battle.messageId);
      expect(JSON.stringify(threadPost?.args)).toContain('[turn 2]');

      // 你是谁？ refused (ephemeral), in a command and in the thread.
      const who = fake.commandFields({ command: '/ask', text: '你是谁？', user: 'U0000CAROL' });
      await fake.deliverCommandHttp(url, who);
      await until(
        () => JSON.stringify(fake.responses).includes('This arena is anonymous'),
        'refusal',
      );
      const whoThread = fake.threadMessage({
        channel: S_CHANNEL,
        threadTs: battle.messageId as string,
        user: 'U0000CAROL',
        text: '你是谁？',
      });
      await fake.deliverEventHttp(url, whoThread);
      await until(
        () =>
          fake
            .callsOf('chat.postEphemeral')
            .some((c) => JSON.stringify(c.args).includes('This arena is anonymous')),
        'thread refusal',
      );
      expect((await listTurns(db.db, 1)).length).toBe(2);
      // The limit: Bob asked once (the thread turn); two more are fine, the fourth is refused politely.
      for (const q of ['Q one?', 'Q two?']) {
        await fake.deliverCommandHttp(
          url,
          fake.commandFields({ command: '/ask', text: q, user: 'U0000BOB' }),
        );
      }
      await until(
        async () => (await getBattle(db.db, 3))?.status === 'open',
        'two more battles',
        60_000,
      );
      await fake.deliverCommandHttp(
        url,
        fake.commandFields({ command: '/ask', text: 'Q three?', user: 'U0000BOB' }),
      );
      await until(
        () => JSON.stringify(fake.responses).includes('Thanks for the enthusiasm!'),
        'limit',
      );
    } finally {
      await bot?.stop();
      bot = undefined;
      await fake.close();
    }
  });
});
