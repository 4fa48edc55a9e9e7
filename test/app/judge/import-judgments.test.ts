/**
 * Recorded judgments rebuild published figures with no endpoint: GAOKAO-Bench's judge-based subjective rate and
 * AlpacaEval's leaderboard (win rate, standard error, discrete win rate), on both storage backends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeReport } from '../../../src/eval/judge/report.ts';
import { importJudgments } from '../../../src/import/judgments.ts';
import { listJudgeScores } from '../../../src/storage/judge-scores.ts';
import { findModel } from '../../../src/storage/models.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

const GAOKAO = [
  'outputs',
  'gaokao_bench',
  'gpt-4-0314_subjective_judged_by_gpt-4-1106-preview',
] as const;
const ALPACA = ['outputs', 'alpaca_eval', 'annotations_weighted_alpaca_eval_gpt4_turbo'] as const;
const present = hasSharedData(...GAOKAO) && hasSharedData(...ALPACA);

describe.each(flowBackends())('import judgments on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());
  useCleanRows(() => d);

  it.skipIf(!present)(
    'GAOKAO-Bench subjective judged by gpt-4-1106-preview: 7672.83 / 11839 = 0.648',
    async () => {
      const r = await importJudgments(d.db, {
        path: sharedData(...GAOKAO),
        format: 'gaokao',
        judge: 'gpt-4-1106-preview',
      });
      expect({ files: r.files, rows: r.rows, judged: r.judged, failed: r.failed }).toEqual({
        files: 18,
        rows: 1030,
        judged: 1030,
        failed: 0,
      });
      expect(r.models).toEqual(['gpt-4-0314']);
      expect(r.overMax).toHaveLength(3);
      const rep = await judgeReport(d.db, { model: 'gpt-4-0314' });
      expect(rep.report.pairwise).toEqual([]);
      // The maths files are their own dataset (reasoning, docs/scoring.md §1 "Ability map"); both together give
      // GAOKAO-Bench's published rate.
      const rows = rep.report.datasets;
      expect(rows.map((x) => [x.dataset, x.ability])).toEqual([
        ['gaokao_subjective', 'knowledge'],
        ['gaokao_subjective_math', 'reasoning'],
      ]);
      for (const row of rows) {
        expect(row).toMatchObject({
          rubric: 'gaokao_teacher@wo_marking_criterion',
          judge: 'gpt-4-1106-preview',
          sv_mean: null,
          sv_rate: null,
        });
      }
      const sum = (f: (x: (typeof rows)[number]) => number) => rows.reduce((t, x) => t + f(x), 0);
      expect(sum((x) => x.n)).toBe(1030);
      expect(sum((x) => x.judged)).toBe(1030);
      expect(sum((x) => x.earned)).toBeCloseTo(7672.83, 6);
      expect(sum((x) => x.possible)).toBe(11839);
      expect(Number((sum((x) => x.earned) / sum((x) => x.possible)).toFixed(3))).toBe(0.648);
      // again: nothing new
      const again = await importJudgments(d.db, {
        path: sharedData(...GAOKAO),
        format: 'gaokao',
        judge: 'gpt-4-1106-preview',
      });
      expect(again.rows).toBe(1030);
      const rep2 = await judgeReport(d.db, { model: 'gpt-4-0314' });
      expect(rep2.report).toEqual(rep.report);
    },
  );

  it.skipIf(!present)(
    'AlpacaEval: five models reproduce the leaderboard to 4 decimals',
    async () => {
      const r = await importJudgments(d.db, {
        path: sharedData(...ALPACA),
        format: 'alpaca_eval',
        judge: 'weighted_alpaca_eval_gpt4_turbo',
      });
      expect({ files: r.files, rows: r.rows, failed: r.failed }).toEqual({
        files: 5,
        rows: 5 * 805,
        failed: 0,
      });
      const expected: Record<string, [number, number, number]> = {
        'claude-2': [17.1882, 1.1748, 16.3354],
        'OpenHermes-2.5-Mistral-7B': [10.3404, 0.9357, 9.5031],
        'gpt-3.5-turbo-0301': [9.6225, 0.913, 8.882],
        'chatglm2-6b': [2.7622, 0.5021, 2.6708],
        'alpaca-7b': [2.5915, 0.4871, 2.2981],
      };
      for (const [model, [wr, se, dwr]] of Object.entries(expected)) {
        const rep = await judgeReport(d.db, { model, baseline: 'gpt4_1106_preview' });
        expect(rep.report.datasets).toEqual([]);
        const p = rep.report.pairwise[0];
        expect({
          model,
          baseline: p?.baseline,
          judge: p?.judge,
          n: p?.n,
          win_rate: Number(p?.win_rate.toFixed(4)),
          standard_error: Number(p?.standard_error.toFixed(4)),
          discrete_win_rate: Number(p?.discrete_win_rate.toFixed(4)),
        }).toEqual({
          model,
          baseline: 'gpt4_1106_preview',
          judge: 'weighted_alpaca_eval_gpt4_turbo',
          n: 805,
          win_rate: wr,
          standard_error: se,
          discrete_win_rate: dwr,
        });
      }
    },
  );

  it('bad files: named with the fix, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-judg-'));
    const f = join(dir, 'm.jsonl');
    writeFileSync(
      f,
      [
        '{"instruction":"hi","generator_1":"base","generator_2":"m9","annotator":"j","preference":2}',
        '{"instruction":"yo","generator_1":"base","generator_2":"m9","annotator":"j","preference":3}',
        '{"instruction":"yo","generator_1":"base","generator_2":"m9","annotator":"other","preference":1}',
      ].join('\n'),
    );
    await expect(
      importJudgments(d.db, { path: f, format: 'alpaca_eval', judge: 'j' }),
    ).rejects.toThrow(`${f}:2: "preference" must be in [1, 2]`);
    expect(await findModel(d.db, 'm9')).toBeUndefined();
    writeFileSync(
      f,
      '{"instruction":"hi","generator_1":"base","generator_2":"m9","annotator":"other","preference":2}\n',
    );
    await expect(
      importJudgments(d.db, { path: f, format: 'alpaca_eval', judge: 'j' }),
    ).rejects.toThrow(`${f}:1: annotator is "other" but --judge is "j"; pass --judge other`);
    await expect(
      importJudgments(d.db, { path: join(dir, 'nope'), format: 'gaokao', judge: 'j' }),
    ).rejects.toThrow(/nope: cannot read \(no such file\); check the path/);
  });

  it('a missing recorded preference is a judge failure, not a score', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-judg-'));
    const f = join(dir, 'm.jsonl');
    writeFileSync(
      f,
      [
        '{"instruction":"q1","generator_1":"base2","generator_2":"m8","preference":2}',
        '{"instruction":"q2","generator_1":"base2","generator_2":"m8","preference":null}',
        '{"instruction":"q3","generator_1":"base2","generator_2":"m8","preference":0}',
      ].join('\n'),
    );
    const r = await importJudgments(d.db, { path: f, format: 'alpaca_eval', judge: 'j2' });
    expect([r.judged, r.failed]).toEqual([2, 1]);
    const rep = await judgeReport(d.db, { model: 'm8' });
    expect(rep.report.pairwise).toEqual([
      {
        baseline: 'base2',
        judge: 'j2',
        n: 2,
        win_rate: 75,
        standard_error: 25,
        discrete_win_rate: 75,
      },
    ]);
    expect(rep.pairwiseFailed.get('base2/j2')).toBe(1);
    const m = await findModel(d.db, 'm8');
    const failed = await listJudgeScores(d.db, { modelId: m?.id ?? 0, status: 'failed' });
    expect(failed.map((x) => [x.failureCode, x.failureMessage])).toEqual([
      ['unparseable', 'no preference recorded'],
    ]);
  });
});
