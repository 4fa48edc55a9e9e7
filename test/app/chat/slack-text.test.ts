/**
 * Slack text is decoded once where it enters and escaped on the way out (src/chat/slack/): `/ask Is 3 < 5 && 5 > 4`
 * (Slack sends `Is 3 &lt; 5 &amp;&amp; 5 &gt; 4`) reaches both models as typed and is shown escaped once; Slack's
 * mention markup in user text (`<!channel>`, `<!here>`, `<@U…>`, `<!subteam^…>`) reaches Slack neutralised, in
 * the notification `text` and in the blocks. Real Bolt against the fake Slack, scripted live models.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listTurns } from '../../../src/storage/live-battles.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { type ScriptedModels, scriptedModels } from '../../helpers/live-models.ts';
import { SECRET, testConfig, until } from '../arena/helpers.ts';

const NAMES = ['model-red', 'model-green'];
const PINGS = ['<!channel>', '<!here>', '<@U0000CAROL>', '<!subteam^S0000TEAM>'];

describe.each(flowBackends())('Slack text in and out (%s)', (backend) => {
  let db: TestDb;
  let models: ScriptedModels;
  let fake: FakeSlack;
  let bot: BotService;
  let url: string;

  beforeEach(async () => {
    db = await freshDb(backend);
    models = await scriptedModels(db.db, () => 'ok');
    models.setAnswer((m) => `An answer by ${m === 'model-red' ? 'the first' : 'the second'} one.`);
    fake = await FakeSlack.start();
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
    bot = new BotService({
      db: db.db,
      config: testConfig({ arena: { window_hours: 1, ask: { progress_every_ms: 0 } } }),
      platforms: [adapter],
      logger: silentLogger,
      clock: new ManualClock(new Date('2026-11-30T12:00:00Z')),
      voterSecret: SECRET,
      loopIntervalMs: 0,
      live: { models: await models.live(NAMES) },
    });
    await bot.start();
    url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
  });
  afterEach(async () => {
    await bot.stop();
    await fake.close();
    await models.close();
    await db.destroy();
  });

  /** Every text and block Slack was sent (posts, updates, ephemerals, responses), as one string. */
  const outgoing = () =>
    JSON.stringify([
      ...['chat.postMessage', 'chat.update', 'chat.postEphemeral'].flatMap((m) =>
        fake.callsOf(m).map((c) => [c.args.text, c.args.blocks]),
      ),
      fake.responses.map((r) => r.body),
    ]);
  const userTexts = () =>
    models.calls.flatMap((c) => c.messages.filter((x) => x.role === 'user').map((x) => x.content));

  it('/ask Is 3 < 5 && 5 > 4: the models receive it as typed; it is shown escaped once', async () => {
    const fields = fake.commandFields({
      command: '/ask',
      text: 'Is 3 < 5 && 5 > 4',
      user: 'U0000ALICE',
    });
    expect(fields.text).toBe('Is 3 &lt; 5 &amp;&amp; 5 &gt; 4');
    expect((await fake.deliverCommandHttp(url, fields)).status).toBe(200);
    const battle = await until(
      async () => (await getBattle(db.db, 1))?.status === 'open' && getBattle(db.db, 1),
      'battle open',
      60_000,
    );
    expect(userTexts()).toEqual(['Is 3 < 5 && 5 > 4', 'Is 3 < 5 && 5 > 4']);
    expect((await listTurns(db.db, 1))[0]?.prompt).toBe('Is 3 < 5 && 5 > 4');
    const post = JSON.stringify(
      fake.callsOf('chat.postMessage').find((c) => c.args.channel === S_CHANNEL && c.args.blocks)
        ?.args,
    );
    expect(post).toContain('Is 3 &lt; 5 &amp;&amp; 5 &gt; 4');
    expect(post).not.toContain('&amp;lt;');
    // A thread follow-up is decoded the same way.
    const reply = fake.threadMessage({
      channel: S_CHANNEL,
      threadTs: battle.messageId as string,
      user: 'U0000BOB',
      text: 'And x > 2 & y < 1?',
    });
    expect((await fake.deliverEventHttp(url, reply)).status).toBe(200);
    await until(async () => (await listTurns(db.db, 1)).length === 2, 'second turn', 60_000);
    expect(userTexts()).toContain('And x > 2 & y < 1?');
  });

  it('mention markup in user text reaches Slack neutralised', async () => {
    const fields = fake.commandFields({ command: '/ask', text: 'x', user: 'U0000ALICE' });
    // What Slack sends for a person who typed the mentions: its markup, not escaped.
    fields.text = `Tell ${PINGS.join(' ')} about tides`;
    await fake.deliverCommandHttp(url, fields);
    await until(async () => (await getBattle(db.db, 1))?.status === 'open', 'battle open', 60_000);
    // And in a command that echoes what it was given in its notification text.
    const lb = fake.commandFields({ command: '/leaderboard', text: 'x', user: 'U0000ALICE' });
    lb.text = 'model <!channel>';
    await fake.deliverCommandHttp(url, lb);
    await until(
      () => fake.responsesFor(lb).length > 0 || fake.callsOf('chat.postMessage').length > 2,
      'leaderboard answer',
      60_000,
    );
    const out = outgoing();
    for (const p of PINGS) expect(out).not.toContain(p);
    expect(out).toContain('&lt;!channel&gt;');
    const texts = [
      ...fake.callsOf('chat.postMessage').map((c) => String(c.args.text)),
      ...fake.responsesFor(lb).map((r) => String(r.text)),
    ];
    expect(texts.some((t) => t.includes('&lt;!channel&gt;'))).toBe(true);
  });
});
