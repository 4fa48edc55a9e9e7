/**
 * Contract tests: the real @slack/bolt, driven through SlackAdapter against the local fake Slack
 * (HTTP receiver with signed requests, and Socket Mode).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { BOT_USER_ID, CHANNEL_ID, FakeSlack } from '../../fakes/slack.ts';
import { captureLogger, Recorder, TEST_COMMANDS, waitFor } from './helpers.ts';

const COMMANDS = TEST_COMMANDS;
const USER = 'U0000ALICE';
const MAINTAINERS = 'S0000MAINT';

describe('SlackAdapter over the HTTP receiver', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let rec: Recorder;
  let log: ReturnType<typeof captureLogger>;
  let url: string;

  beforeEach(async () => {
    fake = await FakeSlack.start();
    fake.userGroups.set(MAINTAINERS, [USER]);
    log = captureLogger();
    rec = new Recorder();
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: fake.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: fake.apiUrl,
      logger: log.logger,
      apiRetries: 2,
      apiTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
      roleGroupIds: [MAINTAINERS],
    });
    await adapter.start(rec, COMMANDS);
    url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  it('starts, learns its bot user id and authenticates with the bot token', () => {
    expect(adapter.botUserId).toBe(BOT_USER_ID);
    expect(fake.callsOf('auth.test')[0]?.authorization).toBe('Bearer xoxb-fake');
    expect(JSON.stringify(log.lines)).not.toMatch(/xoxb-fake|fake-signing-secret/u);
  });

  it('posts long content as Block Kit within limits, split into parts, then edits them', async () => {
    const long = `${'字'.repeat(2500)}\n\n${'x'.repeat(2500)}`;
    const sections = Array.from({ length: 30 }, (_, i) => ({ heading: `Part ${i}`, body: long }));
    const ref = await adapter.post(CHANNEL_ID, {
      text: 'Battle #1 <&>',
      title: 'Arena',
      sections,
      table: { columns: ['model', 'elo'], rows: [['模型A', '1500']] },
      footer: 'React :point_left: :handshake: :point_right:',
    });
    expect(ref).toMatchObject({ platform: 'slack', channelId: CHANNEL_ID });
    const posts = fake.callsOf('chat.postMessage');
    expect(posts).toHaveLength(1 + ref.partIds.length);
    expect(ref.partIds.length).toBeGreaterThan(0);
    let han = 0;
    for (const p of posts) {
      const blocks = p.args.blocks as {
        type: string;
        text?: { text: string };
        elements?: { text: string }[];
      }[];
      expect(blocks.length).toBeLessThanOrEqual(50);
      for (const b of blocks) {
        expect(b.text?.text.length ?? 0).toBeLessThanOrEqual(b.type === 'header' ? 150 : 3000);
        han += (b.text?.text.match(/字/gu) ?? []).length;
      }
      // The notification text is mrkdwn: escaped, so it shows as given and cannot ping.
      expect(p.args.text).toBe('Battle #1 &lt;&amp;&gt;');
    }
    expect(han).toBe(30 * 2500);
    const first = posts[0]?.args.blocks as { type: string; text: { text: string } }[];
    expect(first[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Arena', emoji: true },
    });
    expect(first[1]?.text.text).toBe('Battle #1 &lt;&amp;&gt;');
    const lastBlocks = posts[posts.length - 1]?.args.blocks as {
      type: string;
      text?: { text: string };
    }[];
    expect(lastBlocks.some((b) => b.text?.text.startsWith('```\nmodel  elo\n'))).toBe(true);
    expect(lastBlocks[lastBlocks.length - 1]?.type).toBe('context');

    await adapter.edit(ref, {
      text: 'Revealed',
      sections: [{ heading: 'Left: model-a', body: 'short' }],
    });
    const updates = fake.callsOf('chat.update');
    expect(updates.map((u) => u.args.ts)).toEqual([ref.messageId, ...ref.partIds]);
    expect(fake.messages.get(`${CHANNEL_ID}:${ref.messageId}`)?.text).toBe('Revealed');
  });

  it('uploads an image in the thread of the primary message (3-step uploadV2)', async () => {
    const ref = await adapter.post(CHANNEL_ID, {
      text: 'Leaderboard',
      image: { filename: 'board.png', data: new Uint8Array([1, 2, 3]), alt: 'chart' },
    });
    expect(fake.callsOf('files.getUploadURLExternal')[0]?.args).toMatchObject({
      filename: 'board.png',
      length: '3',
    });
    expect(fake.uploads).toHaveLength(1);
    expect(fake.callsOf('files.completeUploadExternal')[0]?.args).toMatchObject({
      channel_id: CHANNEL_ID,
      thread_ts: ref.messageId,
    });
  });

  it('adds reactions by name, waits out a 429 with Retry-After, and lists them (incl. ones added while stopped)', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    fake.rateLimitOnce('reactions.add', 1);
    await adapter.addReactions(ref, ['point_left', ':handshake:', 'point_right']);
    const adds = fake.callsOf('reactions.add');
    expect(adds.map((a) => [a.status, a.args.name])).toEqual([
      [429, 'point_left'],
      [200, 'point_left'],
      [200, 'handshake'],
      [200, 'point_right'],
    ]);
    expect(log.lines.some((l) => l.msg === 'slack rate limited; waiting')).toBe(true);
    // already_reacted is not an error
    await adapter.addReactions(ref, ['point_left']);

    await adapter.stop();
    fake.userReact({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: USER,
      name: 'point_left::skin-tone-3',
      add: true,
    });
    fake.userReact({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: 'U0000BOB',
      name: 'point_right',
      add: true,
    });
    await adapter.start(rec, COMMANDS);
    expect(await adapter.listReactions(ref)).toEqual([
      { emoji: 'point_right', userIds: ['U0000BOB'] },
      { emoji: 'point_left::skin-tone-3', userIds: [USER] },
    ]);
    expect(fake.callsOf('reactions.get')[0]?.args).toMatchObject({
      full: 'true',
      timestamp: ref.messageId,
    });
    url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
  });

  it('turns reaction_added/removed into ReactionEvents; a retry keeps event_id with retryNum 1; own reactions ignored', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: 'vote' });
    const body = fake.userReact({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: USER,
      name: 'point_left::skin-tone-3',
      add: true,
    });
    const res = await fake.deliverEventHttp(url, body);
    expect(res.status).toBe(200);
    await waitFor(() => rec.reactions.length === 1, 'reaction');
    expect(rec.reactions[0]).toMatchObject({
      platform: 'slack',
      eventId: body.event_id,
      channelId: CHANNEL_ID,
      messageId: ref.messageId,
      userId: USER,
      emoji: 'point_left::skin-tone-3',
      added: true,
    });
    expect(rec.reactions[0]?.retryNum).toBeUndefined();

    await fake.deliverEventHttp(url, body, { retryNum: 1 });
    await waitFor(() => rec.reactions.length === 2, 'retry');
    expect(rec.reactions[1]).toMatchObject({ eventId: body.event_id, retryNum: 1 });

    const removed = fake.userReact({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: USER,
      name: 'point_left::skin-tone-3',
      add: false,
    });
    await fake.deliverEventHttp(url, removed);
    await waitFor(() => rec.reactions.length === 3, 'remove');
    expect(rec.reactions[2]).toMatchObject({ added: false, userId: USER });

    // The echo of the bot's own reaction is dropped by ignoreSelf.
    const own = fake.reactionBody({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: BOT_USER_ID,
      name: 'point_left',
      add: true,
    });
    expect((await fake.deliverEventHttp(url, own)).status).toBe(200);
    // A later event marks the point by which the own one would have arrived (no fixed sleep: that would
    // depend on the machine's speed).
    const marker = fake.userReact({
      channel: CHANNEL_ID,
      ts: ref.messageId,
      user: USER,
      name: 'point_right',
      add: true,
    });
    await fake.deliverEventHttp(url, marker);
    await waitFor(() => rec.reactions.some((r) => r.eventId === marker.event_id), 'marker');
    expect(rec.reactions.map((r) => r.userId)).toEqual([USER, USER, USER, USER]);
    expect(rec.reactions[3]?.eventId).toBe(marker.event_id);
  });

  it('rejects a request with a bad signature with 401', async () => {
    const body = fake.reactionBody({
      channel: CHANNEL_ID,
      ts: '1.2',
      user: USER,
      name: 'point_left',
      add: true,
    });
    const res = await fake.deliverEventHttp(url, body, { badSignature: true });
    expect(res.status).toBe(401);
    // The same event correctly signed afterwards is the only one recorded.
    const good = fake.reactionBody({
      channel: CHANNEL_ID,
      ts: '1.2',
      user: USER,
      name: 'point_right',
      add: true,
    });
    await fake.deliverEventHttp(url, good);
    await waitFor(() => rec.reactions.length > 0, 'the correctly signed event');
    expect(rec.reactions.map((r) => r.eventId)).toEqual([good.event_id]);
  });

  it('acks a slash command at once, parses args, reports roles, and replies publicly with chat.postMessage', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    rec.onCommandImpl = async (ctx) => {
      await gate;
      await ctx.reply({ text: `queued ${ctx.args.model}` });
    };
    const fields = fake.commandFields({
      command: '/eval',
      text: 'qwen-7b suite="c eval" extra',
      user: USER,
      userName: 'alice',
    });
    const res = await fake.deliverCommandHttp(url, fields);
    // Acked before the (still blocked) handler finished.
    expect(res.status).toBe(200);
    await waitFor(() => rec.commands.length === 1, 'command');
    const ctx = rec.commands[0];
    expect(ctx).toMatchObject({
      platform: 'slack',
      name: 'eval',
      args: { model: 'qwen-7b', suite: 'c eval' },
      text: 'qwen-7b suite="c eval" extra',
      channelId: CHANNEL_ID,
      user: { id: USER, name: 'alice', roles: [MAINTAINERS] },
    });
    release();
    await waitFor(() => fake.callsOf('chat.postMessage').length === 1, 'reply');
    expect(fake.callsOf('chat.postMessage')[0]?.args).toMatchObject({
      channel: CHANNEL_ID,
      text: 'queued qwen-7b',
    });
  });

  it('sends ephemeral replies through response_url with response_type ephemeral', async () => {
    rec.onCommandImpl = async (ctx) => ctx.reply({ text: 'only you' }, { ephemeral: true });
    const fields = fake.commandFields({ command: '/arena', text: 'topic=math', user: 'U0000BOB' });
    expect((await fake.deliverCommandHttp(url, fields)).status).toBe(200);
    await waitFor(() => fake.responsesFor(fields).length === 1, 'respond');
    expect(fake.responsesFor(fields)[0]).toMatchObject({
      response_type: 'ephemeral',
      text: 'only you',
    });
    expect(rec.commands[0]?.args).toEqual({ topic: 'math' });
    expect(rec.commands[0]?.user.roles).toEqual([]);
  });

  it('refuses (401) a request timestamped more than five minutes from now either way; within it, acts', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Skews with a margin over the 300 s limit, so the time the test takes cannot move one inside it.
    for (const skew of [10 * 60, -10 * 60, 330, -330]) {
      const fields = fake.commandFields({ command: '/arena', text: `skew ${skew}`, user: USER });
      const res = await fake.deliverCommandHttp(url, fields, { timestamp: now + skew });
      expect(res.status, `timestamp ${skew} s from now`).toBe(401);
    }
    const body = fake.userReact({
      channel: CHANNEL_ID,
      ts: '1.2',
      user: USER,
      name: 'point_left',
      add: true,
    });
    expect((await fake.deliverEventHttp(url, body, { timestamp: now + 600 })).status).toBe(401);
    // Within the window (a clock a few minutes off) the command is handled.
    const fine = fake.commandFields({ command: '/arena', text: 'fine', user: USER });
    expect((await fake.deliverCommandHttp(url, fine, { timestamp: now + 120 })).status).toBe(200);
    await waitFor(() => rec.commands.length === 1, 'the command within the window');
    expect(rec.commands.map((c) => c.text)).toEqual(['fine']);
    expect(rec.reactions).toHaveLength(0);
    expect(JSON.stringify(log.lines)).toMatch(
      /slack request refused: request timestamp is (59\d|600) s in the future \(at most 300 s either way\)/,
    );
  });

  it('a replayed command acts once: the same signed request, or the same trigger_id re-signed', async () => {
    const fields = fake.commandFields({ command: '/arena', text: 'once', user: USER });
    const ts = Math.floor(Date.now() / 1000);
    // The same bytes with the same signature, twice (a captured request sent again).
    expect((await fake.deliverCommandHttp(url, fields, { timestamp: ts })).status).toBe(200);
    expect((await fake.deliverCommandHttp(url, fields, { timestamp: ts })).status).toBe(200);
    // The same trigger_id in a body changed and signed anew.
    const changed = { ...fields, text: 'twice' };
    expect((await fake.deliverCommandHttp(url, changed, { timestamp: ts + 1 })).status).toBe(200);
    // A new command afterwards marks the point by which the replays would have arrived.
    const next = fake.commandFields({ command: '/arena', text: 'next', user: USER });
    expect((await fake.deliverCommandHttp(url, next)).status).toBe(200);
    await waitFor(() => rec.commands.length >= 2, 'the first and the next command');
    expect(rec.commands.map((c) => c.text).sort()).toEqual(['next', 'once']);
    expect(
      log.lines.filter((l) => JSON.stringify(l).includes('slack request replayed')),
    ).toHaveLength(2);
  });

  it('answers an unknown command ephemerally without calling the handler', async () => {
    const fields = fake.commandFields({ command: '/nope', text: '', user: USER });
    const res = await fake.deliverCommandHttp(url, fields);
    expect(await res.json()).toEqual({ response_type: 'ephemeral', text: 'Unknown command.' });
    expect(rec.commands).toHaveLength(0);
  });
});

describe('SlackAdapter over Socket Mode', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let rec: Recorder;

  beforeEach(async () => {
    fake = await FakeSlack.start();
    rec = new Recorder();
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      appToken: 'xapp-fake',
      slackApiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      apiRetries: 0,
    });
    await adapter.start(rec, COMMANDS);
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.waitSocketClosed();
    await fake.close();
  });

  it('a Socket Mode connection made again is a gap (onGap), the first is not', async () => {
    expect(rec.gaps).toEqual([]);
    const opened = fake.callsOf('apps.connections.open').length;
    fake.dropSockets();
    await waitFor(() => rec.gaps.length === 1, 'a gap after the reconnection');
    expect(rec.gaps[0]).toMatchObject({ platform: 'slack', reason: 'socket_reconnect' });
    expect(fake.callsOf('apps.connections.open').length).toBe(opened + 1);
    expect(fake.socketConnected).toBe(true);
  });

  it('connects with the app token and delivers reactions (re-delivery keeps event_id) and commands', async () => {
    expect(fake.socketConnected).toBe(true);
    expect(fake.callsOf('apps.connections.open')[0]?.authorization).toBe('Bearer xapp-fake');

    const body = fake.userReact({
      channel: CHANNEL_ID,
      ts: fake.seedMessage(CHANNEL_ID, 'vote'),
      user: USER,
      name: 'point_right',
      add: true,
    });
    await fake.deliverEventSocket(body);
    await fake.deliverEventSocket(body, { retryNum: 1, retryReason: 'timeout' });
    await waitFor(() => rec.reactions.length === 2, 'socket reactions');
    expect(rec.reactions[0]).toMatchObject({
      eventId: body.event_id,
      emoji: 'point_right',
      added: true,
    });
    expect(rec.reactions[0]?.retryNum).toBeUndefined();
    expect(rec.reactions[1]).toMatchObject({ eventId: body.event_id, retryNum: 1 });

    rec.onCommandImpl = async (ctx) => ctx.reply({ text: 'hidden' }, { ephemeral: true });
    const fields = fake.commandFields({ command: '/arena', text: 'history', user: USER });
    await fake.deliverCommandSocket(fields);
    await waitFor(() => fake.responsesFor(fields).length === 1, 'socket respond');
    expect(rec.commands[0]?.args).toEqual({ topic: 'history' });
    expect(fake.responsesFor(fields)[0]).toMatchObject({
      response_type: 'ephemeral',
      text: 'hidden',
    });
  });
});
