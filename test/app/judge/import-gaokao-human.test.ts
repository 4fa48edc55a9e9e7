/**
 * `zhujiu import judgments --format gaokao-human`: GAOKAO-Bench's teacher-graded subjective result files as
 * upstream ships them (commit c214b47, `result/gpt-3.5-turbo_主观题/…_1/`: `keyword` and `example` only, the model
 * in the file name, two teachers' `correction_score` per question, `null` where a teacher gave none), scored as
 * upstream's `sub_score_eval` (human mode) scores them: credit = mean of the non-null scores rounded to 2 decimals,
 * a question with no score skipped, a repeated question counted twice; then `judge agree` between the teachers and
 * an LLM judge on the same items.
 *
 * The entries keep upstream's indexes, points and teachers' scores (History 47 and 48 appear twice in every run;
 * Literary_Text_Reading 24 has [null, null]; the fill-in-the-blank files have one teacher, [x, null]); texts are
 * shortened.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gaokaoHumanRate, parseGaokaoHuman } from '../../../src/import/formats/gaokao-human.ts';
import type { Runtime } from '../../../src/main.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';

const HIST = '2010-2022_History_Open-ended_Questions';
const LIT = '2010-2022_Chinese_Language_Literary_Text_Reading';
const FIB = '2010-2022_Math_I_Fill-in-the-Blank';

const entry = (index: number, score: number, scores: (number | null)[], year = '2016') => ({
  year,
  category: '（新课标）',
  question: `题 ${index}（${score}分）`,
  answer: `答案 ${index}`,
  analysis: '',
  index,
  score,
  model_output: `回答 ${index}`,
  correction_score: scores,
});

/** Upstream's files: the keyword and the examples, nothing else (no model_name: it is in the file name). */
const FILES: Record<string, { keyword: string; example: ReturnType<typeof entry>[] }> = {
  [HIST]: {
    keyword: HIST,
    example: [
      entry(0, 26, [22, 21], '2010'),
      entry(47, 12, [5, 4]),
      entry(48, 25, [15, 13]),
      entry(47, 12, [5, 4]),
      entry(48, 25, [15, 13]),
    ],
  },
  [LIT]: { keyword: LIT, example: [entry(23, 6, [4, 3]), entry(24, 6, [null, null])] },
  [FIB]: { keyword: FIB, example: [entry(0, 5, [5, null]), entry(1, 5, [0, null])] },
};
// Upstream's arithmetic, entry by entry (round(mean(non-null), 2); [null, null] skipped; repeats counted):
// History 21.5 + 4.5 + 14 + 4.5 + 14 = 58.5 of 26 + 12 + 25 + 12 + 25 = 100; Literary 3.5 of 6 (24 skipped);
// Math_I 5 + 0 = 5 of 10. Total 67 of 116.
const EARNED = 67;
const POSSIBLE = 116;

/** An LLM judge's grades of the same answers, in GAOKAO-Bench's judged format (subjective_grade.py). */
const JUDGED = {
  keyword: HIST,
  model_name: 'gpt-3.5-turbo',
  teacher_model_name: 'gpt-4-1106-preview',
  example: [
    [0, 26, 20],
    [47, 12, 5],
    [48, 25, 10],
  ].map(([index, score, grade]) => ({
    index,
    year: '2016',
    category: '（新课标）',
    score,
    question: `题 ${index}（${score}分）`,
    standard_answer: `答案 ${index}`,
    model_output: `回答 ${index}`,
    model_correction: `【判分理由】… 【总分】${grade}分`,
    model_correction_score: [grade],
  })),
};

describe('GAOKAO-Bench human grades, imported as upstream ships them', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-gaokao-human-'));
  const run = join(tmp, 'gpt-3.5-turbo_主观题_1');
  const judged = join(tmp, 'judged');
  let db: TestDb;
  let rt: Runtime;
  const zhujiu = async (...args: string[]) => {
    const r = await inProcess(args, { rt });
    return { code: r.code, out: r.stdout, err: r.stderr };
  };
  beforeAll(async () => {
    mkdirSync(run);
    mkdirSync(judged);
    for (const [kw, f] of Object.entries(FILES))
      writeFileSync(join(run, `gpt-3.5-turbo_${kw}.json`), JSON.stringify(f, null, 4));
    writeFileSync(join(judged, `gpt-3.5-turbo_${HIST}.json`), JSON.stringify(JUDGED, null, 4));
    db = await freshDb('pglite');
    writeFileSync(join(tmp, 'default.yaml'), 'aggregation:\n  bootstrap: 0\n');
    rt = await runtimeOn(db, { ZHUJIU_CONFIG_DIR: tmp });
  });
  afterAll(async () => {
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("parses with upstream's rules: null scores skipped, the repeated questions counted twice", () => {
    const files = Object.entries(FILES).map(([kw, f]) => {
      const r = parseGaokaoHuman(JSON.stringify(f, null, 4), `gpt-3.5-turbo_${kw}.json`);
      if (!r.ok) throw new Error(r.reason.join('\n'));
      return r.value;
    });
    expect(files.map((f) => f.model)).toEqual(['gpt-3.5-turbo', 'gpt-3.5-turbo', 'gpt-3.5-turbo']);
    expect(files[0]!.rows.map((r) => [r.key, r.credit])).toEqual([
      [`${HIST}/0`, 21.5],
      [`${HIST}/47`, 4.5],
      [`${HIST}/48`, 14],
      [`${HIST}/47#2`, 4.5],
      [`${HIST}/48#2`, 14],
    ]);
    expect(files[1]!.rows.map((r) => r.credit)).toEqual([3.5, null]);
    expect(gaokaoHumanRate(files)).toEqual({
      earned: EARNED,
      possible: POSSIBLE,
      rate: EARNED / POSSIBLE,
      questions: 9,
      skipped: 1,
    });
  });

  it('import judgments --format gaokao-human stores them; judge report gives upstream’s figure; judge agree with an LLM judge on the same items', async () => {
    const imp = await zhujiu(
      'import',
      'judgments',
      run,
      '--format',
      'gaokao-human',
      '--judge',
      'gaokao-teachers',
    );
    expect(imp.code, imp.err).toBe(0);
    expect(imp.out).toContain(
      'imported 9 judge scores by gaokao-teachers for gpt-3.5-turbo from 3 files (8 judged, 1 judge failure; 9 written)',
    );
    const again = await zhujiu(
      'import',
      'judgments',
      run,
      '--format',
      'gaokao-human',
      '--judge',
      'gaokao-teachers',
    );
    expect(again.out).toContain('imported 9 judge scores'); // the same rows again, nothing added

    const rep = await zhujiu('judge', 'report', '--model', 'gpt-3.5-turbo', '--json');
    expect(rep.code, rep.err).toBe(0);
    // The maths file is its own dataset (reasoning, docs/scoring.md §1 "Ability map"); together they give
    // upstream's rate.
    const rows: { dataset: string; n: number; judged: number; earned: number; possible: number }[] =
      JSON.parse(rep.out).datasets;
    expect(rows.map((r) => r.dataset)).toEqual(['gaokao_subjective', 'gaokao_subjective_math']);
    expect(rows[0]).toMatchObject({
      rubric: 'gaokao_teacher@human',
      judge: 'gaokao-teachers',
      n: 7,
      judged: 6,
      failures: [{ item: `${LIT}/24`, reason: 'grade' }],
    });
    expect(rows[1]).toMatchObject({ rubric: 'gaokao_teacher@human', n: 2, judged: 2 });
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((t, r) => t + f(r), 0);
    expect([sum((r) => r.earned), sum((r) => r.possible)]).toEqual([EARNED, POSSIBLE]);
    expect(sum((r) => r.earned) / sum((r) => r.possible)).toBeCloseTo(0.5776, 4);

    // The wrong --format names the one that reads these files.
    const wrong = await zhujiu('import', 'judgments', run, '--format', 'gaokao', '--judge', 'x');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain(
      "look like GAOKAO-Bench human-graded result files (teachers' scores), not --format gaokao judgments; import them with `zhujiu import judgments",
    );
    expect(wrong.err).toContain('--format gaokao-human --judge NAME`');
    // Then judge agree: the teachers' and an LLM judge's grades on the same items (the teachers' import above first).
    const impJudge = await zhujiu(
      'import',
      'judgments',
      judged,
      '--format',
      'gaokao',
      '--judge',
      'gpt-4-1106-preview',
    );
    expect(impJudge.code, impJudge.err).toBe(0);
    const a = join(tmp, 'teachers.jsonl');
    const b = join(tmp, 'judge.jsonl');
    expect((await zhujiu('judge', 'export', '--judge', 'gaokao-teachers', '--out', a)).code).toBe(
      0,
    );
    expect(
      (await zhujiu('judge', 'export', '--judge', 'gpt-4-1106-preview', '--out', b)).code,
    ).toBe(0);
    const agree = await zhujiu('judge', 'agree', a, b, '--json');
    expect(agree.code, agree.err).toBe(0);
    const j = JSON.parse(agree.out);
    // joined on the three items both graded: teachers 21.5, 4.5, 14 against the judge's 20, 5, 10
    expect(j.n).toBe(3);
    expect(j.exact).toBe(0);
  });
});
