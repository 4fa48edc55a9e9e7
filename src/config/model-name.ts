/**
 * @module config/model-name
 * The one rule for model names, shared by config/models.yaml (config/schema.ts), `--model` / `--judge` and every
 * import (`import outputs`, `import battles`, `import judgments`, GAOKAO-Bench files, `ratings --battles`). Its
 * phrases are the command line's `cli.modelName.*` messages; it loads only those (i18n/cli.ts), so the light
 * commands that read names load nothing heavy. Pure.
 */
import type { Said } from '../core/errors.ts';
import { said, sayCli } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';

/** Longest model name (characters): the database's limit (`models.name`, migrations/0001). */
export const MAX_MODEL_NAME_CHARS = 200;

/**
 * Characters a model name may not hold: Python's `str.isprintable()` rule (Unicode categories Cc control, Cf format,
 * Cs surrogate, Co private use, Cn unassigned, Zl / Zp line and paragraph separators, and every Zs space but
 * U+0020), so tabs, line breaks, zero-width and bidi-override characters are refused.
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

/** What breaks the model-name rule ({@link modelNameProblem}), as a code and what it names. */
export type ModelNameIssue =
  | { readonly code: 'empty' }
  | { readonly code: 'too_long'; readonly chars: number; readonly max: number }
  | { readonly code: 'blank' }
  /** `char`: the code point as `U+000A`. */
  | { readonly code: 'unprintable'; readonly char: string }
  | { readonly code: 'outer_space' };

/**
 * The one rule for model names, in every reader (config/models.yaml, `--model`, `--judge`, the model names inside
 * imported files): public names as they are, `GPT 3.5 Turbo (16k)`, `文心一言 4.0`, `Code Llama Instruct (13B)`:
 * 1–200 characters (code points; the database's limit) of printable text (no {@link NOT_PRINTABLE} character, so
 * no control characters or line breaks), with no space at either end.
 * @returns what breaks it, or undefined when the name is fine.
 */
export function modelNameIssue(name: string): ModelNameIssue | undefined {
  if (name.length === 0) return { code: 'empty' };
  const n = [...name].length;
  if (n > MAX_MODEL_NAME_CHARS) return { code: 'too_long', chars: n, max: MAX_MODEL_NAME_CHARS };
  if (name.trim() === '') return { code: 'blank' };
  const bad = NOT_PRINTABLE.exec(name);
  if (bad !== null) {
    const cp = bad[0].codePointAt(0) ?? 0;
    return { code: 'unprintable', char: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` };
  }
  if (name !== name.trim()) return { code: 'outer_space' };
  return undefined;
}

/**
 * {@link modelNameIssue} as a catalogue message (`cli.modelName.*`), a phrase to put after the name, or undefined
 * when the name is fine: for an error the command line says in its language (i18n/cli.ts `saidError`).
 */
export function modelNameSaid(name: string): Said | undefined {
  const issue = modelNameIssue(name);
  switch (issue?.code) {
    case undefined:
      return undefined;
    case 'too_long':
      return said('cli.modelName.tooLong', { n: issue.chars, max: issue.max });
    case 'unprintable':
      return said('cli.modelName.unprintable', { char: issue.char });
    case 'outer_space':
      return said('cli.modelName.outerSpace');
    case 'empty':
      return said('cli.modelName.empty');
    case 'blank':
      return said('cli.modelName.blank');
  }
}

/**
 * {@link modelNameSaid} in `locale` (English by default), as a phrase to put after the name (e.g. `starts or ends
 * with a space; remove it`), or undefined when the name is fine. Wherever a name is shown it is escaped for that
 * medium (HTML on the results page, Markdown in chat, text in the chart).
 */
export function modelNameProblem(name: string, locale: Locale = 'en'): string | undefined {
  const s = modelNameSaid(name);
  return s === undefined ? undefined : sayCli(locale, s);
}
