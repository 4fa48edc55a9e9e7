/**
 * @module bot/commands/flagged
 * The maintainers' listing of flagged votes (docs/scoring.md §4.3): `/arena flagged` in chat (Discord
 * `/arena list:flagged`) and `zhujiu votes flagged [--json]` on the command line share this view.
 */
import type { MessageContent } from '../../chat/port.ts';
import type { FlaggedVote } from '../../storage/vote-flags.ts';

/** Why a flag leaves a vote out, in words. */
const FLAG_WORDS: Readonly<Record<FlaggedVote['flag'], string>> = {
  daily_cap: 'over the daily cap',
  too_fast: 'cast too fast',
};

/** `2026-11-30 15:20` (UTC). */
const minute = (d: Date): string => d.toISOString().slice(0, 16).replace('T', ' ');

/**
 * The listing as a message: a table (newest first) of battle, source, voter (the first 10 characters of the
 * stored voter id: never the platform's user id), choice, flag, when and the detail; or one line when none is.
 */
export function flaggedVotesContent(rows: readonly FlaggedVote[]): MessageContent {
  if (rows.length === 0)
    return { text: 'No flagged votes: every live vote counts in the ratings.' };
  return {
    text: `${rows.length} flagged vote${rows.length === 1 ? '' : 's'}, left out of ratings and the board (\`--include-flagged\` counts them)`,
    title: 'Flagged votes',
    table: {
      columns: ['battle', 'source', 'voter', 'choice', 'flag', 'cast (UTC)', 'detail'],
      rows: rows.map((r) => [
        r.battleNumber === null ? `id ${r.battleId}` : `#${r.battleNumber}`,
        r.source,
        r.voterHash.slice(0, 10),
        r.choice,
        FLAG_WORDS[r.flag],
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
