/**
 * @module arena/message
 * The battle message and its reveal, as platform-neutral {@link MessageContent}. Pure.
 * The battle message carries no model name and no model id anywhere (the title has only the battle's number in the
 * community's arena, which is opaque); the reveal adds "Left: <model> · Right: <model>" and the final tally.
 */
import { type MessageContent, markdownLiteral, type PlatformCapabilities } from '../chat/port.ts';
import type { CloseReason } from '../storage/schema.ts';
import type { Tally } from '../storage/votes.ts';

/**
 * Why voting on a battle ended, as a clause for messages ("… closed when it reached the vote cap of 3 votes"):
 * from `battles.close_reason` and `close_cap` (migration 0008).
 */
export function closeReasonWords(reason: CloseReason | null, cap: number | null = null): string {
  switch (reason) {
    case 'vote_cap':
      return cap === null
        ? 'it reached the vote cap'
        : `it reached the vote cap of ${cap} ${cap === 1 ? 'vote' : 'votes'}`;
    case 'window':
      return 'its voting window ended';
    case 'import':
      return 'it is an imported vote, closed when it was imported';
    case 'withdrawn':
      return 'its message was deleted';
    case 'post_failed':
      return 'posting it failed';
    case 'voided':
      return 'a maintainer voided it';
    default:
      return 'voting on it ended';
  }
}

/** What a battle message shows. */
export interface BattleView {
  /** The battle's number in the community's arena (`battles.number`), never its internal id. */
  readonly number: number;
  readonly prompt: string;
  readonly leftAnswer: string;
  readonly rightAnswer: string;
  /** Emoji to vote with on this platform (left, equal, right, both bad). */
  readonly emoji: readonly [string, string, string, string];
  /** When voting closes (shown in the footer), when known. */
  readonly closesAt?: Date | null;
  /**
   * Most messages the battle may take on its platform (`arena.max_messages`); longer answers are cut and the
   * whole battle sent as `battle-<number>.txt` (chat/port `MessageContent.fit`). Absent: no limit.
   */
  readonly maxMessages?: number;
}

/** The `fit` of a battle's message content (chat/port `MessageContent.fit`), when it has a message limit. */
function fitOf(v: BattleView): Pick<MessageContent, 'fit'> {
  return v.maxMessages === undefined
    ? {}
    : { fit: { maxMessages: v.maxMessages, fileName: `battle-${v.number}.txt` } };
}

/** The capabilities a battle message's wording depends on: how people vote there and how emoji are written. */
export type BattleStyle = Pick<PlatformCapabilities, 'voting' | 'emojiText'>;

/** Reactions and emoji characters (Discord's way): the default wording. */
const REACTIONS: BattleStyle = { voting: 'reactions', emojiText: 'unicode' };

const show = (e: string, shortcodes: boolean): string =>
  shortcodes && /^[\w+-]+$/u.test(e) ? `:${e}:` : e;

function sections(v: BattleView): MessageContent['sections'] {
  return [
    { heading: 'Prompt', body: v.prompt },
    { heading: 'Left answer', body: v.leftAnswer },
    { heading: 'Right answer', body: v.rightAnswer },
  ];
}

/** How to vote in the terminal, where one types instead of reacting: "typing `vote 12 left|equal|right|bothbad`". */
export function terminalVoteHint(battleNumber: number): string {
  return `typing \`vote ${battleNumber} left|equal|right|bothbad\``;
}

/** The emoji of a view as the platform writes them (`shortcode`: `:name:`), left, equal, right, both bad. */
function shownEmoji(v: BattleView, shortcodes: boolean): [string, string, string, string] {
  const [l, e, r, b] = v.emoji;
  return [show(l, shortcodes), show(e, shortcodes), show(r, shortcodes), show(b, shortcodes)];
}

/**
 * The message posted for a battle.
 * @param style the platform's capabilities the wording depends on: `emojiText: 'shortcode'` renders emoji names
 *   as `:name:` (Slack emoji are names, not characters); `voting: 'typed'` tells how to type a vote
 *   (`vote N left|equal|right`, the terminal), `'buttons'` to press a button, `'reactions'` to react. Default:
 *   reactions and emoji characters.
 */
export function battleContent(v: BattleView, style: BattleStyle = REACTIONS): MessageContent {
  const [l, e, r, b] = shownEmoji(v, style.emojiText === 'shortcode');
  const closes = v.closesAt
    ? ` Voting closes ${v.closesAt.toISOString().replace(/\.\d{3}Z$/u, 'Z')}.`
    : '';
  const how =
    style.voting === 'typed'
      ? `Vote by typing: \`vote ${v.number} left\` (${l} left is better) · \`vote ${v.number} equal\` (${e}) · \`vote ${v.number} right\` (${r} right is better) · \`vote ${v.number} bothbad\` (${b} both are bad). Your latest vote counts; \`unvote ${v.number}\` takes it back.`
      : style.voting === 'buttons'
        ? `Vote with the buttons: ${l} left is better · ${e} equal · ${r} right is better · ${b} both are bad. Only you see your vote; your latest press counts, and the tally is shown when voting closes.`
        : `Vote by reacting: ${l} left is better · ${e} equal · ${r} right is better · ${b} both are bad. Your latest reaction counts; remove it to take your vote back.`;
  return {
    text: `Arena battle #${v.number}: which answer is better?`,
    title: `Arena battle #${v.number}`,
    sections: sections(v),
    footer: `${how} The models are revealed when voting closes.${closes}`,
    ...fitOf(v),
  };
}

/**
 * The reveal: the same message with the models and the final tally in its title, summary and footer.
 * @param emojiText how the platform writes emoji (`shortcode`: `:name:`, Slack); default `unicode`.
 */
export function revealContent(
  v: BattleView & {
    readonly leftModel: string;
    readonly rightModel: string;
    readonly tally: Tally;
    /** Why voting ended (the footer says so); omitted: not said. */
    readonly closeReason?: CloseReason | null;
    readonly closeCap?: number | null;
  },
  emojiText: PlatformCapabilities['emojiText'] = 'unicode',
): MessageContent {
  const [l, e, r, b] = shownEmoji(v, emojiText === 'shortcode');
  const result = `Left: ${markdownLiteral(v.leftModel)} · Right: ${markdownLiteral(v.rightModel)} · tally ${l} ${v.tally.left} ${e} ${v.tally.equal} ${r} ${v.tally.right} ${b} ${v.tally.bothbad}`;
  return {
    text: `Arena battle #${v.number} (closed): ${result}`,
    title: `Arena battle #${v.number} (closed)`,
    // The same sections as the battle message (the result is in the summary and the footer), so that the reveal
    // edits the first message only (chat/port `EditOptions.previous`).
    sections: sections(v),
    footer: `Voting is closed${v.closeReason ? ` (${closeReasonWords(v.closeReason, v.closeCap ?? null)})` : ''}. ${result}`,
    ...fitOf(v),
  };
}
