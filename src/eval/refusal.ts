/**
 * @module eval/refusal
 * Why an evaluation run was not started or not cancelled, as a code and its parameters ({@link EvalRefusal}), and
 * its sentence in a language of the catalogue ({@link evalRefusalText}): chat shows it in the caller's language,
 * the command line in English (docs/architecture.md "Languages"). Each sentence names the input and the fix, in
 * the form of the surface that asked (`/eval …` in chat, `zhujiu eval …` on the command line).
 */
import { type ConfigFiles, DEFAULT_CONFIG_FILES } from '../config/files.ts';
import { type SuiteDescription, suiteDescription } from '../config/schema.ts';
import { missingKeyReason } from '../config/start-checks.ts';
import { AppError, type ErrorCode, type Said } from '../core/errors.ts';
import { shellWord } from '../core/shell-word.ts';
import { sayCli } from '../i18n/cli.ts';
import { type Locale, runStatusText, t } from '../i18n/index.ts';
import { meantMessage } from '../i18n/names.ts';

/** The surface a request came from: the fix is given in its form. */
export type EvalSurface = 'chat' | 'cli';

/** A run as a refusal names it. */
export interface RefusedRun {
  readonly id: number;
  readonly model: string;
  readonly suite: string;
  readonly status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  readonly done: number;
  readonly total: number;
}

/** Why a model cannot be called here: its key variable (config/models.yaml `api_key_env`) is unset or empty. */
export interface MissingKey {
  readonly variable: string;
  /** True when the variable is set to an empty value. */
  readonly empty: boolean;
}

/**
 * Why a run was refused (or not cancelled), with what its sentence names; `configFiles`: the config files read (their
 * sentences name them; default `config/…`).
 */
export type EvalRefusal = EvalRefusalKind & { readonly configFiles?: ConfigFiles };

/** The refusals without the config files. */
type EvalRefusalKind =
  /** `valid`: the evaluable suites, closest first (none: no suite is configured). */
  | { readonly code: 'unknown_suite'; readonly suite: string; readonly valid: readonly string[] }
  /** A configured suite whose datasets have no items of their own (comparative prompts answered by imports). */
  | {
      readonly code: 'suite_not_evaluable';
      readonly suite: string;
      readonly datasets: readonly { readonly name: string; readonly method: string }[];
      readonly description?: SuiteDescription | undefined;
      readonly runnable: readonly string[];
    }
  /** `valid`: the models that can be evaluated, closest first (none: no model at all). */
  | { readonly code: 'unknown_model'; readonly model: string; readonly valid: readonly string[] }
  | ({ readonly code: 'model_disabled'; readonly model: string } & MissingKey)
  /** An approved submission whose `api_key_env` is unset here. */
  | { readonly code: 'submission_key_unset'; readonly model: string; readonly variable: string }
  /** The suite has scoring datasets and no `judge.model` is configured. */
  | { readonly code: 'judge_missing'; readonly suite: string }
  /** `judge.model` names no OpenAI-compatible model of config/models.yaml. */
  | { readonly code: 'judge_not_openai'; readonly suite: string; readonly judge: string }
  | ({
      readonly code: 'judge_disabled';
      readonly suite: string;
      readonly judge: string;
    } & MissingKey)
  /** The model already has an active run of the suite, worked on by a process. */
  | { readonly code: 'run_active'; readonly run: RefusedRun }
  /** The suite's datasets could not be prepared: `message` is the preparation's own (files, folder, fix). */
  | {
      readonly code: 'suite_unprepared';
      readonly message: string;
      /** {@link message} as catalogue data, when the preparation built it so (said in the reader's language). */
      readonly said?: Said;
    }
  /** Dataset files of the suite are missing from the datasets folder `dir` (`files`: their paths there). */
  | {
      readonly code: 'files_missing';
      readonly suite: string;
      readonly dir: string;
      readonly files: readonly string[];
    }
  /**
   * The datasets folder `dir` itself is not a folder (every dataset file of the suite is missing): it does not
   * exist, or `file` is in its way (`dir` itself is a file, or a level above it is one: ENOTDIR).
   */
  | {
      readonly code: 'datasets_dir_missing';
      readonly suite: string;
      readonly dir: string;
      readonly file?: string;
    }
  | { readonly code: 'no_run'; readonly run: number }
  /** An approved submission has no suite to be queued on: none of `submissions.suites`, nor `fallback`, is runnable. */
  | { readonly code: 'no_submission_suites'; readonly fallback: string }
  /** Cancel of a run that is no longer active. */
  | { readonly code: 'run_finished'; readonly run: number; readonly status: RefusedRun['status'] };

/**
 * An AppError that is a refusal: thrown where the caller may be the command line or a worker (its message the
 * English sentence), caught by {@link EvalService} `start` to refuse a run with {@link refusal}.
 */
export class EvalRefusalError extends AppError {
  readonly refusal: EvalRefusal;

  constructor(code: ErrorCode, refusal: EvalRefusal) {
    super(code, evalRefusalText(refusal, 'en', 'cli'));
    this.refusal = refusal;
  }
}

/** The refusal of an unknown suite or model: the valid names, closest first, and a "did you mean". */
function unknownNameText(
  r: Extract<EvalRefusal, { code: 'unknown_suite' | 'unknown_model' }>,
  files: ConfigFiles,
  locale: Locale,
): string {
  if (r.code === 'unknown_suite')
    return r.valid.length === 0
      ? t(locale, 'evalRefusal.unknownSuite.none', { suite: r.suite, suites: files.suites })
      : t(locale, 'evalRefusal.unknownSuite', { suite: r.suite, valid: list(r.valid, locale) }) +
          meantMessage(r.suite, r.valid, locale);
  const p = { model: r.model, word: shellWord(r.model), models: files.models };
  return r.valid.length === 0
    ? t(locale, 'evalRefusal.unknownModel.none', p)
    : t(locale, 'evalRefusal.unknownModel', { ...p, valid: list(r.valid, locale) }) +
        meantMessage(r.model, r.valid, locale);
}

/** The refusal of a datasets folder that is not one: it does not exist, is a file, or lies under a file. */
function datasetsDirText(
  r: Extract<EvalRefusal, { code: 'datasets_dir_missing' }>,
  locale: Locale,
): string {
  if (r.file === undefined)
    return t(locale, 'evalRefusal.datasetsDirMissing', { suite: r.suite, dir: r.dir });
  return t(locale, 'evalRefusal.datasetsDirNotFolder', {
    suite: r.suite,
    dir: r.dir,
    what:
      r.file === r.dir
        ? t(locale, 'evalRefusal.datasetsDir.isFile')
        : t(locale, 'evalRefusal.datasetsDir.underFile', { file: r.file }),
  });
}

/** How to cancel a run on a surface: `/eval cancel 16` in chat, `zhujiu eval --cancel 16` on the command line. */
export function cancelForm(surface: EvalSurface, runId: number): string {
  return surface === 'chat' ? `/eval cancel ${runId}` : `zhujiu eval --cancel ${runId}`;
}

/**
 * The end of a sentence saying why a model's key is missing ("its API key variable QWEN_API_KEY
 * (config/models.yaml api_key_env) is not set"), in `locale` (default English, as the logs and the CLI say it).
 */
export function missingKeyText(
  k: MissingKey & { readonly configFiles?: ConfigFiles },
  locale: Locale = 'en',
): string {
  return missingKeyReason(
    k.variable,
    k.empty,
    locale,
    (k.configFiles ?? DEFAULT_CONFIG_FILES).models,
  );
}

/** The fix of a missing key on `surface`: export it and run the command again, or restart the bot. */
function keyFix(variable: string, surface: EvalSurface, locale: Locale): string {
  return surface === 'cli'
    ? t(locale, 'evalRefusal.fix.cli', { variable })
    : t(locale, 'evalRefusal.fix.chat');
}

/** A list of names in `locale` (`a, b`; `a、b`). */
function list(names: readonly string[], locale: Locale): string {
  return names.join(t(locale, 'board.list.sep'));
}

/** How to try a scoring suite again after setting `judge.model`, on a surface (`any`: a worker's log). */
function againText(surface: EvalSurface | 'any', locale: Locale): string {
  return t(locale, `evalRefusal.again.${surface}`);
}

/**
 * Why a suite with scoring datasets cannot run without an LLM judge (`judge.model`), in `locale`, with the way to
 * try again on `surface` (`any`: a worker's log, "start the run again").
 */
export function judgeMissingText(
  suite: string,
  surface: EvalSurface | 'any',
  locale: Locale = 'en',
  files: ConfigFiles = DEFAULT_CONFIG_FILES,
): string {
  return t(locale, 'evalRefusal.judgeMissing', {
    suite,
    again: againText(surface, locale),
    default: files.default,
    models: files.models,
  });
}

/** The sentence of a suite that eval cannot run (its datasets are compared in the arena, not scored). */
function notEvaluableText(
  r: Extract<EvalRefusal, { code: 'suite_not_evaluable' }>,
  locale: Locale,
): string {
  const datasets = r.datasets.map((d) =>
    t(locale, 'evalRefusal.dataset', {
      name: d.name,
      method: ['metrics', 'scoring', 'comparative'].includes(d.method)
        ? t(locale, `method.${d.method as 'metrics'}`)
        : d.method,
    }),
  );
  return t(locale, 'evalRefusal.notEvaluable', {
    suite: r.suite,
    datasets: list(datasets, locale),
    description: r.description
      ? t(locale, 'evalRefusal.notEvaluable.description', {
          description: suiteDescription(r.description, locale).replace(/\.$/u, ''),
        })
      : '',
    runnable:
      r.runnable.length > 0
        ? t(locale, 'evalRefusal.notEvaluable.runnable', { suites: list(r.runnable, locale) })
        : '',
  });
}

/**
 * The sentence of one refusal in `locale`, with the fix in the form of `surface` (model names in a command line are
 * quoted for the shell: core/shell-word.ts).
 */
export function evalRefusalText(r: EvalRefusal, locale: Locale, surface: EvalSurface): string {
  const files = r.configFiles ?? DEFAULT_CONFIG_FILES;
  switch (r.code) {
    case 'unknown_suite':
    case 'unknown_model':
      return unknownNameText(r, files, locale);
    case 'suite_not_evaluable':
      return notEvaluableText(r, locale);
    case 'model_disabled':
      return t(locale, 'evalRefusal.modelDisabled', {
        model: r.model,
        reason: missingKeyText(r, locale),
        fix: keyFix(r.variable, surface, locale),
      });
    case 'judge_disabled':
      return t(locale, 'evalRefusal.judgeDisabled', {
        suite: r.suite,
        judge: r.judge,
        reason: missingKeyText(r, locale),
        fix: keyFix(r.variable, surface, locale),
      });
    case 'submission_key_unset':
      return t(locale, 'evalRefusal.submissionKey', {
        model: r.model,
        variable: r.variable,
        fix: keyFix(r.variable, surface, locale),
      });
    case 'judge_missing':
      return judgeMissingText(r.suite, surface, locale, files);
    case 'judge_not_openai':
      return t(locale, 'evalRefusal.judgeNotOpenai', {
        suite: r.suite,
        judge: r.judge,
        default: files.default,
        models: files.models,
      });
    case 'run_active':
      return t(locale, 'evalRefusal.runActive', {
        id: r.run.id,
        model: r.run.model,
        suite: r.run.suite,
        status: runStatusText(r.run.status, locale),
        done: r.run.done,
        total: r.run.total || '?',
        cancel: cancelForm(surface, r.run.id),
      });
    case 'files_missing':
      return t(locale, 'evalRefusal.filesMissing', {
        suite: r.suite,
        n: r.files.length,
        dir: r.dir,
        files: list(r.files.slice(0, 5), locale),
        more:
          r.files.length > 5
            ? t(locale, 'evalRefusal.filesMissing.more', { n: r.files.length - 5 })
            : '',
      });
    case 'datasets_dir_missing':
      return datasetsDirText(r, locale);
    case 'suite_unprepared':
      return t(locale, 'evalRefusal.unprepared', {
        message: r.said && locale !== 'en' ? sayCli(locale, r.said) : r.message,
      });
    case 'no_run':
      return t(locale, 'eval.noRun', { n: r.run });
    case 'no_submission_suites':
      return t(locale, 'evalRefusal.noSubmissionSuites', { fallback: r.fallback });
    case 'run_finished':
      return t(locale, 'evalRefusal.runFinished', {
        id: r.run,
        status: runStatusText(r.status, locale),
      });
  }
}

/** The answer to a cancelled run, in `locale`: which run, and how far it got. */
export function cancelledText(
  run: Pick<RefusedRun, 'id' | 'model' | 'suite' | 'done' | 'total'>,
  locale: Locale,
): string {
  const { id, model, suite, done, total } = run;
  return t(locale, 'eval.cancelled', { id, model, suite, done, total });
}

/**
 * Every refusal of a request as one text, one line each (README "Command line": one line per problem); in chat one
 * message whose refusals are lines of their own, never run together on one line.
 */
export function evalRefusalsText(
  rs: readonly EvalRefusal[],
  locale: Locale,
  surface: EvalSurface,
): string {
  return rs.map((r) => evalRefusalText(r, locale, surface)).join('\n');
}
