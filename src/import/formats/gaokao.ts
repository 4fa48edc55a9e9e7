/**
 * @module import/formats/gaokao
 * GAOKAO-Bench objective files (OpenLMLab/GAOKAO-Bench): question files (`Data/Objective_Questions/<keyword>.json`,
 * `{keywords, example: [{year, category, question, answer: [...], analysis, index, score}]}`) and result files
 * (`<model>_<keyword>.json`, `{keyword, model_name, prompt, example: [{index, year, category, score, question,
 * standard_answer, analysis, model_output, model_answer}]}`). One parser for both: the question, the standard
 * answer, the points and, in result files, the raw `model_output`. Pure: text in, rows or `file:line: reason` out.
 *
 * Items are keyed `<keyword>/<index>` in the dataset `gaokao_<subject>` (GAOKAO-Bench's subject grouping), so the
 * suite `gaokao-objective` and an import of recorded outputs name the same items.
 */
import { z } from 'zod';
import { schemaMessage } from '../../config/schema-messages.ts';
import type { Said } from '../../core/errors.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import {
  GAOKAO_KEYWORD_TYPES,
  type GaokaoQuestionType,
  type GaokaoSubject,
  gaokaoSubjectOf,
} from '../../eval/metrics/gaokao.ts';
import { listSaid, said } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { jsonSyntaxSaid, readJson } from './json-reader.ts';
import { issueTexts, joinSaid, rowSaid, sayRows } from './row-problems.ts';
import { capProblems } from './sniff.ts';

/** One objective question (and, in a result file, one model's answer to it). */
export interface GaokaoRow {
  /** 1-based line where the example starts. */
  readonly line: number;
  /** `<keyword>/<index>`. */
  readonly key: string;
  readonly index: string;
  readonly year: string;
  readonly category: string;
  /** The question text, trimmed (what a person reads; the model is sent it with GAOKAO-Bench's prefix prompt). */
  readonly question: string;
  /** One letter (or letters, for multi-select) per sub-question. */
  readonly standardAnswer: readonly string[];
  /** Points per sub-question. */
  readonly score: number;
  /** The model's raw output (result files only). */
  readonly output?: string;
}

/** A parsed file. */
export interface GaokaoFile {
  readonly keyword: string;
  readonly subject: GaokaoSubject;
  readonly type: GaokaoQuestionType;
  /** `model_name` of a result file. */
  readonly modelName?: string;
  readonly rows: readonly GaokaoRow[];
}

/** The dataset name of a subject: `gaokao_<subject>`. */
export function gaokaoDatasetName(subject: GaokaoSubject): string {
  return `gaokao_${subject}`;
}

/**
 * The ZhuJiu ability of a GAOKAO-Bench dataset, by its name (Zhang et al., "ZhuJiu", §2.3.1 and §2.3.4;
 * docs/scoring.md §1 "Ability map"): the maths datasets (`gaokao_math_sci`, `gaokao_math_hum`,
 * `gaokao_subjective_math`) are reasoning, every other subject knowledge.
 */
export function gaokaoAbility(dataset: string): 'knowledge' | 'reasoning' {
  return /^gaokao_(math_|subjective_math$)/.test(dataset) ? 'reasoning' : 'knowledge';
}

const intLike = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]);
const example = z.object({
  index: intLike,
  year: z.union([z.string(), z.number()]).transform(String),
  category: z.string().default(''),
  question: z.string().min(1, schemaMessage('cli.outputs.nonEmpty')),
  answer: z
    .array(z.string().regex(/^[A-G]+$/, schemaMessage('cli.rows.gaokaoLetters')))
    .min(1)
    .optional(),
  standard_answer: z
    .array(z.string().regex(/^[A-G]+$/, schemaMessage('cli.rows.gaokaoLetters')))
    .min(1)
    .optional(),
  score: z.union([z.number().positive(), z.string().regex(/^\d+(\.\d+)?$/)]).transform(Number),
  model_output: z.string().optional(),
});
const fileShape = z.object({
  keyword: z.string().optional(),
  keywords: z.string().optional(),
  model_name: z.string().optional(),
  example: z.array(z.unknown()),
});

/**
 * Parses one GAOKAO-Bench objective question or result file.
 * @param text the file's contents.
 * @param file the name to show in errors.
 * @param requireOutput true for an import of model outputs: every example must carry `model_output`.
 * @param locale the language of the problems (the command line's; default English).
 * @returns the file, or the problems as `file:line: reason` (the first 20, then `… and N more problems (T in total)`).
 */
export function parseGaokaoFile(
  text: string,
  file: string,
  requireOutput = false,
  locale: Locale = 'en',
): Result<GaokaoFile, string[]> {
  const r = readGaokaoFile(text, file, requireOutput);
  return r.ok ? r : fail(capProblems(sayRows(locale, r.reason), undefined, locale));
}

/**
 * {@link parseGaokaoFile} with every problem as catalogue data (`file:line: reason`, not capped), for a reader that
 * has no language (the dataset loader, eval/datasets/gaokao.ts).
 */
export function readGaokaoFile(
  text: string,
  file: string,
  requireOutput = false,
): Result<GaokaoFile, Said[]> {
  const json = readJson(text);
  if (!json.ok) return fail([jsonSyntaxSaid(file, json.error)]);
  const shape = fileShape.safeParse(json.value);
  if (!shape.success) {
    return fail([
      rowSaid(
        `${file}:1`,
        said('cli.rows.gaokaoFile', { shape: '{"keywords" or "keyword", "example": [...]}' }),
      ),
    ]);
  }
  const keyword = shape.data.keyword ?? shape.data.keywords;
  if (keyword === undefined) return fail([rowSaid(`${file}:1`, said('cli.rows.gaokaoKeyword'))]);
  const type = GAOKAO_KEYWORD_TYPES[keyword];
  const subject = gaokaoSubjectOf(keyword);
  if (type === undefined || subject === undefined) {
    return fail([
      rowSaid(
        `${file}:1`,
        said('cli.rows.gaokaoUnknownKeyword', {
          keyword,
          keywords: listSaid(Object.keys(GAOKAO_KEYWORD_TYPES)),
        }),
      ),
    ]);
  }
  const { rows, problems } = gaokaoRows(
    shape.data.example,
    json.lineOf,
    file,
    keyword,
    requireOutput,
  );
  if (problems.length > 0) return fail(problems);
  return ok({
    keyword,
    subject,
    type,
    ...(shape.data.model_name !== undefined ? { modelName: shape.data.model_name } : {}),
    rows,
  });
}

/** The examples of a GAOKAO-Bench objective file as rows, and the problems of those that are not (catalogue data). */
function gaokaoRows(
  examples: readonly unknown[],
  lineOf: (path: string) => number | undefined,
  file: string,
  keyword: string,
  requireOutput: boolean,
): { rows: GaokaoRow[]; problems: Said[] } {
  const problems: Said[] = [];
  const rows: GaokaoRow[] = [];
  const seen = new Map<string, number>();
  examples.forEach((raw, i) => {
    const line = lineOf(`example.${i}`) ?? 1;
    const at = `${file}:${line}`;
    const problem = (reason: Said | string): void => {
      problems.push(rowSaid(at, said('cli.rows.gaokaoExample', { i, reason })));
    };
    const r = example.safeParse(raw);
    if (!r.success) {
      const texts = issueTexts(example, raw, r.error.issues);
      problem(
        joinSaid(
          r.error.issues.map((x, k) =>
            x.path.length === 0
              ? said('cli.outputs.rowIssue', { msg: texts[k] ?? x.message })
              : said('cli.rows.gaokaoIssue', {
                  key: x.path.join('.'),
                  msg: texts[k] ?? x.message,
                }),
          ),
        ),
      );
      return;
    }
    const standard = r.data.standard_answer ?? r.data.answer;
    if (standard === undefined) {
      problem(said('cli.rows.gaokaoAnswer'));
      return;
    }
    if (requireOutput && r.data.model_output === undefined) {
      problem(said('cli.rows.gaokaoOutput'));
      return;
    }
    const index = String(Number(r.data.index));
    const earlier = seen.get(index);
    if (earlier !== undefined) {
      problem(said('cli.rows.gaokaoRepeat', { index, line: earlier }));
      return;
    }
    seen.set(index, line);
    rows.push({
      line,
      key: `${keyword}/${index}`,
      index,
      year: r.data.year,
      category: r.data.category,
      question: r.data.question.trim(),
      standardAnswer: standard,
      score: r.data.score,
      ...(r.data.model_output !== undefined ? { output: r.data.model_output } : {}),
    });
  });
  return { rows, problems };
}
