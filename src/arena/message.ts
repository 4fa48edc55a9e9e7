/**
 * @module arena/message
 * The battle message and its reveal, as platform-neutral {@link MessageContent}, in the configured language
 * (`arena.battle.*`, `arena.reveal.*` of the catalogue). Pure.
 * The battle message carries no model name and no model id anywhere (the title has only the battle's number in the
 * community's arena, which is opaque); the reveal adds "Left: <model> · Right: <model>" and the final tally.
 */

import { type NoAccess, noAccessText } from '../chat/no-access.ts';
import {
  type MessageButton,
  type MessageContent,
  markdownLiteral,
  type PlatformCapabilities,
} from '../chat/port.ts';
import { type Locale, type MessageKey, type Params, t } from '../i18n/index.ts';
import type { CloseReason, VoteChoice } from '../storage/schema.ts';
import type { Tally } from '../storage/votes.ts';
import { CHOICES } from './emoji.ts';

/**
 * Why voting on a battle ended, as a clause for messages ("… closed when it reached the vote cap of 3 votes"):
 * from `battles.close_reason` and `close_cap` (migration 0008).
 */
export function closeReasonWords(
  reason: CloseReason | null,
  cap: number | null = null,
  locale: Locale = 'en',
): string {
  switch (reason) {
    case 'vote_cap':
      return cap === null ? t(locale, 'arena.close.cap') : t(locale, 'arena.close.capOf', { cap });
    case 'window':
      return t(locale, 'arena.close.window');
    case 'import':
      return t(locale, 'arena.close.import');
    case 'withdrawn':
      return t(locale, 'arena.close.withdrawn');
    case 'post_failed':
      return t(locale, 'arena.close.postFailed');
    case 'voided':
      return t(locale, 'arena.close.voided');
    default:
      return t(locale, 'arena.close.other');
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

function sections(v: BattleView, locale: Locale): MessageContent['sections'] {
  return [
    { heading: t(locale, 'arena.battle.prompt'), body: v.prompt },
    { heading: t(locale, 'arena.battle.left'), body: v.leftAnswer },
    { heading: t(locale, 'arena.battle.right'), body: v.rightAnswer },
  ];
}

/** What a vote button's id starts with: `vote:left`, `vote:equal`, `vote:right`, `vote:bothbad`. */
const VOTE_BUTTON = 'vote:';

/** The vote choice a pressed button stands for (chat/port `ButtonPressEvent.buttonId`); undefined for any other. */
export function choiceOfButton(buttonId: string): VoteChoice | undefined {
  if (!buttonId.startsWith(VOTE_BUTTON)) return undefined;
  const c = buttonId.slice(VOTE_BUTTON.length);
  return (CHOICES as readonly string[]).includes(c) ? (c as VoteChoice) : undefined;
}

/**
 * The four vote buttons of a battle in buttons mode (left, equal, right, both bad), with the configured emoji;
 * labels `arena.button.*` (at most 75 characters, chat/port `MessageButton.label`).
 */
function voteButtons(v: BattleView, locale: Locale): MessageButton[] {
  return CHOICES.map((c, i) => ({
    id: `${VOTE_BUTTON}${c}`,
    label: t(locale, `arena.button.${c}`),
    emoji: v.emoji[i] as string,
  }));
}

/**
 * How to vote in the terminal, where one types instead of reacting, in `locale` (en: "typing `vote 12
 * left|equal|right|bothbad`"); the typed words themselves are the same in every language.
 */
export function terminalVoteHint(battleNumber: number, locale: Locale = 'en'): string {
  return t(locale, 'arena.battle.typedHint', { n: battleNumber });
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
 *   (`vote N left|equal|right`, the terminal), `'buttons'` to press a button (the message then carries the four
 *   vote buttons, `vote:<choice>`; see {@link choiceOfButton}), `'reactions'` to react. Default: reactions and
 *   emoji characters.
 * @param locale the language of its words (config `locale`; default en); model outputs are shown as they are.
 */
export function battleContent(
  v: BattleView,
  style: BattleStyle = REACTIONS,
  locale: Locale = 'en',
): MessageContent {
  const [l, e, r, b] = shownEmoji(v, style.emojiText === 'shortcode');
  const closes = v.closesAt
    ? t(locale, 'arena.battle.closes', {
        at: v.closesAt.toISOString().replace(/\.\d{3}Z$/u, 'Z'),
      })
    : '';
  const how = t(locale, `arena.battle.how.${style.voting}`, { n: v.number, l, e, r, b });
  return {
    text: t(locale, 'arena.battle.text', { n: v.number }),
    title: t(locale, 'arena.battle.title', { n: v.number }),
    sections: sections(v, locale),
    footer: t(locale, 'arena.battle.footer', { how, closes }),
    locale,
    ...fitOf(v),
    ...(style.voting === 'buttons' ? { buttons: voteButtons(v, locale) } : {}),
  };
}

/**
 * The reveal: the same message with the models and the final tally in its title, summary and footer, and without
 * buttons (an edit to it removes a button battle's buttons).
 * @param emojiText how the platform writes emoji (`shortcode`: `:name:`, Slack); default `unicode`.
 * @param locale the language of its words (config `locale`; default en).
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
  locale: Locale = 'en',
): MessageContent {
  const [l, e, r, b] = shownEmoji(v, emojiText === 'shortcode');
  const result = t(locale, 'arena.reveal.result', {
    left: markdownLiteral(v.leftModel),
    right: markdownLiteral(v.rightModel),
    l,
    e,
    r,
    b,
    tl: v.tally.left,
    te: v.tally.equal,
    tr: v.tally.right,
    tb: v.tally.bothbad,
  });
  const why = v.closeReason
    ? t(locale, 'arena.reveal.why', {
        why: closeReasonWords(v.closeReason, v.closeCap ?? null, locale),
      })
    : '';
  return {
    text: t(locale, 'arena.reveal.text', { n: v.number, result }),
    title: t(locale, 'arena.reveal.title', { n: v.number }),
    // The same sections as the battle message (the result is in the summary and the footer), so that the reveal
    // edits the first message only (chat/port `EditOptions.previous`).
    sections: sections(v, locale),
    footer: t(locale, 'arena.reveal.footer', { why, result }),
    locale,
    ...fitOf(v),
  };
}

/** What a vote button press did, as {@link buttonReply} tells the presser. */
export type ButtonReplyKind =
  | { readonly kind: 'cast' | 'changed' | 'unchanged'; readonly choice: VoteChoice }
  /** `arena.reveal_after_vote`: the presser saw the models with their vote, which is final. */
  | { readonly kind: 'final'; readonly choice: VoteChoice }
  /** Voting on the battle ended (`closeReason`), or it was withdrawn or voided (`void`). */
  | {
      readonly kind: 'closed' | 'void';
      readonly closeReason: CloseReason | null;
      readonly closeCap?: number | null;
    }
  /** The message is no battle the arena knows, or the button no vote button. */
  | { readonly kind: 'unknown' };

/**
 * The private answer to a vote button press (chat/port `ButtonPressEvent.reply`): what the presser chose and that
 * they can change it until voting closes; with `models` (`arena.reveal_after_vote`), which model answered left
 * and which right, and that the vote is final. A press on a closed or withdrawn battle is told it changed nothing.
 * @param emoji the platform's configured emoji (left, equal, right, both bad); `emojiText` how it writes them.
 */
export function buttonReply(
  number: number,
  r: ButtonReplyKind,
  o: {
    readonly emoji: readonly [string, string, string, string];
    readonly emojiText: PlatformCapabilities['emojiText'];
    readonly models?: { readonly left: string; readonly right: string };
    /** The presser's language (default en). */
    readonly locale?: Locale;
  },
): MessageContent {
  const locale = o.locale ?? 'en';
  const tr = (k: MessageKey, p?: Params) => t(locale, k, p);
  const shown = o.emoji.map((e) => show(e, o.emojiText === 'shortcode'));
  const said = (c: VoteChoice): string => `${shown[CHOICES.indexOf(c)]} ${tr(`arena.choice.${c}`)}`;
  const more = o.models
    ? tr('arena.press.models', {
        left: markdownLiteral(o.models.left),
        right: markdownLiteral(o.models.right),
      })
    : tr('arena.press.canChange');
  switch (r.kind) {
    case 'cast':
    case 'changed':
    case 'unchanged':
      return { text: tr(`arena.press.${r.kind}`, { n: number, choice: said(r.choice), more }) };
    case 'final':
      return { text: tr('arena.press.final', { n: number, choice: said(r.choice) }) };
    case 'closed':
    case 'void':
      return {
        text: tr(`arena.press.${r.kind}`, {
          n: number,
          why: closeReasonWords(r.closeReason, r.closeCap ?? null, locale),
        }),
      };
    default:
      return { text: tr('arena.press.unknown') };
  }
}

/** Why no battle was posted: the platform is not connected, nothing to battle, no access, or the post failed. */
export type PostRefusal =
  | { readonly code: 'not_connected'; readonly platform: string }
  /** No two models answered a common item (of `ability`, when one was asked for). */
  | { readonly code: 'no_battle'; readonly ability?: string | undefined }
  /** The bot may not post in the channel (chat/no-access.ts). */
  | { readonly code: 'no_access'; readonly access: NoAccess }
  /** The platform refused the post: `message` is its error, as it came. */
  | { readonly code: 'post_failed'; readonly message: string };

/** Why no battle was posted, in `locale` (English: the logs), with what to do about it. */
export function postRefusalText(r: PostRefusal, locale: Locale = 'en'): string {
  switch (r.code) {
    case 'not_connected':
      return t(locale, 'postRefusal.notConnected', { platform: r.platform });
    case 'no_battle':
      return r.ability === undefined
        ? t(locale, 'postRefusal.noBattle')
        : t(locale, 'postRefusal.noBattle.ability', { ability: r.ability });
    case 'no_access':
      return noAccessText(r.access, locale);
    case 'post_failed':
      return t(locale, 'postRefusal.failed', { message: r.message });
  }
}
