/**
 * The arena through the real @slack/bolt (SlackAdapter, HTTP receiver) against the local fake Slack: a Slack
 * retry of a reaction event (same event_id, X-Slack-Retry-Num: 1) counts once, a skin-toned reaction maps to
 * its choice, the bot's own reactions are not votes, removing the reaction retracts, closing reveals.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, liveVotes } from '../../../src/storage/votes.ts';
import { BOT_USER_ID, CHANNEL_ID, FakeSlack } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, testBot, testConfig, until } from './helpers.ts';

describe.each(flowBackends())('arena through the fake Slack (%s)', (backend) => {
  let db: TestDb;
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let bot: BotService;
  let clock: ManualClock;

  beforeEach(async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    fake = await FakeSlack.start();
    clock = new ManualClock(new Date());
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: fake.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: fake.apiUrl,
      logger: silentLogger,
      apiRetries: 0,
      apiTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
    });
    bot = testBot({
      db: db.db,
      config: testConfig(),
      platforms: [adapter],
      clock,
    });
    await bot.start();
  });

  afterEach(async () => {
    await bot.stop();
    await fake.close();
    await db.destroy();
  });

  it('a retried event counts once; skin tones normalised; own reactions ignored; reveal on close', async () => {
    const posted = await bot.arena.postBattle('slack', CHANNEL_ID);
    expect(posted.ok).toBe(true);
    if (!posted.ok) return;
    const ts = posted.value.ref.messageId;
    expect(fake.callsOf('reactions.add').map((c) => c.args.name)).toEqual([
      'arrow_left',
      'heavy_equals_sign',
      'arrow_right',
      '-1',
    ]);
    const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;

    const own = fake.reactionBody({
      channel: CHANNEL_ID,
      ts,
      user: BOT_USER_ID,
      name: 'arrow_left',
      add: true,
    });
    await fake.deliverEventHttp(url, own);
    const body = fake.userReact({
      channel: CHANNEL_ID,
      ts,
      user: 'U0000ALICE',
      name: 'arrow_left::skin-tone-3',
      add: true,
    });
    expect((await fake.deliverEventHttp(url, body)).status).toBe(200);
    expect((await fake.deliverEventHttp(url, body, { retryNum: 1 })).status).toBe(200);
    const bob = fake.userReact({
      channel: CHANNEL_ID,
      ts,
      user: 'U0000BOB',
      name: 'arrow_right',
      add: true,
    });
    await fake.deliverEventHttp(url, bob);
    await until(async () => (await listVoteEvents(db.db, 1)).length === 2, 'two events');
    const bobOff = fake.userReact({
      channel: CHANNEL_ID,
      ts,
      user: 'U0000BOB',
      name: 'arrow_right',
      add: false,
    });
    await fake.deliverEventHttp(url, bobOff);
    await until(async () => (await listVoteEvents(db.db, 1)).length === 3, 'retraction');
    expect((await listVoteEvents(db.db, 1)).map((e) => [e.kind, e.choice, e.effect])).toEqual([
      ['add', 'left', 'cast'],
      ['add', 'right', 'cast'],
      ['remove', 'right', 'retracted'],
    ]);
    expect((await liveVotes(db.db, 1)).map((v) => v.choice)).toEqual(['left']);

    clock.advance(2 * 3_600_000);
    expect(await bot.tick()).toMatchObject({ closed: [1], revealed: [1] });
    const update = fake.callsOf('chat.update').find((c) => c.args.ts === ts);
    expect(JSON.stringify(update?.args)).toMatch(
      /Left: model-(alpha|beta) · Right: model-(alpha|beta) · tally :arrow_left: 1 :heavy_equals_sign: 0 :arrow_right: 0/u,
    );
    expect((await getBattle(db.db, 1))?.status).toBe('closed');
  });
});
