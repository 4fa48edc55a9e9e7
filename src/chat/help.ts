/**
 * @module chat/help
 * Help texts built from the command specs the bot registers (bot/commands/specs.ts, the one list), so a command
 * added there is listed everywhere it can be typed, and no help is a copy kept by hand. In the language asked
 * for (`help.*` of the message catalogue; default en); the forms themselves (`ask <prompt> [ability]`) are typed
 * the same in every language.
 */
import { type Locale, t } from '../i18n/index.ts';
import type { CommandSpec } from './port.ts';

/** One typed form of a command: `form` without the slash, and what it does. */
export interface CommandForm {
  readonly form: string;
  readonly what: string;
}

/**
 * The typed forms of a command in `locale`: its `usage`, else its name and options in order (`<x>` required,
 * `[x]` optional) with its description (its `descriptionLocalizations` entry for `locale` when it has one).
 */
export function commandForms(spec: CommandSpec, locale: Locale = 'en'): readonly CommandForm[] {
  if (spec.usage && spec.usage.length > 0)
    return spec.usage.map((u) => ({ form: u.form, what: t(locale, u.what) }));
  const opts = spec.options.map((o) => (o.required ? `<${o.name}>` : `[${o.name}]`));
  const what = spec.descriptionLocalizations?.[locale] ?? spec.description;
  return [{ form: [spec.name, ...opts].join(' '), what }];
}

/**
 * One help line: `  form  what`, the description at column `width` (a longer form is followed by two spaces).
 * @param width column of the descriptions, characters.
 */
export function helpLine(form: string, what: string, width = 30): string {
  const head = `  ${form}`;
  return `${head.length + 2 <= width ? head.padEnd(width) : `${head}  `}${what}`;
}

/**
 * Help lines for the commands, one per form: `  /form  what`, the descriptions aligned at column `width` (a
 * longer form is followed by two spaces), in `locale`.
 * @param width column of the descriptions, characters (default 30).
 */
export function commandHelpLines(
  specs: Iterable<CommandSpec>,
  width = 30,
  locale: Locale = 'en',
): string[] {
  const lines: string[] = [];
  for (const spec of specs)
    for (const f of commandForms(spec, locale)) lines.push(helpLine(`/${f.form}`, f.what, width));
  return lines;
}

/** The command names as a list in words, in `locale`: `/ask, /arena, … or /models` (zh-CN: `/ask、… 或 /models`). */
export function commandNameList(specs: Iterable<CommandSpec>, locale: Locale = 'en'): string {
  const names = [...specs].map((s) => `/${s.name}`);
  return names.length <= 1
    ? (names[0] ?? '')
    : t(locale, 'help.list.last', {
        init: names.slice(0, -1).join(t(locale, 'help.list.sep')),
        last: names.at(-1) as string,
      });
}
