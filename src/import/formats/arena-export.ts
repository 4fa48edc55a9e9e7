/**
 * @module import/formats/arena-export
 * Writes stored votes as Chatbot Arena battle lines (pure: a row in, one JSON line out). Two formats:
 *
 * - `fastchat`: the field names of FastChat's public battle data (`clean_battle_data.py`, the
 *   `lmsys/chatbot_arena_conversations` release) without the conversations: `question_id`, `model_a`, `model_b`,
 *   `winner` (`model_a` | `model_b` | `tie` | `tie (bothbad)`), `judge`, `turn`, `anony`, `language`, `tstamp`
 *   (Unix seconds of the vote, to the microsecond: an imported `tstamp` comes back as it was read), and, when both
 *   sides' answers are stored, `conv_metadata` with the style fields
 *   FastChat's `preprocess_for_style` reads (`sum_assistant_a_tokens`, `header_count_a`, `list_count_a`,
 *   `bold_count_a` and the `_b` ones; rating/style-control.ts `styleMetadata`, docs/scoring.md §4.6).
 * - `jsonl`: the same outcome fields plus ours: `battle_id`, `source`, `ability`, `platform`, `kind`, and ISO-8601
 *   `voted_at`, `posted_at`, `closed_at` instead of `tstamp`; `"anony": false` on a vote imported as named.
 *
 * A battle is named by its number within its source (`battle_id`, and `question_id` = `<source>-<number>`): the
 * number chat shows (`#12`) for the community's battles, never the internal id.
 *
 * Both are one JSON object per line and are read back by `zhujiu import battles` and `zhujiu ratings --battles`
 * (extra keys are ignored there). Model A is the battle's left side.
 *
 * The judge id is anonymised: `arena_user_` + the first 16 hex digits of SHA-256 over a fixed label and the stored
 * voter id (itself an HMAC of platform + user id with the server secret), so it is stable across exports (the same
 * person keeps one judge id), cannot be turned back into the stored id or a platform user id, and never shows the
 * stored id itself.
 */
import { createHash } from 'node:crypto';
import { styleMetadata } from '../../rating/style-control.ts';
import type { ExportVoteRow } from '../../storage/export.ts';
import type { VoteChoice } from '../../storage/schema.ts';

/** The export formats. */
export const EXPORT_FORMATS = ['fastchat', 'jsonl'] as const;
/** One export format. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What one exported line is made from (a stored live vote and its battle; see `storage/export.ts`). */
export type ExportVote = Omit<ExportVoteRow, 'voteId'>;

const WINNER: Readonly<Record<VoteChoice, string>> = {
  left: 'model_a',
  right: 'model_b',
  equal: 'tie',
  bothbad: 'tie (bothbad)',
};

/** The anonymised judge id of a stored voter id (see the module doc). */
export function anonymisedJudge(voterHash: string): string {
  return `arena_user_${createHash('sha256').update(`zhujiu-export-judge\u0000${voterHash}`).digest('hex').slice(0, 16)}`;
}

/**
 * FastChat's `winner` for a vote: `bothbad` is `tie (bothbad)`; a `tie (bothbad)` imported before both bad was a
 * choice of its own (stored as `equal` with the original label) stays as it was.
 */
export function winnerOf(v: Pick<ExportVote, 'choice' | 'importedWinner'>): string {
  if (v.choice === 'equal' && v.importedWinner === 'tie (bothbad)') return 'tie (bothbad)';
  return WINNER[v.choice];
}

/** FastChat's `language` column from the start of the prompt: Chinese when it has Han characters. */
export function languageOf(promptStart: string | null): string {
  if (promptStart === null) return 'unknown';
  if (/\p{Script=Han}/u.test(promptStart)) return 'Chinese';
  return /\p{L}/u.test(promptStart) ? 'English' : 'unknown';
}

/** One line (no trailing newline) of the export in `format`. */
export function exportLine(v: ExportVote, format: ExportFormat): string {
  const common = {
    model_a: v.leftModel,
    model_b: v.rightModel,
    winner: winnerOf(v),
    judge: anonymisedJudge(v.voterHash),
    turn: v.turns,
  };
  if (format === 'fastchat') {
    return JSON.stringify({
      question_id: `${v.source}-${v.battleNumber}`,
      ...common,
      anony: v.named !== true,
      language: languageOf(v.promptStart),
      tstamp: v.votedTstamp ?? v.votedAt.getTime() / 1000,
      ...(v.answersLeft && v.answersRight
        ? { conv_metadata: styleMetadata(v.answersLeft, v.answersRight) }
        : {}),
    });
  }
  return JSON.stringify({
    ...common,
    battle_id: v.battleNumber,
    source: v.source,
    ability: v.ability,
    platform: v.platform,
    kind: v.kind,
    voted_at: v.votedAt.toISOString(),
    posted_at: v.postedAt?.toISOString() ?? null,
    closed_at: v.closedAt?.toISOString() ?? null,
    ...(v.named === true ? { anony: false } : {}),
  });
}
