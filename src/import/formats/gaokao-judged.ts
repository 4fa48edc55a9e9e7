/**
 * @module import/formats/gaokao-judged
 * GAOKAO-Bench judged subjective result files (OpenLMLab/GAOKAO-Bench `Results/…_subjective_judged_by_…/*.json`):
 * `{keyword, model_name, teacher_model_name, example: [{index, year, category, score, question, standard_answer,
 * model_output, model_correction, model_correction_score: number[]}]}`. Pure: text in, rows or
 * `file: example[i].field: reason` out.
 *
 * The credit of an item follows GAOKAO-Bench's scorer exactly (docs/scoring.md §3.5): the mean of the recorded
 * grader scores rounded to 2 decimals; an item with no recorded score has no credit (a judge failure, never 0).
 * Credits above the item's points are kept as published (3 items in the GPT-4-0314 files), and flagged.
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../core/result.ts';
import { tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';
import { jsonSyntaxMessage, readJson } from './json-reader.ts';
import { capProblems } from './sniff.ts';

/** One judged answer. */
export interface GaokaoJudgedRow {
  /** `<keyword>/<index>` (the key the objective GAOKAO items use too). */
  readonly key: string;
  readonly index: number;
  readonly year: string;
  readonly category: string;
  /** Points of the question. */
  readonly score: number;
  readonly question: string;
  readonly standardAnswer: string;
  readonly modelOutput: string;
  /** The judge's ("teacher's") reply. */
  readonly correction: string;
  /** The recorded grader scores. */
  readonly graderScores: readonly number[];
  /** Mean of `graderScores` rounded to 2 decimals; null when none was recorded. */
  readonly credit: number | null;
}

/** One parsed file. */
export interface GaokaoJudgedFile {
  readonly keyword: string;
  readonly model: string;
  /** `teacher_model_name`, when the file records it. */
  readonly teacher?: string;
  readonly rows: readonly GaokaoJudgedRow[];
}

const example = z.object({
  index: z.number().int().nonnegative(),
  year: z.union([z.string(), z.number()]).transform(String),
  category: z.string().default(''),
  score: z.number().positive(),
  question: z.string(),
  standard_answer: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v.join('\n') : v)),
  model_output: z.string(),
  model_correction: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v.join('\n\n') : v)),
  model_correction_score: z.array(z.number().nonnegative()),
});

const fileSchema = z.object({
  keyword: z.string().min(1),
  model_name: z.string().min(1),
  teacher_model_name: z.string().min(1).optional(),
  example: z.array(z.unknown()),
});

/**
 * GAOKAO-Bench's per-question credit: the mean of the grader scores rounded to 2 decimals (null when there are
 * none).
 */
export function gaokaoCredit(scores: readonly number[]): number | null {
  if (scores.length === 0) return null;
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  return Math.round(mean * 100 + Number.EPSILON * 100) / 100;
}

/**
 * Parses one judged subjective result file.
 * @param locale the language of the problems (the command line's; default English).
 * @returns the file's rows, or every problem as `file: path: reason`.
 */
export function parseGaokaoJudged(
  text: string,
  file: string,
  locale: Locale = 'en',
): Result<GaokaoJudgedFile, string[]> {
  const json = readJson(text);
  if (!json.ok) return fail([jsonSyntaxMessage(file, json.error, undefined, locale)]);
  const top = fileSchema.safeParse(json.value, zodParseOptions(locale));
  if (!top.success) {
    return fail(
      top.error.issues.map((i) =>
        tc(locale, 'cli.rows.judgedFile', {
          file,
          path: i.path.join('.') || tc(locale, 'cli.rows.topLevel'),
          msg: i.message,
          shape: '{keyword, model_name, teacher_model_name, example: [...]}',
        }),
      ),
    );
  }
  const errors: string[] = [];
  const rows: GaokaoJudgedRow[] = [];
  const seen = new Set<number>();
  top.data.example.forEach((raw, i) => {
    const r = example.safeParse(raw, zodParseOptions(locale));
    if (!r.success) {
      for (const issue of r.error.issues.slice(0, 3)) {
        errors.push(
          tc(locale, 'cli.rows.at', {
            at: `${file}: example[${i}].${issue.path.join('.')}`,
            reason: issue.message,
          }),
        );
      }
      return;
    }
    const e = r.data;
    if (seen.has(e.index)) {
      errors.push(
        tc(locale, 'cli.rows.at', {
          at: `${file}: example[${i}].index`,
          reason: tc(locale, 'cli.rows.judgedTwice', { index: e.index }),
        }),
      );
      return;
    }
    seen.add(e.index);
    rows.push({
      key: `${top.data.keyword}/${e.index}`,
      index: e.index,
      year: e.year,
      category: e.category,
      score: e.score,
      question: e.question.trim(),
      standardAnswer: e.standard_answer,
      modelOutput: e.model_output,
      correction: e.model_correction,
      graderScores: e.model_correction_score,
      credit: gaokaoCredit(e.model_correction_score),
    });
  });
  if (errors.length > 0) return fail(capProblems(errors, undefined, locale));
  return ok({
    keyword: top.data.keyword,
    model: top.data.model_name,
    ...(top.data.teacher_model_name ? { teacher: top.data.teacher_model_name } : {}),
    rows,
  });
}
