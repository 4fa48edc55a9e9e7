/**
 * @module import/judgments
 * `zhujiu import judgments DIR|FILE --format gaokao|gaokao-human|alpaca_eval --judge NAME`: published judge outputs
 * (and GAOKAO-Bench's teachers' grades) become
 * stored judge scores, so published figures can be rebuilt without any endpoint. The judged models, items and
 * (for GAOKAO-Bench, which records them) answers are created as needed: nothing has to be imported first.
 * One transaction: a bad file fails the whole import and writes nothing; re-running changes nothing.
 */
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { modelNameProblem } from '../config/schema.ts';
import { AppError } from '../core/errors.ts';
import { cannotRead, readUtf8File } from '../core/utf8.ts';
import { judgeReasonEn } from '../eval/judge/failure-reason.ts';
import { said, saidError, tc } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import type { Locale } from '../i18n/index.ts';
import { ensureDataset, ensureItems, type ItemSpec } from '../storage/items.ts';
import { type JudgeScoreSpec, upsertJudgeScores } from '../storage/judge-scores.ts';
import { ensureModels } from '../storage/models.ts';
import { insertResponses } from '../storage/responses.ts';
import type { Database } from '../storage/schema.ts';
import { folderKindHints, recordedKindWords } from './folder-hint.ts';
import {
  type AlpacaAnnotationRow,
  parseAlpacaAnnotations,
} from './formats/alpaca-eval-annotations.ts';
import { importCommandFor, type RecordedFileKind, recordedFileKind } from './formats/file-kind.ts';
import { gaokaoAbility } from './formats/gaokao.ts';
import { type GaokaoHumanFile, parseGaokaoHuman } from './formats/gaokao-human.ts';
import { type GaokaoJudgedFile, parseGaokaoJudged } from './formats/gaokao-judged.ts';
import { capProblems, modelFlagError, nameShown, notJsonSaid } from './formats/sniff.ts';
import { RECORDED_REQUEST_HASH } from './outputs.ts';

/** Formats of recorded judgments. */
export type JudgmentsFormat = 'gaokao' | 'gaokao-human' | 'alpaca_eval';

/** The dataset GAOKAO-Bench's subjective questions are filed under, those of maths aside. */
export const GAOKAO_SUBJECTIVE_DATASET = 'gaokao_subjective';
/**
 * The dataset of GAOKAO-Bench's subjective maths questions (Math I / Math II files), reasoning in ZhuJiu's ability
 * map (docs/scoring.md §1 "Ability map"), as in config/suites/zhujiu-scoring.yaml.
 */
export const GAOKAO_SUBJECTIVE_MATH_DATASET = 'gaokao_subjective_math';

/** The dataset a GAOKAO-Bench subjective keyword (its file name) is filed under. */
export function gaokaoSubjectiveDataset(keyword: string): string {
  return /_Math_I{1,2}_/.test(keyword) ? GAOKAO_SUBJECTIVE_MATH_DATASET : GAOKAO_SUBJECTIVE_DATASET;
}

/**
 * Creates the missing datasets and items of GAOKAO-Bench subjective rows, each in the dataset of its keyword
 * ({@link gaokaoSubjectiveDataset}) with that dataset's ability; returns item key → id for all of them (keys
 * `<keyword>/<index>` are unique across the datasets).
 */
async function ensureGaokaoSubjectiveItems(
  trx: Kysely<Database>,
  source: string,
  rows: readonly (ItemSpec & { readonly keyword: string })[],
): Promise<Map<string, number>> {
  const byDataset = new Map<string, ItemSpec[]>();
  for (const { keyword, ...item } of rows) {
    const name = gaokaoSubjectiveDataset(keyword);
    const list = byDataset.get(name) ?? [];
    list.push(item);
    byDataset.set(name, list);
  }
  const out = new Map<string, number>();
  for (const [name, items] of byDataset) {
    const id = await ensureDataset(trx, {
      name,
      ability: gaokaoAbility(name),
      method: 'scoring',
      language: 'zh',
      source,
    });
    for (const [key, itemId] of await ensureItems(trx, id, items)) out.set(key, itemId);
  }
  return out;
}
/** The rubric name and version of GAOKAO-Bench's teacher prompt (without marking criteria). */
export const GAOKAO_RUBRIC = { name: 'gaokao_teacher', version: 'wo_marking_criterion' } as const;
/** The rubric name and version of GAOKAO-Bench's human grading (teachers, exam marking). */
export const GAOKAO_HUMAN_RUBRIC = { name: 'gaokao_teacher', version: 'human' } as const;
/** The rubric name of AlpacaEval's pairwise judge; its version is the annotator config name. */
export const ALPACA_RUBRIC = 'alpaca_eval_pairwise';

/** Options of a judgments import. */
export interface ImportJudgmentsOptions {
  /** A file, or a folder whose files of the format are all imported. */
  readonly path: string;
  /** Aborts the import (before its commit: nothing is written; it throws the signal's reason). */
  readonly signal?: AbortSignal;
  readonly format: JudgmentsFormat;
  /** The judge's name, as stored with every score (must match the judge the files name, when they do). */
  readonly judge: string;
  /** The language of the files' row problems (the command line's; default English). */
  readonly locale?: Locale;
}

/** What an import did. */
export interface ImportJudgmentsResult {
  readonly files: number;
  readonly rows: number;
  readonly judged: number;
  readonly failed: number;
  /** Models whose answers were judged (and baselines, for pairwise). */
  readonly models: readonly string[];
  /** Scores written (new or changed). */
  readonly written: number;
  /** GAOKAO items credited above their points as published (kept as published, listed here): key, credit, points. */
  readonly overMax: readonly {
    readonly key: string;
    readonly credit: number;
    readonly score: number;
  }[];
}

/**
 * The line for a folder with no file the `--format` reads: what its recorded files are (by their contents, not
 * their names) and the command that imports them, e.g. AlpacaEval's `model_outputs.json` → `zhujiu import outputs
 * FILE --model NAME` (never a `--format` that would fail on them too).
 */
async function emptyFolderHint(path: string, ext: string, locale: Locale): Promise<string> {
  const hints = await folderKindHints(path, [], locale);
  return hints.length > 0
    ? tc(locale, 'cli.judgments.noFilesBut', {
        path,
        ext,
        hints: hints.join(tc(locale, 'cli.outputs.sep')),
      })
    : tc(locale, 'cli.judgments.noFiles', { path, ext });
}

/**
 * Files that are not of the `--format` asked for but of a kind another command imports: one line per kind naming
 * the command that imports them (instead of one problem per row), e.g. `m/model_outputs.json: this looks like
 * AlpacaEval model outputs, not --format alpaca_eval judgments; import it with …`.
 */
class WrongKinds {
  readonly #format: JudgmentsFormat;
  readonly #locale: Locale;
  readonly #found = new Map<RecordedFileKind, string[]>();
  /** `locale`: the language of {@link WrongKinds.lines} (the command line's; default English). */
  constructor(format: JudgmentsFormat, locale: Locale = 'en') {
    this.#format = format;
    this.#locale = locale;
  }
  /** True (and noted) when `text` is of another known kind. */
  check(text: string, file: string): boolean {
    const kind = recordedFileKind(text);
    const fits =
      kind === 'unknown' ||
      (this.#format === 'gaokao'
        ? kind === 'gaokao_judged'
        : this.#format === 'gaokao-human'
          ? kind === 'gaokao_human'
          : kind === 'alpaca_annotations');
    if (fits) return false;
    this.#found.set(kind, [...(this.#found.get(kind) ?? []), file]);
    return true;
  }
  /** One line per kind found, in the locale given. */
  lines(): string[] {
    const locale = this.#locale;
    return [...this.#found].map(([kind, files]) => {
      const first = files[0]!;
      const cmd = importCommandFor(kind, first, dirname(first)) ?? '';
      // The kind's words say "not judgments" where other commands read them; here the line says it once.
      const words = recordedKindWords(kind, locale).replace(
        / \(not judgments\)|[;,] not judgments|（不是评审）|[；，]不是评审/u,
        '',
      );
      const params = { file: first, n: files.length, words, format: this.#format, cmd };
      return files.length === 1
        ? tc(locale, 'cli.judgments.otherKindOne', params)
        : tc(locale, 'cli.judgments.otherKindMany', params);
    });
  }
}

/**
 * Reads one file of judgments (UTF-8) and refuses one that cannot be JSON (a CSV table, text) with one error naming
 * it and what `--format` takes, said by the command line in its language, instead of a syntax error per line.
 * @throws AppError `import_invalid`.
 */
async function readJudgmentsFile(file: string, format: JudgmentsFormat): Promise<string> {
  const text = await readUtf8File(file, { code: 'import_invalid' });
  const takes =
    format === 'gaokao'
      ? said('cli.files.gaokaoFormat')
      : format === 'gaokao-human'
        ? said('cli.files.gaokaoHumanFormat')
        : said('cli.files.alpacaFormat', { shape: '{generator_1, generator_2, preference}' });
  const refusal = notJsonSaid(text, file, takes);
  if (refusal !== undefined) throw saidError('import_invalid', refusal);
  return text;
}

/**
 * The files an import reads: `path` itself when it is a file, else its `*ext` files (sorted).
 * @throws AppError `import_invalid` when `path` or the folder cannot be read (catalogue data), or when the folder
 *   has no such file (in `locale`, with what its recorded files are).
 */
async function listFiles(path: string, ext: string, locale: Locale = 'en'): Promise<string[]> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(path);
  } catch (err) {
    throw cannotRead(path, 'import_invalid', err);
  }
  if (!st.isDirectory()) return [path];
  const files: string[] = [];
  try {
    const names = (await readdir(path)).filter((n) => n.endsWith(ext)).sort();
    for (const n of names) {
      if ((await stat(join(path, n))).isFile()) files.push(join(path, n));
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw saidError(
      'import_invalid',
      said('cli.judgments.cannotReadFolder', { path, code: causeSaid(code) }),
      {
        cause: err,
      },
    );
  }
  if (files.length === 0)
    throw new AppError('import_invalid', await emptyFolderHint(path, ext, locale));
  return files;
}

/**
 * Imports recorded judgments.
 * @throws AppError `input_invalid` for a bad `--judge`; `import_invalid` naming `file:line` (or `file: path`) for
 *   every bad row, or when a file names another judge than `--judge` (nothing is written then).
 */
export async function importJudgments(
  db: Kysely<Database>,
  opts: ImportJudgmentsOptions,
): Promise<ImportJudgmentsResult> {
  const nameError = modelFlagError('--judge', opts.judge);
  if (nameError !== undefined) throw nameError;
  return opts.format === 'gaokao'
    ? importGaokao(db, opts)
    : opts.format === 'gaokao-human'
      ? importGaokaoHuman(db, opts)
      : importAlpaca(db, opts);
}

/**
 * GAOKAO-Bench's teachers' grades (docs/scoring.md §3.5): one judge score per entry of every file, under `--judge`
 * (the graders, e.g. `gaokao-teachers`) and the rubric `gaokao_teacher@human`; the answers are stored as the
 * model's recorded responses. A question with no teacher's score is a judge failure (skipped, as upstream skips
 * it); a repeated entry is its own item (`…#2`, counted again, as upstream counts it). Two files of one model and
 * keyword (two runs) in one import are refused: their grades would replace each other.
 */
async function importGaokaoHuman(
  db: Kysely<Database>,
  opts: ImportJudgmentsOptions,
): Promise<ImportJudgmentsResult> {
  const files = await listFiles(opts.path, '.json', opts.locale);
  const parsed: { file: string; value: GaokaoHumanFile }[] = [];
  const errors: string[] = [];
  const wrong = new WrongKinds(opts.format, opts.locale);
  const fileOf = new Map<string, string>();
  for (const f of files) {
    const text = await readJudgmentsFile(f, opts.format);
    if (wrong.check(text, f)) continue;
    const r = parseGaokaoHuman(text, f, opts.locale);
    if (!r.ok) {
      errors.push(...r.reason);
      continue;
    }
    const k = `${r.value.model}\u0000${r.value.keyword}`;
    const other = fileOf.get(k);
    if (other !== undefined) {
      const { model, keyword } = r.value;
      errors.push(
        tc(opts.locale ?? 'en', 'cli.rows.humanTwice', { file: f, model, keyword, other }),
      );
      continue;
    }
    fileOf.set(k, f);
    parsed.push({ file: f, value: r.value });
  }
  errors.unshift(...wrong.lines());
  refuseProblems(errors, opts.locale);
  checkModelNames(
    parsed.map(({ file, value }) => ({ at: `${file}:1`, model: value.model })),
    opts.locale,
  );
  const models = [...new Set(parsed.map((p) => p.value.model))];
  opts.signal?.throwIfAborted();
  return db.transaction().execute(async (trx) => {
    const modelIds = await ensureModels(trx, models, 'recorded');
    const all = parsed.flatMap((p) => p.value.rows.map((r) => ({ file: p.value, row: r })));
    const itemIds = await ensureGaokaoSubjectiveItems(
      trx,
      opts.path,
      [...new Map(all.map((x) => [x.row.key, x])).values()].map(({ file, row }) => ({
        keyword: file.keyword,
        key: row.key,
        prompt: row.question,
        reference: row.standardAnswer,
        metadata: {
          keyword: file.keyword,
          year: row.year,
          category: row.category,
          score: row.score,
          ...(row.occurrence > 1 ? { repeat_of: `${file.keyword}/${row.index}` } : {}),
        },
      })),
    );
    return storeGradedAnswers(trx, all, modelIds, itemIds, {
      judge: opts.judge,
      files: files.length,
      models,
      signal: opts.signal,
      rubric: GAOKAO_HUMAN_RUBRIC,
      noScore: {
        code: 'no_score',
        message: judgeReasonEn({ kind: 'noTeacherScore' }),
      },
      judgeOutput: (row) => ({ teacher_scores: row.teacherScores }),
    });
  });
}

async function importGaokao(
  db: Kysely<Database>,
  opts: ImportJudgmentsOptions,
): Promise<ImportJudgmentsResult> {
  const files = await listFiles(opts.path, '.json', opts.locale);
  const parsed: GaokaoJudgedFile[] = [];
  const errors: string[] = [];
  const wrong = new WrongKinds(opts.format, opts.locale);
  for (const f of files) {
    const text = await readJudgmentsFile(f, opts.format);
    if (wrong.check(text, f)) continue;
    const r = parseGaokaoJudged(text, f, opts.locale);
    if (!r.ok) {
      errors.push(...r.reason);
      continue;
    }
    if (r.value.teacher !== undefined && r.value.teacher !== opts.judge) {
      errors.push(judgeDiffers(opts, f, 'teacher_model_name', r.value.teacher));
      continue;
    }
    parsed.push(r.value);
  }
  errors.unshift(...wrong.lines());
  refuseProblems(errors, opts.locale);
  const models = [...new Set(parsed.map((p) => p.model))];
  checkModelNames(
    parsed.map((p, i) => ({ at: `${files[i] ?? opts.path}:1`, key: 'model_name', model: p.model })),
    opts.locale,
  );
  opts.signal?.throwIfAborted();
  return db.transaction().execute(async (trx) => {
    const modelIds = await ensureModels(trx, models, 'recorded');
    const all = parsed.flatMap((p) => p.rows.map((r) => ({ file: p, row: r })));
    const itemIds = await ensureGaokaoSubjectiveItems(
      trx,
      opts.path,
      all.map(({ file, row }) => ({
        keyword: file.keyword,
        key: row.key,
        prompt: row.question,
        reference: row.standardAnswer,
        metadata: {
          keyword: file.keyword,
          year: row.year,
          category: row.category,
          score: row.score,
        },
      })),
    );
    return storeGradedAnswers(trx, all, modelIds, itemIds, {
      judge: opts.judge,
      files: files.length,
      models,
      signal: opts.signal,
      rubric: GAOKAO_RUBRIC,
      noScore: { code: 'unparseable', message: judgeReasonEn({ kind: 'noGraderScore' }) },
      judgeOutput: (row, graded) =>
        graded
          ? {
              correction: row.correction,
              grader_scores: row.graderScores,
              ...(row.credit !== null && row.credit > row.score
                ? { published_above_max: true }
                : {}),
            }
          : { correction: row.correction },
    });
  });
}

async function importAlpaca(
  db: Kysely<Database>,
  opts: ImportJudgmentsOptions,
): Promise<ImportJudgmentsResult> {
  const files = await listFiles(opts.path, '.jsonl', opts.locale);
  const rows: AlpacaAnnotationRow[] = [];
  const fileOf = new Map<AlpacaAnnotationRow, string>();
  const errors: string[] = [];
  const wrong = new WrongKinds(opts.format, opts.locale);
  for (const f of files) {
    const text = await readJudgmentsFile(f, opts.format);
    if (wrong.check(text, f)) continue;
    const r = parseAlpacaAnnotations(text, f, opts.locale);
    if (!r.ok) {
      errors.push(...r.reason);
      continue;
    }
    const other = r.value.find((x) => x.annotator !== undefined && x.annotator !== opts.judge);
    if (other) {
      errors.push(judgeDiffers(opts, `${f}:${other.line}`, 'annotator', other.annotator as string));
      continue;
    }
    rows.push(...r.value);
    for (const x of r.value) fileOf.set(x, f);
  }
  const seen = new Set<string>();
  for (const r of rows) {
    const k = `${r.model}\u0000${r.baseline}\u0000${r.key}`;
    if (seen.has(k)) {
      const { model, baseline, line } = r;
      const at = { path: opts.path, model, baseline, line };
      errors.push(tc(opts.locale ?? 'en', 'cli.rows.annTwiceFiles', at));
      break;
    }
    seen.add(k);
  }
  errors.unshift(...wrong.lines());
  refuseProblems(errors, opts.locale);
  const models = [...new Set(rows.flatMap((r) => [r.model, r.baseline]))];
  checkModelNames(
    rows.flatMap((r) => {
      const at = `${fileOf.get(r) ?? opts.path}:${r.line}`;
      return [
        { at, key: 'generator_2', model: r.model },
        { at, key: 'generator_1', model: r.baseline },
      ];
    }),
    opts.locale,
  );
  opts.signal?.throwIfAborted();
  return db.transaction().execute(async (trx) => {
    const modelIds = await ensureModels(trx, models, 'external');
    const datasetId = await ensureDataset(trx, {
      name: 'alpaca_eval',
      ability: 'language',
      method: 'comparative',
      language: 'en',
      source: opts.path,
    });
    const firstOfKey = [...new Map(rows.map((r) => [r.key, r])).values()];
    const itemIds = await ensureItems(
      trx,
      datasetId,
      firstOfKey.map((r) => ({
        key: r.key,
        prompt: r.instruction,
        metadata: r.subset ? { subset: r.subset } : {},
      })),
    );
    const specs: JudgeScoreSpec[] = rows.map((r) => {
      const base = {
        modelId: modelIds.get(r.model) as number,
        baselineModelId: modelIds.get(r.baseline) as number,
        itemId: itemIds.get(r.key) as number,
        judge: opts.judge,
        rubric: ALPACA_RUBRIC,
        rubricVersion: r.annotator ?? opts.judge,
        source: 'import' as const,
        attempts: 0,
      };
      return r.preference === null
        ? {
            ...base,
            status: 'failed' as const,
            failureCode: 'unparseable',
            failureMessage: judgeReasonEn({ kind: 'noPreference' }),
          }
        : { ...base, status: 'judged' as const, preference: r.preference };
    });
    const written = await upsertJudgeScores(trx, specs);
    const failed = specs.filter((s) => s.status === 'failed').length;
    opts.signal?.throwIfAborted(); // the last chance to roll back: after this the transaction commits
    return {
      files: files.length,
      rows: specs.length,
      judged: specs.length - failed,
      failed,
      models: [...new Set(rows.map((r) => r.model))],
      written,
      overMax: [],
    };
  });
}

/** A graded answer of a GAOKAO-Bench result file: its item key, the credit given (null: none recorded), the maximum. */
interface GradedRow {
  readonly key: string;
  readonly credit: number | null;
  readonly score: number;
  readonly modelOutput: string;
}

/**
 * Stores the model's answers of graded rows (as recorded outputs) and their judge scores: `judged` with the credit
 * out of the question's maximum, or `failed` with `noScore` where no credit is recorded.
 * @returns the import's result, `overMax` listing the items whose credit is above the maximum (key, credit, maximum).
 * @throws the abort reason when `o.signal` is aborted before the transaction commits.
 */
async function storeGradedAnswers<R extends GradedRow>(
  trx: Kysely<Database>,
  all: readonly { file: { model: string }; row: R }[],
  modelIds: ReadonlyMap<string, number>,
  itemIds: ReadonlyMap<string, number>,
  o: {
    judge: string;
    /** Files read and models found, for the result. */
    files: number;
    models: readonly string[];
    signal?: AbortSignal | undefined;
    rubric: { readonly name: string; readonly version: string };
    noScore: { code: string; message: string };
    judgeOutput: (row: R, graded: boolean) => Record<string, unknown>;
  },
): Promise<ImportJudgmentsResult> {
  await insertResponses(
    trx,
    all.map(({ file, row }) => ({
      modelId: modelIds.get(file.model) as number,
      itemId: itemIds.get(row.key) as number,
      requestHash: RECORDED_REQUEST_HASH,
      output: row.modelOutput,
      source: 'import',
    })),
  );
  const overMax: { key: string; credit: number; score: number }[] = [];
  const specs: JudgeScoreSpec[] = all.map(({ file, row }) => {
    const base = {
      modelId: modelIds.get(file.model) as number,
      itemId: itemIds.get(row.key) as number,
      judge: o.judge,
      rubric: o.rubric.name,
      rubricVersion: o.rubric.version,
      source: 'import' as const,
      attempts: 0,
    };
    if (row.credit === null) {
      return {
        ...base,
        status: 'failed' as const,
        failureCode: o.noScore.code,
        failureMessage: o.noScore.message,
        judgeOutput: o.judgeOutput(row, false),
      };
    }
    if (row.credit > row.score)
      overMax.push({ key: row.key, credit: row.credit, score: row.score });
    return {
      ...base,
      status: 'judged' as const,
      rawScore: row.credit,
      maxScore: row.score,
      judgeOutput: o.judgeOutput(row, true),
    };
  });
  const written = await upsertJudgeScores(trx, specs);
  const failed = specs.filter((x) => x.status === 'failed').length;
  o.signal?.throwIfAborted(); // the last chance to roll back: after this the transaction commits
  return {
    files: o.files,
    rows: specs.length,
    judged: specs.length - failed,
    failed,
    models: o.models,
    written,
    overMax,
  };
}

/** Refuses the import with `errors` (the first 20, then how many more) in `locale`, when there are any. */
function refuseProblems(errors: readonly string[], locale: Locale = 'en'): void {
  if (errors.length > 0)
    throw new AppError('import_invalid', capProblems(errors, undefined, locale).join('\n'));
}

/**
 * Refuses the first model name the model-name rule rejects (config/model-name.ts), in `locale`: at `at`, under the
 * file's `key`, or taken from the file when `key` is absent.
 */
function checkModelNames(
  names: readonly { at: string; key?: string; model: string }[],
  locale: Locale = 'en',
): void {
  for (const { at, key, model } of names) {
    const problem = modelNameProblem(model, locale);
    if (problem === undefined) continue;
    const name = nameShown(model);
    throw new AppError(
      'import_invalid',
      key === undefined
        ? tc(locale, 'cli.rows.modelFromFile', { at, model: name, problem })
        : tc(locale, 'cli.rows.nameInFile', { at, key, model: name, problem }),
    );
  }
}

/** `AT: KEY is "NAMED" but --judge is "JUDGE"; pass --judge NAMED`, in the import's language. */
function judgeDiffers(
  opts: Pick<ImportJudgmentsOptions, 'judge' | 'locale'>,
  at: string,
  key: string,
  named: string,
): string {
  return tc(opts.locale ?? 'en', 'cli.rows.judgeDiffers', { at, key, named, judge: opts.judge });
}
