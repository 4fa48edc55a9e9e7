/**
 * @module cli/help-text
 * The words of `zhujiu --help` and of its usage errors, in the command line's language (i18n `localeFromPosixEnv`
 * of the command's environment; docs/architecture.md "Languages"). Commands are declared in cli/index.ts without
 * descriptions: {@link describeCommands} gives each command, argument and option its text from the catalogue, found
 * by the command's path (`cli.<path>.description`, `cli.<path>.arg.<name>`, `cli.<path>.opt.<flag>`, i18n/en-cli.ts),
 * and fails naming the key when one is missing. Commander's own words go through its supported hooks:
 * {@link helpConfiguration} (`configureHelp`: titles, choices, defaults) and {@link localiseCommanderError}
 * (`configureOutput`'s `outputError`: the parse errors it writes).
 *
 * Light: cli/index.ts imports it statically, so it imports only the command line's part of the catalogue
 * (i18n/cli.ts) and `import type` of commander.
 */
import { stripVTControlCharacters } from 'node:util';
import { type Argument, type Command, Help, type Option } from 'commander';
import { type CliMessageKey, isCliKey, listText, tc as t } from '../i18n/cli.ts';
import { choiceNames, meantChoice } from '../i18n/display-names.ts';
import type { Locale, Params } from '../i18n/index.ts';
import { literalList, literalText } from '../i18n/quote.ts';
import { didYouMeanChoice } from '../text/edit-distance.ts';
import { textWidth, WIDE_CHARS } from './io.ts';

/**
 * Parameters of help texts that hold a shape users type or read as it is (a JSON object, a JSONL record): an
 * interface, the same in every language, so kept out of the words.
 */
const SHAPES: Readonly<Record<string, Params>> = {
  'cli.eval.opt.json': {
    shape:
      '{"run","model","suite","datasets":[{"dataset","ability","method","metric","profile","score","n","earned","possible","failures"}]}',
  },
  'cli.import.outputs.description': { shape: '{item, prompt, output}' },
  'cli.import.battles.description': { shape: '{model_a, model_b, winner}' },
  'cli.judge.agree.description': { shape: '{item, label}' },
  'cli.judge.agree.opt.json': {
    shape: '{"n","kappa","kappa_linear","kappa_quadratic","exact","within_one","confusion"}',
  },
  'cli.judge.export.description': {
    shape: '{"item": "<model> <dataset>/<key>", "label": <points>}',
  },
  'cli.judge.report.opt.json': { shape: '{"pairwise":[…],"datasets":[…]}' },
  'cli.suites.opt.json': { shape: '{"suites":[…]}' },
  'cli.datasets.build.opt.json': { shape: '{"out", "format", "builders":[…]}' },
  'cli.submissions.list.opt.json': {
    shape:
      '{"submissions":[{"id","name","base_url","model","description","organisation","licence","status","submitted_by","submitted_at","decided_by","decided_at","reason","api_key_env","runs"}]}',
  },
  'cli.submissions.approve.opt.json': {
    shape: '{"submission":{…as list},"runs":[{"suite","run"}],"refused":[{"suite","reason"}]}',
  },
  'cli.submissions.reject.opt.json': { shape: '{"submission":{…as list}}' },
  'cli.ratings.opt.battles': { shape: '{model_a, model_b, winner}' },
  'cli.ratings.opt.json': { shape: '{"models":[…]}' },
  'cli.leaderboard.opt.json': {
    board: '{"models":[…]}',
    card: '{"model","sv_rate","record","opponents","datasets"}',
    ability: '{"ability","models"}',
    method: '{"method","models"}',
  },
  'cli.votes.flagged.opt.json': {
    shape:
      '{"votes":[{"battle","battle_id","source","platform","voter","choice","flag","detail","cast_at"}]}',
  },
};

/** The help text of catalogue key `key` (a command's path); throws naming the key when the catalogue lacks it. */
function helpText(locale: Locale, key: string): string {
  if (!isCliKey(key))
    throw new Error(`the message catalogue has no help text "${key}" (add it to i18n/en-cli.ts)`);
  return t(locale, key, SHAPES[key] ?? {});
}

/**
 * Gives `cmd` and its subcommands, arguments and options their descriptions in `locale`, from the catalogue keys
 * of their paths (`cli` for the program itself, `cli.import.outputs` for `zhujiu import outputs`).
 * @throws Error naming the key when one is missing from the catalogue (a programming error: every help page is
 *   rendered in both languages by test/unit/cli/help-i18n.test.ts).
 */
export function describeCommands(cmd: Command, locale: Locale, path = 'cli'): void {
  cmd.description(helpText(locale, `${path}.description`));
  for (const a of cmd.registeredArguments as Argument[])
    a.description = helpText(locale, `${path}.arg.${a.name()}`);
  for (const o of cmd.options as Option[])
    o.description = helpText(locale, `${path}.opt.${o.name()}`);
  for (const sub of cmd.commands) describeCommands(sub, locale, `${path}.${sub.name()}`);
}

/** Commander's section titles, by its English word. */
const TITLES: Readonly<Record<string, CliMessageKey>> = {
  'Usage:': 'cli.help.usage',
  'Arguments:': 'cli.help.arguments',
  'Options:': 'cli.help.options',
  'Global Options:': 'cli.help.globalOptions',
  'Commands:': 'cli.help.commands',
};

/** `description (choices: …, default: …)` of an option or argument, in `locale`. */
function withExtras(
  locale: Locale,
  description: string,
  choices: readonly string[] | undefined,
  defaultValue: unknown,
  showDefault: boolean,
): string {
  const items: string[] = [];
  if (choices)
    items.push(
      t(locale, 'cli.help.choices', {
        choices: literalList(locale, choices),
      }),
    );
  if (defaultValue !== undefined && showDefault)
    items.push(t(locale, 'cli.help.default', { value: literalText(locale, defaultValue) }));
  if (items.length === 0) return description;
  const extra = t(locale, 'cli.help.extra', { items: items.join(t(locale, 'cli.help.sep')) });
  return description ? t(locale, 'cli.help.described', { description, extra }) : extra;
}

/** A Help to call commander's own formatters with (they read no state of it). */
const helper0 = new Help();

/** commander's `[options]` and `[command]` placeholders in `locale`. */
function placeholders(locale: Locale, text: string): string {
  if (locale === 'en') return text;
  return text
    .replaceAll('[options]', t(locale, 'cli.help.optionsPlaceholder'))
    .replaceAll('[command]', t(locale, 'cli.help.commandPlaceholder'));
}

/**
 * `configureHelp` settings that write commander's own help words (section titles, an option's choices and
 * default) in `locale`; commander's layout is kept.
 */
export function helpConfiguration(locale: Locale): Partial<Help> {
  return {
    // commander writes `Usage: zhujiu …`; after a full-width colon Chinese takes no space (`用法：zhujiu …`).
    formatHelp: (cmd: Command, helper: Help) => {
      const text = Help.prototype.formatHelp.call(helper, cmd, helper);
      const title = t(locale, 'cli.help.usage');
      return title.endsWith('：') && text.startsWith(`${title} `)
        ? title + text.slice(title.length + 1)
        : text;
    },
    // commander's placeholders in the usage line and the command list: `[options] [command]`.
    commandUsage: (cmd: Command) =>
      placeholders(locale, Help.prototype.commandUsage.call(helper0, cmd)),
    subcommandTerm: (cmd: Command) =>
      placeholders(locale, Help.prototype.subcommandTerm.call(helper0, cmd)),
    styleTitle: (title: string) => {
      const key = TITLES[title];
      return key ? t(locale, key) : title;
    },
    optionDescription: (o: Option) =>
      withExtras(
        locale,
        o.description,
        o.argChoices,
        o.defaultValue,
        o.required || o.optional || (o.isBoolean() && typeof o.defaultValue === 'boolean'),
      ),
    argumentDescription: (a: Argument) =>
      withExtras(locale, a.description, a.argChoices, a.defaultValue, true),
    // Columns as a terminal shows them (a Chinese character takes two), and lines that may break between Chinese
    // characters, which have no spaces between them: commander counts characters and breaks only at spaces.
    displayWidth: (str: string) => textWidth(stripVTControlCharacters(str)),
    boxWrap: (str: string, width: number) => wrapToWidth(str, width),
  };
}

/**
 * The pieces a line is wrapped by: one wide character (cli/io `WIDE_CHARS`) or a run of other characters, with the
 * closing punctuation after it (which never starts a line), each with the spaces before it.
 */
const CLOSING = '，。、；：！？）》」』';
const PIECE = new RegExp(`\\s*(?:[${WIDE_CHARS}]|[^\\s${WIDE_CHARS}]+)[${CLOSING}]*`, 'gu');

/**
 * `str` wrapped to `width` terminal columns, its own line breaks kept, as commander's `Help.boxWrap` does but also
 * between wide (Chinese) characters; text without them wraps exactly as commander wraps it. Below 40 columns
 * (commander's `minWidthToWrap`) it is left as it is.
 */
export function wrapToWidth(str: string, width: number): string {
  if (width < 40) return str;
  return str
    .split(/\r\n|\n/)
    .map((line) => {
      const pieces = line.match(PIECE);
      if (!pieces) return '';
      const out: string[] = [];
      let cur = pieces.shift() as string;
      for (const p of pieces) {
        if (textWidth(cur) + textWidth(p) <= width) cur += p;
        else {
          out.push(cur);
          cur = p.trimStart();
        }
      }
      out.push(cur);
      return out.join('\n');
    })
    .join('\n');
}

/** Commander's parse errors (commander 15's wording, lib/command.js), each with its catalogue key. */
const COMMANDER_ERRORS: readonly { re: RegExp; key: CliMessageKey; names: readonly string[] }[] = [
  { re: /^unknown option '(.*)'$/su, key: 'cli.usage.unknownOption', names: ['flag'] },
  { re: /^unknown command '(.*)'$/su, key: 'cli.usage.unknownCommand', names: ['command'] },
  { re: /^missing required argument '(.*)'$/su, key: 'cli.usage.missingArgument', names: ['arg'] },
  {
    re: /^option '(.*)' argument missing$/su,
    key: 'cli.usage.optionValueMissing',
    names: ['flag'],
  },
  {
    re: /^required option '(.*)' not specified$/su,
    key: 'cli.usage.requiredOption',
    names: ['flag'],
  },
  {
    re: /^too many arguments(?: for '(.*)')?\. Expected (\d+) arguments? but got (\d+): (.*)\.$/su,
    key: 'cli.usage.tooManyArguments',
    names: ['command', 'expected', 'got', 'args'],
  },
  {
    re: /^option '(.*)' argument '(.*)' is invalid\. (.*)$/su,
    key: 'cli.usage.invalidOptionValue',
    names: ['flag', 'value', 'why'],
  },
  {
    re: /^command-argument value '(.*)' is invalid for argument '(.*)'\. (.*)$/su,
    key: 'cli.usage.invalidArgument',
    names: ['value', 'arg', 'why'],
  },
];

/** Commander's "(Did you mean …?)" line, in `locale`. */
function suggestion(locale: Locale, line: string): string {
  const m = /^\(Did you mean (one of )?(.*)\?\)$/su.exec(line);
  if (!m) return line;
  return t(locale, m[1] ? 'cli.usage.didYouMeanOneOf' : 'cli.usage.didYouMean', {
    names: m[2] as string,
  });
}

/** The allowed values of commander's "Allowed choices are a, b." (the reason of an invalid value), if it is that. */
function allowedChoices(reason: string): string[] | undefined {
  const m = /^Allowed choices are (.*)\.$/su.exec(reason);
  return m ? (m[1] as string).split(', ') : undefined;
}

/**
 * The reason part of an invalid-value error: commander's "Allowed choices are a, b." (the abilities by their
 * display names in `locale`: i18n/display-names.ts `choiceNames`) or the parser's own.
 */
function why(locale: Locale, reason: string): string {
  const choices = allowedChoices(reason);
  return choices
    ? t(locale, 'cli.usage.allowedChoices', {
        choices: listText(locale, choiceNames(choices, locale)),
      })
    : reason;
}

/**
 * The "did you mean" line (in `locale`) of a value refused by a fixed list of `choices` when it looks like a
 * misspelt or shortened one (`cvs`, `alpaca`: text/edit-distance.ts `didYouMeanChoice`); for the abilities, of an
 * id or of a display name in either language, suggested as the name in `locale` or the id (i18n/display-names.ts
 * `meantChoice`). Undefined when none is close.
 */
export function choiceSuggestion(
  locale: Locale,
  value: string,
  choices: readonly string[],
): string | undefined {
  const name = meantChoice(value, choices, locale);
  return name === undefined ? undefined : t(locale, 'cli.usage.didYouMean', { names: name });
}

/**
 * A usage error as commander writes it (`error: unknown option '--x'\n(Did you mean --y?)\n`), in `locale`; a value
 * refused by a fixed list of choices gets the "did you mean" commander gives only to unknown options and commands
 * ({@link choiceSuggestion}).
 * Messages given to `cmd.error` by the commands are already in `locale` and only get the localised `error:`.
 * @param message commander's text, ending in a newline.
 */
export function localiseCommanderError(locale: Locale, message: string): string {
  const [first = '', ...rest] = message.trimEnd().split('\n');
  const body = first.replace(/^error: /u, '');
  let text = body;
  let meant: string | undefined;
  for (const e of COMMANDER_ERRORS) {
    const m = e.re.exec(body);
    if (!m) continue;
    const params: Record<string, string> = {};
    e.names.forEach((n, i) => {
      params[n] = m[i + 1] ?? '';
    });
    if (params.why !== undefined) {
      const choices = allowedChoices(params.why);
      if (choices) meant = choiceSuggestion(locale, params.value ?? '', choices);
      params.why = why(locale, params.why);
    }
    if (e.key === 'cli.usage.tooManyArguments')
      text = t(locale, params.command ? 'cli.usage.tooManyArgumentsFor' : e.key, {
        ...params,
        expected: Number(params.expected),
      });
    else text = t(locale, e.key, params);
    break;
  }
  const lines = [
    t(locale, 'cli.usage.error', { message: text }),
    ...(meant ? [meant] : []),
    ...rest.map((l) => suggestion(locale, l)),
  ];
  return `${lines.join('\n')}\n`;
}

/** The subcommand of `cmd` named (or aliased) `name`, if any. */
function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/**
 * The help page of the `help` command of `cmd` (`zhujiu help help`, `zhujiu help --help`): its usage (`zhujiu help
 * [command]`), what it does and its argument. commander's own `help` command is made apart from the program (no
 * parent, no help option), so the page is that of a twin added to `cmd` for it.
 * @throws CommanderError (the program's `exitOverride`), exit 0, after the page.
 */
function helpOfHelp(cmd: Command, locale: Locale): never {
  const own = (cmd as unknown as { _getHelpCommand(): Command | null })._getHelpCommand();
  const twin = cmd
    .command(own?.name() ?? 'help')
    .description(own?.description() ?? '')
    .argument('[command]', t(locale, 'cli.helpCommand.arg'));
  return twin.help();
}

/**
 * `zhujiu help TOPIC…` (also `zhujiu import help TOPIC`), looked at before commander parses `args` (the words after
 * `zhujiu`): a TOPIC that is no command there is refused as an unknown command is (commander showed the whole help
 * instead): `error: unknown command 'evl'` with its "did you mean" (text/edit-distance.ts `didYouMeanChoice`),
 * exit 2; `help import outputs` shows the help of `import outputs` (commander showed that of `import`); `help help`
 * and `help --help` show the help of `help` itself (commander refused the one, showed the whole help for the other).
 * Returns quietly when `args` asks for no help of a subcommand.
 * @throws CommanderError (the program's `exitOverride`): exit 2 for an unknown topic, 0 after a help page.
 */
export function helpTopics(program: Command, args: readonly string[], locale: Locale): void {
  let cmd = program;
  let i = 0;
  for (; i < args.length && !(args[i] === 'help' && cmd.commands.length > 0); i++) {
    const sub = subcommand(cmd, args[i] as string);
    if (!sub) return; // an option, an argument: commander's own parsing
    cmd = sub;
  }
  if (i >= args.length) return;
  let target = cmd;
  for (const topic of args.slice(i + 1)) {
    if (target === cmd && (topic === 'help' || topic === '--help' || topic === '-h'))
      helpOfHelp(cmd, locale);
    if (topic.startsWith('-')) return;
    const sub: Command | undefined = subcommand(target, topic);
    if (sub === undefined) {
      const names = target
        .createHelp()
        .visibleCommands(target)
        .map((c) => c.name());
      const meant = didYouMeanChoice(topic, names);
      target.error(
        `error: unknown command '${topic}'${meant ? `\n(Did you mean ${meant}?)` : ''}`,
        { exitCode: 2, code: 'commander.unknownCommand' },
      );
    } else target = sub;
  }
  if (target !== cmd) target.help();
}
