/**
 * @module cli/sources
 * The check of `--source NAME` on the commands that count stored votes (`ratings`, `leaderboard`): a name with no
 * stored battles is a typo or a missing import, refused with the stored sources listed, before any work is done.
 */

import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { Database } from '../storage/schema.ts';
import {
  ARENA_SOURCE,
  listSources,
  type SourceSummary,
  sourcesWithBattles,
  votesOutside,
} from '../storage/sources.ts';
import { meantText } from './name-list.ts';

/** The command line that shows a source's votes, as code in a message (its `--source NAME` and closing quote follow). */
const SHOWN_BY = {
  leaderboard: '`zhujiu leaderboard',
  export: '`zhujiu export battles',
} as const;

/**
 * When `counted` (the sources a command read) gave nothing while other stored sources hold votes: the note that
 * says so, listing them with their vote counts and the command that shows each (`zhujiu COMMAND --source NAME`),
 * in `locale`; undefined when no other source holds a vote.
 */
export async function votesElsewhereNote(
  db: Kysely<Database>,
  counted: readonly string[],
  command: keyof typeof SHOWN_BY,
  locale: Locale = 'en',
): Promise<string | undefined> {
  const others = await votesOutside(db, counted);
  if (others.length === 0) return undefined;
  return tc(locale, 'cli.sources.elsewhere', {
    counted: listText(locale, counted),
    n: others.length,
    stored: storedSourcesText(others, locale),
    commands: others
      .map((s) => `${SHOWN_BY[command]} --source ${s.source}\``)
      .join(tc(locale, 'cli.ratings.or')),
  });
}

/** The stored sources as a message lists them: `arena (12 votes), lmsys (31 votes)`, or `none`. */
export function storedSourcesText(list: readonly SourceSummary[], locale: Locale = 'en'): string {
  return list.length === 0
    ? tc(locale, 'cli.sources.none')
    : listText(
        locale,
        list.map((s) =>
          tc(locale, 'cli.sources.item', {
            source: s.source,
            n: s.votes,
            votes: s.votes.toLocaleString('en'),
          }),
        ),
      );
}

/**
 * Refuses a requested source with no stored battles (`arena`, the community's own, is always accepted).
 * @param db the database.
 * @param where the database as a message names it (`Runtime.db.describe`).
 * @param requested the values of the repeated `--source` flag.
 * @returns every stored source (storage/sources.ts `listSources`), for the caller's notes.
 * @throws AppError `input_invalid`: `--source NAME: no battles of that source are stored in …; stored sources: …`
 *   with the fix (import them, or fix the name).
 */
export async function checkRequestedSources(
  db: Kysely<Database>,
  where: string,
  requested: readonly string[],
  locale: Locale = 'en',
): Promise<SourceSummary[]> {
  const stored = await listSources(db);
  refuseMissing(stored, where, requested, locale);
  return stored;
}

/**
 * {@link checkRequestedSources} for a caller that needs no list: one index probe per requested name
 * (storage/sources `sourcesWithBattles`) instead of counting every stored vote; the stored sources are read only
 * to name them when one is refused.
 * @throws AppError as {@link checkRequestedSources} does.
 */
export async function requireRequestedSources(
  db: Kysely<Database>,
  where: string,
  requested: readonly string[],
  locale: Locale = 'en',
): Promise<void> {
  const asked = requested.filter((n) => n !== ARENA_SOURCE);
  if (asked.length === 0) return;
  const found = await sourcesWithBattles(db, asked);
  if (asked.every((n) => found.has(n))) return;
  refuseMissing(await listSources(db), where, requested, locale);
}

/** Throws for the first requested source that `stored` lacks (see {@link checkRequestedSources}). */
function refuseMissing(
  stored: readonly SourceSummary[],
  where: string,
  requested: readonly string[],
  locale: Locale,
): void {
  for (const name of requested) {
    if (name !== ARENA_SOURCE && !stored.some((s) => s.source === name)) {
      throw new AppError(
        'input_invalid',
        tc(locale, 'cli.sources.missing', {
          name,
          where,
          stored: storedSourcesText(stored, locale),
        }) +
          meantText(
            locale,
            name,
            stored.map((s) => s.source),
            'cli.sources.meant',
          ),
      );
    }
  }
}
