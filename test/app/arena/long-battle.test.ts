/**
 * A long battle through the real discord.js and Bolt against the fakes, which refuse what Discord and Slack
 * refuse (2,000 / 4,096 / 6,000 / 10 embeds; 50 blocks, 3,000 per section, ~12,000 of block text): a
 * 120,000-character answer against a 30,000-character one takes at most `arena.max_messages` messages on each
 * platform (3 on Discord, 1 on Slack), says how much was cut, carries the whole battle as a text file (attached on
 * Discord, in the thread on Slack), and its reveal edits one message on each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { CHANNEL_ID as DISCORD_CHANNEL, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { FakeSlack, CHANNEL_ID as SLACK_CHANNEL } from '../../fakes/slack.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { testBot, testConfig } from './helpers.ts';

/** `n` characters of prose in paragraphs, with a code block in the middle (cuts must keep it fenced). */
function longAnswer(tag: string, n: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < n; i++) {
    const p =
      i === 40
        ? '```python\n' +
          Array.from({ length: 60 }, (_, j) => `x_${j} = ${j} * 2`).join('\n') +
          '\n```'
        : `${tag} paragraph ${i}: the tide rises and falls twice a day as the moon pulls the sea, and the sun adds its own smaller pull.`;
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join('\n\n').slice(0, n);
}

const LONG = longAnswer('First', 120_000);
const SHORT = longAnswer('Second', 30_000);

describe('a 120,000-character battle on Discord and Slack', () => {
  let db: TestDb;
  let discord: FakeDiscord;
  let slack: FakeSlack;
  let bot: BotService;
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));

  beforeAll(async () => {
    db = await freshDb('pglite');
    const ds = await ensureDataset(db.db, {
      name: 'long',
      ability: 'language',
      method: 'comparative',
      language: 'en',
    });
    const items = await ensureItems(db.db, ds, [
      { key: 'a', prompt: 'Explain tides at length.' },
      { key: 'b', prompt: 'Explain tides at length, again.' },
    ]);
    const models = await ensureModels(db.db, ['model-alpha', 'model-beta'], 'recorded');
    await insertResponses(
      db.db,
      [...items.values()].flatMap((itemId) => [
        {
          modelId: models.get('model-alpha') as number,
          itemId,
          requestHash: 'r',
          output: LONG,
          source: 'import',
        },
        {
          modelId: models.get('model-beta') as number,
          itemId,
          requestHash: 'r',
          output: SHORT,
          source: 'import',
        },
      ]),
    );
    discord = await FakeDiscord.start();
    slack = await FakeSlack.start();
    const adapters = [
      new DiscordAdapter({
        token: 'fake-token',
        guildIds: [GUILD_ID],
        restApi: discord.restApi,
        logger: silentLogger,
        restRetries: 0,
        restTimeoutMs: 60_000,
      }),
      new SlackAdapter({
        botToken: 'xoxb-fake',
        signingSecret: slack.signingSecret,
        port: 0,
        host: '127.0.0.1',
        slackApiUrl: slack.apiUrl,
        logger: silentLogger,
        apiRetries: 0,
        apiTimeoutMs: 60_000,
      }),
    ];
    bot = testBot({ db: db.db, config: testConfig(), platforms: adapters, clock });
    await bot.start();
  });

  afterAll(async () => {
    await bot?.stop();
    await discord?.close();
    await slack?.close();
    await db?.destroy();
  });

  it('fits max_messages, says what was cut, links the full text, and the reveal edits one message', async () => {
    // Step: post on both platforms.
    const onDiscord = await bot.arena.postBattle('discord', DISCORD_CHANNEL);
    const onSlack = await bot.arena.postBattle('slack', SLACK_CHANNEL);
    if (!onDiscord.ok || !onSlack.ok)
      throw new Error(`posting failed: ${JSON.stringify([onDiscord, onSlack])}`);
    expect(discord.refusedTooLong).toEqual([]);
    expect(slack.refusedTooLong).toEqual([]);

    // Discord: at most 3 messages (was 59), a visible cut, the whole battle attached to the first message.
    const posts = discord.requests.filter(
      (r) => r.method === 'POST' && /\/messages$/u.test(r.path),
    );
    expect(posts.length).toBeGreaterThan(1);
    expect(posts.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(posts.map((p) => p.json))).toMatch(
      /\[… [\d,]+ more characters not shown: the full text is in battle-1\.txt, attached to the first message\]/u,
    );
    const file = posts[0]?.files.find((f) => f.name === 'battle-1.txt');
    const discordText = file?.data.toString('utf8') ?? '';
    expect(discordText).toContain(LONG);
    expect(discordText).toContain(SHORT);
    expect(discordText).not.toMatch(/model-(alpha|beta)/u);
    const primary = discord.messages.get(onDiscord.value.ref.messageId);
    expect(primary?.attachments).toMatchObject([{ filename: 'battle-1.txt' }]);

    // Slack: one message, a visible cut, the whole battle uploaded in its thread.
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(JSON.stringify(slack.callsOf('chat.postMessage')[0]?.args)).toMatch(
      /more characters not shown: the full text is in battle-2\.txt, in the first message's thread/u,
    );
    const complete = slack.callsOf('files.completeUploadExternal')[0]?.args;
    expect(complete?.thread_ts).toBe(onSlack.value.ref.messageId);
    const slackText = slack.uploads.at(-1)?.data.toString('utf8') ?? '';
    expect(slackText).toContain(LONG);
    expect(slackText).toContain(SHORT);

    // Step: close and reveal: one edit per platform (the first message), within the limits.
    const patchesBefore = discord.requests.filter((r) => r.method === 'PATCH').length;
    clock.advance(2 * 3_600_000);
    expect(await bot.tick()).toMatchObject({ revealed: [1, 2] });
    const patches = discord.requests.filter((r) => r.method === 'PATCH').slice(patchesBefore);
    expect(patches.map((p) => p.path)).toEqual([
      `/channels/${DISCORD_CHANNEL}/messages/${onDiscord.value.ref.messageId}`,
    ]);
    expect(JSON.stringify(patches[0]?.json)).toMatch(
      /Left: model-(alpha|beta) · Right: model-(alpha|beta)/u,
    );
    expect(slack.callsOf('chat.update')).toHaveLength(1);
    expect(JSON.stringify(slack.callsOf('chat.update')[0]?.args)).toMatch(
      /Left: model-(alpha|beta)/u,
    );
    expect(discord.refusedTooLong).toEqual([]);
    expect(slack.refusedTooLong).toEqual([]);
    // The attachment survives the reveal (the edit sends no `attachments`).
    expect(discord.messages.get(onDiscord.value.ref.messageId)?.attachments).toHaveLength(1);
  });
});
