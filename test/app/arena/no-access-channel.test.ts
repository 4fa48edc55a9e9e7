/**
 * Through the real Bolt and discord.js against the fakes: commands from a channel the bot is not in
 * (Slack `not_in_channel` / `channel_not_found` on chat.postMessage; Discord 50013 Missing Permissions). Public
 * answers reach the channel through the command's response_url (Slack `respond()`, in_channel), ephemeral ones
 * stay ephemeral, and `/arena` tells the maintainer how to let the bot in, instead of "Something went wrong".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID, MAINTAINER_ROLE_ID } from '../../fakes/discord.ts';
import { FakeSlack } from '../../fakes/slack.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig, until } from './helpers.ts';

const MAINTAINER = 'U0000MAINT';

describe('Slack commands in a channel the bot is not in', () => {
  let db: TestDb;
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let bot: BotService;
  let url: string;

  beforeAll(async () => {
    db = await freshDb('pglite');
    await seedModels(db.db);
    fake = await FakeSlack.start();
    fake.notInChannel.set('G0PRIVATE', 'channel_not_found');
    fake.notInChannel.set('C0PUBLIC', 'not_in_channel');
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
      config: testConfig({ platforms: { slack: { maintainer_user_ids: [MAINTAINER] } } }),
      platforms: [adapter],
      clock: new ManualClock(new Date()),
    });
    await bot.start();
    url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
  });

  afterAll(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  async function command(cmd: string, channel: string, user = 'U0000ALICE') {
    const fields = fake.commandFields({ command: cmd, text: '', user, channel });
    expect((await fake.deliverCommandHttp(url, fields)).status).toBe(200);
    return until(
      () => (fake.responsesFor(fields).length > 0 ? fake.responsesFor(fields) : undefined),
      `${cmd} answer`,
    );
  }

  it.each([
    ['/models', 'G0PRIVATE'],
    ['/leaderboard', 'G0PRIVATE'],
    ['/models', 'C0PUBLIC'],
  ])('%s in %s answers in the channel through response_url', async (cmd, channel) => {
    const [answer] = await command(cmd, channel);
    expect(answer).toMatchObject({ response_type: 'in_channel' });
    expect(JSON.stringify(answer)).not.toMatch(/Something went wrong/u);
    expect(JSON.stringify(answer)).toMatch(
      cmd === '/models' ? /model-alpha/u : /board|leaderboard|votes/iu,
    );
  });

  it('/arena there tells the maintainer to invite the bot (ephemeral), and posts nothing', async () => {
    const before = fake.callsOf('chat.postMessage').length;
    const [answer] = await command('/arena', 'G0PRIVATE', MAINTAINER);
    expect(answer).toMatchObject({ response_type: 'ephemeral' });
    expect(String(answer?.text)).toMatch(
      /not in this channel .*channel_not_found.*invite it with `\/invite @arena-bot`/u,
    );
    expect(fake.callsOf('chat.postMessage').length).toBe(before + 1); // the one refused attempt
    expect((await getBattle(db.db, 1))?.status).toBe('void');
  });

  it('in a channel the bot is in, public answers still go out as its own messages', async () => {
    const fields = fake.commandFields({ command: '/models', text: '', user: 'U0000ALICE' });
    await fake.deliverCommandHttp(url, fields);
    await until(
      () => fake.callsOf('chat.postMessage').some((c) => c.args.channel === fields.channel_id),
      'postMessage',
    );
    expect(fake.responsesFor(fields)).toEqual([]);
  });
});

describe('Discord /arena in a channel the bot may not post in', () => {
  let db: TestDb;
  let fake: FakeDiscord;
  let bot: BotService;

  beforeAll(async () => {
    db = await freshDb('pglite');
    await seedModels(db.db);
    fake = await FakeDiscord.start();
    fake.noAccessChannels.add(CHANNEL_ID);
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
      clock: new ManualClock(new Date()),
    });
    await bot.start();
  });

  afterAll(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  it('says which permissions to grant; /models still answers through the interaction', async () => {
    const id = fake.slashCommand(
      'arena',
      {},
      { id: '1300000000000000001', roles: [MAINTAINER_ROLE_ID] },
    );
    const answer = await until(
      () => fake.responsesFor(id).find((r) => r.kind === 'original' || r.kind === 'followup'),
      '/arena answer',
    );
    expect(String(answer.body.content)).toMatch(
      /Missing Permissions.*Send Messages.*Add Reactions.*then try again/u,
    );
    const models = fake.slashCommand('models', {}, { id: '1300000000000000002' });
    const reply = await until(
      () => fake.responsesFor(models).find((r) => r.kind === 'original'),
      '/models answer',
    );
    expect(JSON.stringify(reply.body)).toMatch(/model-alpha/u);
  });
});
