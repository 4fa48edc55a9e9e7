/**
 * @module cli/name-list
 * The known names a refusal lists, closest to what was typed first, and its "did you mean" (cli/known-names.ts
 * says when a name counts as unknown). No I/O: commands that open no database (`ratings --battles FILE`) use it too.
 */
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { byCloseness, didYouMean } from '../text/edit-distance.ts';

/** `names` closest to `typed` first, at most 10, then `, … N more`; `(none)` when empty (in `locale`). */
export function closestList(locale: Locale, typed: string, names: readonly string[]): string {
  if (names.length === 0) return tc(locale, 'cli.eval.none');
  const sorted = byCloseness(typed, names);
  const more = sorted.length > 10 ? tc(locale, 'cli.judge.more', { n: sorted.length - 10 }) : '';
  return listText(locale, sorted.slice(0, 10)) + more;
}

/** `. Did you mean "x"?` when `typed` looks like a misspelling of one of `names`, else '' (in `locale`). */
export function meantText(locale: Locale, typed: string, names: readonly string[]): string {
  const name = didYouMean(typed, names);
  return name === undefined ? '' : tc(locale, 'cli.known.meant', { name });
}
