/**
 * `zhujiu import outputs DIR --format gaokao`: the GPT-4-0314 result folder becomes recorded responses on the items
 * of the gaokao-objective suite; scoring each suite item's stored raw output with the suite's own scorer gives the
 * published 7000 / 9702. (The end-to-end `zhujiu eval` path through the runner is in test/e2e.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import type { SuiteConfig } from '../../../src/config/schema.ts';
import { isAppError } from '../../../src/core/errors.ts';
import { prepareSuite } from '../../../src/eval/datasets/index.ts';
import { importGaokaoOutputs } from '../../../src/import/gaokao-outputs.ts';
import { RECORDED_REQUEST_HASH } from '../../../src/import/outputs.ts';
import { upsertEvalDataset } from '../../../src/storage/eval-datasets.ts';
import { findModel } from '../../../src/storage/models.ts';
import { storedOutputs } from '../../../src/storage/responses.ts';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { countRows, flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { fullGaokaoDatasetsDir, GAOKAO_GPT4_RESULTS as RESULTS } from '../../helpers/gaokao.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

describe.skipIf(!hasSharedData(...RESULTS)).each(flowBackends())(
  'GAOKAO-Bench import on %s',
  (backend) => {
    let d: TestDb;
    beforeAll(async () => {
      d = await freshDb(backend);
    });
    afterAll(async () => d?.destroy());

    it('imports 1,781 answers once; the suite items share their keys; re-scoring the raw text gives 7000 / 9702', async () => {
      const r = await importGaokaoOutputs(d.db, {
        dir: sharedData(...RESULTS),
        model: 'gpt-4-0314',
      });
      expect(r).toMatchObject({
        model: 'gpt-4-0314',
        files: 14,
        rows: 1781,
        added: 1781,
        skipped: 0,
        differing: 0,
      });
      expect(r.datasets).toEqual({
        gaokao_english: 285,
        gaokao_biology: 150,
        gaokao_chemistry: 124,
        gaokao_chinese: 85,
        gaokao_geography: 34,
        gaokao_history: 287,
        gaokao_math_hum: 218,
        gaokao_math_sci: 214,
        gaokao_physics: 64,
        gaokao_politics: 320,
      });
      const again = await importGaokaoOutputs(d.db, {
        dir: sharedData(...RESULTS),
        model: 'gpt-4-0314',
      });
      expect(again).toMatchObject({ added: 0, skipped: 1781 });
      expect(await countRows(d, 'items')).toBe(1781);

      // The suite, read from a full copy of the questions, upserted as a run would: same items, nothing added.
      const c = loadConfig({
        cwd: PROJECT_ROOT,
        configDir: shippedDefinitionsDir(),
        env: { ZHUJIU_DATASETS_DIR: fullGaokaoDatasetsDir() },
      });
      const suite = await prepareSuite(c.suites.get('gaokao-objective') as SuiteConfig, {
        datasetsDir: c.datasetsDir,
        cacheDir: c.datasetsCacheDir,
      });
      const model = await findModel(d.db, 'gpt-4-0314');
      let earned = 0;
      let possible = 0;
      let added = 0;
      for (const ds of suite) {
        const up = await upsertEvalDataset(d.db, ds);
        added += up.added;
        const outputs = await storedOutputs(
          d.db,
          model?.id as number,
          [...up.itemIds.values()],
          RECORDED_REQUEST_HASH,
        );
        for (const item of ds.items) {
          const out = outputs.get(up.itemIds.get(item.key) as number);
          if (out === undefined) throw new Error(`no recorded answer for ${ds.name} ${item.key}`);
          const s = ds.score(item, out);
          earned += s.raw;
          possible += s.max;
        }
      }
      expect(added).toBe(0);
      expect(await countRows(d, 'items')).toBe(1781);
      expect({ earned, possible }).toEqual({ earned: 7000, possible: 9702 });
    });

    it('refuses another model name, a bad row (file:line) and an empty folder, writing nothing', async () => {
      const before = await countRows(d, 'responses');
      const wrong = await importGaokaoOutputs(d.db, {
        dir: sharedData(...RESULTS),
        model: 'gpt-4',
      }).catch((e) => e);
      expect(isAppError(wrong, 'import_invalid')).toBe(true);
      expect(wrong.message).toContain('"model_name" is "gpt-4-0314" but --model is "gpt-4"');

      const dir = mkdtempSync(join(tmpdir(), 'zj-gk-bad-'));
      writeFileSync(
        join(dir, 'm_2010-2022_Physics_MCQs.json'),
        JSON.stringify(
          {
            keyword: '2010-2022_Physics_MCQs',
            model_name: 'm',
            example: [
              {
                index: 0,
                year: '2010',
                category: 'x',
                score: 6,
                question: 'q0',
                standard_answer: ['B'],
                model_output: '【答案】B',
              },
              {
                index: 1,
                year: '2010',
                category: 'x',
                score: 6,
                question: 'q1',
                standard_answer: ['b?'],
                model_output: 'B',
              },
            ],
          },
          null,
          2,
        ),
      );
      const bad = await importGaokaoOutputs(d.db, { dir, model: 'm' }).catch((e) => e);
      expect(bad.message).toMatch(
        /m_2010-2022_Physics_MCQs\.json:16: example 1: "standard_answer\.0" must be option letters A-G/,
      );
      const empty = await importGaokaoOutputs(d.db, {
        dir: mkdtempSync(join(tmpdir(), 'zj-gk-empty-')),
        model: 'm',
      }).catch((e) => e);
      expect(empty.message).toContain('no .json result files');
      expect(await countRows(d, 'responses')).toBe(before);
    });
  },
);

describe.each(flowBackends())('upsertEvalDataset on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  const spec = (prompt2: string) => ({
    name: 'ds1',
    ability: 'language' as const,
    method: 'metrics' as const,
    metric: 'accuracy',
    profile: 'default',
    templateVersion: 'v1',
    provenance: { files: ['a.jsonl'] },
    items: [
      { key: 'a', prompt: 'p1', reference: { answer: 'A', letters: 'AB' }, metadata: {} },
      { key: 'b', prompt: prompt2, reference: { answer: 'B', letters: 'AB' }, metadata: { x: 1 } },
    ],
  });

  it('adds, then writes nothing for the same items, then updates only what changed; a duplicate key is refused before anything is written', async () => {
    // Step: adds, then writes nothing for the same items, then updates only what changed
    {
      const r1 = await upsertEvalDataset(d.db, spec('p2'));
      expect({ added: r1.added, updated: r1.updated, ids: r1.itemIds.size }).toEqual({
        added: 2,
        updated: 0,
        ids: 2,
      });
      const r2 = await upsertEvalDataset(d.db, spec('p2'));
      expect({ added: r2.added, updated: r2.updated }).toEqual({ added: 0, updated: 0 });
      expect(r2.itemIds).toEqual(r1.itemIds);
      const r3 = await upsertEvalDataset(d.db, spec('p2 changed'));
      expect({ added: r3.added, updated: r3.updated }).toEqual({ added: 0, updated: 1 });
      const row = await d.db
        .selectFrom('datasets')
        .select(['metadata', 'ability'])
        .where('name', '=', 'ds1')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        ability: 'language',
        metadata: {
          metric: 'accuracy',
          profile: 'default',
          template_version: 'v1',
          provenance: { files: ['a.jsonl'] },
        },
      });
    }
    // Step: a duplicate key is refused before anything is written
    {
      const before = await countRows(d, 'items');
      const s = spec('p2');
      await expect(
        upsertEvalDataset(d.db, {
          ...s,
          name: 'ds2',
          items: [...s.items, { key: 'a', prompt: 'again', reference: null, metadata: {} }],
        }),
      ).rejects.toThrow('dataset ds2: item key "a" appears twice');
      expect(await countRows(d, 'items')).toBe(before);
      expect(await countRows(d, 'datasets')).toBe(1);
    }
  }, 60_000);
});
