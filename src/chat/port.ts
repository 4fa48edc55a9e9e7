/**
 * @module chat/port
 * The platform-neutral chat interface. Command handlers and the arena talk only to these types; the Discord,
 * Slack and terminal adapters translate them to and from their SDKs. No SDK type crosses this boundary.
 */

import type { Locale, MessageKey } from '../i18n/index.ts';

export { markdownLiteral } from './render/markdown.ts';

/** The platforms we speak. */
export type PlatformName = 'discord' | 'slack' | 'shell';

/**
 * What a platform can do, declared by its adapter, so that the application asks for a capability instead of a
 * platform name (a new platform or a new way to vote changes the adapter's declaration, not the arena).
 */
export interface PlatformCapabilities {
  /**
   * How people vote on a battle: `reactions` (emoji reactions on its message: Discord, Slack), `buttons`
   * (buttons on its message, {@link MessageContent.buttons}: Discord message components, Slack block actions;
   * each press goes to {@link ChatHandlers.onButton} and is answered privately; `arena.voting` chooses it per
   * platform), or `typed` (the terminal's `vote <battle> left|equal|right|bothbad`, which the adapter turns into
   * reaction events).
   */
  readonly voting: 'reactions' | 'buttons' | 'typed';
  /**
   * How emoji are written in message text: `unicode` characters, or `shortcode` names such as `:thumbsup:`
   * (Slack's emoji are names).
   */
  readonly emojiText: 'unicode' | 'shortcode';
  /** The text markup the platform renders: Discord markdown, Slack mrkdwn, or plain terminal text. */
  readonly markup: 'markdown' | 'mrkdwn' | 'plain';
  /** Whether a posted message can be edited (the reveal edits the battle message) and deleted. */
  readonly edit: boolean;
  readonly delete: boolean;
  /** The most characters one message carries (the adapter splits longer content into parts). */
  readonly maxMessageChars: number;
  /** Whether a message can carry a thread of replies (an /ask battle's follow-ups). */
  readonly threads: boolean;
  /**
   * Whether the reactions on a message outlive this process (they can be read back with `listReactions` after a
   * restart). False for the terminal, whose reactions live in the process only: reading an earlier run's message
   * fails with `not_found`, which is expected there, not a fault.
   */
  readonly reactionsOutliveProcess: boolean;
  /**
   * Whether the platform is this process's own terminal, read by a person (log lines printed there would
   * interleave with the chat, so the bot logs less).
   */
  readonly ownsTerminal: boolean;
}

/** The platform named `name` among `platforms` (where a configured channel lives); undefined when none is. */
export function platformNamed<P extends { readonly name: PlatformName }>(
  platforms: Iterable<P>,
  name: string,
): P | undefined {
  for (const p of platforms) if (p.name === name) return p;
  return undefined;
}

/** A table: header row plus body rows of already formatted cells. */
export interface TableContent {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Per-column alignment; default left. */
  readonly align?: readonly ('left' | 'right')[];
}

/** An image attachment (a leaderboard chart). */
export interface ImageContent {
  readonly filename: string;
  readonly data: Uint8Array;
  readonly alt: string;
  readonly mimeType?: string;
}

/** One titled block of text (a prompt, an answer). Bodies may be long: the adapter splits per platform limits. */
export interface Section {
  readonly heading?: string;
  readonly body: string;
}

/**
 * Platform-neutral message content. Adapters render it: Discord as content + embeds (2,000 chars per message,
 * 4,096 per embed description), Slack as Block Kit (3,000 chars per section block), the terminal as plain text.
 * `text`, `title`, section headings and bodies and `footer` are Markdown: outside text such as a model name goes
 * in through {@link markdownLiteral}, so it shows as written on every platform. Table cells are taken as they are.
 */
export interface MessageContent {
  /** Short plain-text summary; also the notification / fallback text. */
  readonly text: string;
  readonly title?: string;
  readonly sections?: readonly Section[];
  readonly table?: TableContent;
  readonly image?: ImageContent;
  readonly footer?: string;
  /**
   * The language of the content's words (config `locale` or the reader's): the renderers write their own notes
   * in it (the cut note of a long battle, Slack's "continued", the terminal's chart line). Default en.
   */
  readonly locale?: Locale;
  /**
   * Keep the content to a few messages (a battle): at most `maxMessages` messages (≥ 1); when it needs more, the
   * adapter cuts the section bodies visibly (each cut body says how many characters it lost and where the rest
   * is, chat/render/fit.ts) and sends the whole content along as the text file `fileName`: attached to the first
   * message on Discord, in the first message's thread on Slack. The layout keeps a later change of the title,
   * summary or footer (the reveal) to the first message ({@link EditOptions.previous}). The terminal shows
   * everything and ignores it.
   */
  readonly fit?: { readonly maxMessages: number; readonly fileName: string };
  /**
   * Buttons under the first message, in order, on one row (a battle in buttons mode: its four vote choices). At
   * most 5; each `id` unique in the message and at most 100 characters (Discord's `custom_id` limit; Slack's
   * `action_id` allows 255). Absent or empty: none, and an edit without them removes the buttons the message had
   * (the reveal). The terminal has no buttons and ignores them.
   */
  readonly buttons?: readonly MessageButton[];
}

/** One button of {@link MessageContent.buttons}. */
export interface MessageButton {
  /** What {@link ButtonPressEvent.buttonId} says when it is pressed; 1–100 characters. */
  readonly id: string;
  /** Its words (plain text, at most 75 characters: Slack's button text limit, below Discord's 80). */
  readonly label: string;
  /**
   * An emoji shown before the label, raw as configured (`⬅️`, a Discord custom `name:id`, a Slack name such as
   * `arrow_left`); absent: none.
   */
  readonly emoji?: string;
}

/** Options of {@link ChatPlatform.edit}. */
export interface EditOptions {
  /**
   * The content the message was posted (or last edited) with: the adapter then edits only the messages whose
   * rendering changed (a battle's reveal edits its first message, not every part).
   */
  readonly previous?: MessageContent;
}

/**
 * Where a posted message lives. `messageId` is the primary message (the one that carries the vote reactions);
 * `partIds` are follow-up messages the adapter needed to fit long content (in order, possibly empty).
 */
export interface MessageRef {
  readonly platform: PlatformName;
  readonly channelId: string;
  readonly messageId: string;
  readonly partIds: readonly string[];
}

/** A person (or bot) on a platform. `roles` are Discord role ids / Slack user-group ids, when known. */
export interface ChatUser {
  readonly id: string;
  readonly name?: string;
  readonly roles: readonly string[];
  readonly isBot?: boolean;
}

/**
 * A reaction added to or removed from a message, as received. `eventId` is unique per platform delivery of one
 * logical event (Slack `event_id`; Discord has none, so the adapter derives one from gateway session + sequence),
 * so a replayed delivery has the same id. `emoji` is raw (the adapter does not normalise); see arena's emoji map.
 */
export interface ReactionEvent {
  readonly platform: PlatformName;
  readonly eventId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly userId: string;
  readonly emoji: string;
  readonly added: boolean;
  /** When the platform says it happened (Slack event_ts) or when it was received. */
  readonly at: Date;
  /**
   * The platform's order among events with the same `at`, an integer ≥ 0 (absent: none): Discord's gateway
   * sequence within a session, the microseconds of Slack's `event_ts` below the millisecond, the terminal's event
   * counter. Vote rules order one emoji's events by (`at`, `seq`) (storage/votes `VoteEventInput.seq`).
   */
  readonly seq?: number;
  /** Slack retry number (X-Slack-Retry-Num / retry_attempt), when any. */
  readonly retryNum?: number;
}

/**
 * Reactions removed from a message for everyone at once (a moderator or the platform): all reactions of one
 * emoji (`emoji`, raw as in {@link ReactionEvent}; Discord MESSAGE_REACTION_REMOVE_EMOJI) or every reaction
 * (`emoji` null; Discord MESSAGE_REACTION_REMOVE_ALL). No per-user removal events follow, so the application must
 * treat it as the removal of everyone's reactions of that emoji. `eventId` is stable across replays.
 */
export interface ReactionsClearedEvent {
  readonly platform: PlatformName;
  readonly eventId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly emoji: string | null;
  readonly at: Date;
}

/**
 * A message was deleted (Discord MESSAGE_DELETE / MESSAGE_DELETE_BULK, Slack `message_deleted`): its reactions
 * are gone with it, and no removal events follow. `eventId` is stable across replays.
 */
export interface MessageDeletedEvent {
  readonly platform: PlatformName;
  readonly eventId: string;
  readonly channelId: string;
  readonly messageId: string;
  readonly at: Date;
}

/**
 * The platform may have dropped events: a connection was made again without replaying what was missed (Discord: a
 * new IDENTIFY, READY, after the first of the process, instead of a RESUME; Slack: a Socket Mode connection opened
 * again). The application re-reads what it keeps in step with the platform (the reactions on open battles).
 */
export interface PlatformGapEvent {
  readonly platform: PlatformName;
  /** What happened, for logs: `reconnect` (Discord, not resumed) or `socket_reconnect` (Slack Socket Mode). */
  readonly reason: 'reconnect' | 'socket_reconnect';
  readonly at: Date;
}

/**
 * A person pressed a button of a message ({@link MessageContent.buttons}). The adapter has already acknowledged
 * the press within the platform's 3 s (Discord: a deferred ephemeral reply; Slack: `ack()`), so the handler may
 * take longer. `eventId` is unique per press (Discord's interaction id, Slack's `trigger_id`), so a replayed
 * delivery has the same id.
 */
export interface ButtonPressEvent {
  readonly platform: PlatformName;
  readonly eventId: string;
  readonly channelId: string;
  /** The message the button is on (the primary message of a posted {@link MessageRef}). */
  readonly messageId: string;
  readonly userId: string;
  /** The presser's language when the platform says it (Discord `interaction.locale`: zh-CN, en-*). */
  readonly locale?: Locale;
  /** The pressed button's {@link MessageButton.id}. */
  readonly buttonId: string;
  /** When it happened: Slack's `action_ts`, Discord's receipt time. */
  readonly at: Date;
  /**
   * The platform's order among presses with the same `at`, an integer ≥ 0 (as {@link ReactionEvent.seq}):
   * the microseconds of Slack's `action_ts` below the millisecond, a counter of the Discord adapter.
   */
  readonly seq?: number;
  /**
   * Answers the presser only (Discord: the interaction's ephemeral reply, flags 64; Slack: `chat.postEphemeral`).
   * Called at most once; without a call the adapter ends the press silently.
   */
  reply(content: MessageContent): Promise<void>;
}

/** Texts by platform locale code (Discord's: `zh-CN`, `en-US` …), for the platform's localised command lists. */
export type Localizations = Readonly<Record<string, string>>;

/** Option of a slash command. */
export interface CommandOptionSpec {
  readonly name: string;
  readonly description: string;
  /** The description in other languages (Discord `description_localizations`). */
  readonly descriptionLocalizations?: Localizations;
  readonly required?: boolean;
  readonly choices?: readonly string[];
  /**
   * A choice's shown name in other languages, by the choice (Discord's choice `name_localizations`: the user sees
   * the name of their language and the command still arrives with the choice itself).
   */
  readonly choiceLocalizations?: Readonly<Record<string, Localizations>>;
}

/** A slash command the bot offers (registered with Discord; Slack commands are declared in the app manifest). */
export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  /** The name in other languages (Discord `name_localizations`; the command still arrives under `name`). */
  readonly nameLocalizations?: Localizations;
  /** The description in other languages (Discord `description_localizations`). */
  readonly descriptionLocalizations?: Localizations;
  readonly options: readonly CommandOptionSpec[];
  /**
   * How the command is typed as text (the terminal, Slack), one entry per form: `form` without the slash (e.g.
   * `arena void <battle-id> [reason]`) and what it does (a catalogue key, `help.*`). Absent: one form, the name
   * with its options in order (`<x>` required, `[x]` optional), described by `description`. Help texts are built
   * from this (chat/help.ts).
   */
  readonly usage?: readonly { readonly form: string; readonly what: MessageKey }[];
  /** Hidden from non-maintainers where the platform supports it; always checked server-side too. */
  readonly maintainerOnly?: boolean;
}

/** Options of {@link ChatPlatform.post}. */
export interface PostOptions {
  /**
   * Post in the thread of this message: Discord starts a thread on it (once) and posts there, Slack replies with
   * `thread_ts`, the terminal prints it marked as a reply. The returned ref is the thread message's.
   */
  readonly thread?: MessageRef;
}

/** Options for a command reply. */
export interface ReplyOptions {
  /** Only the caller sees it (Discord flag 64, Slack ephemeral). */
  readonly ephemeral?: boolean;
}

/**
 * One invocation of a slash command, platform-neutral. The adapter has already acknowledged it (Discord
 * deferReply / Slack ack) before the handler runs, so handlers may take longer than 3 s.
 */
export interface CommandContext {
  readonly platform: PlatformName;
  readonly eventId: string;
  readonly name: string;
  /** Parsed options by name (Discord options; Slack/terminal: `key=value` words or positional words by order). */
  readonly args: Readonly<Record<string, string>>;
  /** The raw text after the command name (Slack, terminal); '' on Discord. */
  readonly text: string;
  readonly user: ChatUser;
  readonly channelId: string;
  /**
   * The caller's language when the platform says it and the catalogue has it (Discord `interaction.locale`:
   * zh-CN or any en-*); for replies only the caller sees. Absent: the configured `locale`.
   */
  readonly locale?: Locale;
  /** Answers the caller (first call replaces the deferred "thinking…" state). */
  reply(content: MessageContent, options?: ReplyOptions): Promise<void>;
  /**
   * Set when the command was run inside the thread of a message (Discord: a slash command in a thread started on
   * a bot message): where that message lives. Slack runs no slash command in threads; the terminal has none.
   */
  readonly thread?: { readonly channelId: string; readonly messageId: string };
}

/**
 * A person's message in the thread of a bot message (a follow-up to a battle): Slack thread replies (`message`
 * events with `thread_ts`), the terminal's `reply <battle-id> <text>`. Discord delivers no message text without
 * the privileged Message Content intent, so there a follow-up is a slash command run in the thread
 * ({@link CommandContext.thread}).
 */
export interface ThreadMessageEvent {
  readonly platform: PlatformName;
  readonly eventId: string;
  /** The channel of the thread's first message. */
  readonly channelId: string;
  /** The id of the thread's first message (the bot's message the thread hangs on). */
  readonly threadOf: string;
  readonly user: ChatUser;
  readonly text: string;
  readonly at: Date;
  /** Answers the writer (only them where the platform can: Slack ephemeral; the terminal prints). */
  reply(content: MessageContent): Promise<void>;
}

/**
 * What the application knows about the community's battle numbered as typed (for a typed vote, `vote <battle>`,
 * on platforms whose {@link PlatformCapabilities.voting} is `typed`; the number is what its message shows).
 */
export interface BattleInfo {
  /** Its message; undefined when it was never posted (pending or voided). */
  readonly ref: MessageRef | undefined;
  readonly status: 'pending' | 'open' | 'closed' | 'void';
  /** Always `arena` (only the community's own battles are found); kept for the caller's logs. */
  readonly source?: string;
  /**
   * The asking user's live vote on it (null: none), used for messages posted by an earlier run; given only for
   * battles posted on the asking platform.
   */
  readonly liveChoice?: 'left' | 'equal' | 'right' | 'bothbad' | null;
  /** When voting closed (closed battles). */
  readonly closedAt?: Date | null;
  /**
   * Why voting ended, as a clause (closed and void battles): "its voting window ended", "it reached the vote cap
   * of 3 votes", "its message was deleted"…; absent: not known.
   */
  readonly closedBecause?: string;
  /** Whether the closing edit revealing the models was made (closed battles). */
  readonly revealed?: boolean;
  /** Who voided it and why (void battles): `byYou` when the asking user did. */
  readonly voided?: {
    readonly at: Date | null;
    readonly byYou: boolean;
    readonly reason: string | null;
  };
}

/** What an adapter calls when something happens. Handlers must not throw; adapters log anything that escapes. */
export interface ChatHandlers {
  onCommand(ctx: CommandContext): Promise<void>;
  /**
   * A reaction (on `typed`-voting platforms: a typed vote, delivered as reaction events). Returns what the vote
   * rules did with it, so a platform that can answer a reaction (the terminal) says so; `{ kind: 'failed' }` when
   * it could not be stored (logged by the application); nothing when the application does not say.
   */
  onReaction(
    event: ReactionEvent,
    // biome-ignore lint/suspicious/noConfusingVoidType: a handler that says nothing may return Promise<void>
  ): Promise<VoteFeedback | { readonly kind: 'failed' } | undefined | void>;
  /**
   * Finds the community's battle numbered `battleNumber` for `userId` on `platform` (typed votes name battles by
   * number); undefined when there is none. Optional: without it, typed votes find no battle.
   */
  findBattle?(
    platform: PlatformName,
    battleNumber: number,
    userId: string,
  ): Promise<BattleInfo | undefined>;
  /** A message in the thread of a bot message (optional: without it, thread messages are ignored). */
  onThreadMessage?(event: ThreadMessageEvent): Promise<void>;
  /** Reactions cleared for everyone (see {@link ReactionsClearedEvent}). */
  onReactionsCleared?(event: ReactionsClearedEvent): Promise<void>;
  /** A message was deleted (see {@link MessageDeletedEvent}). */
  onMessageDeleted?(event: MessageDeletedEvent): Promise<void>;
  /** Events may have been missed (see {@link PlatformGapEvent}); optional. */
  onGap?(event: PlatformGapEvent): Promise<void>;
  /** A button was pressed (see {@link ButtonPressEvent}); optional: without it, presses are ended silently. */
  onButton?(event: ButtonPressEvent): Promise<void>;
}

/** The users who hold one emoji on a message (for reconciliation after a restart). */
export interface ReactionSnapshot {
  readonly emoji: string;
  readonly userIds: readonly string[];
}

/** What every chat adapter implements. */
export interface ChatPlatform {
  readonly name: PlatformName;
  /** What the platform can do; fixed once the adapter is constructed. */
  readonly capabilities: PlatformCapabilities;
  /**
   * Resolves when the person at the platform asks the bot to quit (the terminal's `quit`, or its input ending);
   * absent on platforms nobody can quit from.
   */
  readonly closed?: Promise<void>;
  /** The bot's own user id once started (its reactions are ignored as votes). */
  readonly botUserId: string | undefined;
  /** Connects, registers `commands`, and starts delivering events to `handlers`. */
  start(handlers: ChatHandlers, commands: readonly CommandSpec[]): Promise<void>;
  /** Disconnects cleanly. */
  stop(): Promise<void>;
  /** Posts content to a channel; long content may become several messages (see {@link MessageRef}). */
  post(channelId: string, content: MessageContent, options?: PostOptions): Promise<MessageRef>;
  /**
   * Tells one person in a channel something only they see, outside any command reply (a submission's decision):
   * Slack's ephemeral message (`chat.postEphemeral`), the terminal's `(only you)` line. Optional: where it is
   * absent (Discord, whose ephemeral messages exist only as interaction replies) the caller posts in the channel.
   */
  notify?(channelId: string, userId: string, content: MessageContent): Promise<void>;
  /** Deletes a posted message and its parts (a progress message that is no longer needed); optional. */
  delete?(ref: MessageRef): Promise<void>;
  /**
   * Replaces the content of a posted message (and its parts). Content with `fit` is fitted to the messages the
   * ref has; with `options.previous`, messages whose rendering is unchanged are not edited.
   * @throws AppError `chat_message_gone` when the primary message no longer exists.
   */
  edit(ref: MessageRef, content: MessageContent, options?: EditOptions): Promise<void>;
  /**
   * Adds the bot's reactions to the primary message, in order. Every emoji is tried even when one is refused
   * (e.g. Discord's 10014 Unknown Emoji); afterwards an AppError `chat_platform_error` names the refused ones.
   */
  addReactions(ref: MessageRef, emojis: readonly string[]): Promise<void>;
  /**
   * Reads the reactions really present on the primary message, completely: every kind of reaction the platform
   * has (Discord's normal and super, or burst, reactions), every page of users.
   * @throws AppError `chat_message_gone` when the message (or its channel) no longer exists; other failures
   *   (`chat_platform_error`, `chat_no_access`, the terminal's `not_found`) say nothing about the message.
   */
  listReactions(ref: MessageRef): Promise<readonly ReactionSnapshot[]>;
}

/** The role the terminal adapter gives a maintainer (checked by the bot's permission rules). */
export const SHELL_MAINTAINER_ROLE = 'maintainer';

/**
 * What the application did with one reaction, as the terminal adapter shows it to the person who typed the vote.
 * The arena's `onReaction` returns this shape; the adapter only turns it into words.
 */
export type VoteFeedback =
  | {
      readonly kind: 'vote';
      readonly battleId: number;
      readonly effect:
        | 'cast'
        | 'changed'
        | 'unchanged'
        | 'retracted'
        | 'replayed'
        | 'ignored_closed'
        | 'ignored_stale'
        | 'ignored_no_vote'
        | 'ignored_not_live';
      readonly liveChoice: 'left' | 'equal' | 'right' | 'bothbad' | null;
    }
  | {
      readonly kind: 'ignored';
      readonly reason:
        | 'bot'
        | 'unknown_emoji'
        | 'unknown_message'
        | 'not_open'
        | 'no_platform'
        | 'buttons_battle';
    };
