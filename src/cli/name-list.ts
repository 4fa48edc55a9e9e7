/**
 * @module cli/name-list
 * The known names a refusal lists, closest to what was typed first, and its "did you mean" (cli/known-names.ts
 * says when a name counts as unknown). No I/O: commands that open no database (`ratings --battles FILE`) use it too.
 */
import { type CliMessageKey, sayCli, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { closestNames, meantName } from '../i18n/names.ts';

/** `names` closest to `typed` first, at most 10, then `, … N more`; `(none)` when empty (in `locale`). */
export function closestList(locale: Locale, typed: string, names: readonly string[]): string {
  if (names.length === 0) return tc(locale, 'cli.eval.none');
  return sayCli(locale, closestNames(typed, names));
}

/**
 * The "did you mean" message `key` (default `. Did you mean "x"?`) when `typed` looks like a misspelling of one of
 * `names`, else '' (in `locale`).
 */
export function meantText(
  locale: Locale,
  typed: string,
  names: readonly string[],
  key: CliMessageKey = 'cli.known.meant',
): string {
  const meant = meantName(key, typed, names);
  return meant === '' ? '' : sayCli(locale, meant);
}
