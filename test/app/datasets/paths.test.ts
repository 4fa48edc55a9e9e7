/**
 * Dataset paths stay inside the datasets folder: a suite path that leads out of it (`../..`, an absolute path
 * elsewhere, a symlink out) is refused before anything is read, by the file reader and by the start of a run
 * (eval/datasets/source). A prompt built from one dataset item longer than `eval.max_prompt_chars` is that
 * item's failure, never sent (eval/runner).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema, suiteSchema } from '../../../src/config/schema.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { readDatasetFile } from '../../../src/eval/datasets/index.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { listRuns } from '../../../src/storage/eval-runs.ts';
import { startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';

const SECRET_TEXT = 'root:x:0:0:secret-line';
const LINK =
  ' (a symlink leads out of it; name its target folder in ZHUJIU_DATASETS_ROOTS to allow it)';

describe('dataset paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-paths-'));
  const datasets = join(root, 'datasets');
  const outside = join(root, 'outside.jsonl');
  const loc = { datasetsDir: datasets, cacheDir: join(root, 'cache') };
  let d: TestDb;

  beforeAll(async () => {
    mkdirSync(join(datasets, 'ok'), { recursive: true });
    writeFileSync(join(datasets, 'ok', 'dev.jsonl'), '{"a":1}\n');
    writeFileSync(outside, `${SECRET_TEXT}\n`);
    symlinkSync(outside, join(datasets, 'ok', 'link.jsonl'));
    symlinkSync(root, join(datasets, 'up'));
    d = await freshDb('pglite');
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(root, { recursive: true, force: true });
  });
  useCleanRows(() => d);

  it('reads a file inside the folder', async () => {
    expect((await readDatasetFile('ok/dev.jsonl', loc)).text).toBe('{"a":1}\n');
    expect((await readDatasetFile(join(datasets, 'ok', 'dev.jsonl'), loc)).text).toBe('{"a":1}\n');
  });

  it.each([
    ['../outside.jsonl', ''],
    ['../../../../../../etc/passwd', ''],
    [outside, ''],
    ['ok/link.jsonl', LINK],
    ['up/outside.jsonl', LINK],
  ])('refuses %s before reading it', async (spec, why) => {
    const err = await readDatasetFile(spec, loc).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(err?.code).toBe('dataset_invalid');
    expect(err?.message).toBe(
      `dataset path "${spec}" is outside the datasets folder ${datasets}${why}; put the file inside that folder and give its path relative to it (ZHUJIU_DATASETS_DIR sets the folder)`,
    );
    expect(err?.message).not.toContain(SECRET_TEXT);
  });

  it('a symlink into a folder named in ZHUJIU_DATASETS_ROOTS is read; the path must still be inside', async () => {
    const withRoots = { ...loc, roots: [root] };
    expect((await readDatasetFile('ok/link.jsonl', withRoots)).text).toBe(`${SECRET_TEXT}\n`);
    await expect(readDatasetFile('../outside.jsonl', withRoots)).rejects.toMatchObject({
      code: 'dataset_invalid',
    });
  });

  it('a suite naming ../../etc/passwd is refused before a run is created', async () => {
    const suite = suiteSchema.parse({
      name: 'evil',
      datasets: [
        {
          name: 'x',
          loader: 'ocnli',
          ability: 'language',
          method: 'metrics',
          path: '../../etc/passwd',
        },
      ],
    });
    const model = modelsFileSchema.parse({
      models: [{ name: 'm', provider: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'm' }],
    }).models[0] as ModelConfig;
    const service = new EvalService({
      db: d.db,
      logger: silentLogger,
      config: {
        models: [model],
        suites: new Map([['evil', suite]]),
        datasetsDir: datasets,
        datasetsCacheDir: loc.cacheDir,
        apiKeyFor: () => undefined,
      },
    });
    const r = await service.start({ model: 'm', suite: 'evil' }).then(
      (x) => (x.ok ? 'started' : x.reason),
      (e: Error) => e.message,
    );
    expect(r).toContain('dataset path "../../etc/passwd" is outside the datasets folder');
    expect(await listRuns(d.db, {})).toEqual([]);
  });

  it('an item of 1,000,000 characters is its own failure (prompt_too_long) and is not sent; the others are', async () => {
    mkdirSync(join(datasets, 'big'), { recursive: true });
    const rows = [
      { id: 1, sentence1: '前提 Q1。', sentence2: '假设。', label: 'entailment' },
      { id: 2, sentence1: '长'.repeat(1_000_000), sentence2: '假设。', label: 'neutral' },
    ];
    writeFileSync(
      join(datasets, 'big', 'dev.jsonl'),
      rows.map((r) => JSON.stringify(r)).join('\n'),
    );
    const fake = await startFakeOpenAi({ answer: () => '答案：A' });
    try {
      const suite = suiteSchema.parse({
        name: 'big',
        datasets: [
          {
            name: 'big',
            loader: 'ocnli',
            ability: 'language',
            method: 'metrics',
            path: 'big/dev.jsonl',
          },
        ],
      });
      const model = modelsFileSchema.parse({
        models: [{ name: 'm', provider: 'openai', base_url: fake.baseUrl, model: 'm' }],
      }).models[0] as ModelConfig;
      const service = new EvalService({
        db: d.db,
        logger: silentLogger,
        config: {
          models: [model],
          suites: new Map([['big', suite]]),
          datasetsDir: datasets,
          datasetsCacheDir: loc.cacheDir,
          apiKeyFor: () => undefined,
        },
        maxPromptChars: 100_000,
      });
      const started = await service.start({ model: 'm', suite: 'big' });
      if (!started.ok) throw new Error(started.reason);
      await service.execute(started.run.id);
      expect(fake.callCount).toBe(1);
      expect(fake.calls[0]?.messages.at(-1)?.content).toContain('Q1');
      const failed = await sql<{ code: string; message: string }>`
        select failure_code as code, failure_message as message from eval_run_items
         where run_id = ${started.run.id} and status = 'failed'`.execute(d.db);
      expect(failed.rows).toHaveLength(1);
      expect(failed.rows[0]?.code).toBe('prompt_too_long');
      expect(failed.rows[0]?.message).toMatch(
        /^the prompt built from this item has 10000\d\d characters, more than eval\.max_prompt_chars \(100000\); not sent$/u,
      );
    } finally {
      await fake.close();
    }
  });
});
