/**
 * @module arena/message
 * The battle message and its reveal, as platform-neutral {@link MessageContent}. Pure.
 * The battle message carries no model name and no model id anywhere (the title has only the battle id, which is
 * opaque); the reveal adds "Left: <model> · Right: <model>" and the final tally.
 */
import type { MessageContent } from '../chat/port.ts';
import type { Tally } from '../storage/votes.ts';

/** What a battle message shows. */
export interface BattleView {
  readonly battleId: number;
  readonly prompt: string;
  readonly leftAnswer: string;
  readonly rightAnswer: string;
  /** Emoji to vote with on this platform (left, equal, right). */
  readonly emoji: readonly [string, string, string];
  /** When voting closes (shown in the footer), when known. */
  readonly closesAt?: Date | null;
}

const show = (e: string, slack: boolean): string => (slack && /^[\w+-]+$/u.test(e) ? `:${e}:` : e);

function sections(v: BattleView): MessageContent['sections'] {
  return [
    { heading: 'Prompt', body: v.prompt },
    { heading: 'Left answer', body: v.leftAnswer },
    { heading: 'Right answer', body: v.rightAnswer },
  ];
}

/**
 * The message posted for a battle.
 * @param slackStyle render emoji names as `:name:` (Slack emoji are names, not characters).
 */
export function battleContent(v: BattleView, slackStyle = false): MessageContent {
  const [l, e, r] = v.emoji.map((x) => show(x, slackStyle)) as [string, string, string];
  const closes = v.closesAt
    ? ` Voting closes ${v.closesAt.toISOString().replace(/\.\d{3}Z$/u, 'Z')}.`
    : '';
  return {
    text: `Arena battle #${v.battleId}: which answer is better?`,
    title: `Arena battle #${v.battleId}`,
    sections: sections(v),
    footer: `Vote by reacting: ${l} left is better · ${e} equal · ${r} right is better. Your latest reaction counts; remove it to take your vote back. The models are revealed when voting closes.${closes}`,
  };
}

/** The reveal: the same message plus the models and the final tally. */
export function revealContent(
  v: BattleView & {
    readonly leftModel: string;
    readonly rightModel: string;
    readonly tally: Tally;
  },
  slackStyle = false,
): MessageContent {
  const [l, e, r] = v.emoji.map((x) => show(x, slackStyle)) as [string, string, string];
  const result = `Left: ${v.leftModel} · Right: ${v.rightModel} · tally ${l} ${v.tally.left} ${e} ${v.tally.equal} ${r} ${v.tally.right}`;
  return {
    text: `Arena battle #${v.battleId} (closed): ${result}`,
    title: `Arena battle #${v.battleId} (closed)`,
    sections: [...(sections(v) ?? []), { heading: 'Result', body: result }],
    footer: `Voting is closed. ${result}`,
  };
}
