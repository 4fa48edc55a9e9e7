/**
 * Messages that name the fix on the surface they are read on (chat or command line), and views that honour their
 * flags; one case per finding of a new user's trial, numbered as found. `config check` against a data folder held by
 * another process is in test/process/storage/data-dir-lock.test.ts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOARD_ABILITIES, type BoardAbility } from '../../../src/aggregate/index.ts';
import type { AskService } from '../../../src/arena/ask.ts';
import type { ArenaService } from '../../../src/arena/service.ts';
import { createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import { parseLeaderboardArgs } from '../../../src/bot/commands/leaderboard.ts';
import type { MessageContent } from '../../../src/chat/port.ts';
import { BarLogGate, progressFormat, runEval } from '../../../src/cli/eval.ts';
import { buildProgram } from '../../../src/cli/index.ts';
import { judgeFailureLines } from '../../../src/cli/judge.ts';
import type { LoadedConfig } from '../../../src/config/loader.ts';
import { systemClock } from '../../../src/core/clock.ts';
import type { AppError } from '../../../src/core/errors.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { importGaokaoOutputs } from '../../../src/import/gaokao-outputs.ts';
import { importJudgments } from '../../../src/import/judgments.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { boardChartSpec, renderBoardSvg } from '../../../src/leaderboard/chart.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { chartsDir, openRuntime, resolveVoterSecret, voterSecretFile } from '../../../src/main.ts';
import { createRun } from '../../../src/storage/eval-runs.ts';
import { itemLabel } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { testConfig } from '../../app/arena/helpers.ts';
import { freshDb } from '../../helpers/db.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-review-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('#13 empty view names say how to name one, in the form of the surface', () => {
  it('chat and CLI forms', () => {
    const chat = parseLeaderboardArgs('ability', '');
    expect(chat).toEqual({
      ok: false,
      reason: expect.stringMatching(
        /^Name the ability: `\/leaderboard ability NAME`, one of: knowledge, .*\.$/,
      ),
    });
    const cli = parseLeaderboardArgs('ability', undefined, 'cli');
    expect(cli.ok ? '' : cli.reason).toMatch(
      /^Name the ability: `zhujiu leaderboard --view ability NAME`, one of: knowledge, /,
    );
    const method = parseLeaderboardArgs('method', '');
    expect(method.ok ? '' : method.reason).toMatch(
      /^Name the method: `\/leaderboard method NAME`, one of: metrics, scoring, comparative\.$/,
    );
    // #14: the model view from the CLI gives the CLI form.
    const model = parseLeaderboardArgs('model', '', 'cli');
    expect(model.ok ? '' : model.reason).toBe(
      'Name the model: `zhujiu leaderboard --view model NAME`.',
    );
    const overall = parseLeaderboardArgs('overall', 'x', 'cli');
    expect(overall.ok ? '' : overall.reason).toContain('`zhujiu leaderboard --view model NAME`');
    // An unknown name still lists the valid ones.
    const bad = parseLeaderboardArgs('ability', 'cooking');
    expect(bad.ok ? '' : bad.reason).toMatch(/^Unknown ability "cooking"\. Use one of: /);
  });
});

describe('#33 every leaderboard view honours --json and --png', () => {
  it('model card, ability and method JSON; the chart path goes to stderr with --json', async () => {
    const d = await freshDb('pglite');
    const f = join(tmp, 'pub.jsonl');
    writeFileSync(
      f,
      `${[
        '{"model_a":"aa","model_b":"bb","winner":"model_a"}',
        '{"model_a":"aa","model_b":"bb","winner":"model_b"}',
        '{"model_a":"aa","model_b":"bb","winner":"model_a"}',
      ].join('\n')}\n`,
    );
    await importBattles(d.db, { file: f, source: 'pub', ability: 'reasoning' });
    const rt = await runtimeOn(d, { ZHUJIU_CONFIG_DIR: tmp });
    const zhujiu = (...args: string[]) => inProcess(args, { rt });
    {
      const base = ['leaderboard', '--source', 'pub'];
      const noName = await zhujiu(...base, '--view', 'model');
      expect(noName.code).toBe(2);
      expect(noName.stderr).toContain('`zhujiu leaderboard --view model NAME`');
      // A model no configuration or stored data knows is a usage mistake (exit 2); the suggested command keeps
      // --source. One that is stored but not on this board is exit 1.
      const unknown = await zhujiu(...base, '--view', 'model', 'cc');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain(
        'no model "cc" on the board; models: aa, bb; pick one: `zhujiu leaderboard --source pub --view model NAME`',
      );
      const plain = await zhujiu('leaderboard', '--view', 'model', 'aa');
      expect(plain.code).toBe(1);
      expect(plain.stderr).toContain('models: (none)');
      expect(plain.stderr).toContain('on the board with `--source NAME`');
      // --view takes a view, nothing else: a bad value is a usage mistake naming the flag, the value and the views.
      const badView = await zhujiu(...base, '--view', 'bogus');
      expect(badView.code).toBe(2);
      expect(badView.stderr).toBe(
        "error: option '--view <view>' argument 'bogus' is invalid. Allowed choices are overall, ability, method, model, style.\n(run with --help for usage)\n",
      );
      // A bare NAME that is no ability or method is read as a model name: the error says what --view takes.
      const bogus = await zhujiu(...base, 'bogus');
      expect(bogus.code).toBe(2);
      expect(bogus.stderr).toContain('no model "bogus" on the board');
      expect(bogus.stderr).toContain(
        '`--view` takes overall, ability NAME, method NAME or model NAME (a bare name is an ability, a method or else a model)',
      );
      const emptyPng = join(tmp, 'empty.png');
      const empty = await zhujiu('leaderboard', '--png', emptyPng);
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain(
        `--png ${emptyPng}: the board is empty, so there is no chart to write`,
      );
      expect(existsSync(emptyPng)).toBe(false);

      const card = await zhujiu(...base, '--view', 'model', 'aa', '--json');
      expect(card.code, card.stderr).toBe(0);
      const j = JSON.parse(card.stdout);
      expect(Object.keys(j)).toEqual([
        'model',
        'sv_rate',
        'record',
        'opponents',
        'datasets',
        'scoring_judge',
        'robustness',
      ]);
      expect(j.model.model).toBe('aa');
      expect(j.record).toEqual({ wins: 2, losses: 1, ties: 0 });
      expect(j.opponents).toEqual([
        { opponent: 'bb', wins: 2, losses: 1, ties: 0, win_rate: 2 / 3 },
      ]);

      const ab = JSON.parse(
        (await zhujiu(...base, '--view', 'ability', 'reasoning', '--json')).stdout,
      );
      expect(ab.ability).toBe('reasoning');
      expect(ab.models.map((m: { model: string }) => m.model).sort()).toEqual(['aa', 'bb']);
      const me = JSON.parse((await zhujiu(...base, 'comparative', '--json')).stdout);
      expect(me.method).toBe('comparative');
      const all = JSON.parse((await zhujiu(...base, '--json')).stdout);
      expect(Object.keys(all)).toEqual(['models', 'scoring_judge', 'rank_by']);
      // Rows with no score in any method (3 votes each) are left out of the text and counted; --all shows them.
      const text = await zhujiu(...base);
      expect(text.stdout).toContain(
        '2 models with no score in any method left out (`--all` shows them)',
      );
      expect(text.stdout).not.toMatch(/^\s+—\s+aa\s/m);
      const everyRow = await zhujiu(...base, '--all');
      expect(everyRow.stdout).toMatch(/^\s+—\s+aa\s/m);
      expect(everyRow.stdout).not.toContain('left out');
      expect(all.models.map((m: { unranked_reason: string }) => m.unranked_reason)).toEqual([
        'fewer than 20 votes in every ability',
        'fewer than 20 votes in every ability',
      ]);

      const png = join(tmp, 'card.png');
      const both = await zhujiu(...base, '--view', 'model', 'bb', '--json', '--png', png);
      expect(JSON.parse(both.stdout).model.model).toBe('bb');
      expect(both.stderr).toBe(
        `chart written to ${png} (the chart shows the whole board, whatever the view)\n`,
      );
      const table = await zhujiu(...base, '--view', 'ability', 'reasoning', '--png', png);
      expect(table.stdout).toMatch(
        /chart written to .*card\.png \(the chart shows the whole board/,
      );
    }
    await d.destroy();
  });
});

describe('#14 the CLI gives CLI forms: the eval conflict, a judge-less scoring suite, and a CLI way to cancel', () => {
  it('eval --cancel RUN cancels; the conflict and judge.model refusals name the zhujiu command', async () => {
    const d = await freshDb('pglite');
    await d.close();
    const env = { DATABASE_URL: '', ZHUJIU_DATA_DIR: d.dataDir! };
    {
      // The run is created after the runtime opened the embedded folder (as this process's worker would hold it):
      // one a process left in the folder before is taken back when the next one opens it (main.ts).
      const rt = await openRuntime({ quiet: true, logger: silentLogger, env });
      const busy = await (async () => {
        try {
          const ids = await ensureModels(rt.db.db, ['rec'], 'recorded');
          await createRun(rt.db.db, { modelId: ids.get('rec') as number, suite: 'smoke' });
          await runEval({ out: () => {}, err: () => {} }, { model: 'rec', suite: 'smoke' }, { rt });
          return undefined;
        } catch (err) {
          return err as AppError;
        } finally {
          await rt.close();
        }
      })();
      expect(busy?.code).toBe('conflict');
      expect(busy?.message).toMatch(
        /^run #1 of rec on smoke is queued in another process \(0\/0 items\)\. Wait for it, or cancel it: `zhujiu eval --cancel 1`\.$/,
      );
      expect(busy?.message).not.toContain('/eval');
      // The next commands run on one runtime opened after it, as the next process would open the folder.
      const next = await openRuntime({ quiet: true, logger: silentLogger, env });
      const zhujiu = (...args: string[]) => inProcess(args, { rt: next });
      const judge = await zhujiu('eval', '--model', 'rec', '--suite', 'zhujiu-scoring');
      expect(judge.stderr).toContain('set `judge.model` in config/default.yaml');
      expect(judge.stderr).toContain('then run `zhujiu eval` again.');
      expect(judge.stderr).not.toContain('/eval');

      const cancel = await zhujiu('eval', '--cancel', '1');
      expect(cancel).toEqual({
        code: 0,
        stdout: 'Run #1 (rec on smoke) cancelled at 0/0 items.\n',
        stderr: '',
      });
      expect((await zhujiu('eval', '--cancel', '1')).stderr).toBe(
        'error [conflict]: Run #1 has already ended (cancelled).\n',
      );
      expect((await zhujiu('eval', '--cancel', '7')).stderr).toBe(
        'error [not_found]: there is no run #7; recent runs: #1 (rec on smoke, cancelled)\n',
      );
      // In Chinese: the status in words.
      const zh = await inProcess(['eval', '--cancel', '7'], {
        rt: next,
        env: { LANG: 'zh_CN.UTF-8' },
      });
      expect(zh.stderr).toBe(
        '错误 [not_found]：没有编号为 #7 的评测任务；最近的评测任务：#1（rec 在 smoke 上，已取消）\n',
      );
      const usage = await zhujiu('eval', '--model', 'rec');
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("error: required option '--suite <name>' not specified");
      expect((await zhujiu('eval', '--cancel', '1', '--model', 'rec')).code).toBe(2);
      await next.close();
    }
    await d.destroy();
  });
});

describe('#16 failures name items by dataset and key, and count the items sharing a cause', () => {
  it('judge run groups its failures by cause', () => {
    const f = (itemId: number) => ({
      itemId,
      code: 'http_error',
      message: 'HTTP 500 from 127.0.0.1:9 after 3 attempts: boom',
      attempts: 3,
    });
    const labels = new Map([
      [2656, itemLabel('flames', 'q-17', '怎样才能\n合法地赚钱？')],
      [2657, itemLabel('flames', 'q-18', 'x'.repeat(50))],
    ]);
    expect(judgeFailureLines([f(2656), f(2657), f(2658)], labels)).toEqual([
      `3 items × http_error after 3 attempts: HTTP 500 from 127.0.0.1:9 after 3 attempts: boom; e.g. flames "q-17" ("怎样才能 合法地赚钱？"), flames "q-18" ("${'x'.repeat(40)}…")`,
    ]);
    expect(judgeFailureLines([f(2656)], labels)).toEqual([
      '1 item × http_error after 3 attempts: HTTP 500 from 127.0.0.1:9 after 3 attempts: boom; item flames "q-17" ("怎样才能 合法地赚钱？")',
    ]);
    // In Chinese the items are named with full-width brackets and quotes (i18n/quote.ts itemLabelText).
    expect(judgeFailureLines([f(2656), f(2658)], labels, 'zh-CN')).toEqual([
      '2 道题 × http_error（尝试 3 次后）：尝试 3 次后 127.0.0.1:9 仍返回 HTTP 500：boom；题目 flames “q-17”（“怎样才能 合法地赚钱？”）、编号 2658',
    ]);
  });
});

describe('#27 the eval progress bar: never a full bar at 0/0, and logs never overwrite it', () => {
  it('reads "preparing…" until the total is known', async () => {
    const { Presets } = await import('cli-progress');
    const f = await progressFormat(7);
    const opts = {
      ...Presets.shades_classic,
      barsize: 10,
      barCompleteString: '#'.repeat(10),
      barIncompleteString: '-'.repeat(10),
      barGlue: '',
      autopadding: false,
      autopaddingChar: ' ',
    };
    const params = {
      progress: 1,
      eta: 0,
      startTime: Date.now(),
      stopTime: null,
      total: 0,
      value: 0,
      maxWidth: 80,
    };
    expect(f(opts, params, { failed: 0 })).toBe('run #7 preparing… (loading the datasets)');
    expect(f(opts, { ...params, total: 20, value: 5, progress: 0.25 }, { failed: 1 })).toMatch(
      /^run #7 \[###-------\] 5\/20 items \| 1 failed \| /,
    );
    // The time left is ours (cli/eval etaText), rounded as a whole: cli-progress printed 119 s as 1m60s.
    expect(
      f(opts, { ...params, total: 20, value: 5, progress: 0.25, eta: 119 }, { failed: 1 }),
    ).toMatch(/ \| 2m00s left$/);
    const zh = await progressFormat(7, 'zh-CN');
    expect(
      zh(opts, { ...params, total: 20, value: 5, progress: 0.25, eta: 119 }, { failed: 1 }),
    ).toMatch(/剩余 2 分 00 秒$/);
  });

  it('clears the bar before a log line, redraws it after, and keeps per-request failures for the summary', () => {
    const screen: string[] = [];
    const stream = { write: (s: string) => screen.push(`stream:${JSON.stringify(s)}`) };
    const gate = new BarLogGate(stream as unknown as NodeJS.WritableStream, true);
    const dest = { write: (s: string) => screen.push(`log:${s}`), flushSync: () => undefined };
    const w = gate.wrap(dest, true);
    w.write('WARN: before the bar\n');
    gate.bar = { render: (force?: boolean) => screen.push(`render:${force}`) };
    w.write('WARN: request failed: cannot reach 127.0.0.1:9 after 3 attempts (Connection error)\n');
    w.write('ERROR: run cannot start\n');
    expect(screen).toEqual([
      'log:WARN: before the bar\n',
      'stream:"\\r\\u001b[2K"',
      'log:ERROR: run cannot start\n',
      'render:true',
    ]);
    expect(gate.held).toBe(1);
    expect(typeof w.flushSync).toBe('function');
    // Logs to a file are left alone.
    expect(gate.wrap(dest, false)).toBe(dest);
  });
});

describe('#17 a folder or a file of the other format names the right --format', () => {
  it('import outputs and import judgments', async () => {
    const d = await freshDb('pglite');
    try {
      const gk = join(tmp, 'gaokao-results');
      mkdirSync(gk, { recursive: true });
      writeFileSync(
        join(gk, 'm_2010-2022_Physics_MCQs.json'),
        '{"keyword":"2010-2022_Physics_MCQs","model_name":"m","example":[]}',
      );
      await expect(importOutputs(d.db, { file: gk, model: 'm' })).rejects.toThrow(
        `${gk}: a folder, not a file; it holds 1 GAOKAO-Bench objective result files (model answers, not judgments) (m_2010-2022_Physics_MCQs.json): \`zhujiu import outputs ${gk} --format gaokao --model m\``,
      );
      await expect(
        importGaokaoOutputs(d.db, { dir: join(gk, 'm_2010-2022_Physics_MCQs.json'), model: 'm' }),
      ).rejects.toThrow(
        `a file, not a folder; --format gaokao reads a GAOKAO-Bench result folder (one JSON file per keyword); this file is GAOKAO-Bench objective result files (model answers, not judgments): \`zhujiu import outputs ${gk} --format gaokao --model m\``,
      );
      const ann = join(tmp, 'annotations_gpt4');
      mkdirSync(ann, { recursive: true });
      writeFileSync(
        join(ann, 'claude-2.jsonl'),
        '{"instruction":"q","output_1":"a","output_2":"b","generator_1":"x","generator_2":"claude-2","preference":2}\n',
      );
      await expect(
        importJudgments(d.db, { path: ann, format: 'gaokao', judge: 'gpt-4' }),
      ).rejects.toThrow(
        `${ann}: no *.json files of this format in this folder, but 1 AlpacaEval annotations (claude-2.jsonl): \`zhujiu import judgments ${join(ann, 'claude-2.jsonl')} --format alpaca_eval --judge NAME\``,
      );
      // An objective result folder is model answers, not judgments: the hint is import outputs, not --format gaokao.
      await expect(
        importJudgments(d.db, { path: gk, format: 'alpaca_eval', judge: 'gpt-4' }),
      ).rejects.toThrow(
        `${gk}: no *.jsonl files of this format in this folder, but 1 GAOKAO-Bench objective result files (model answers, not judgments) (m_2010-2022_Physics_MCQs.json): \`zhujiu import outputs ${gk} --format gaokao --model NAME\``,
      );
      // AlpacaEval's model_outputs folder: model outputs, never "--format gaokao" (which would fail on it too).
      const mo = join(tmp, 'alpaca-results', 'claude-2');
      mkdirSync(mo, { recursive: true });
      writeFileSync(
        join(mo, 'model_outputs.json'),
        '[{"instruction":"q","output":"a","generator":"claude-2"}]',
      );
      const moFile = join(mo, 'model_outputs.json');
      await expect(
        importJudgments(d.db, { path: mo, format: 'alpaca_eval', judge: 'gpt-4' }),
      ).rejects.toThrow(
        `${mo}: no *.jsonl files of this format in this folder, but 1 AlpacaEval model outputs (not judgments) (model_outputs.json): \`zhujiu import outputs ${moFile} --model NAME\``,
      );
      await expect(importOutputs(d.db, { file: mo, model: 'claude-2' })).rejects.toThrow(
        `${mo}: a folder, not a file; it holds 1 AlpacaEval model outputs (not judgments) (model_outputs.json): \`zhujiu import outputs ${moFile} --model claude-2\``,
      );
      // The file itself, given to either judgments format, names the command that reads it.
      for (const format of ['alpaca_eval', 'gaokao'] as const) {
        await expect(
          importJudgments(d.db, { path: moFile, format, judge: 'gpt-4' }),
        ).rejects.toThrow(
          `${moFile}: this looks like AlpacaEval model outputs, not --format ${format} judgments; import it with \`zhujiu import outputs ${moFile} --model NAME\``,
        );
      }
    } finally {
      await d.destroy();
    }
  });
});

describe('#9 README truth: every command and every shipped suite is in its table', () => {
  it('the command table names each command; the suites table each config/suites/*.yaml', async () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| command | what it does |'));
    const rows = table.slice(0, table.indexOf('\n\n'));
    const program = buildProgram({ out: () => {}, err: () => {} }, { env: {} });
    const names = program.commands.flatMap((c) =>
      c.commands.length > 0 ? c.commands.map((s) => `${c.name()} ${s.name()}`) : [c.name()],
    );
    for (const n of names) expect(rows, n).toContain(`| \`${n}`);
    const suites = readdirSync(join(PROJECT_ROOT, 'config', 'suites'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/u, ''));
    const suiteTable = readme.slice(readme.indexOf('| suite | what |'));
    const suiteRows = suiteTable.slice(0, suiteTable.indexOf('\n\n'));
    for (const s of suites) expect(suiteRows, s).toContain(`| \`${s}\` |`);
  });
});

describe('#6 /models lists only the models that can battle; other names apart', () => {
  it('an endpoint with no answers and no arena: true is named apart', async () => {
    const d = await freshDb('pglite');
    try {
      const f = join(tmp, 'rec.jsonl');
      writeFileSync(f, '{"item":"q1","prompt":"p1","output":"a1"}\n');
      await importOutputs(d.db, { file: f, model: 'rec', format: 'jsonl' });
      await ensureModels(d.db, ['deady', 'erry'], 'openai');
      const config = testConfig();
      const leaderboard = new LeaderboardService({
        db: d.db,
        clock: systemClock,
        logger: silentLogger,
        aggregation: config.aggregation,
        includeSources: [],
        compute: 'inline',
        inlineChart: false,
      });
      const handler = createCommandHandler({
        db: d.db,
        arena: {} as ArenaService,
        config,
        logger: silentLogger,
        leaderboard,
        ask: { modelNames: ['livey'] } as unknown as AskService,
      });
      const replies: MessageContent[] = [];
      await handler({
        platform: 'shell',
        eventId: 'e-models',
        name: 'models',
        args: {},
        text: '',
        user: { id: 'u1', roles: [] },
        channelId: 'terminal',
        reply: async (c) => {
          replies.push(c);
        },
      });
      await leaderboard.close();
      expect(replies[0]?.text).toBe('2 models can battle');
      expect(replies[0]?.table?.rows).toEqual([
        ['livey', 'openai, live', '0'],
        ['rec', 'recorded', '1'],
      ]);
      expect(replies[0]?.footer).toBe(
        '2 more models cannot battle yet (deady, erry): no stored answers, and not `arena: true` in ' +
          'config/models.yaml (set it for /ask, or run an evaluation to store answers).',
      );
    } finally {
      await d.destroy();
    }
  });
});

describe('#30 the chart legend is the score; files the app writes live beside the data folder', () => {
  it('the colour legend reads "score (0–10)"', async () => {
    const rows = [
      {
        model: 'm',
        rank: 1,
        final: 5,
        lo: 4,
        hi: 6,
        abilities: Object.fromEntries(BOARD_ABILITIES.map((a) => [a, 5])) as Record<
          BoardAbility,
          number
        >,
      },
    ];
    expect(JSON.stringify(boardChartSpec(rows, { title: 't' }))).toContain(
      '"title":"score (0–10)"',
    );
    expect(await renderBoardSvg(rows, { title: 't' })).toContain('score (0–10)');
  });

  it('the voter secret and the charts folder are beside the PGlite folder; an old secret inside it is still read', () => {
    const root = join(tmp, 'secret');
    const dataDir = join(root, 'pg');
    mkdirSync(dataDir, { recursive: true });
    const config = { dataDir, env: {} } as unknown as LoadedConfig;
    expect(voterSecretFile(dataDir)).toBe(join(root, 'zhujiu-voter-secret'));
    expect(chartsDir(dataDir)).toBe(join(root, 'charts'));
    // An earlier version's secret inside the data folder keeps voter ids stable.
    writeFileSync(join(dataDir, 'zhujiu-voter-secret'), 'old-secret-0123456789abcdef\n');
    expect(resolveVoterSecret(config, silentLogger)).toBe('old-secret-0123456789abcdef');
    expect(existsSync(join(root, 'zhujiu-voter-secret'))).toBe(false);
    // A fresh data folder gets its secret beside it, and reads it back.
    rmSync(join(dataDir, 'zhujiu-voter-secret'));
    const fresh = resolveVoterSecret(config, silentLogger);
    expect(readFileSync(join(root, 'zhujiu-voter-secret'), 'utf8').trim()).toBe(fresh);
    expect(readdirSync(dataDir)).toEqual([]);
    expect(resolveVoterSecret(config, silentLogger)).toBe(fresh);
  });
});
