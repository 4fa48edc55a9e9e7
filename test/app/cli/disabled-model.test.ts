/**
 * A model whose `api_key_env` variable is unset disables that model, not the bot: `config check` passes with a
 * warning naming the line, `zhujiu bot` starts (logging the warning), `/models` names the disabled model, the arena
 * of recorded models works, `/eval` and `zhujiu eval` refuse that model (and a scoring suite whose judge is it)
 * before a run is created, and a live model or classifier without its key is left out of `/ask`.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { listRuns } from '../../../src/storage/eval-runs.ts';
import { inProcess } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { counterSeeds, terminal, until } from '../arena/helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-disabled-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MODELS = [
  'models:',
  '  - name: qwen',
  '    provider: openai',
  '    base_url: http://127.0.0.1:9/v1',
  '    model: q',
  '    api_key_env: QWEN_API_KEY',
  '    arena: true',
  '  - name: local',
  '    provider: openai',
  '    base_url: http://127.0.0.1:9/v1',
  '    model: l',
  '  - name: claude-2',
  '    provider: recorded',
  '  - name: alpaca-7b',
  '    provider: recorded',
  '',
].join('\n');

describe('a model whose api_key_env is unset', () => {
  it('is disabled with a warning; the bot, its arena of recorded models and the other models work', async () => {
    const configDir = join(root, 'config');
    mkdirSync(configDir);
    cpSync(join(PROJECT_ROOT, 'config', 'suites'), join(configDir, 'suites'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(configDir, 'rubrics'), {
      recursive: true,
    });
    writeFileSync(join(configDir, 'models.yaml'), MODELS);
    const models = join(configDir, 'models.yaml');
    // The judge and the classifier are the disabled model too.
    writeFileSync(
      join(configDir, 'default.yaml'),
      // locale en: the replies checked below are the English ones (the shipped default is zh-CN).
      'locale: en\njudge:\n  model: qwen\narena:\n  ask:\n    classifier_model: qwen\n',
    );
    const dataDir = join(root, 'data', 'pg');
    mkdirSync(join(root, 'data'));
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const env = { ZHUJIU_CONFIG_DIR: configDir, ZHUJIU_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const cli = (...args: string[]) => inProcess(args, { env });

    const checked = await cli('config', 'check', '--no-connect');
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(
      /warning: .*models\.yaml:6:18 models\[1\]\.api_key_env: QWEN_API_KEY is not set in the environment, so model "qwen" is disabled/,
    );

    let logs = '';
    const logger = createLogger(
      'warn',
      new Writable({
        write(chunk, _enc, cb) {
          logs += chunk.toString();
          cb();
        },
      }),
    );
    const term = terminal();
    onTestFailed(() => {
      process.stderr.write(`--- transcript ---\n${term.text()}\n--- logs ---\n${logs}\n`);
    });
    // Before: the start refused the whole configuration ("QWEN_API_KEY is not set in the environment").
    const svc = await startService('bot', {
      worker: true,
      dataDir,
      configDir,
      env: {},
      logger,
      httpPort: 0,
      loopIntervalMs: 0,
      seedSource: counterSeeds(),
      platforms: { shell: { input: term.input, output: term.output, sessionTag: 's1' } },
    });
    try {
      expect(logs).toContain('model disabled: ');
      expect(logs).toContain('so model \\"qwen\\" is disabled');
      // Live arena: the only `arena: true` model is disabled, so /ask is off; the classifier is left out.
      expect(svc.bot.ask).toBeUndefined();
      expect(logs).toContain('arena.ask.classifier_model \\"qwen\\" is disabled');
      for (const m of ['claude-2', 'alpaca-7b']) {
        const file = join(root, `${m}.json`);
        const rows = Array.from({ length: 3 }, (_, i) => ({
          instruction: `Question ${i}: how do tides work?`,
          output: `Answer ${i}: the Moon pulls the oceans (${m.length}).`,
        }));
        writeFileSync(file, JSON.stringify(rows));
        await importOutputs(svc.rt.db.db, { file, model: m });
      }
      term.input.write('/models\n');
      await until(() => term.text().includes('is disabled'), '/models');
      expect(term.text()).toContain(
        `Model qwen is disabled: its API key variable QWEN_API_KEY (${models} api_key_env) is not set; export it and restart the bot.`,
      );
      term.input.write('/ask How do tides work?\n');
      await until(() => term.text().includes('The live arena is off here'), '/ask');
      expect(term.text()).toContain(
        'The live arena is off here: its models marked `arena: true` are disabled (their API key variable is unset or empty; /models names them).',
      );
      term.input.write('/arena\n');
      await until(() => term.text().includes('Battle #1 posted'), 'battle posted');
      term.input.write('/eval model:qwen suite:smoke\n');
      await until(() => term.text().includes('Model "qwen" is disabled'), '/eval refused');
      expect(term.text()).toContain(
        `Model "qwen" is disabled: its API key variable QWEN_API_KEY (${models} api_key_env) is not set. Export it and restart the bot, or remove api_key_env if the endpoint needs no key.`,
      );
      // A scoring suite whose judge is the disabled model is refused for any model.
      term.input.write('/eval model:local suite:zhujiu-scoring\n');
      await until(() => term.text().includes('but its judge'), '/eval scoring refused');
      expect(term.text()).toContain(
        'Suite "zhujiu-scoring" has scoring datasets, but its judge (judge.model "qwen") is disabled: its API key variable QWEN_API_KEY',
      );
      expect(await listRuns(svc.rt.db.db, {})).toEqual([]);
    } finally {
      term.input.write('quit\n');
      await svc.stop();
    }

    const ev = await cli('eval', '--model', 'qwen', '--suite', 'smoke');
    expect(ev.code).toBe(1);
    expect(ev.stderr).toContain(
      `Model "qwen" is disabled: its API key variable QWEN_API_KEY (${models} api_key_env) is not set. Export it, e.g. \`export QWEN_API_KEY=...\`, and run the command again`,
    );
    // Set but empty (`QWEN_API_KEY= zhujiu eval …`) is said as such, not as "not set".
    const empty = await inProcess(['eval', '--model', 'qwen', '--suite', 'smoke'], {
      env: { ...env, QWEN_API_KEY: '' },
    });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(
      `Model "qwen" is disabled: its API key variable QWEN_API_KEY (${models} api_key_env) is set but empty. Export it`,
    );
    // A suite of `zhujiu suites` that eval cannot run (AlpacaEval's comparative prompts, answered by imports) is
    // explained, not called unknown.
    const arenaOnly = await cli('eval', '--model', 'claude-2', '--suite', 'alpaca-eval');
    expect(arenaOnly.code).toBe(1);
    expect(arenaOnly.stderr).not.toContain('Unknown suite');
    expect(arenaOnly.stderr).toContain(
      'Suite "alpaca-eval" cannot be run with eval: its datasets alpaca_eval (comparative) have no items of their own to ask or score (AlpacaEval 2.0 instructions (805), answered by recorded model outputs; used by the arena). Its answers are compared in the arena, not scored: import them with `zhujiu import outputs FILE --model NAME`, then they battle in /arena and count in `zhujiu ratings` and the leaderboard. Suites eval runs: ',
    );
    // The other endpoint is not disabled; with no datasets folder its run is refused before it is created.
    const noData = join(root, 'no-datasets');
    const nodata = await inProcess(['eval', '--model', 'local', '--suite', 'smoke'], {
      env: { ...env, ZHUJIU_DATASETS_DIR: noData },
    });
    expect(nodata.code).toBe(1);
    expect(nodata.stderr).toMatch(
      /^error \[config_invalid\]: Suite "smoke" cannot run: the datasets folder .*no-datasets does not exist \(the environment variable ZHUJIU_DATASETS_DIR sets it; default: datasets in the working folder\)\. Create it/,
    );
    // Said once: the folder, not each of its files.
    expect(nodata.stderr).not.toContain('c3-m-dev.sample.json');
  }, 120_000); // one flow: config check, a bot start, imports, six chat commands and three evals
});
