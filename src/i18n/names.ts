/**
 * @module i18n/names
 * The two parts of a refusal of a name nobody knows, as catalogue data ({@link Said}) that any layer can throw and
 * the command line says in its language: the known names closest to what was typed first (at most 10, then
 * `, … N more`), and a "did you mean" when the typed name looks like a misspelling of one
 * (text/edit-distance.ts). cli/name-list.ts says them as text.
 */
import type { Said, SaidTexts } from '../core/errors.ts';
import { byCloseness, didYouMean } from '../text/edit-distance.ts';
import { type CliMessageKey, listSaid, listText, said, textsIn } from './cli.ts';
import { displayName, meantId, type NameKind } from './display-names.ts';
import { type Locale, t } from './index.ts';

/** How many known names a refusal lists. */
const SHOWN = 10;

/** `names` closest to `typed` first, at most {@link SHOWN}, then `, … N more` (`cli.judge.list`). */
export function closestNames(typed: string, names: readonly string[]): Said {
  const sorted = byCloseness(typed, names);
  const more = sorted.length > SHOWN ? said('cli.judge.more', { n: sorted.length - SHOWN }) : '';
  return said('cli.judge.list', { list: listSaid(sorted.slice(0, SHOWN)), more });
}

/**
 * The message `key` (a "did you mean", given `{name}`) when `typed` looks like a misspelling of one of `names`,
 * else ''.
 */
export function meantName(key: CliMessageKey, typed: string, names: readonly string[]): Said | '' {
  const name = didYouMean(typed, names);
  return name === undefined ? '' : said(key, { name });
}

/**
 * Chat and the site's ` Did you mean "x"?` (`evalRefusal.didYouMean`, in `locale`) when `typed` looks like a
 * misspelling of one of `names`, else ''.
 */
export function meantMessage(typed: string, names: readonly string[], locale: Locale): string {
  const name = didYouMean(typed, names);
  return name === undefined ? '' : t(locale, 'evalRefusal.didYouMean', { name });
}

/**
 * Chat's ` Did you mean "x"?` (`evalRefusal.didYouMean`, in `locale`) when `typed` looks like a misspelt ability or
 * method of `ids`, or a misspelt display name of one in either language: the name in `locale`, or the id
 * (i18n/display-names.ts `meantId`); else ''.
 */
export function meantDisplayName(
  typed: string,
  ids: readonly string[],
  kind: NameKind,
  locale: Locale,
): string {
  const name = meantId(typed, ids, kind, locale);
  return name === undefined ? '' : t(locale, 'evalRefusal.didYouMean', { name });
}

/**
 * The abilities or methods `ids` as a refusal lists them in `locale`: their display names (`知识、中文特定、…` in
 * Chinese; the ids in English), which every surface takes as well as the ids.
 */
export function displayNameList(ids: readonly string[], kind: NameKind, locale: Locale): string {
  return ids.map((id) => displayName(kind, id, locale)).join(t(locale, 'board.list.sep'));
}

/**
 * The display name of the ability or method `id` in each language (`知识` in Chinese, `knowledge` in English), as a
 * message parameter of a refusal built before its reader's language is known: a message echoes an ability by the
 * name its reader uses, whichever form was typed (`--ability 知识`), never only by the id.
 */
export function displayNameSaid(kind: NameKind, id: string): SaidTexts {
  return textsIn((locale) => displayName(kind, id, locale));
}

/** The abilities or methods `ids` by their display names, listed in each language's way ({@link displayNameSaid}). */
export function displayNamesSaid(kind: NameKind, ids: readonly string[]): SaidTexts {
  return textsIn((locale) =>
    listText(
      locale,
      ids.map((id) => displayName(kind, id, locale)),
    ),
  );
}
