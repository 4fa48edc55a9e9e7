/**
 * @module i18n/cli
 * The command line's part of the message catalogue (i18n/en-cli.ts, i18n/zh-CN-cli.ts; i18n/index.ts joins it into
 * the whole catalogue) and its language. Loads only these texts and the formatter, so `zhujiu --help` does not
 * load the chat's and the site's messages (src/cli/index.ts: the help stays fast).
 */
import { AppError, type ErrorCode, type Said, type SaidTexts } from '../core/errors.ts';
import { unloadableModule } from '../core/module-load.ts';
import { enCli } from './en-cli.ts';
import { formatMessage, type Params } from './format.ts';
import type { Locale } from './index.ts';
import { zhCNCli } from './zh-CN-cli.ts';

/** A key of the command line's messages. */
export type CliMessageKey = keyof typeof enCli;

/** The command line's messages of each language, by key. */
export const CLI_CATALOGUE: Readonly<Record<Locale, Readonly<Record<CliMessageKey, string>>>> = {
  'zh-CN': zhCNCli,
  en: enCli,
};

/** True when `key` is a key of the command line's messages. */
export function isCliKey(key: string): key is CliMessageKey {
  return Object.hasOwn(enCli, key);
}

/**
 * The command line's message `key` in `locale`, its placeholders filled from `params` (i18n/format.ts), as
 * i18n `t` gives it. Throws naming the key when a parameter is missing.
 */
export function tc(locale: Locale, key: CliMessageKey, params: Params = {}): string {
  return formatMessage(locale, key, CLI_CATALOGUE[locale][key], params);
}

/**
 * `items` as one list in `locale`'s way: `a, b, c` in English, `a、b、c` in Chinese (the catalogue's `cli.list.sep`).
 * Empty for no items.
 */
export function listText(locale: Locale, items: readonly string[]): string {
  return items.join(tc(locale, 'cli.list.sep'));
}

/**
 * `items` as one list in each language's way ({@link listText}), as a message parameter of a {@link Said}: for a
 * refusal built before the reader's language is known.
 */
export function listSaid(items: readonly string[]): SaidTexts {
  return { texts: { en: listText('en', items), 'zh-CN': listText('zh-CN', items) } };
}

/**
 * A message parameter said in every language by `say` (a text known before the reader's language is): the
 * texts of `say('en')` and `say('zh-CN')`.
 */
export function textsIn(say: (locale: Locale) => string): SaidTexts {
  return { texts: { en: say('en'), 'zh-CN': say('zh-CN') } };
}

/**
 * Messages ({@link Said}) as one list in each language's way: each said in that language, joined by
 * {@link listText}; a message parameter of a refusal built before the reader's language is known.
 */
export function listSaidOf(items: readonly Said[]): SaidTexts {
  return textsIn((locale) =>
    listText(
      locale,
      items.map((s) => sayCli(locale, s)),
    ),
  );
}

/**
 * The command line's language from the POSIX locale variables, as Unix tools choose theirs: the first set (non-empty)
 * of `LC_ALL`, `LC_MESSAGES`, `LANG`; a value starting with `zh` (`zh_CN.UTF-8`, `zh_CN`, `zh`) gives `zh-CN`,
 * anything else (`C`, `C.UTF-8`, `POSIX`, `en_US.UTF-8`, unset) `en`. `env` is the command's environment, passed
 * in (never `process.env` read here).
 */
export function localeFromPosixEnv(env: Readonly<Record<string, string | undefined>>): Locale {
  const value = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  return value?.startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * A {@link Said} message of the command line's catalogue in `locale`, its message parameters said first (a
 * {@link SaidTexts} parameter: its text of `locale`, else its English).
 * @throws Error naming the key when it is not a command line key or a parameter is missing (a programming error).
 */
export function sayCli(locale: Locale, said: Said): string {
  if (!isCliKey(said.key))
    throw new Error(`"${said.key}" is not a key of the command line's messages`);
  const params: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(said.params ?? {}))
    params[name] =
      typeof v !== 'object' ? v : 'key' in v ? sayCli(locale, v) : (v.texts[locale] ?? v.texts.en);
  return tc(locale, said.key, params);
}

/** The message of `key` with `params` as data ({@link Said}), checked against the catalogue's keys. */
export function said(
  key: CliMessageKey,
  params?: Readonly<Record<string, string | number | Said | SaidTexts>>,
): Said {
  return params === undefined ? { key } : { key, params };
}

/**
 * An AppError whose message is `message` said in English (logs, tests) and that carries it as data, so the command
 * line says it in its own language.
 */
export function saidError(code: ErrorCode, message: Said, options?: { cause?: unknown }): AppError {
  return new AppError(code, sayCli('en', message), { ...options, said: message });
}

/**
 * AppError `install_broken` naming what cannot be loaded and the fix (`npm run build`, or `npm ci`), when `err` (or
 * its cause) is a module that cannot be found (core/module-load.ts `unloadableModule`); undefined for any other
 * error. Callers that map their failures to a code of their own (`db_unavailable`, `internal`) ask this first, so
 * an incomplete installation is not reported as a broken database or a bug.
 */
export function installBrokenError(err: unknown): AppError | undefined {
  const what = unloadableModule(err);
  if (what === undefined) return undefined;
  return saidError('install_broken', said('cli.install.broken', { what }), { cause: err });
}
