/**
 * @module import/formats/gaokao-human
 * GAOKAO-Bench's human-graded subjective result files as upstream ships them (OpenLMLab/GAOKAO-Bench, commit
 * c214b47, `result/<model>_主观题/<model>_主观题_<run>/<model>_<keyword>.json` and `…_填空题…`):
 * `{keyword, [model_name,] example: [{index, year, category, score, question, answer, analysis, model_output,
 * correction_score: (number | null)[]}]}`, `correction_score` holding the teachers' scores (two per question;
 * `null` where a teacher gave none). Pure: text in, rows or `file:line: example[i].field: reason` out.
 *
 * The rules are upstream's scorer's (`Bench/SUB_score_evaluation.py`, `sub_score_eval` in `human` mode;
 * docs/scoring.md §3.5): a question's credit is the mean of its non-null teachers' scores rounded to 2 decimals;
 * a question with no score at all is skipped (in neither the credit nor the points); every entry of `example`
 * counts, so a question that appears twice (History 47 and 48 in every run) counts twice.
 */
import { z } from 'zod';
import { schemaMessage, schemaMessageIn } from '../../config/schema-messages.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import { tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';
import { gaokaoCredit } from './gaokao-judged.ts';
import { jsonSyntaxMessage, readJson } from './json-reader.ts';
import { capProblems } from './sniff.ts';

/** One teacher-graded answer. */
export interface GaokaoHumanRow {
  /**
   * `<keyword>/<index>`; a repeated entry of the same index gets `<keyword>/<index>#<occurrence>` (`#2` for the
   * second), so it is stored, and counted, once more as upstream counts it.
   */
  readonly key: string;
  readonly index: number;
  /** 1 for the first entry of this index in the file, 2 for a repeat, … */
  readonly occurrence: number;
  /** 1-based line where the entry starts. */
  readonly line: number;
  readonly year: string;
  readonly category: string;
  /** Points of the question. */
  readonly score: number;
  readonly question: string;
  readonly standardAnswer: string;
  readonly modelOutput: string;
  /** The teachers' scores as recorded, `null` where a teacher gave none. */
  readonly teacherScores: readonly (number | null)[];
  /** Mean of the non-null teachers' scores rounded to 2 decimals; null when there is none (skipped). */
  readonly credit: number | null;
}

/** One parsed file. */
export interface GaokaoHumanFile {
  readonly keyword: string;
  /** `model_name` when the file has one, else the file name's `<model>_` before `<keyword>.json`. */
  readonly model: string;
  readonly rows: readonly GaokaoHumanRow[];
}

const example = z.object({
  index: z.number().int().nonnegative(),
  year: z.union([z.string(), z.number()]).transform(String),
  category: z.string().default(''),
  score: z.number().positive(),
  question: z.string(),
  answer: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v.join('\n') : v))
    .default(''),
  model_output: z.string(),
  correction_score: z.array(z.number().nonnegative().nullable()),
});

const fileSchema = z
  .object({
    keyword: z.string().min(1).optional(),
    keywords: z.string().min(1).optional(),
    model_name: z.string().min(1).optional(),
    example: z.array(z.unknown()),
  })
  .refine((x) => x.keyword !== undefined || x.keywords !== undefined, {
    message: schemaMessage('cli.rows.humanNoKeyword'),
    path: ['keyword'],
  });

/** The model of a file named `<model>_<keyword>.json` (upstream's naming), or undefined. */
function modelFromFileName(file: string, keyword: string): string | undefined {
  const base = file.split(/[\\/]/).pop() ?? file;
  const suffix = `_${keyword}.json`;
  if (!base.endsWith(suffix) || base.length === suffix.length) return undefined;
  return base.slice(0, -suffix.length);
}

/**
 * Parses one human-graded subjective result file.
 * @param file the file's path: named in every problem, and its name gives the model when the file has no
 *   `model_name` (upstream's files have none: `gpt-3.5-turbo_2010-2022_History_Open-ended_Questions.json`).
 * @param locale the language of the problems (the command line's; default English).
 * @returns the file's rows in file order (repeats included), or every problem as `file:line: path: reason`.
 */
export function parseGaokaoHuman(
  text: string,
  file: string,
  locale: Locale = 'en',
): Result<GaokaoHumanFile, string[]> {
  const json = readJson(text);
  if (!json.ok) return fail([jsonSyntaxMessage(file, json.error, undefined, locale)]);
  const top = fileSchema.safeParse(json.value, zodParseOptions(locale));
  const at = `${file}:${json.lineOf('') ?? 1}`;
  if (!top.success) {
    return fail(
      top.error.issues.map((i) =>
        tc(locale, 'cli.rows.humanFile', {
          at,
          path: i.path.join('.') || tc(locale, 'cli.rows.topLevel'),
          msg: schemaMessageIn(i.message, locale),
          shape: '{keyword, example: [{index, score, model_output, correction_score: [...]}, ...]}',
        }),
      ),
    );
  }
  const keyword = (top.data.keyword ?? top.data.keywords) as string;
  const model = top.data.model_name ?? modelFromFileName(file, keyword);
  if (model === undefined) return fail([tc(locale, 'cli.rows.humanNoModel', { at, keyword })]);
  const errors: string[] = [];
  const rows: GaokaoHumanRow[] = [];
  const seen = new Map<number, number>();
  top.data.example.forEach((raw, i) => {
    const line = json.lineOf(`example.${i}`) ?? 1;
    const r = example.safeParse(raw, zodParseOptions(locale));
    if (!r.success) {
      for (const issue of r.error.issues.slice(0, 3)) {
        errors.push(
          tc(locale, 'cli.rows.at', {
            at: `${file}:${line}: example[${i}].${issue.path.join('.')}`,
            reason: issue.message,
          }),
        );
      }
      return;
    }
    const e = r.data;
    const occurrence = (seen.get(e.index) ?? 0) + 1;
    seen.set(e.index, occurrence);
    const given = e.correction_score.filter((x): x is number => x !== null);
    rows.push({
      key: occurrence === 1 ? `${keyword}/${e.index}` : `${keyword}/${e.index}#${occurrence}`,
      index: e.index,
      occurrence,
      line,
      year: e.year,
      category: e.category,
      score: e.score,
      question: e.question.trim(),
      standardAnswer: e.answer,
      modelOutput: e.model_output,
      teacherScores: e.correction_score,
      credit: gaokaoCredit(given),
    });
  });
  if (errors.length > 0) return fail(capProblems(errors, undefined, locale));
  return ok({ keyword, model, rows });
}

/**
 * Upstream's figures of parsed files (`sub_score_eval`, human mode): Σ credit and Σ points over the questions with
 * a score, every entry counted (repeats too), and their ratio.
 * @returns `earned` and `possible` in exam points, `rate` = earned / possible (null when nothing was scored),
 *   `questions` entries counted, `skipped` entries with no score.
 */
export function gaokaoHumanRate(files: readonly GaokaoHumanFile[]): {
  earned: number;
  possible: number;
  rate: number | null;
  questions: number;
  skipped: number;
} {
  let earned = 0;
  let possible = 0;
  let questions = 0;
  let skipped = 0;
  for (const f of files) {
    for (const r of f.rows) {
      questions++;
      if (r.credit === null) {
        skipped++;
        continue;
      }
      earned += r.credit;
      possible += r.score;
    }
  }
  return { earned, possible, rate: possible > 0 ? earned / possible : null, questions, skipped };
}
