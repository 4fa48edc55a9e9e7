/**
 * @module i18n/zod
 * zod's own validation messages (those a schema does not word itself) in a language of the catalogue: zod's
 * zh-CN locale for Chinese (https://zod.dev/error-customization, "Internationalization"), its default English
 * otherwise. zod's Chinese is written the catalogue's way (docs/architecture.md "Languages"): a value is quoted
 * “x”, not "x"; choices and keys are listed with 、 (`“a”、“b”`, not `"a"|"b"`); brackets and colons are
 * full-width (`出现未知的键：“u”`, not `出现未知的键(key): "u"`); a type is named in Chinese (`字符串`, not `string`).
 * Apart from i18n/cli.ts so that `zhujiu --help` does not load zod.
 */
import { z } from 'zod';
import { type CliMessageKey, isCliKey, listText, tc } from './cli.ts';
import type { Locale } from './index.ts';

const zodZh = z.locales.zhCN().localeError;

/** A value as zod's Chinese names it, quoted the Chinese way: `“x”` for a string, `3`, `10n`, `true` otherwise. */
function zhValue(v: unknown): string {
  if (typeof v === 'string') return `“${v}”`;
  if (typeof v === 'bigint') return `${v}n`;
  return String(v);
}

/** A type's name (zod's `string`, `boolean`, `undefined` …) in Chinese (`cli.zod.type.*`), else as zod names it. */
function zhType(name: string): string {
  const key = `cli.zod.type.${name}`;
  return isCliKey(key) ? tc('zh-CN', key as CliMessageKey) : name;
}

/**
 * zod's Chinese `text` with the catalogue's punctuation: straight-quoted values “x”, `(key)` / `(value)` dropped
 * (the sentence already says 键 / 值), `空值(null)` with full-width brackets, a half-width `: ` after Chinese as `：`,
 * no space between Chinese and a quote, and the English type names after 期望 / 实际接收 in Chinese (`期望字符串`).
 */
export function polishZodZh(text: string): string {
  return text
    .replace(/"([^"]*)"/gu, '“$1”')
    .replace(/”\|“/gu, '”、“')
    .replace(/”, “/gu, '”、“')
    .replace(/\((?:key|value)\)/gu, '')
    .replace(/空值\(null\)/gu, '空值（null）')
    .replace(/(\p{Script=Han}): ?/gu, '$1：')
    .replace(/(\p{Script=Han}) “/gu, '$1“')
    .replace(/” (\p{Script=Han})/gu, '”$1')
    .replace(/(期望|实际接收) ([a-z]+)/gu, (whole, word: string, type: string) => {
      const zh = zhType(type);
      return zh === type ? whole : `${word}${zh}`;
    })
    .replace(/(期望|实际接收) (?=\p{Script=Han})/gu, '$1');
}

/** zod's zh-CN error map, its messages written the catalogue's way ({@link polishZodZh}). */
const zhCN: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_value' && issue.values.length > 1)
    return tc('zh-CN', 'cli.zod.oneOf', {
      values: listText('zh-CN', issue.values.map(zhValue)),
    });
  if (issue.code === 'unrecognized_keys')
    return tc('zh-CN', 'cli.zod.unknownKeys', {
      keys: listText('zh-CN', issue.keys.map(zhValue)),
    });
  const said = zodZh(issue);
  if (said === undefined || said === null) return undefined;
  return polishZodZh(typeof said === 'string' ? said : said.message);
};

/**
 * The parse options that make zod say its messages in `locale` (`schema.safeParse(data, zodParseOptions(locale))`),
 * or undefined for English.
 */
export function zodParseOptions(locale: Locale): { error: z.core.$ZodErrorMap } | undefined {
  return locale === 'zh-CN' ? { error: zhCN } : undefined;
}
