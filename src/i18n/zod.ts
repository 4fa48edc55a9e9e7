/**
 * @module i18n/zod
 * zod's own validation messages (those a schema does not word itself) said by the catalogue (`cli.zod.*`) in the
 * reader's language, in words that fit what was checked (https://zod.dev/error-customization, "Error maps"): a
 * string is too short or too long in characters (`must not be empty`, 太短：至少 3 个字符), a list has too few or too
 * many items (项数太少), a number is too small or too large (不能小于 1, `must be greater than 0`), a value has the
 * wrong type (`must be a string, not a number`). None of zod's English ("Too small: expected string to have >=1
 * characters") and none of its own Chinese (数值过小 for a string) reaches a reader. Chinese is written the
 * catalogue's way (docs/architecture.md "Languages"): a value is quoted “x”, lists use 、, punctuation is full-width.
 * Apart from i18n/cli.ts so that `zhujiu --help` does not load zod.
 */
import type { z } from 'zod';
import { type CliMessageKey, isCliKey, listText, tc } from './cli.ts';
import type { Locale } from './index.ts';

/** An issue as an error map receives it (its `input` included). */
type RawIssue = Parameters<z.core.$ZodErrorMap>[0];

/** A value as a message quotes it in `locale`: `"x"` (“x” in Chinese) for a string, `3`, `10n`, `true` otherwise. */
function valueText(v: unknown, locale: Locale): string {
  if (typeof v === 'string') return locale === 'en' ? JSON.stringify(v) : `“${v}”`;
  if (typeof v === 'bigint') return `${v}n`;
  return String(v);
}

/** A type's name (zod's `string`, `int`, `undefined` …) in words in `locale` (`cli.zod.type.*`), else as zod names it. */
function typeText(name: string, locale: Locale): string {
  const key = `cli.zod.type.${name}`;
  return isCliKey(key) ? tc(locale, key as CliMessageKey) : name;
}

/** How a size or a bound of `origin` is worded: characters, items, bytes, a number or a date. */
type Measure = 'text' | 'list' | 'bytes' | 'number' | 'date';

/** The measure of a `too_small` / `too_big` issue's `origin`. */
function measureOf(origin: string): Measure {
  if (origin === 'string') return 'text';
  if (origin === 'array' || origin === 'set' || origin === 'map') return 'list';
  if (origin === 'file') return 'bytes';
  if (origin === 'date') return 'date';
  return 'number';
}

/** A bound as a message says it: a date as ISO 8601, a number as it is. */
function boundText(bound: number | bigint, measure: Measure): string | number {
  if (measure === 'date') return new Date(Number(bound)).toISOString();
  return typeof bound === 'bigint' ? `${bound}` : bound;
}

/**
 * A `too_small` (`side` min) or `too_big` (max) issue in words: a count (characters, items, bytes) as the least or
 * most allowed, an exclusive count bound turned into an inclusive one (counts are whole numbers), an empty string
 * or list as `must not be empty`; a number or date against its bound, exclusive or not.
 */
function sizeText(issue: RawIssue & { code: 'too_small' | 'too_big' }, locale: Locale): string {
  const min = issue.code === 'too_small';
  const raw = min ? issue.minimum : issue.maximum;
  const measure = measureOf(issue.origin);
  if (measure === 'number' || measure === 'date') {
    const n = boundText(raw, measure);
    if (issue.exact) return tc(locale, 'cli.zod.number.exact', { n });
    const which = `${measure === 'date' ? 'date' : 'number'}.${min ? 'min' : 'max'}${issue.inclusive === false ? 'Strict' : ''}`;
    return tc(locale, `cli.zod.${which}` as CliMessageKey, { n });
  }
  // Counts: an exclusive bound is the next whole count.
  const n = Number(raw) + (issue.inclusive === false && !issue.exact ? (min ? 1 : -1) : 0);
  if (min && n <= 1 && !issue.exact && measure !== 'bytes')
    return tc(locale, measure === 'text' ? 'cli.zod.text.empty' : 'cli.zod.list.empty');
  const side = issue.exact ? 'exact' : min ? 'min' : 'max';
  return tc(locale, `cli.zod.${measure}.${side}` as CliMessageKey, { n });
}

/** An `invalid_format` issue in words: the prefix, suffix or part a string needs, a URL, or the pattern it misses. */
function formatText(issue: RawIssue & { code: 'invalid_format' }, locale: Locale): string {
  const i = issue as unknown as Record<string, unknown>;
  if (issue.format === 'starts_with')
    return tc(locale, 'cli.zod.format.startsWith', { text: valueText(i.prefix, locale) });
  if (issue.format === 'ends_with')
    return tc(locale, 'cli.zod.format.endsWith', { text: valueText(i.suffix, locale) });
  if (issue.format === 'includes')
    return tc(locale, 'cli.zod.format.includes', { text: valueText(i.includes, locale) });
  if (issue.format === 'regex')
    return tc(locale, 'cli.zod.format.regex', { pattern: String(i.pattern ?? '') });
  if (issue.format === 'url') return tc(locale, 'cli.zod.format.url');
  return tc(locale, 'cli.zod.format.other', { format: issue.format });
}

/** What `input` is, as zod names types (`string`, `null`, `array`, `nan` …). */
function typeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (Number.isNaN(input)) return 'nan';
  return typeof input;
}

/**
 * A wrong type in words (`must be a string, not a number`), a value left out (`is missing: give a string`), or a
 * fraction where a whole number goes. `expected` is one type, or several (a union of types: `a string or a number`).
 */
function typeIssueText(expected: readonly string[], input: unknown, locale: Locale): string {
  const words = expected.map((e) => typeText(e, locale)).join(tc(locale, 'cli.zod.or'));
  if (input === undefined) return tc(locale, 'cli.zod.missing', { expected: words });
  if (expected.length === 1 && expected[0] === 'int' && typeof input === 'number')
    return tc(locale, 'cli.zod.wholeNumber', { value: String(input) });
  // A number or true/false is shown as it is (`not 3`), any other value by its type (`not a string`).
  if (typeof input === 'number' || typeof input === 'boolean')
    return tc(locale, 'cli.zod.typeValue', { expected: words, value: String(input) });
  return tc(locale, 'cli.zod.type', { expected: words, received: typeText(typeOf(input), locale) });
}

/**
 * An `invalid_union` issue in words: when every option refused the value's type alone, the types it may have
 * ({@link typeIssueText}); else that it matches none of the forms.
 */
function unionText(issue: RawIssue & { code: 'invalid_union' }, locale: Locale): string {
  const options = (issue as { errors?: readonly (readonly z.core.$ZodIssue[])[] }).errors ?? [];
  const types = options.map((o) =>
    o.length === 1 && o[0]?.code === 'invalid_type' && o[0].path.length === 0
      ? o[0].expected
      : undefined,
  );
  if (types.length > 0 && types.every((x) => x !== undefined))
    return typeIssueText([...new Set(types as string[])], issue.input, locale);
  return tc(locale, 'cli.zod.union');
}

/**
 * What zod found wrong, said in `locale` (see the module comment); every issue code has its words (an unknown one
 * is `is not valid`). The text follows the key it is about (`"item" must not be empty`, `` `item` 不能为空``).
 */
export function zodIssueText(issue: RawIssue, locale: Locale): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeIssueText([issue.expected], issue.input, locale);
    case 'invalid_value':
      return issue.values.length === 1
        ? tc(locale, 'cli.zod.is', { value: valueText(issue.values[0], locale) })
        : tc(locale, 'cli.zod.oneOf', {
            values: listText(
              locale,
              issue.values.map((v) => valueText(v, locale)),
            ),
          });
    case 'too_small':
    case 'too_big':
      return sizeText(issue, locale);
    case 'invalid_format':
      return formatText(issue, locale);
    case 'not_multiple_of':
      return tc(locale, 'cli.zod.multipleOf', { n: String(issue.divisor) });
    case 'unrecognized_keys':
      return tc(locale, 'cli.zod.unknownKeys', {
        n: issue.keys.length,
        keys: listText(
          locale,
          issue.keys.map((k) => valueText(k, locale)),
        ),
      });
    case 'invalid_key':
      return tc(locale, 'cli.zod.invalidKey');
    case 'invalid_element':
      return tc(locale, 'cli.zod.invalidElement');
    case 'invalid_union':
      return unionText(issue, locale);
    default:
      return tc(locale, 'cli.zod.invalid');
  }
}

/** The error map of each language ({@link zodIssueText}). */
const ERROR_MAPS: Readonly<Record<Locale, z.core.$ZodErrorMap>> = {
  en: (issue) => zodIssueText(issue, 'en'),
  'zh-CN': (issue) => zodIssueText(issue, 'zh-CN'),
};

/**
 * The parse options that make zod say its own messages in `locale` (`schema.safeParse(data,
 * zodParseOptions(locale))`); a schema's own message (`.min(1, 'must name the model')`) is kept as it is.
 */
export function zodParseOptions(locale: Locale): { error: z.core.$ZodErrorMap } {
  return { error: ERROR_MAPS[locale] };
}
