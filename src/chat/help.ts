/**
 * @module chat/help
 * Help texts built from the command specs the bot registers (bot/commands/specs.ts, the one list), so a command
 * added there is listed everywhere it can be typed, and no help is a copy kept by hand.
 */
import type { CommandSpec } from './port.ts';

/** One typed form of a command: `form` without the slash, and what it does. */
export interface CommandForm {
  readonly form: string;
  readonly what: string;
}

/**
 * The typed forms of a command: its `usage`, else its name and options in order (`<x>` required, `[x]`
 * optional) with its description.
 */
export function commandForms(spec: CommandSpec): readonly CommandForm[] {
  if (spec.usage && spec.usage.length > 0) return spec.usage;
  const opts = spec.options.map((o) => (o.required ? `<${o.name}>` : `[${o.name}]`));
  return [{ form: [spec.name, ...opts].join(' '), what: spec.description }];
}

/**
 * Help lines for the commands, one per form: `  /form  what`, the descriptions aligned at column `width` (a
 * longer form is followed by two spaces).
 * @param width column of the descriptions, characters (default 30).
 */
export function commandHelpLines(specs: Iterable<CommandSpec>, width = 30): string[] {
  const lines: string[] = [];
  for (const spec of specs) {
    for (const f of commandForms(spec)) {
      const head = `  /${f.form}`;
      lines.push(`${head.length + 2 <= width ? head.padEnd(width) : `${head}  `}${f.what}`);
    }
  }
  return lines;
}

/** The command names as a list in words: `/ask, /arena, … or /models`. */
export function commandNameList(specs: Iterable<CommandSpec>): string {
  const names = [...specs].map((s) => `/${s.name}`);
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} or ${names.at(-1) as string}`;
}
