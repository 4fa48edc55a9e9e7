/**
 * A run that cannot start (a bad rubric file, a judge.model naming no configured model, a model gone from
 * models.yaml) stores why in every language it can be said in (eval/start-error.ts: `eval_runs.error` in English,
 * `error_texts` the others), so the bot's report and `zhujiu eval` say it in their reader's language instead of the
 * English it was stored in.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryContent } from '../../../src/bot/eval-reporter.ts';
import { loadConfig } from '../../../src/config/loader.ts';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { runErrorText, runSummary } from '../../../src/eval/summary.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { writeTinyScoringSuite } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

function openaiModel(name: string, baseUrl: string): ModelConfig {
  return modelsFileSchema.parse({
    models: [
      { name, provider: 'openai', base_url: baseUrl, model: `${name}-model`, max_retries: 0 },
    ],
  }).models[0] as ModelConfig;
}

describe('a run that cannot start says why in the reader language', () => {
  let d: TestDb;
  let fake: FakeOpenAi;
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-start-error-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'datasets');
  const rubric = join(configDir, 'rubrics', 'industry_0_3.yaml');

  beforeAll(async () => {
    d = await freshDb('pglite');
    writeTinyScoringSuite(configDir, dataDir, { questions: 1 });
    fake = await startFakeOpenAi({ answer: () => '评分：[[3]]' });
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
    rmSync(root, { recursive: true, force: true });
  });
  useCleanRows(() => d);

  /** A service over the shared files with these models and judge. */
  const service = (models: readonly string[], judge: string) =>
    new EvalService({
      db: d.db,
      logger: silentLogger,
      config: {
        ...loadConfig({ configDir, env: { ZHUJIU_DATASETS_DIR: dataDir } }),
        models: models.map((m) => openaiModel(m, fake.baseUrl)),
      },
      judge: { model: judge, configDir },
    });

  /** Starts a run with every model and the rubrics configured (the test then changes them and works it). */
  async function startRun() {
    cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(configDir, 'rubrics'), {
      recursive: true,
    });
    const started = await service(['cand', 'judge-x'], 'judge-x').start({
      model: 'cand',
      suite: 'tiny-scoring',
    });
    if (!started.ok) throw new Error(started.reason);
    return started.run.id;
  }

  /** The run's stored error, and how the chat report and the CLI say it in Chinese and English. */
  async function said(id: number) {
    const run = await getRun(d.db, id);
    const s = await runSummary(d.db, id);
    if (!run?.error || !s) throw new Error('no error stored');
    return {
      en: run.error,
      zh: runErrorText(run.error, 'zh-CN', run.errorTexts),
      report: summaryContent(s, undefined, 'zh-CN').text,
    };
  }

  it('a rubric file that names another rubric', async () => {
    const id = await startRun();
    writeFileSync(rubric, 'name: other\nversion: 1\nkind: single\n');
    expect(await service(['cand', 'judge-x'], 'judge-x').execute(id)).toBe('finished');
    const r = await said(id);
    expect(r.en).toContain('industry_0_3');
    expect(r.zh).toMatch(/industry_0_3/u);
    expect(r.zh).toMatch(/\p{Script=Han}/u);
    expect(r.zh).not.toBe(r.en);
    expect(r.report).toContain(r.zh);
  });

  it('judge.model naming no configured model', async () => {
    const id = await startRun();
    expect(await service(['cand'], 'judge-gone').execute(id)).toBe('finished');
    const r = await said(id);
    expect(r.en).toMatch(/^judge\.model "judge-gone" \(\S+\) is not in \S+; add it there/u);
    expect(r.zh).toMatch(
      /^judge\.model “judge-gone”（\S+）不在 \S+ 中；请把它加进去，或修改 judge\.model$/u,
    );
    expect(r.report).toContain(r.zh);
  });

  it('a model gone from models.yaml', async () => {
    const id = await startRun();
    expect(await service(['judge-x'], 'judge-x').execute(id)).toBe('finished');
    const r = await said(id);
    expect(r.en).toMatch(/^Unknown model "cand"\. Valid models: judge-x\./u);
    expect(r.zh).toMatch(/^未知的模型“cand”。可用的模型：judge-x。/u);
  });
});
