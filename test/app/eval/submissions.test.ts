/**
 * Model submissions end to end (eval/submissions.ts, `/submit`, `zhujiu submissions`): through the terminal and
 * the real Bolt against the fake Slack, a person submits an endpoint (the fake OpenAI server), bad inputs are
 * refused with the reason, a maintainer lists and approves it (its key named by variable, never in chat), the run
 * of the configured suite is queued and worked, the submitter is told (only them), and the model shows on the
 * board after its run; a rejection tells the submitter why; a new eval service (a restart) still knows the model.
 * On the command line: list, approve and reject with `--json`, refusals with their exit codes, and the submitter
 * told by the bot's next tick.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import type { ChatPlatform } from '../../../src/chat/port.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { type LoadedConfig, loadConfig } from '../../../src/config/loader.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { SubmissionService } from '../../../src/eval/submissions.ts';
import { InProcessQueue } from '../../../src/jobs/in-process.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { getSubmission } from '../../../src/storage/submissions.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { FakeSlack, CHANNEL_ID as S_CHANNEL } from '../../fakes/slack.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';
import { SECRET, terminal, terminalShell, testConfig, until } from '../arena/helpers.ts';

const KEY = 'sk-submitted-0123';
/** The chat's configuration: approvals queue mini (zhujiu is not configured here). */
const SUBMIT = { submissions: { suites: ['zhujiu', 'mini'] } };

describe.each(flowBackends())('model submissions (%s)', (backend) => {
  let d: TestDb;
  let dir: string;
  let env: Record<string, string>;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let cfg: LoadedConfig;
  let evals: EvalService;
  let queue: InProcessQueue;
  let board: LeaderboardService;
  const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-submit-'));
    fake = await startFakeOpenAi();
    const fx = writeSmokeFixture(join(dir, 'datasets'), { c3: 1, ocnli: 1, cmrc: 1 }, 'mini');
    items = fx.items;
    fake.setAnswer((call) => items.get(tagOf(call))?.right ?? 'x');
    mkdirSync(join(dir, 'config', 'suites'), { recursive: true });
    writeFileSync(join(dir, 'config', 'suites', 'mini.yaml'), fx.suiteYaml);
    // zhujiu is not configured here: approvals queue mini, the listed suite that exists.
    writeFileSync(join(dir, 'config', 'default.yaml'), 'submissions:\n  suites: [zhujiu, mini]\n');
    writeFileSync(
      join(dir, 'config', 'models.yaml'),
      `models:\n  - name: configured-m\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: c\n`,
    );
    env = {
      ZHUJIU_CONFIG_DIR: join(dir, 'config'),
      ZHUJIU_DATASETS_DIR: join(dir, 'datasets'),
      ACME_KEY: KEY,
      EMPTY_KEY: ' ',
    };
    cfg = loadConfig({ env });
    queue = new InProcessQueue({ logger: silentLogger });
    await queue.start();
    evals = new EvalService({ db: d.db, logger: silentLogger, queue, config: cfg });
    await evals.startWorker();
    board = new LeaderboardService({
      db: d.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 20, seed: 1 },
      compute: 'inline',
      inlineChart: false,
    });
  });
  afterAll(async () => {
    evals?.stopWorker();
    await queue?.stop();
    await board?.close();
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const submissions = () =>
    new SubmissionService({
      db: d.db,
      logger: silentLogger,
      clock,
      evals,
      suites: cfg.app.submissions.suites,
    });

  function bot(platform: ChatPlatform, config = testConfig(SUBMIT)): BotService {
    return new BotService({
      db: d.db,
      config,
      platforms: [platform],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      evals,
      leaderboard: board,
    });
  }

  /** Waits for run `id` to succeed, then rebuilds the board and returns its model names. */
  async function boardAfterRun(id: number): Promise<string[]> {
    await until(async () => (await getRun(d.db, id))?.status === 'succeeded', `run #${id}`);
    return (await board.refresh()).board.rows.map((r) => r.model);
  }

  const form = (name: string, url: string) =>
    `name:${name} url:${url} model:acme-7b description:A 7B chat model org:Acme Lab licence:Apache-2.0`;

  it('submit, list, approve, run, board and reject through the terminal, the fake Slack (real Bolt) and the command line', async () => {
    // Step 1: through the terminal: refusals, submit, list, approve, run, board, reject, restart
    {
      const term = terminal();
      const config = testConfig(SUBMIT);
      const shell = terminalShell(term, config, { sessionTag: 's1' });
      const b = bot(shell, config);
      await b.start();
      const said = async (line: string): Promise<string> => {
        const before = term.text().length;
        await shell.say(line);
        return term.text().slice(before);
      };
      try {
        expect(
          await said(`as bob /submit ${form('ftp-model', 'ftp://acme.example/v1')}`),
        ).toContain('base URL "ftp://acme.example/v1" is not http(s)');
        expect(await said(`as bob /submit ${form('configured-m', fake.baseUrl)}`)).toContain(
          'name "configured-m" is already a model of config/models.yaml',
        );
        expect(await said(`as bob /submit ${form('x'.repeat(201), fake.baseUrl)}`)).toContain(
          'is 201 characters long, over 200',
        );
        expect(await said('as bob /submit name:lonely')).toContain(
          'missing url, model, description, org, licence',
        );
        expect(await said(`as bob /submit ${form('Acme Chat 7B', fake.baseUrl)}`)).toMatch(
          /\(only you\) Submission #1 received: Acme Chat 7B \(acme-7b\)/,
        );
        expect(await said(`as bob /submit ${form('Acme Chat 7B', fake.baseUrl)}`)).toContain(
          'name "Acme Chat 7B" is already submitted (#1)',
        );
        expect(await said('as bob /submit approve 1')).toContain('only maintainers can approve');
        expect(await said('/submit list')).toMatch(
          /#1 .*Acme Chat 7B .*acme-7b .*Acme Lab .*Apache-2\.0 .*pending/,
        );
        // A key variable unset here refuses the approval and changes nothing.
        expect(await said('/submit approve 1 api_key_env:NOT_SET_KEY')).toContain(
          'NOT_SET_KEY is not set in this process',
        );
        expect((await getSubmission(d.db, 1))?.status).toBe('pending');
        const approved = await said('/submit approve 1 api_key_env:ACME_KEY');
        const run = Number(/Evaluation runs queued: #(\d+) \(mini\)/.exec(approved)?.[1]);
        expect(run).toBeGreaterThan(0);
        await until(
          () =>
            /\(only you, bob\) Your submission #1 \(Acme Chat 7B\) was approved/.test(term.text()),
          'notice',
        );
        expect(await boardAfterRun(run)).toContain('Acme Chat 7B');
        const asked = fake.calls.filter((c) => c.model === 'acme-7b');
        expect(asked.length).toBe(3);
        expect(asked.every((c) => c.authorization === `Bearer ${KEY}`)).toBe(true);
        // Rejected with a reason; the submitter is told it.
        expect(await said(`as bob /submit ${form('Beta', fake.baseUrl)}`)).toContain(
          'Submission #2 received',
        );
        expect(await said('/submit reject 2')).toContain('Give a reason');
        expect(await said('/submit reject 2 the endpoint is not public')).toContain(
          'Submission #2 (Beta) rejected',
        );
        await until(
          () =>
            /\(only you, bob\) Your submission #2 \(Beta\) was rejected: the endpoint is not public/.test(
              term.text(),
            ),
          'rejection notice',
        );
        expect(await said('/submit approve 2')).toContain('Submission #2 is already rejected');
        expect(await said('as bob /submit list')).toMatch(/rejected: the endpoint is not public/);
      } finally {
        await b.stop();
      }
      // A restart: a new service over the same database still runs the approved model.
      const again = new EvalService({ db: d.db, logger: silentLogger, config: cfg });
      expect(await again.modelNames()).toContain('Acme Chat 7B');
      expect((await again.openModel('Acme Chat 7B')).snapshot).toMatchObject({ model: 'acme-7b' });
    }

    // Step 2: through the fake Slack (real Bolt): the submitter is told ephemerally
    {
      const slack = await FakeSlack.start();
      const config = testConfig({
        ...SUBMIT,
        platforms: { slack: { maintainer_user_ids: ['U0000ADMIN'] } },
      });
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
      const b = bot(adapter, config);
      await b.start();
      try {
        const url = `http://127.0.0.1:${adapter.listeningPort}/slack/events`;
        const command = async (text: string, user: string): Promise<string> => {
          const fields = slack.commandFields({ command: '/submit', text, user });
          expect((await slack.deliverCommandHttp(url, fields)).status).toBe(200);
          return until(() => {
            const r = JSON.stringify(slack.responsesFor(fields));
            return r !== '[]' && r;
          }, `answer to /submit ${text}`);
        };
        expect(await command(`${form('Slack Bad', 'file:///etc/passwd')}`, 'U0000BOB')).toContain(
          'is not http(s)',
        );
        expect(await command(`${form('Acme Chat 7B', fake.baseUrl)}`, 'U0000BOB')).toContain(
          'already a model here',
        );
        expect(await command(`${form('Slack Model', fake.baseUrl)}`, 'U0000BOB')).toContain(
          'received',
        );
        expect(await command('list', 'U0000ADMIN')).toContain('Slack Model');
        // The approval is answered in the channel: the maintainers see it.
        await slack.deliverCommandHttp(
          url,
          slack.commandFields({ command: '/submit', text: 'approve 3', user: 'U0000ADMIN' }),
        );
        const approved = await until(
          () =>
            slack
              .callsOf('chat.postMessage')
              .map((c) => String(c.args.text))
              .find((t) => /Submission #3 approved/.test(t)),
          'approval in the channel',
        );
        const run = Number(/queued: #(\d+) \(mini\)/.exec(approved)?.[1]);
        const told = await until(
          () =>
            slack
              .callsOf('chat.postEphemeral')
              .find((c) => c.args.user === 'U0000BOB' && /submission #3/.test(String(c.args.text))),
          'ephemeral notice',
        );
        expect(told.args.channel).toBe(S_CHANNEL);
        expect(String(told.args.text)).toMatch(new RegExp(`was approved.*#${run} queued`));
        expect(await boardAfterRun(run)).toContain('Slack Model');
      } finally {
        await b.stop();
        await slack.close();
      }
    }

    // Step 3: on the command line: list, approve, reject with --json; the bot tells the submitter
    {
      const svc = submissions();
      const by = { platform: 'shell' as const, userId: 'carol', channelId: 'local' };
      const input = (name: string) => ({
        name,
        baseUrl: fake.baseUrl,
        model: 'cli-m',
        description: 'd',
        organisation: 'o',
        licence: 'MIT',
      });
      const four = await svc.submit(input('Cli Model'), by);
      const five = await svc.submit(input('Cli Other'), by);
      if (!four.ok || !five.ok) throw new Error('not submitted');
      const rt = await runtimeOn(d, env);
      const zhujiu = (...args: string[]) => inProcess(args, { rt, clock });

      const list = await zhujiu('submissions', 'list', '--status', 'pending', '--json');
      expect(list.code).toBe(0);
      const rows = JSON.parse(list.stdout).submissions;
      expect(rows.map((r: { id: number }) => r.id)).toEqual([five.row.id, four.row.id]);
      expect(Object.keys(rows[0])).toEqual([
        'id',
        'name',
        'base_url',
        'model',
        'description',
        'organisation',
        'licence',
        'status',
        'submitted_by',
        'submitted_at',
        'decided_by',
        'decided_at',
        'reason',
        'api_key_env',
        'runs',
      ]);
      expect(rows[0]).toMatchObject({ submitted_by: 'shell:carol', status: 'pending', runs: [] });

      const empty = await zhujiu(
        'submissions',
        'approve',
        String(four.row.id),
        '--api-key-env',
        'EMPTY_KEY',
      );
      expect(empty.code).not.toBe(0);
      expect(empty.stderr).toContain('EMPTY_KEY is set but empty');
      const ok = await zhujiu(
        'submissions',
        'approve',
        String(four.row.id),
        '--api-key-env',
        'ACME_KEY',
        '--json',
      );
      expect(ok.code).toBe(0);
      const out = JSON.parse(ok.stdout);
      expect(Object.keys(out)).toEqual(['submission', 'runs', 'refused']);
      expect(out.submission).toMatchObject({
        status: 'approved',
        decided_by: 'cli',
        api_key_env: 'ACME_KEY',
      });
      expect(out.runs).toEqual([{ suite: 'mini', run: out.submission.runs[0] }]);
      expect((await getRun(d.db, out.runs[0].run))?.status).toBe('queued');
      const twice = await zhujiu('submissions', 'approve', String(four.row.id));
      expect(twice.stderr).toContain(`Submission #${four.row.id} is already approved`);
      expect((await zhujiu('submissions', 'reject', '99', '--reason', 'x')).stderr).toContain(
        'There is no submission #99',
      );
      // Under a Chinese locale the refusals are said in Chinese.
      const zh = (...args: string[]) =>
        inProcess(args, { rt, clock, env: { LANG: 'zh_CN.UTF-8' } });
      expect((await zh('submissions', 'approve', String(four.row.id))).stderr).toBe(
        `错误 [conflict]：提交 #${four.row.id} 已经处理过了（已批准）。\n`,
      );
      expect((await zh('submissions', 'reject', '99', '--reason', 'x')).stderr).toContain(
        '错误 [not_found]：没有编号为 #99 的提交',
      );
      const rej = await zhujiu(
        'submissions',
        'reject',
        String(five.row.id),
        '--reason',
        'duplicate of Cli Model',
        '--json',
      );
      expect(JSON.parse(rej.stdout).submission).toMatchObject({
        status: 'rejected',
        reason: 'duplicate of Cli Model',
      });

      // The bot that holds the submitter's platform tells them on its next tick.
      const term = terminal();
      const config = testConfig(SUBMIT);
      const b = bot(terminalShell(term, config, { sessionTag: 's3' }), config);
      await b.start();
      try {
        await until(
          () =>
            term
              .text()
              .includes(
                `(only you, carol) Your submission #${four.row.id} (Cli Model) was approved`,
              ) && term.text().includes('was rejected: duplicate of Cli Model'),
          'both notices',
        );
        expect(await b.tellSubmitters()).toEqual([]); // told once
      } finally {
        await b.stop();
      }
    }
  });
});
