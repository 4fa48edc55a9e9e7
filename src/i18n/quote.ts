/**
 * @module i18n/quote
 * Values put into a sentence as each language quotes them (docs/architecture.md "Languages"): a name or a typed value
 * "x" in English and “x” in Chinese; a value to copy as it is (a choice to type, a JSON key) "x" in English and in
 * backticks in Chinese. A parameter that is always text is quoted by the catalogue itself (`未知的能力“{ability}”`,
 * given {@link shown} text when it comes from a file); these are for a parameter that may be text or another JSON
 * value (`"winner": 3`), and for lists of literals, where the quotes depend on the value.
 */
import type { SaidTexts } from '../core/errors.ts';
import { listText, tc, textsIn } from './cli.ts';
import type { Locale } from './index.ts';

/**
 * `text` as it shows between quotes: line breaks, tabs and other control characters, `"` and `\` escaped as JSON
 * escapes them (`a\nb`), so a file's text stays on one line of a message.
 */
export function shown(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** `text` ({@link shown}) quoted as a name in `locale`: `"x"` in English, `“x”` in Chinese. */
export function quoted(locale: Locale, text: string): string {
  return locale === 'zh-CN' ? `“${shown(text)}”` : `"${shown(text)}"`;
}

/**
 * A value read from a JSON file as a message shows it in `locale`: a string {@link quoted}, any other value as its
 * JSON text (`3`, `true`, `null`, `{"a":1}`); `undefined` (a key that is absent) as `undefined`.
 */
export function jsonValueText(locale: Locale, value: unknown): string {
  if (typeof value === 'string') return quoted(locale, value);
  return JSON.stringify(value) ?? 'undefined';
}

/** {@link jsonValueText} in each language, as a message parameter of a Said (its language not yet known). */
export function jsonValueSaid(value: unknown): SaidTexts {
  return { texts: { en: jsonValueText('en', value), 'zh-CN': jsonValueText('zh-CN', value) } };
}

/**
 * A value to copy as it is in `locale`: a string `"x"` in English and `` `x` `` in Chinese, any other value as its
 * JSON text (`20`, `true`).
 */
export function literalText(locale: Locale, value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'undefined';
  return locale === 'zh-CN' ? `\`${value}\`` : JSON.stringify(value);
}

/** `items` as {@link literalText}s in one list of `locale` (`"a", "b"`; `` `a`、`b` ``). */
export function literalList(locale: Locale, items: readonly string[]): string {
  return listText(
    locale,
    items.map((i) => literalText(locale, i)),
  );
}

/** `items` each {@link quoted} in one list of each language (`"a", "b"`; `“a”、“b”`), as a message parameter of a Said. */
export function quotedListSaid(items: readonly string[]): SaidTexts {
  return textsIn((locale) =>
    listText(
      locale,
      items.map((i) => quoted(locale, i)),
    ),
  );
}

/**
 * An item as a user knows it (never the internal id): its dataset name, its key and the start of its instruction
 * (storage/items.ts `itemLabel`), said by {@link itemLabelText}.
 */
export interface ItemLabel {
  readonly dataset: string;
  readonly key: string;
  /** The prompt's first 40 characters on one line, `…` after them when it goes on; '' for an empty prompt. */
  readonly head: string;
}

/**
 * An item in a sentence of `locale`: `alpaca_eval "helpful_base-3" ("What are…")` in English,
 * `alpaca_eval “helpful_base-3”（“What are…”）` in Chinese; an item known only by its id, `id 12` / `编号 12`.
 */
export function itemLabelText(locale: Locale, item: ItemLabel | { readonly id: number }): string {
  if ('id' in item) return tc(locale, 'cli.item.id', { id: item.id });
  return tc(locale, 'cli.item.label', {
    dataset: item.dataset,
    key: shown(item.key),
    prompt: item.head === '' ? '' : tc(locale, 'cli.item.prompt', { head: shown(item.head) }),
  });
}

/** {@link literalList} in each language, as a message parameter of a Said. */
export function literalListSaid(items: readonly string[]): SaidTexts {
  return { texts: { en: literalList('en', items), 'zh-CN': literalList('zh-CN', items) } };
}
