/**
 * @module bot/commands/flagged
 * The maintainers' listing of flagged votes (docs/scoring.md §4.3): `/arena flagged` in chat (Discord
 * `/arena list:flagged`) and `zhujiu votes flagged [--json]` on the command line share this view.
 */
import type { MessageContent } from '../../chat/port.ts';
import { type Locale, t } from '../../i18n/index.ts';
import type { FlaggedVote } from '../../storage/vote-flags.ts';

/** `2026-11-30 15:20` (UTC). */
const minute = (d: Date): string => d.toISOString().slice(0, 16).replace('T', ' ');

/**
 * The listing as a message: a table (newest first) of battle, source, voter (the first 10 characters of the
 * stored voter id: never the platform's user id), choice, flag, when and the detail; or one line when none is. In
 * `locale` (default en: the command line's).
 */
export function flaggedVotesContent(
  rows: readonly FlaggedVote[],
  locale: Locale = 'en',
): MessageContent {
  if (rows.length === 0) return { text: t(locale, 'flagged.none') };
  const cols = ['battle', 'source', 'voter', 'choice', 'flag', 'cast', 'detail'] as const;
  return {
    text: t(locale, 'flagged.count', { n: rows.length }),
    title: t(locale, 'flagged.title'),
    table: {
      columns: cols.map((c) => t(locale, `flagged.col.${c}`)),
      rows: rows.map((r) => [
        r.battleNumber === null ? `id ${r.battleId}` : `#${r.battleNumber}`,
        r.source,
        r.voterHash.slice(0, 10),
        r.choice,
        t(locale, `flagged.${r.flag}`),
        minute(r.castAt),
        r.detail ?? '',
      ]),
    },
  };
}

/**
 * The listing as JSON (`zhujiu votes flagged --json`): `{"votes": [{"battle", "battle_id", "source",
 * "platform", "voter", "choice", "flag", "detail", "cast_at"}]}`, newest first; `battle` is the number the
 * message shows (null for an imported battle), `voter` the stored voter id (an HMAC).
 */
export function flaggedVotesJson(rows: readonly FlaggedVote[]): {
  votes: Record<string, unknown>[];
} {
  return {
    votes: rows.map((r) => ({
      battle: r.battleNumber,
      battle_id: r.battleId,
      source: r.source,
      platform: r.platform,
      voter: r.voterHash,
      choice: r.choice,
      flag: r.flag,
      detail: r.detail,
      cast_at: r.castAt.toISOString(),
    })),
  };
}
