/**
 * A suite whose dataset files are missing is refused before a run is created (as a missing judge is), naming the
 * files, the datasets folder and the fix (so is a file with bad rows). That a recorded model's run over items already
 * stored (an imported GAOKAO-Bench result folder) needs no dataset files is shown on the whole set in
 * test/e2e/gaokao-eval.test.ts.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { loadConfig } from '../../../src/config/loader.ts';
import {
  type ModelConfig,
  modelsFileSchema,
  type SuiteConfig,
} from '../../../src/config/schema.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { prepareSuite } from '../../../src/eval/datasets/index.ts';
import { evalRefusalsText } from '../../../src/eval/refusal.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { listRuns } from '../../../src/storage/eval-runs.ts';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { miniEvalConfig, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { SECRET, terminal, terminalShell, testConfig } from '../arena/helpers.ts';

const endpoint = modelsFileSchema.parse({
  models: [{ name: 'm', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm' }],
}).models[0] as ModelConfig;

describe.each(flowBackends())('dataset files on %s', (backend) => {
  let d: TestDb;
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-nodata-'));
  const empty = join(root, 'empty');
  beforeAll(async () => {
    d = await freshDb(backend);
    mkdirSync(empty);
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(root, { recursive: true, force: true });
  });
  useCleanRows(() => d);

  it('the shipped smoke suite without ./datasets is refused before a run, naming the files, the folder and the fix', async () => {
    const config = loadConfig({
      cwd: PROJECT_ROOT,
      configDir: shippedDefinitionsDir(),
      env: { ZHUJIU_DATASETS_DIR: empty },
    });
    const service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: { ...config, models: [endpoint] },
    });
    for (const surface of ['chat', 'cli'] as const) {
      const r = await service.start({ model: 'm', suite: 'smoke', surface });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.reason).toBe(
        `Suite "smoke" cannot run: 4 of its dataset files are missing from the datasets folder ${empty} ` +
          '(c3/c3-m-dev.sample.json, c3/c3-d-dev.sample.json, ocnli/dev.sample.jsonl, cmrc2018/cmrc2018_dev.sample.json). ' +
          'Put the files there (the public data folder ../shared/data/datasets beside this checkout has the same layout), ' +
          'or set ZHUJIU_DATASETS_DIR to the folder that holds them (README "Where the files are"; `zhujiu suites` shows which suites are complete).',
      );
    }
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('a datasets folder that does not exist is said once, naming the folder and the variable that sets it', async () => {
    const gone = join(root, 'no-such-folder');
    const config = loadConfig({
      cwd: PROJECT_ROOT,
      configDir: shippedDefinitionsDir(),
      env: { ZHUJIU_DATASETS_DIR: gone },
    });
    const service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: { ...config, models: [endpoint] },
    });
    const r = await service.start({ model: 'm', suite: 'smoke', surface: 'cli' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe(
      `Suite "smoke" cannot run: the datasets folder ${gone} does not exist (the environment variable ZHUJIU_DATASETS_DIR sets it; default: datasets in the working folder). ` +
        'Create it and put the dataset files there (the public data folder ../shared/data/datasets beside this checkout has the layout), ' +
        'or set ZHUJIU_DATASETS_DIR to the folder that holds them (README "Where the files are").',
    );
    expect(r.reason).not.toContain('.sample.json');
    expect(evalRefusalsText(r.refusals, 'zh-CN', 'cli')).toContain(
      `数据集文件夹 ${gone} 不存在（由环境变量 ZHUJIU_DATASETS_DIR 设定`,
    );
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('a datasets folder under a file (ENOTDIR) is said as such, naming the file, not as a folder that does not exist', async () => {
    const file = join(root, 'a-file');
    appendFileSync(file, 'x\n');
    for (const [dir, what] of [
      [join(file, 'datasets'), `is under a file (${file} is a file, not a folder: ENOTDIR)`],
      [file, 'is a file, not a folder'],
    ] as const) {
      const config = loadConfig({ cwd: PROJECT_ROOT, env: { ZHUJIU_DATASETS_DIR: dir } });
      const service = new EvalService({
        db: d.db,
        logger: silentLogger,
        config: { ...config, models: [endpoint] },
      });
      const r = await service.start({ model: 'm', suite: 'smoke', surface: 'cli' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.reason).toBe(
        `Suite "smoke" cannot run: the datasets folder ${dir} ${what} (the environment variable ZHUJIU_DATASETS_DIR sets it; default: datasets in the working folder). ` +
          'Set ZHUJIU_DATASETS_DIR to the folder that holds the dataset files (README "Where the files are").',
      );
      expect(evalRefusalsText(r.refusals, 'zh-CN', 'cli')).toContain(`数据集文件夹 ${dir} `);
    }
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('the knowledge suite needs no build step: its files are built into the datasets cache folder on first use', async () => {
    const cacheDir = join(root, 'cache-k');
    const ds = await prepareSuite(
      loadConfig({
        cwd: PROJECT_ROOT,
        configDir: shippedDefinitionsDir(),
        env: { ZHUJIU_DATASETS_DIR: empty },
      }).suites.get('zhujiu-knowledge') as SuiteConfig,
      { datasetsDir: empty, cacheDir },
    );
    expect(ds).toHaveLength(15);
    expect(ds.reduce((n, x) => n + x.items.length, 0)).toBe(1500);
    expect(existsSync(join(cacheDir, 'zhujiu-built', 'knowledge', 'world_accuracy.jsonl'))).toBe(
      true,
    );
    // The datasets folder (which may be read-only) is not written.
    expect(readdirSync(empty)).toEqual([]);
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('/eval in chat gives the same refusal and creates no run', async () => {
    const config = loadConfig({
      cwd: PROJECT_ROOT,
      configDir: shippedDefinitionsDir(),
      env: { ZHUJIU_DATASETS_DIR: empty },
    });
    const evals = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: { ...config, models: [endpoint] },
    });
    const term = terminal();
    const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));
    const app = testConfig();
    const shell = terminalShell(term, app, { sessionTag: 'd1', clock });
    const bot = new BotService({
      db: d.db,
      config: app,
      platforms: [shell],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      evals,
    });
    await bot.start();
    try {
      await shell.say('/eval model:m suite:smoke');
      expect(term.text()).toContain(
        `Suite "smoke" cannot run: 4 of its dataset files are missing from the datasets folder ${empty} (c3/c3-m-dev.sample.json,`,
      );
      expect(term.text()).not.toContain('queued');
    } finally {
      await bot.stop();
    }
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('names only the files that are missing', async () => {
    const dir = join(root, 'part');
    const fx = writeSmokeFixture(dir, { c3: 2, ocnli: 2, cmrc: 2 });
    rmSync(join(dir, 'cmrc2018'), { recursive: true });
    const service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: miniEvalConfig([endpoint], fx.suite, dir),
    });
    const r = await service.start({ model: 'm', suite: 'mini' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.reason).toContain(
        `its dataset file is missing from the datasets folder ${dir} (cmrc2018/dev.json).`,
      );
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('a dataset file with a bad row is refused before a run too, naming the file and line', async () => {
    const dir = join(root, 'bad');
    const fx = writeSmokeFixture(dir, { c3: 2, ocnli: 2, cmrc: 2 });
    appendFileSync(join(dir, 'ocnli', 'dev.jsonl'), '{"sentence1": "no label"}\n');
    const service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: miniEvalConfig([endpoint], fx.suite, dir),
    });
    const r = await service.start({ model: 'm', suite: 'mini' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.reason).toMatch(
        /^suite mini, dataset ocnli: 1 bad row\(s\); fix or remove them:\n.*dev\.jsonl:3: /,
      );
    expect(await listRuns(d.db, {})).toEqual([]);
  });
});
