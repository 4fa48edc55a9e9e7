import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loader.ts';
import { type ModelConfig, modelsFileSchema } from '../../src/config/schema.ts';
import { createLogger } from '../../src/core/logger.ts';
import { EvalService } from '../../src/eval/service.ts';
import { runSummary, summaryJson } from '../../src/eval/summary.ts';
import { importGaokaoOutputs } from '../../src/import/gaokao-outputs.ts';
import { shippedDefinitionsDir } from '../helpers/config-dir.ts';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { fullGaokaoDatasetsDir, GAOKAO_GPT4_RESULTS } from '../helpers/gaokao.ts';
import { asProcess } from '../helpers/run-cli.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../helpers/shared-data.ts';

/** GAOKAO-Bench README "Scoring Rate", GPT-4-0314 objective, per subject (%), by our dataset names. */
const PUBLISHED: Record<string, number> = {
  gaokao_chinese: 53.9,
  gaokao_english: 93.1,
  gaokao_math_sci: 53.7,
  gaokao_math_hum: 63.3,
  gaokao_physics: 55.5,
  gaokao_chemistry: 44.4,
  gaokao_biology: 80.7,
  gaokao_politics: 75.9,
  gaokao_history: 75.6,
  gaokao_geography: 80.0,
};

type EvalJson = ReturnType<typeof summaryJson>;

/** The published figures, checked on a `zhujiu eval --json` document. */
function expectPublished(j: EvalJson): void {
  expect(j.model).toBe('gpt-4-0314');
  expect(j.suite).toBe('gaokao-objective');
  const earned = j.datasets.reduce((a, d) => a + d.earned, 0);
  const possible = j.datasets.reduce((a, d) => a + d.possible, 0);
  expect({ earned, possible }).toEqual({ earned: 7000, possible: 9702 });
  expect(Math.round((earned / possible) * 10000) / 10000).toBe(0.7215);
  expect(
    Object.fromEntries(
      j.datasets.map((d) => [d.dataset, Math.round((d.earned / d.possible) * 1000) / 10]),
    ),
  ).toEqual(PUBLISHED);
  expect(j.datasets.reduce((a, d) => a + d.n, 0)).toBe(1781);
  expect(
    j.datasets.every(
      (d) =>
        d.failures === 0 &&
        // maths is reasoning, the other subjects knowledge (docs/scoring.md §2.1)
        d.ability === (d.dataset.startsWith('gaokao_math') ? 'reasoning' : 'knowledge') &&
        d.method === 'metrics',
    ),
  ).toBe(true);
  expect(new Set(j.datasets.map((d) => `${d.metric}/${d.profile}`))).toEqual(
    new Set(['gaokao_objective/gaokao']),
  );
  // The ten-point score is 10 × earned / possible.
  const physics = j.datasets.find((d) => d.dataset === 'gaokao_physics');
  expect(physics).toMatchObject({ earned: 213, possible: 384, score: 5.5469 });
}

describe.skipIf(!hasSharedData(...GAOKAO_GPT4_RESULTS))(
  'GAOKAO-Bench GPT-4-0314 through the runner',
  () => {
    let d: TestDb;
    beforeAll(async () => {
      d = await freshDb('pglite');
    });
    afterAll(async () => d?.destroy());

    it('import, then a run of gaokao-objective gives 7000 / 9702 and the ten subject rates', async () => {
      const imported = await importGaokaoOutputs(d.db, {
        dir: sharedData(...GAOKAO_GPT4_RESULTS),
        model: 'gpt-4-0314',
      });
      expect(imported.added).toBe(1781);
      const config = loadConfig({
        cwd: PROJECT_ROOT,
        configDir: shippedDefinitionsDir(),
        env: { ZHUJIU_DATASETS_DIR: fullGaokaoDatasetsDir() },
      });
      const service = new EvalService({ db: d.db, logger: createLogger('silent'), config });
      const started = await service.start({ model: 'gpt-4-0314', suite: 'gaokao-objective' });
      if (!started.ok) throw new Error(started.reason);
      await service.execute(started.run.id);
      const summary = await runSummary(d.db, started.run.id);
      if (!summary) throw new Error('no summary');
      expect(summary.promptTokens + summary.completionTokens).toBe(0);
      expectPublished(summaryJson(summary));
    });

    it('a recorded model needs no dataset files: the run over the imported items gives 7000 / 9702; a callable model is refused, naming them', async () => {
      const db = await freshDb('pglite');
      try {
        await importGaokaoOutputs(db.db, {
          dir: sharedData(...GAOKAO_GPT4_RESULTS),
          model: 'gpt-4-0314',
        });
        const empty = join(mkdtempSync(join(tmpdir(), 'zj-gk-nodata-')), 'empty');
        mkdirSync(empty);
        const config = loadConfig({
          cwd: PROJECT_ROOT,
          configDir: shippedDefinitionsDir(),
          env: { ZHUJIU_DATASETS_DIR: empty },
        });
        const endpoint = modelsFileSchema.parse({
          models: [
            { name: 'm', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm' },
          ],
        }).models[0] as ModelConfig;
        const service = new EvalService({
          db: db.db,
          logger: createLogger('silent'),
          config: { ...config, models: [...config.models, endpoint] },
        });
        const refused = await service.start({ model: 'm', suite: 'gaokao-objective' });
        expect(refused.ok).toBe(false);
        if (!refused.ok) expect(refused.reason).toContain('gaokao_bench/Objective_Questions/');
        const started = await service.start({ model: 'gpt-4-0314', suite: 'gaokao-objective' });
        if (!started.ok) throw new Error(started.reason);
        expect(await service.execute(started.run.id)).toBe('finished');
        const summary = await runSummary(db.db, started.run.id);
        if (!summary) throw new Error('no summary');
        expect(summary.run.error ?? summary.run.status).toBe('succeeded');
        expectPublished(summaryJson(summary));
      } finally {
        await db.destroy();
      }
    });
  },
);

const zhujiu = (args: string[], env: Record<string, string> = {}) => asProcess(args, { env });

describe.skipIf(!hasSharedData(...GAOKAO_GPT4_RESULTS))(
  'GAOKAO-Bench GPT-4-0314 through the CLI',
  () => {
    it('zhujiu import outputs DIR --format gaokao, then zhujiu eval --json: 7000 / 9702 and the ten subject rates', async () => {
      const env = {
        ZHUJIU_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'zj-cli-gk-')), 'pg'),
        ZHUJIU_DATASETS_DIR: fullGaokaoDatasetsDir(),
      };
      const dir = sharedData(...GAOKAO_GPT4_RESULTS);
      const r1 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'gpt-4-0314'],
        env,
      );
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stdout).toMatch(
        /^imported 1781 responses for gpt-4-0314 from 14 GAOKAO-Bench files into 10 datasets \(.*gaokao_physics 64.*; 1781 items, 0 already present\)/,
      );
      const r2 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'gpt-4-0314'],
        env,
      );
      expect(r2.stdout).toMatch(/^imported 0 responses .*1781 already present/);
      const r3 = await zhujiu(
        ['import', 'outputs', dir, '--format', 'gaokao', '--model', 'x', '--dataset', 'd'],
        env,
      );
      expect(r3.code).toBe(2);
      expect(r3.stderr).toContain('--dataset does not apply to --format gaokao');

      // `zhujiu eval --model gpt-4-0314 --suite gaokao-objective --json` on the imported answers.
      const ev = await zhujiu(
        ['eval', '--model', 'gpt-4-0314', '--suite', 'gaokao-objective', '--json'],
        env,
      );
      expect(ev.code, ev.stderr).toBe(0);
      expectPublished(JSON.parse(ev.stdout) as EvalJson);
    });
  },
);
