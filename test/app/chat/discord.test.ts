/**
 * Contract tests: the real discord.js, driven through DiscordAdapter against the local fake Discord.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../../src/bot/commands/specs.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import {
  APP_ID,
  BOT_USER_ID,
  CHANNEL_ID,
  FakeDiscord,
  GUILD_ID,
  MAINTAINER_ROLE_ID,
} from '../../fakes/discord.ts';
import { captureLogger, Recorder, TEST_COMMANDS, waitFor } from './helpers.ts';

const COMMANDS = TEST_COMMANDS;

const USER = '1300000000000000001';
const USER2 = '1300000000000000002';

let fake: FakeDiscord;
let adapter: DiscordAdapter;
let rec: Recorder;
let log: ReturnType<typeof captureLogger>;

function makeAdapter(): DiscordAdapter {
  return new DiscordAdapter({
    token: 'fake-token',
    guildIds: [GUILD_ID],
    restApi: fake.restApi,
    logger: log.logger,
    maintainerRoleIds: [MAINTAINER_ROLE_ID],
    restRetries: 0,
    restTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
  });
}

beforeEach(async () => {
  fake = await FakeDiscord.start();
  log = captureLogger();
  rec = new Recorder();
  adapter = makeAdapter();
  await adapter.start(rec, COMMANDS);
});

afterEach(async () => {
  await adapter.stop();
  await fake.close();
});

describe('DiscordAdapter against the fake gateway', () => {
  it('identifies with intents 1537 and registers guild commands', () => {
    expect(fake.identifies).toHaveLength(1);
    expect(fake.identifies[0]?.intents).toBe(1537); // Guilds + GuildMessages (MESSAGE_DELETE) + GuildMessageReactions
    expect(fake.identifies[0]?.token).toBe('fake-token');
    expect(adapter.botUserId).toBe(BOT_USER_ID);
    const reg = fake.registeredCommands[0];
    expect(reg?.path).toBe(`/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    const defs = reg?.body as Record<string, unknown>[];
    expect(defs.map((d) => d.name)).toEqual(['arena', 'eval']);
    expect(defs[1]?.default_member_permissions).toBe('0');
    expect(defs[0]?.default_member_permissions).toBeNull();
    expect(defs[1]?.options).toEqual([
      { type: 3, name: 'model', description: 'Model', required: true },
      {
        type: 3,
        name: 'suite',
        description: 'Suite',
        required: true,
        choices: [
          { name: 'mmlu', value: 'mmlu' },
          { name: 'ceval', value: 'ceval' },
        ],
      },
    ]);
    const put = fake.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/commands'));
    expect(put?.headers.authorization).toBe('Bot fake-token');
  });

  it('posts long content split within Discord limits, then edits primary and parts', async () => {
    const long = `${'甲'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    const ref = await adapter.post(CHANNEL_ID, {
      text: 'Battle #1: which answer is better?',
      title: 'Arena',
      sections: [
        { heading: 'Left', body: long },
        { heading: 'Right', body: long },
      ],
      table: { columns: ['model', 'score'], rows: [['a', '1']] },
      footer: 'React 👈 🤝 👉',
    });
    expect(ref.platform).toBe('discord');
    expect(ref.channelId).toBe(CHANNEL_ID);
    expect(ref.partIds.length).toBeGreaterThan(0);
    const posts = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${CHANNEL_ID}/messages`,
    );
    expect(posts).toHaveLength(1 + ref.partIds.length);
    let allText = '';
    for (const p of posts) {
      const body = p.json as {
        content: string;
        embeds: { title?: string; description?: string; footer?: { text: string } }[];
      };
      expect(body.content.length).toBeLessThanOrEqual(2000);
      expect(body.embeds.length).toBeLessThanOrEqual(10);
      let total = 0;
      for (const e of body.embeds) {
        expect(e.description?.length ?? 0).toBeLessThanOrEqual(4096);
        total +=
          (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0);
        allText += e.description ?? '';
      }
      expect(total).toBeLessThanOrEqual(6000);
    }
    expect(allText.replace(/\s/gu, '').match(/甲/gu)?.length).toBe(6000);
    expect(fake.messages.get(ref.messageId)?.content).toBe('Battle #1: which answer is better?');

    await adapter.edit(ref, {
      text: 'Revealed',
      sections: [{ heading: 'Left (model-a)', body: 'short' }],
    });
    const patches = fake.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((p) => p.path)).toEqual(
      [ref.messageId, ...ref.partIds].map((id) => `/channels/${CHANNEL_ID}/messages/${id}`),
    );
    expect(fake.messages.get(ref.messageId)?.content).toBe('Revealed');
  });

  it('attaches an image to the primary message as multipart', async () => {
    await adapter.post(CHANNEL_ID, {
      text: 'Leaderboard',
      image: {
        filename: 'board.png',
        data: new Uint8Array([137, 80, 78, 71]),
        alt: 'chart',
        mimeType: 'image/png',
      },
    });
    const post = fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/messages'));
    expect(post?.files).toEqual([
      {
        field: 'files[0]',
        name: 'board.png',
        type: 'image/png',
        size: 4,
        data: Buffer.from([137, 80, 78, 71]),
      },
    ]);
    expect((post?.json as { attachments?: unknown[] } | undefined)?.attachments).toEqual([
      { id: 0, filename: 'board.png', description: 'chart' },
    ]);
  });

  it('adds reactions in order, percent-encoded once, and ignores its own echoed reactions', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    await adapter.addReactions(ref, ['👈', '⬅️', '1️⃣']);
    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.path.includes('/reactions/'));
    expect(puts.map((p) => p.rawPath)).toEqual([
      `/channels/${CHANNEL_ID}/messages/${ref.messageId}/reactions/%F0%9F%91%88/@me`,
      `/channels/${CHANNEL_ID}/messages/${ref.messageId}/reactions/%E2%AC%85%EF%B8%8F/@me`,
      `/channels/${CHANNEL_ID}/messages/${ref.messageId}/reactions/1%EF%B8%8F%E2%83%A3/@me`,
    ]);
    for (const p of puts) expect(p.rawPath).not.toContain('%25');
    expect(fake.reactionUsers(ref.messageId, '👈')).toEqual([BOT_USER_ID]);
    // The fake echoes the bot's reactions as gateway events (D5); a user's reaction after them must be the only event.
    fake.userReact(ref.messageId, '👈', USER, true);
    await waitFor(() => rec.reactions.length >= 1, 'user reaction');
    expect(rec.reactions.map((r) => r.userId)).toEqual([USER]);
  });

  it('turns user reactions (add and remove) into ReactionEvents; a replay is dropped; bots are ignored', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    const seq = fake.userReact(ref.messageId, '👉', USER, true, { roles: [MAINTAINER_ROLE_ID] });
    await waitFor(() => rec.reactions.length === 1, 'add event');
    const first = rec.reactions[0];
    expect(first).toMatchObject({
      platform: 'discord',
      channelId: CHANNEL_ID,
      messageId: ref.messageId,
      userId: USER,
      emoji: '👉',
      added: true,
      eventId: `discord:${fake.sessionId}:${seq}`,
    });
    expect(first?.at).toBeInstanceOf(Date);

    // A replayed dispatch (same sequence, as after RESUME) has the same eventId and is dropped: it never reaches
    // the handlers, where it could be applied ahead of its original.
    fake.dispatchWithSeq(
      'MESSAGE_REACTION_ADD',
      {
        user_id: USER,
        channel_id: CHANNEL_ID,
        message_id: ref.messageId,
        guild_id: GUILD_ID,
        emoji: { id: null, name: '👉' },
        burst: false,
        type: 0,
      },
      seq,
    );

    // Removal from a never-seen user (no member in REMOVE) still arrives (D3/T2).
    fake.userReact(ref.messageId, '👉', USER2, true);
    fake.userReact(ref.messageId, '👉', USER2, false);
    await waitFor(() => rec.reactions.length === 3, 'remove event');
    expect(rec.reactions[1]).toMatchObject({ userId: USER2, added: true, emoji: '👉' }); // not the replay
    expect(rec.reactions[2]).toMatchObject({ userId: USER2, added: false, emoji: '👉' });
    expect(rec.reactions[2]?.eventId).not.toBe(rec.reactions[1]?.eventId);

    // Another bot's reaction is not a vote.
    fake.userReact(ref.messageId, '👉', '1300000000000000077', true, { bot: true });
    fake.userReact(ref.messageId, '🤝', USER, true);
    await waitFor(() => rec.reactions.length === 4, 'after bot');
    expect(rec.reactions[3]).toMatchObject({ userId: USER, emoji: '🤝' });
  });

  it('waits out a 429 with Retry-After on the reaction route and on posting, and logs it', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    fake.rateLimitOnce('PUT', /\/reactions\/.+\/@me$/u, 0.2);
    const t0 = Date.now();
    await adapter.addReactions(ref, ['👈']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(fake.rateLimited).toHaveLength(1);
    expect(fake.reactionUsers(ref.messageId, '👈')).toEqual([BOT_USER_ID]);

    fake.rateLimitOnce('POST', /^\/channels\/\d+\/messages$/u, 0.2);
    const ref2 = await adapter.post(CHANNEL_ID, { text: 'again' });
    expect(fake.messages.get(ref2.messageId)?.content).toBe('again');
    expect(fake.rateLimited).toHaveLength(2);
    expect(log.lines.filter((l) => l.msg === 'discord rate limited; waiting')).toHaveLength(2);
    expect(JSON.stringify(log.lines)).not.toContain('fake-token');
  });

  it('lists reactions (paged) including ones added while the bot was disconnected', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    await adapter.addReactions(ref, ['👈', '👉']);
    await adapter.stop();
    await fake.waitDisconnected();
    // 150 users react while no client is connected: no dispatch, only state.
    const users = Array.from({ length: 150 }, (_, i) =>
      (1400000000000000000n + BigInt(i)).toString(),
    );
    for (const u of users) expect(fake.userReact(ref.messageId, '👈', u, true)).toBe(-1);
    fake.userReact(ref.messageId, '👉', USER, true);
    // Super (burst) reactions are listed apart (type=1), paged too; a person holding both kinds counts once.
    const supers = users.slice(0, 110);
    for (const u of [USER, ...supers])
      fake.userReact(ref.messageId, '👉', u, true, { burst: true });

    adapter = makeAdapter();
    await adapter.start(rec, COMMANDS);
    const snap = await adapter.listReactions(ref);
    expect(snap).toEqual([
      { emoji: '👈', userIds: users },
      { emoji: '👉', userIds: [USER, ...supers] },
    ]);
    const pages = fake.requests.filter(
      (r) => r.method === 'GET' && r.path.endsWith('/reactions/👈'),
    );
    expect(pages.length).toBe(2);
    expect(pages[0]?.query.limit).toBe('100');
    expect(pages[1]?.query.after).toBeDefined();
    // 👈 has no super reactions (count_details.burst 0): not asked for; 👉's two kinds: one page and two pages.
    expect(pages.map((p) => p.query.type)).toEqual(['0', '0']);
    const right = fake.requests.filter(
      (r) => r.method === 'GET' && r.path.endsWith('/reactions/👉'),
    );
    expect(right.map((p) => p.query.type)).toEqual(['0', '1', '1']);
    expect(rec.reactions).toHaveLength(0);
  });

  it('delivers slash commands with args and roles; the reply lands on the interaction webhook', async () => {
    const id = fake.slashCommand(
      'eval',
      { model: 'qwen', suite: 'mmlu' },
      { id: USER, username: 'alice', roles: [MAINTAINER_ROLE_ID] },
    );
    await waitFor(() => fake.responsesFor(id).some((r) => r.kind === 'followup'), 'reply');
    const ctx = rec.commands[0];
    expect(ctx).toMatchObject({
      platform: 'discord',
      name: 'eval',
      args: { model: 'qwen', suite: 'mmlu' },
      text: '',
      channelId: CHANNEL_ID,
    });
    expect(ctx?.user).toMatchObject({ id: USER, name: 'alice', roles: [MAINTAINER_ROLE_ID] });
    expect(ctx?.eventId).toBe(`discord:interaction:${id}`);
    const rs = fake.responsesFor(id);
    // maintainerOnly commands are deferred ephemerally; a public reply replaces the deferral with a follow-up.
    expect(rs.map((r) => r.kind)).toEqual(['callback', 'delete-original', 'followup']);
    expect(rs[0]?.body).toEqual({ type: 5, data: { flags: 64 } });
    expect(rs[2]?.body).toMatchObject({ content: 'ok eval' });
    expect(rs[2]?.body.flags).toBeUndefined();
  });

  it('public command: deferred publicly, reply edits @original; an ephemeral reply becomes a flagged follow-up', async () => {
    rec.onCommandImpl = async (ctx) => {
      await ctx.reply({ text: 'public answer' });
      await ctx.reply({ text: 'just for you' }, { ephemeral: true });
    };
    const id = fake.slashCommand('arena', { topic: 'math' }, { id: USER });
    await waitFor(() => fake.responsesFor(id).length >= 3, 'responses');
    const rs = fake.responsesFor(id);
    expect(rs.map((r) => r.kind)).toEqual(['callback', 'original', 'followup']);
    expect(rs[0]?.body).toEqual({ type: 5, data: { flags: 0 } });
    expect(rs[1]?.body).toMatchObject({ content: 'public answer' });
    expect(rs[2]?.body).toMatchObject({ content: 'just for you', flags: 64 });
    expect(rec.commands[0]?.args).toEqual({ topic: 'math' });
    expect(rec.commands[0]?.user.roles).toEqual([]);
  });

  it('first reply ephemeral after a public deferral: deletes the deferred reply and follows up with flag 64', async () => {
    rec.onCommandImpl = async (ctx) => ctx.reply({ text: 'secret' }, { ephemeral: true });
    const id = fake.slashCommand('arena', {}, { id: USER });
    await waitFor(() => fake.responsesFor(id).length >= 3, 'responses');
    const rs = fake.responsesFor(id);
    expect(rs.map((r) => r.kind)).toEqual(['callback', 'delete-original', 'followup']);
    expect(rs[2]?.body).toMatchObject({ content: 'secret', flags: 64 });
  });

  it('refuses a maintainer-only command from a non-maintainer before the handler runs', async () => {
    const id = fake.slashCommand('eval', { model: 'x', suite: 'mmlu' }, { id: USER2, roles: [] });
    await waitFor(() => fake.responsesFor(id).length >= 1, 'refusal');
    expect(fake.responsesFor(id)[0]?.body).toMatchObject({
      type: 4,
      data: {
        content: 'Sorry, only arena maintainers can use this command.',
        flags: 64,
      },
    });
    expect(rec.commands).toHaveLength(0);
  });
});

describe("DiscordAdapter in the user's language", () => {
  it('registers the commands with zh-CN name, description and ability choice localisations from the catalogue', async () => {
    const f = await FakeDiscord.start();
    const a = new DiscordAdapter({
      token: 't',
      guildIds: [GUILD_ID],
      restApi: f.restApi,
      logger: captureLogger().logger,
      restRetries: 0,
    });
    try {
      await a.start(new Recorder(), COMMAND_SPECS);
      const defs = f.registeredCommands[0]?.body as {
        name: string;
        name_localizations?: Record<string, string>;
        description_localizations?: Record<string, string>;
        options: {
          name: string;
          description_localizations?: Record<string, string>;
          choices?: { name: string; value: string; name_localizations?: Record<string, string> }[];
        }[];
      }[];
      const lb = defs.find((d) => d.name === 'leaderboard');
      // The ability choices are shown by their Chinese names and send the id.
      for (const command of ['ask', 'arena']) {
        const ability = defs
          .find((d) => d.name === command)
          ?.options.find((o) => o.name === 'ability');
        expect(
          ability?.choices?.find((c) => c.value === 'reasoning'),
          command,
        ).toEqual({
          name: 'reasoning',
          value: 'reasoning',
          name_localizations: { 'zh-CN': '推理' },
        });
        expect(ability?.choices?.map((c) => c.name_localizations?.['zh-CN'])).toEqual([
          '知识',
          '中文特定',
          '语言',
          '推理',
          '拒答',
          '安全',
          '鲁棒性',
        ]);
      }
      expect(lb?.name_localizations).toEqual({ 'zh-CN': '排行榜' });
      expect(lb?.description_localizations?.['zh-CN']).toMatch(/^煮酒排行榜/);
      // Every command and option has its Chinese (Discord: names ≤ 32, descriptions ≤ 100 characters).
      for (const d of defs) {
        expect(d.name_localizations?.['zh-CN'], d.name).toMatch(/^[\p{L}\p{N}_-]{1,32}$/u);
        expect(d.description_localizations?.['zh-CN'], d.name).toMatch(/[\u4e00-\u9fff]/);
        for (const o of d.options) {
          expect(o.description_localizations?.['zh-CN'], `${d.name} ${o.name}`).toMatch(
            /[\u4e00-\u9fff]/,
          );
          // Every choice too (/leaderboard view, the actions), not only the abilities.
          for (const ch of o.choices ?? [])
            expect(ch.name_localizations?.['zh-CN'], `${d.name} ${o.name} ${ch.value}`).toMatch(
              /[\u4e00-\u9fff]/,
            );
        }
      }
    } finally {
      await a.stop();
      await f.close();
    }
  });

  it('answers a zh-CN user in Chinese and an en-GB one in English, and hands the handler their locale', async () => {
    const zh = fake.slashCommand(
      'eval',
      { model: 'x', suite: 'mmlu' },
      { id: USER2, roles: [], locale: 'zh-CN' },
    );
    const en = fake.slashCommand(
      'eval',
      { model: 'x', suite: 'mmlu' },
      { id: USER2, roles: [], locale: 'en-GB' },
    );
    await waitFor(
      () => fake.responsesFor(zh).length >= 1 && fake.responsesFor(en).length >= 1,
      'refusals',
    );
    expect(fake.responsesFor(zh)[0]?.body).toMatchObject({
      data: { content: '抱歉，只有竞技场维护者可以使用这个命令。', flags: 64 },
    });
    expect(fake.responsesFor(en)[0]?.body).toMatchObject({
      data: { content: 'Sorry, only arena maintainers can use this command.', flags: 64 },
    });
    fake.slashCommand('arena', { topic: 'math' }, { id: USER, roles: [], locale: 'zh-CN' });
    fake.slashCommand('arena', { topic: 'math' }, { id: USER, roles: [], locale: 'fr' });
    await waitFor(() => rec.commands.length >= 2, 'commands');
    expect(rec.commands.map((c) => c.locale ?? 'none').sort()).toEqual(['none', 'zh-CN']);
  });
});

describe('DiscordAdapter gateway edge cases', () => {
  it('resumes after op 7 RECONNECT without re-identifying; a replayed dispatch is dropped', async () => {
    const fake = await FakeDiscord.start();
    const rec = new Recorder();
    const adapter = new DiscordAdapter({
      token: 't',
      restApi: fake.restApi,
      logger: captureLogger().logger,
      restRetries: 0,
    });
    try {
      await adapter.start(rec, []);
      // No guildIds: commands are registered globally.
      expect(fake.registeredCommands[0]?.path).toBe(`/applications/${APP_ID}/commands`);
      const msg = fake.seedMessage('old battle');
      const seq = fake.userReact(msg.id, '👈', USER, true);
      await waitFor(() => rec.reactions.length === 1, 'first delivery');
      fake.sendOp({ op: 7, d: null });
      await waitFor(() => fake.resumes.length === 1 && fake.connected, 'RESUME');
      expect(fake.resumes[0]).toMatchObject({ token: 't', session_id: fake.sessionId });
      expect(fake.identifies).toHaveLength(1);
      fake.dispatchWithSeq(
        'MESSAGE_REACTION_ADD',
        {
          user_id: USER,
          channel_id: CHANNEL_ID,
          message_id: msg.id,
          guild_id: GUILD_ID,
          emoji: { id: null, name: '👈' },
          burst: false,
          type: 0,
        },
        seq,
      );
      // The replay is dropped; the next dispatch (a new sequence) arrives.
      fake.userReact(msg.id, '👉', USER, true);
      await waitFor(() => rec.reactions.length === 2, 'the dispatch after the replay');
      expect(rec.reactions[1]).toMatchObject({ emoji: '👉' });
      expect(rec.reactions[1]?.eventId).not.toBe(rec.reactions[0]?.eventId);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });

  it('fails start loudly when the gateway closes with 4014 (disallowed intents)', async () => {
    const fake = await FakeDiscord.start({ closeOnIdentify: 4014 });
    const adapter = new DiscordAdapter({
      token: 't',
      restApi: fake.restApi,
      logger: captureLogger().logger,
      restRetries: 0,
      readyTimeoutMs: 120_000, // a guard only: the 4014 close must fail the start, not this timer
    });
    try {
      const err = await adapter.start(new Recorder(), []).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'chat_platform_error' });
      expect((err as Error).message).not.toContain('timed out');
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
