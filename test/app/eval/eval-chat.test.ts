/**
 * `/eval` in chat, through the terminal adapter, the real discord.js against the fake Discord and the real Bolt
 * against the fake Slack: a non-maintainer is refused politely; a typo in the suite name lists the valid names;
 * a maintainer's run is queued at once, executed by the in-process worker against the fake OpenAI server, its
 * progress message is posted and edited (never more often than the edit interval, only when its text changes),
 * and the summary follows (per dataset ability, score /10, n, failures; tokens and wall time).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import type { ChatPlatform } from '../../../src/chat/port.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { InProcessQueue } from '../../../src/jobs/in-process.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import {
  CHANNEL_ID as D_CHANNEL,
  FakeDiscord,
  GUILD_ID,
  MAINTAINER_ROLE_ID,
} from '../../fakes/discord.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import {
  type FixtureItem,
  miniEvalConfig,
  tagOf,
  writeSmokeFixture,
} from '../../helpers/eval-fixtures.ts';
import { SECRET, terminal, terminalShell, testConfig, until } from '../arena/helpers.ts';

const EDIT_MS = 5_000;

describe.each(flowBackends())('/eval in chat (%s)', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let evals: EvalService;
  let queue: InProcessQueue;
  let release: () => void = () => {};

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-eval-chat-'));
    const fx = writeSmokeFixture(dir, { c3: 2, ocnli: 2, cmrc: 2 }, 'mini');
    items = fx.items;
    fake = await startFakeOpenAi();
    const models = modelsFileSchema.parse({
      models: ['discord', 'slack', 'shell'].map((p) => ({
        name: `m-${p}`,
        provider: 'openai',
        base_url: fake.baseUrl,
        model: `fake-${p}`,
        max_concurrency: 2,
      })),
    }).models as ModelConfig[];
    queue = new InProcessQueue({ logger: silentLogger });
    await queue.start();
    evals = new EvalService({
      db: d.db,
      logger: silentLogger,
      queue,
      config: miniEvalConfig(models, fx.suite, dir),
    });
    await evals.startWorker();
  });
  afterAll(async () => {
    release();
    evals?.stopWorker();
    await queue?.stop();
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Answers the first two items at once and holds the others until `release()`. */
  function gateAnswers(): void {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    release = open;
    let n = 0;
    fake.setAnswer(async (call) => {
      if (n++ >= 2) await gate;
      return items.get(tagOf(call))?.right ?? 'x';
    });
  }

  function bot(platform: ChatPlatform, clock: ManualClock, config = testConfig()): BotService {
    return new BotService({
      db: d.db,
      config,
      platforms: [platform],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      evals,
      evalEditEveryMs: EDIT_MS,
    });
  }

  /**
   * The shared scenario: start a run, see the first progress message, check the throttle, release the model, see
   * the final edit and the summary. `texts()` returns everything the platform shows in the channel, in order.
   */
  async function scenario(
    b: BotService,
    clock: ManualClock,
    model: string,
    start: () => Promise<void>,
    channel: { posts: () => string[]; edits: () => string[] },
  ) {
    gateAnswers();
    await start();
    const run = await until(
      async () => (await evals.status()).find((r) => r.model === model),
      'run',
    );
    await until(async () => {
      clock.advance(EDIT_MS);
      await b.evalReporter?.tick();
      return [...channel.posts(), ...channel.edits()].some((t) => /2\/6 items/.test(t));
    }, 'progress message with 2/6');
    // Within the edit interval nothing is edited, even though the text would not change anyway.
    const editsBefore = channel.edits().length;
    await b.evalReporter?.tick();
    expect(channel.edits().length).toBe(editsBefore);
    release();
    await until(async () => (await getRun(d.db, run.id))?.status === 'succeeded', 'run finished');
    clock.advance(EDIT_MS);
    await b.evalReporter?.tick();
    await until(() => channel.edits().some((t) => /6\/6 items/.test(t)), 'final progress edit');
    await until(() => channel.posts().some((t) => /Run #\d+: m-\w+ on mini/.test(t)), 'summary');
    const summary = channel.posts().find((t) => /Run #\d+: m-\w+ on mini/.test(t)) as string;
    for (const ds of ['c3', 'ocnli', 'cmrc2018']) expect(summary).toContain(ds);
    expect(summary).toContain('10.00');
    expect(summary).toMatch(/Tokens: \d+ prompt \+ \d+ completion; wall time/);
    // The summary is posted once, whatever more ticks happen.
    await b.evalReporter?.tick();
    expect(channel.posts().filter((t) => /Run #\d+: m-\w+ on mini/.test(t))).toHaveLength(1);
  }

  it('through the terminal', async () => {
    const term = terminal();
    const clock = new ManualClock(new Date());
    const config = testConfig();
    const shell = terminalShell(term, config, { sessionTag: 'e1', clock });
    const b = bot(shell, clock, config);
    await b.start();
    try {
      await shell.say('as bob /eval model:m-shell suite:mini');
      expect(term.text()).toContain('only maintainers can run evaluations');
      await shell.say('/eval model:m-shell suite:mini-typo');
      expect(term.text()).toContain('Unknown suite "mini-typo". Valid suites: mini.');
      const posts = () =>
        shell.posted.map(
          (p) =>
            `${p.content.text} ${p.content.title ?? ''} ${JSON.stringify(p.content.table ?? '')} ${p.content.footer ?? ''}`,
        );
      await scenario(b, clock, 'm-shell', () => shell.say('/eval m-shell mini'), {
        posts: () => [
          ...posts(),
          ...term
            .text()
            .split('\n')
            .filter((l) => l.includes('items')),
        ],
        edits: () =>
          term
            .text()
            .split('\n')
            .filter((l) => /edited\]/.test(l)),
      });
      expect(term.text()).toMatch(/Evaluation run #\d+ queued: m-shell on mini/);
      await shell.say('/eval status');
      expect(term.text()).toMatch(/m-shell\s+\|?\s*mini/);
    } finally {
      await b.stop();
    }
  });

  it('through the fake Discord (real discord.js)', async () => {
    const discord = await FakeDiscord.start();
    const clock = new ManualClock(new Date());
    const config = testConfig({
      platforms: { discord: { guild_ids: [GUILD_ID], maintainer_role_ids: [MAINTAINER_ROLE_ID] } },
    });
    const adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: discord.restApi,
      logger: silentLogger,
      maintainerRoleIds: [MAINTAINER_ROLE_ID],
      restRetries: 0,
      restTimeoutMs: 60_000,
    });
    const b = bot(adapter, clock, config);
    await b.start();
    try {
      const responses = (id: string) => JSON.stringify(discord.responsesFor(id));
      const refused = discord.slashCommand(
        'eval',
        { model: 'm-discord', suite: 'mini' },
        { id: '1300000000000000009', roles: [] },
      );
      await until(() => /only .*maintainers/i.test(responses(refused)), 'refusal');
      const typo = discord.slashCommand(
        'eval',
        { model: 'm-discord', suite: 'mnii' },
        { id: '1300000000000000001', roles: [MAINTAINER_ROLE_ID] },
      );
      await until(() => responses(typo).includes('Valid suites: mini.'), 'valid suites listed');
      const channelMessages = () =>
        [...discord.messages.values()].filter((m) => m.channel_id === D_CHANNEL);
      const show = (m: { content: string; embeds: unknown[] }) =>
        `${m.content} ${JSON.stringify(m.embeds)}`;
      let ok = '';
      await scenario(
        b,
        clock,
        'm-discord',
        async () => {
          ok = discord.slashCommand(
            'eval',
            { model: 'm-discord', suite: 'mini' },
            { id: '1300000000000000001', roles: [MAINTAINER_ROLE_ID] },
          );
          await until(
            () => /queued: m-discord on mini/.test(responses(ok)),
            'deferred reply edited',
          );
        },
        {
          posts: () => channelMessages().map(show),
          edits: () =>
            channelMessages()
              .filter((m) => m.edited_timestamp !== null)
              .map(show),
        },
      );
    } finally {
      await b.stop();
      await discord.close();
    }
  });

  it('through the fake Slack (real Bolt)', async () => {
    const slack = await FakeSlack.start();
    const clock = new ManualClock(new Date());
    const config = testConfig({ platforms: { slack: { maintainer_user_ids: ['U0000ADMIN'] } } });
    const adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: slack.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: slack.apiUrl,
      logger: silentLogger,
      apiRetries: 0,
      apiTimeoutMs: 60_000,
    });
    const b = bot(adapter, clock, config);
    await b.start();
    try {
      const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
      const refusedFields = slack.commandFields({
        command: '/eval',
        text: 'model:m-slack suite:mini',
        user: 'U0000BOB',
      });
      expect((await slack.deliverCommandHttp(url, refusedFields)).status).toBe(200);
      await until(
        () => /only maintainers/.test(JSON.stringify(slack.responsesFor(refusedFields))),
        'refusal',
      );
      const typoFields = slack.commandFields({
        command: '/eval',
        text: 'model=m-slack suite=mini2',
        user: 'U0000ADMIN',
      });
      await slack.deliverCommandHttp(url, typoFields);
      await until(
        () => JSON.stringify(slack.responsesFor(typoFields)).includes('Valid suites: mini.'),
        'valid suites',
      );
      const show = (args: Record<string, unknown>) =>
        `${String(args.text)} ${JSON.stringify(args.blocks ?? '')}`;
      await scenario(
        b,
        clock,
        'm-slack',
        async () => {
          const fields = slack.commandFields({
            command: '/eval',
            text: 'model:m-slack suite:mini',
            user: 'U0000ADMIN',
          });
          const res = await slack.deliverCommandHttp(url, fields);
          expect(res.status).toBe(200); // acked at once (Slack's 3 s)
        },
        {
          posts: () =>
            slack
              .callsOf('chat.postMessage')
              .filter((c) => c.args.channel === S_CHANNEL)
              .map((c) => show(c.args)),
          edits: () => slack.callsOf('chat.update').map((c) => show(c.args)),
        },
      );
    } finally {
      await b.stop();
      await slack.close();
    }
  });
});
