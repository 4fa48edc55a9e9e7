/**
 * @module bot/commands/specs
 * The slash commands the bot offers: the one list behind registration (Discord), the Slack app manifest, and every
 * help text (the terminal's `help`, the answer to an unknown command).
 */

import type { CommandOptionSpec, CommandSpec } from '../../chat/port.ts';
import { ABILITIES } from '../../config/schema.ts';
import { type MessageKey, t } from '../../i18n/index.ts';

/** Discord's locale code of the catalogue's Chinese (discord.com/developers/docs/reference#locales). */
const ZH = 'zh-CN';

/** A command's name and description from the catalogue (`key`, `key.name`): English, with its zh-CN localisations. */
function command(
  name: string,
  key: MessageKey,
): Pick<CommandSpec, 'name' | 'description' | 'nameLocalizations' | 'descriptionLocalizations'> {
  return {
    name,
    description: t('en', key),
    nameLocalizations: { [ZH]: t('zh-CN', `${key}.name` as MessageKey) },
    descriptionLocalizations: { [ZH]: t('zh-CN', key) },
  };
}

/** An option described by the catalogue's `key`, in English with its zh-CN localisation. */
function option(
  name: string,
  key: MessageKey,
  more: Partial<CommandOptionSpec> = {},
): CommandOptionSpec {
  return {
    name,
    description: t('en', key),
    descriptionLocalizations: { [ZH]: t('zh-CN', key) },
    ...more,
  };
}

/**
 * The abilities as an option's choices: the ids (what the handlers get), each shown to a Chinese Discord user under
 * its Chinese display name (`ability.*`).
 */
const ABILITY_CHOICES: Partial<CommandOptionSpec> = {
  choices: ABILITIES,
  choiceLocalizations: Object.fromEntries(
    ABILITIES.map((a) => [a, { [ZH]: t('zh-CN', `ability.${a}`) }]),
  ),
};

/**
 * An option's fixed choices: the values (what the handlers get, and the English name), each shown to a Chinese
 * Discord user under the catalogue's `<key>.choice.<value>`.
 */
function choicesOf(key: MessageKey, values: readonly string[]): Partial<CommandOptionSpec> {
  return {
    choices: values,
    choiceLocalizations: Object.fromEntries(
      values.map((v) => [v, { [ZH]: t('zh-CN', `${key}.choice.${v}` as MessageKey) }]),
    ),
  };
}

/** Every command, in help order. `/arena` is maintainer-only: posting on demand could flood a channel. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    ...command('arena', 'cmd.arena'),
    options: [
      option('ability', 'cmd.arena.ability', ABILITY_CHOICES),
      option('void', 'cmd.arena.void'),
      option('battle', 'cmd.arena.battle'),
      option('reason', 'cmd.arena.reason'),
      option('list', 'cmd.arena.list', choicesOf('cmd.arena.list', ['unclassified', 'flagged'])),
    ],
    usage: [
      { form: 'arena [ability]', what: 'help.arena' },
      {
        form: 'arena void <battle> [reason]',
        what: 'help.arena.void',
      },
      {
        form: 'arena ability <battle> <ability>',
        what: 'help.arena.ability',
      },
      { form: 'arena unclassified', what: 'help.arena.unclassified' },
      {
        form: 'arena flagged',
        what: 'help.arena.flagged',
      },
    ],
    maintainerOnly: true,
  },
  {
    ...command('ask', 'cmd.ask'),
    options: [
      option('prompt', 'cmd.ask.prompt', { required: true }),
      option('ability', 'cmd.ask.ability', ABILITY_CHOICES),
    ],
    usage: [
      {
        form: 'ask <prompt> [ability]',
        what: 'help.ask',
      },
    ],
  },
  {
    ...command('leaderboard', 'cmd.leaderboard'),
    options: [
      option(
        'view',
        'cmd.leaderboard.view',
        choicesOf('cmd.leaderboard.view', ['overall', 'ability', 'method', 'model', 'style']),
      ),
      option('name', 'cmd.leaderboard.name_'),
    ],
    usage: [
      {
        form: 'leaderboard [overall|ability|method|model|style] [name]',
        what: 'help.leaderboard',
      },
    ],
  },
  {
    ...command('judge', 'cmd.judge'),
    options: [
      option('action', 'cmd.judge.action', {
        ...choicesOf('cmd.judge.action', ['agree']),
        required: true,
      }),
      option('judge', 'cmd.judge.judge'),
    ],
    usage: [
      {
        form: 'judge agree [judge]',
        what: 'help.judge',
      },
    ],
    maintainerOnly: true,
  },
  {
    ...command('eval', 'cmd.eval'),
    options: [
      option('model', 'cmd.eval.model'),
      option('suite', 'cmd.eval.suite'),
      option('limit', 'cmd.eval.limit'),
      option('action', 'cmd.eval.action', choicesOf('cmd.eval.action', ['status', 'cancel'])),
      option('run', 'cmd.eval.run'),
    ],
    usage: [
      {
        form: 'eval model:<name> suite:<name> [limit:<n>]',
        what: 'help.eval',
      },
      { form: 'eval status', what: 'help.eval.status' },
      { form: 'eval cancel <run>', what: 'help.eval.cancel' },
    ],
    maintainerOnly: true,
  },
  {
    ...command('submit', 'cmd.submit'),
    options: [
      option('name', 'cmd.submit.name_'),
      option('url', 'cmd.submit.url'),
      option('model', 'cmd.submit.model'),
      option('description', 'cmd.submit.description'),
      option('org', 'cmd.submit.org'),
      option('licence', 'cmd.submit.licence'),
      option(
        'action',
        'cmd.submit.action',
        choicesOf('cmd.submit.action', ['list', 'approve', 'reject']),
      ),
      option('id', 'cmd.submit.id'),
      option('reason', 'cmd.submit.reason'),
      option('api_key_env', 'cmd.submit.api_key_env'),
      option('suites', 'cmd.submit.suites'),
    ],
    usage: [
      {
        form: 'submit name:<name> url:<base URL> model:<model id> description:<text> org:<organisation> licence:<licence>',
        what: 'help.submit',
      },
      { form: 'submit list', what: 'help.submit.list' },
      {
        form: 'submit approve <id> [api_key_env:<VAR>] [suites:<a,b>]',
        what: 'help.submit.approve',
      },
      { form: 'submit reject <id> <reason>', what: 'help.submit.reject' },
    ],
  },
  {
    ...command('models', 'cmd.models'),
    options: [],
    usage: [{ form: 'models', what: 'help.models' }],
  },
];
