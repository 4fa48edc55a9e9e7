/**
 * @module eval/start-error
 * Why a run could not start (eval/runner.ts `executeRun`: its model, suite, rubrics or judge could not be opened),
 * in every language of the catalogue, to be stored with the run (`eval_runs.error` the English, `error_texts` the
 * others) and shown later in the reader's language (eval/summary.ts `runErrorText`). A refusal (eval/refusal.ts
 * `EvalRefusalError`) and an error carrying catalogue data (core/errors `said`) are said in each language; any other
 * error keeps its message, in English only.
 */
import { isAppError } from '../core/errors.ts';
import { sayCli } from '../i18n/cli.ts';
import { LOCALES, type Locale } from '../i18n/index.ts';
import { EvalRefusalError, evalRefusalText, judgeMissingText } from './refusal.ts';

/** An error's text in English (`en`) and in each other language it could be said in (`others`, by locale). */
export interface ErrorTexts {
  readonly en: string;
  readonly others: Readonly<Record<string, string>> | null;
}

/** The text of `err` in `locale`, or undefined when it has no catalogue wording. */
function sayIn(err: unknown, locale: Locale): string | undefined {
  if (err instanceof EvalRefusalError) {
    const r = err.refusal;
    // A worker's run: "start the run again", not a command of one surface.
    return r.code === 'judge_missing'
      ? judgeMissingText(r.suite, 'any', locale, r.configFiles)
      : evalRefusalText(r, locale, 'cli');
  }
  if (isAppError(err) && err.said) {
    try {
      return sayCli(locale, err.said);
    } catch {
      return undefined; // not a command line message: the English is what there is
    }
  }
  return undefined;
}

/** Why a run could not start, in English and in the catalogue's other languages where it has their words. */
export function startErrorTexts(err: unknown): ErrorTexts {
  const en = sayIn(err, 'en') ?? (err instanceof Error ? err.message : String(err));
  const others: Record<string, string> = {};
  for (const locale of LOCALES) {
    if (locale === 'en') continue;
    const text = sayIn(err, locale);
    if (text !== undefined) others[locale] = text;
  }
  return { en, others: Object.keys(others).length > 0 ? others : null };
}
