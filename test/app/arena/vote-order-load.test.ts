/**
 * Votes under load through the wire fakes: many voters swapping emoji, every voter's stored vote is what the
 * message shows (the most recently added emoji still present, docs/scoring.md §4.1). Discord: the real
 * discord.js against the fake gateway, events stamped on receipt and applied concurrently, with RESUME replays
 * (same sequence). Slack: the real Bolt against the fake, the events delivered shuffled and concurrently, with
 * late retries (same event_id, X-Slack-Retry-Num).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createRng } from '../../../src/core/rng.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import type { VoteChoice } from '../../../src/storage/schema.ts';
import { listVoteEvents, liveVotes, tally } from '../../../src/storage/votes.ts';
import { CHANNEL_ID as D_CHANNEL, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { shownVotes, shuffle, swapScript, tallyOf } from '../../helpers/vote-scripts.ts';
import { SECRET, seedModels, testBot, testConfig, until } from './helpers.ts';

/** Voters per platform; VOTE_LOAD_VOTERS runs a bigger load by hand (e.g. 200 for about 1,400 events). */
const VOTERS = Number(process.env.VOTE_LOAD_VOTERS ?? 30);

/** Prints a run's figures when VOTE_LOAD_REPORT is set (tests are quiet otherwise). */
function report(summary: Record<string, unknown>): void {
  if (process.env.VOTE_LOAD_REPORT)
    process.stdout.write(`vote-order load: ${JSON.stringify(summary)}\n`);
}
const DISCORD_EMOJI: Record<VoteChoice, string> = {
  left: '⬅️',
  equal: '🟰',
  right: '➡️',
  bothbad: '👎',
};
const SLACK_EMOJI: Record<VoteChoice, string> = {
  left: 'arrow_left',
  equal: 'heavy_equals_sign',
  right: 'arrow_right',
  bothbad: '-1',
};

describe.each(flowBackends())('vote order under load (%s)', (backend) => {
  let db: TestDb | undefined;
  let bot: BotService | undefined;
  const closers: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await bot?.stop();
    for (const c of closers.splice(0)) await c();
    await db?.destroy();
  });

  /** Stored vs shown per voter, for `ids[voter]` hashed on `platform`. */
  async function compare(
    platform: 'discord' | 'slack',
    battleId: number,
    ids: readonly string[],
    shown: Map<number, VoteChoice>,
  ) {
    const d = db as TestDb;
    const stored = new Map((await liveVotes(d.db, battleId)).map((v) => [v.voterHash, v.choice]));
    let mismatches = 0;
    ids.forEach((id, v) => {
      if (stored.get(hashVoterId(SECRET, platform, id)) !== shown.get(v)) mismatches++;
    });
    return { mismatches, stored: await tally(d.db, battleId), shown: tallyOf(shown) };
  }

  it('Discord: concurrent handlers and RESUME replays; stored tally = shown tally', async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    const fake = await FakeDiscord.start();
    closers.push(() => fake.close());
    const adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: fake.restApi,
      logger: silentLogger,
      restRetries: 0,
      restTimeoutMs: 60_000,
    });
    bot = testBot({
      db: db.db,
      config: testConfig({ platforms: { discord: { guild_ids: [GUILD_ID] } } }),
      platforms: [adapter],
      clock: new ManualClock(new Date()),
    });
    await bot.start();
    const posted = await bot.arena.postBattle('discord', D_CHANNEL);
    if (!posted.ok) throw new Error('battle not posted');
    const msgId = posted.value.ref.messageId;
    const rng = createRng(4101);
    const steps = swapScript(rng, VOTERS, 4, 10);
    const ids = Array.from(
      { length: VOTERS },
      (_, v) => `13000000000000${String(v).padStart(5, '0')}`,
    );
    const seqs: number[] = [];
    let replays = 0;
    for (const s of steps) {
      seqs.push(fake.userReact(msgId, DISCORD_EMOJI[s.choice], ids[s.voter] as string, s.add));
      // Now and then an earlier dispatch is replayed, as after a RESUME.
      if (rng.int(8) === 0 && fake.replay(seqs[rng.int(seqs.length)] as number)) replays++;
    }
    await until(
      async () =>
        (await listVoteEvents((db as TestDb).db, posted.value.battleId)).length === steps.length,
      'every reaction applied',
    );
    const r = await compare('discord', posted.value.battleId, ids, shownVotes(steps));
    const summary = { events: steps.length, replays, voters: VOTERS, ...r };
    report(summary);
    expect(summary).toEqual({ ...summary, mismatches: 0, stored: r.shown });
    expect(summary.events).toBeGreaterThan(150);
  });

  it('Slack: shuffled concurrent delivery and late retries; stored tally = shown tally', async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    const fake = await FakeSlack.start();
    closers.push(() => fake.close());
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
    bot = testBot({
      db: db.db,
      config: testConfig(),
      platforms: [adapter],
      clock: new ManualClock(new Date()),
    });
    await bot.start();
    const posted = await bot.arena.postBattle('slack', S_CHANNEL);
    if (!posted.ok) throw new Error('battle not posted');
    const ts = posted.value.ref.messageId;
    const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
    const rng = createRng(4102);
    const steps = swapScript(rng, VOTERS, 4, 10);
    const ids = Array.from({ length: VOTERS }, (_, v) => `U0000V${String(v).padStart(4, '0')}`);
    // The platform records the reactions in order (event_ts increasing); delivery is another matter.
    const bodies = steps.map((s) =>
      fake.userReact({
        channel: S_CHANNEL,
        ts,
        user: ids[s.voter] as string,
        name: SLACK_EMOJI[s.choice],
        add: s.add,
      }),
    );
    const retried = shuffle(rng, bodies).slice(0, Math.ceil(bodies.length / 8));
    const deliveries = shuffle(rng, [
      ...bodies.map((b) => ({ b, retryNum: 0 })),
      ...retried.map((b) => ({ b, retryNum: 1 })),
    ]);
    // Eight at a time, concurrently.
    for (let i = 0; i < deliveries.length; i += 8) {
      await Promise.all(
        deliveries
          .slice(i, i + 8)
          .map(({ b, retryNum }) =>
            fake.deliverEventHttp(
              url,
              b,
              retryNum > 0 ? { retryNum, retryReason: 'http_timeout' } : {},
            ),
          ),
      );
    }
    await until(
      async () =>
        (await listVoteEvents((db as TestDb).db, posted.value.battleId)).length === steps.length,
      'every reaction applied',
    );
    const r = await compare('slack', posted.value.battleId, ids, shownVotes(steps));
    const summary = { events: steps.length, retries: retried.length, voters: VOTERS, ...r };
    report(summary);
    expect(summary).toEqual({ ...summary, mismatches: 0, stored: r.shown });
    expect(summary.events).toBeGreaterThan(150);
  });
});
