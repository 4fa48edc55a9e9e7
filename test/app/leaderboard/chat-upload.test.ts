/**
 * `/leaderboard` puts the board's chart in chat through the real platform libraries against the wire fakes:
 * discord.js answers the slash command with the PNG as a multipart attachment (`files[0]` plus `attachments` in
 * `payload_json`), and Bolt posts the board and uploads the PNG with Slack's external upload
 * (files.getUploadURLExternal → the bytes POSTed to the upload URL → files.completeUploadExternal in the board
 * message's thread). The bytes that arrive are the snapshot's chart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import * as discord from '../../fakes/discord.ts';
import * as slack from '../../fakes/slack.ts';
import { addRun } from '../../helpers/board-data.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig, until } from '../arena/helpers.ts';

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** Two models with metric scores, one with a Chinese name, so the chart has rows and CJK text. */
async function seedBoard(db: TestDb): Promise<void> {
  await seedModels(db.db);
  for (const [model, right] of [
    ['gpt-4o', 3],
    ['通义千问-Max', 2],
  ] as const) {
    await addRun(db.db, {
      model,
      suite: 'gaokao',
      dataset: 'obj',
      ability: 'knowledge',
      method: 'metrics',
      scores: [0, 1, 2, 3].map((i) => ({ key: `q${i}`, raw: i < right ? 1 : 0, max: 1 })),
    });
  }
}

describe.each(flowBackends())('/leaderboard chart upload (%s)', (backend) => {
  let db: TestDb;
  let bot: BotService | undefined;
  const clock = new ManualClock(new Date());
  const config = testConfig({
    platforms: {
      discord: {
        guild_ids: [discord.GUILD_ID],
        maintainer_role_ids: [discord.MAINTAINER_ROLE_ID],
      },
    },
    aggregation: { min_votes: 5, bootstrap: 50, seed: 1 },
  });

  beforeEach(async () => {
    db = await freshDb(backend);
    await seedBoard(db);
  });
  afterEach(async () => {
    await bot?.stop();
    bot = undefined;
    await db.destroy();
  });

  it('discord.js sends the PNG as a multipart attachment of the reply', async () => {
    const fake = await discord.FakeDiscord.start();
    try {
      const adapter = new DiscordAdapter({
        token: 'fake-token',
        guildIds: [discord.GUILD_ID],
        restApi: fake.restApi,
        logger: silentLogger,
        maintainerRoleIds: [discord.MAINTAINER_ROLE_ID],
        restRetries: 0,
        restTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
      });
      bot = testBot({ db: db.db, config, platforms: [adapter], clock });
      await bot.start();
      const id = fake.slashCommand('leaderboard', {}, { id: '1300000000000000001', roles: [] });
      const withFile = await until(
        () => fake.requests.find((r) => r.files.length > 0 && r.path.includes('/webhooks/')),
        '/leaderboard reply with the chart',
        120_000,
      );
      expect(withFile.status).toBe(200);
      expect(withFile.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/u);
      const [file] = withFile.files;
      expect(file).toMatchObject({ field: 'files[0]', type: 'image/png' });
      expect(file!.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const snap = await bot.leaderboard.latest();
      expect(snap?.chart).not.toBeNull();
      expect(file!.data).toEqual(Buffer.from(snap!.chart!));
      // payload_json names the part by index (discord.js sends the id as a string, the name in the part).
      const attachments = (withFile.json as { attachments?: { id: unknown }[] }).attachments;
      expect(attachments?.map((a) => String(a.id))).toEqual(['0']);
      expect(file!.name).toMatch(/\.png$/u);
      expect(fake.responsesFor(id).some((r) => r.kind === 'original')).toBe(true);
    } finally {
      await bot?.stop();
      bot = undefined;
      await fake.close();
    }
  });

  it('Bolt uploads the PNG with files.getUploadURLExternal / completeUploadExternal', async () => {
    const fake = await slack.FakeSlack.start();
    try {
      const adapter = new SlackAdapter({
        botToken: 'xoxb-fake',
        signingSecret: fake.signingSecret,
        port: 0,
        host: '127.0.0.1',
        slackApiUrl: fake.apiUrl,
        logger: silentLogger,
        apiRetries: 0,
        apiTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
      });
      bot = testBot({ db: db.db, config, platforms: [adapter], clock });
      await bot.start();
      const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
      const fields = fake.commandFields({ command: '/leaderboard', text: '', user: 'U0000ALICE' });
      expect((await fake.deliverCommandHttp(url, fields)).status).toBe(200);
      const complete = await until(
        () => fake.callsOf('files.completeUploadExternal')[0],
        'files.completeUploadExternal',
        120_000,
      );
      const [getUrl] = fake.callsOf('files.getUploadURLExternal');
      expect(getUrl?.args).toMatchObject({ filename: expect.stringMatching(/\.png$/u) });
      expect(fake.uploads).toHaveLength(1);
      const upload = fake.uploads[0]!;
      expect(Number(getUrl!.args.length)).toBe(upload.size);
      expect(upload.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const snap = await bot.leaderboard.latest();
      expect(upload.data).toEqual(Buffer.from(snap!.chart!));
      // The file is shared in the thread of the board message the bot posted in the command's channel.
      const post = fake
        .callsOf('chat.postMessage')
        .find((c) => c.args.channel === fields.channel_id);
      expect(post).toBeDefined();
      const files = complete.args.files;
      const list = (typeof files === 'string' ? JSON.parse(files) : files) as { id: string }[];
      expect(list.map((f) => f.id)).toEqual([upload.fileId]);
      expect(complete.args).toMatchObject({ channel_id: fields.channel_id });
      expect(typeof complete.args.thread_ts).toBe('string');
    } finally {
      await bot?.stop();
      bot = undefined;
      await fake.close();
    }
  });
});
