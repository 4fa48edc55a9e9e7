/**
 * @module i18n
 * The message catalogue: every user-facing sentence of the converted surfaces (the results site, the board and its
 * chart, the chat: battles, `/ask`, command replies and the services' reasons in them, evaluation run messages,
 * help, the adapters' own texts) in Simplified Chinese and English, by key
 * (i18n/en.ts, i18n/zh-CN.ts), formatted with the small ICU-like syntax of i18n/format.ts. The language of a
 * deployment is `locale` in config/default.yaml (zh-CN for a new install); a page may be asked for in the other
 * with `?lang=en` / `?lang=zh-CN`, and a chat reply only the caller sees follows the platform's locale of the user
 * when it is one of these (docs/architecture.md "Languages").
 */
import { type MessageKey as CoreKey, en } from './en.ts';
import { enCli } from './en-cli.ts';
import { formatMessage, Html, type Params } from './format.ts';
import { zhCN } from './zh-CN.ts';
import { zhCNCli } from './zh-CN-cli.ts';

export { localeFromPosixEnv } from './cli.ts';
export { Html, type Params };

/** A key of the catalogue: of i18n/en.ts or of the command line's i18n/en-cli.ts. */
export type MessageKey = CoreKey | keyof typeof enCli;

/** The languages of the catalogue, as BCP 47 tags. */
export const LOCALES = ['zh-CN', 'en'] as const;
/** One of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number];
/** The language of a new install (config `locale`'s default). */
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/**
 * Each language's messages, by key. The command line's (i18n/en-cli.ts, zh-CN-cli.ts) are joined in here; the
 * command line itself reads them through i18n/cli.ts, which loads only them, so `zhujiu --help` stays fast.
 * Joined with `Object.assign`, not an object spread: spreading ~1,500 keys into a literal took ~32 ms and ~10 MB
 * per language at every start (V8 adds them one by one to a fast-mode object); assigned, 0.6 ms.
 */
export const CATALOGUE: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = {
  'zh-CN': Object.assign({}, zhCN, zhCNCli),
  en: Object.assign({}, en, enCli),
};

/** True when `s` is one of {@link LOCALES} (exactly, case included). */
export function isLocale(s: unknown): s is Locale {
  return typeof s === 'string' && (LOCALES as readonly string[]).includes(s);
}

/**
 * The catalogue's language for a platform's locale tag (Discord's `interaction.locale`: `zh-CN`, `en-US`,
 * `en-GB`; Slack's `zh-CN`, `en-US` …): `zh-CN` for zh-CN (and zh-Hans), `en` for any en-*, else undefined (the
 * caller keeps the configured one: a zh-TW user reads the configured language, not a guess).
 */
export function localeFromTag(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const t = tag.toLowerCase();
  if (t === 'zh-cn' || t === 'zh-hans' || t === 'zh-hans-cn' || t === 'zh') return 'zh-CN';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return undefined;
}

/**
 * The message `key` in `locale`, its placeholders filled from `params` (i18n/format.ts). Plain text: escape it
 * for the markup it goes into, or use {@link th} for HTML. Throws naming the key when a parameter is missing (a
 * programming error, found by the catalogue tests that render every page and message).
 */
export function t(locale: Locale, key: MessageKey, params: Params = {}): string {
  return formatMessage(locale, key, CATALOGUE[locale][key], params);
}

/** {@link t} as HTML: the message text and string parameters escaped, {@link Html} parameters inserted as they are. */
export function th(locale: Locale, key: MessageKey, params: Params = {}): string {
  return formatMessage(locale, key, CATALOGUE[locale][key], params, escapeHtml);
}

/**
 * An ability's name for a command line table in `locale`: in English its identifier as typed (`--ability
 * chinese_specific`), in Chinese the catalogue's name (`ability.*`: 知识, 中文特定 …); an ability the catalogue does
 * not name stays as it is.
 */
export function abilityText(ability: string, locale: Locale): string {
  const key = `ability.${ability}`;
  return locale === 'en' || !Object.hasOwn(CATALOGUE.en, key)
    ? ability
    : t(locale, key as MessageKey);
}

/**
 * A method's name in a command line table: the identifier in English (`metrics`, `scoring`, `comparative`), in
 * Chinese the catalogue's name (`method.*`: 指标评估 …); a method the catalogue does not name stays as it is.
 */
export function methodText(method: string, locale: Locale): string {
  const key = `method.${method}`;
  return locale === 'en' || !Object.hasOwn(CATALOGUE.en, key)
    ? method
    : t(locale, key as MessageKey);
}

/**
 * A run's status in words in `locale` (`runs.status.*`: running, 进行中 …); a status the catalogue does not name stays as
 * it is.
 */
export function runStatusText(status: string, locale: Locale): string {
  const key = `runs.status.${status}`;
  return Object.hasOwn(CATALOGUE.en, key) ? t(locale, key as MessageKey) : status;
}

/** Markup for an {@link th} parameter (already escaped by its producer). */
export function html(s: string): Html {
  return new Html(s);
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A {@link t} bound to one locale (`tr('site.title')`), for a renderer that writes many messages. */
export function translator(locale: Locale): {
  readonly locale: Locale;
  t: (key: MessageKey, params?: Params) => string;
  th: (key: MessageKey, params?: Params) => string;
} {
  return { locale, t: (k, p) => t(locale, k, p), th: (k, p) => th(locale, k, p) };
}
