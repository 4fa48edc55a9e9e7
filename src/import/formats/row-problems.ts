/**
 * @module import/formats/row-problems
 * A file's row problems (`FILE:LINE: reason`) as catalogue data ({@link Said}), so a reader that has no language
 * (the dataset loaders, eval/datasets) reports them and the command line says them in its own (i18n/cli.ts
 * `sayCli`). zod's own messages are said by the catalogue in both languages (i18n/zod.ts); a schema's own message
 * given through config/schema-messages.ts is said again from the catalogue.
 */
import type { z } from 'zod';
import { schemaMessageIn } from '../../config/schema-messages.ts';
import type { Said, SaidTexts } from '../../core/errors.ts';
import { said, sayCli } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';

/** What a problem's reason may be: a catalogue message, a text in each language, or text said as it is. */
export type Reason = Said | SaidTexts | string;

/** `AT: reason` (`AT` is `file:line`, or a file alone) as catalogue data. */
export function rowSaid(at: string, reason: Reason): Said {
  return said('cli.rows.at', { at, reason });
}

/** `reasons` joined by `; ` (Chinese `；`) as catalogue data; an empty list gives an empty text. */
export function joinSaid(reasons: readonly Reason[]): Said | string {
  const [first, ...rest] = reasons;
  if (first === undefined) return '';
  return rest.reduce<Reason>((a, b) => said('cli.rows.join', { a, b }), first) as Said | string;
}

/**
 * The messages of the schema issues `issues` of `value`, each in English and Chinese: zod's own said by the
 * catalogue (i18n/zod.ts) from a parse in each language (the same schema and value give the same issues in the same
 * order), a schema's own message said again from the catalogue (config/schema-messages.ts).
 */
export function issueTexts(
  schema: z.ZodType,
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
): SaidTexts[] {
  const again = (locale: Locale): readonly z.core.$ZodIssue[] => {
    const r = schema.safeParse(value, zodParseOptions(locale));
    return r.success ? [] : r.error.issues;
  };
  const en = again('en');
  const zh = again('zh-CN');
  return issues.map((issue, i) => ({
    texts: {
      en: schemaMessageIn(en[i]?.message ?? issue.message, 'en'),
      'zh-CN': schemaMessageIn(zh[i]?.message ?? issue.message, 'zh-CN'),
    },
  }));
}

/**
 * The issues of `value` against `schema` as `"path" message; …` (Chinese: `` `path` message；…``; the path left
 * out at the top level), as catalogue data.
 */
export function issuesSaid(
  schema: z.ZodType,
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
): Said | string {
  const texts = issueTexts(schema, value, issues);
  return joinSaid(
    issues.map((issue, i) => {
      const msg = texts[i] as SaidTexts;
      return issue.path.length === 0
        ? msg
        : said('cli.rows.issue', { key: issue.path.map(String).join('.'), msg });
    }),
  );
}

/** Row problems said in `locale`. */
export function sayRows(locale: Locale, problems: readonly Said[]): string[] {
  return problems.map((p) => sayCli(locale, p));
}
