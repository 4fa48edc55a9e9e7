/**
 * @module chat/shell/adapter
 * The terminal adapter: the zero-setup default when no chat token is configured (like Hubot's shell adapter or
 * Errbot's text backend). Messages are printed as plain text with ids `m1`, `m2`, … (with an optional session
 * tag, `m1-<tag>`, so ids never repeat across restarts of one database); input lines are:
 *
 *   /arena, /ask, /leaderboard, /eval, /judge, /models          the slash commands (`help` lists their forms)
 *   vote <battle> left|equal|right|bothbad (or the emoji)     react to a battle message
 *   unvote <battle>                                          remove your vote reaction
 *   reply <battle> <text>                                    write in the battle's thread (a follow-up)
 *   as <user-id> <line>                                          run one line as another (non-maintainer) user
 *   help   quit
 *
 * Reactions are modelled like Discord's: a user may hold several emoji, but `vote` swaps (adds the new emoji,
 * then removes the one held before, which the vote rules ignore as not live), so a terminal user holds one at
 * most. A choice that is not left/equal/right (or their emoji) is refused before any reaction is emitted, so a
 * typo never moves (and so retracts) a vote. Reaction state lives in this process only: after a restart
 * `listReactions` of an older message fails with `not_found`, so reconciliation leaves shell battles alone (every
 * shell vote is stored the moment it is typed), and `vote`/`unvote` on such a message use the live vote the
 * application's `findBattle` handler reports instead. Typed votes reach the application through the port's
 * `onReaction` handler like every other platform's reactions; unlike Discord and Slack the terminal can answer a
 * reaction, so each line prints what the vote rules really did, as `onReaction` returns it (cast, changed,
 * unchanged, taken back, voting closed, no vote to take back).
 * The input and output streams are injectable so tests can drive a whole session.
 */

import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { type Clock, systemClock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { makeDirsSync } from '../../core/make-dirs.ts';
import { parseRecordId, unknownRecordNumber } from '../../core/numbers.ts';
import { type Locale, type MessageKey, type Params, t } from '../../i18n/index.ts';
import { normaliseEmoji } from '../emoji.ts';
import { commandHelpLines, helpLine } from '../help.ts';
import {
  type BattleInfo,
  type ChatHandlers,
  type ChatPlatform,
  type ChatUser,
  type CommandContext,
  type CommandSpec,
  type MessageContent,
  type MessageRef,
  type PlatformCapabilities,
  type PostOptions,
  type ReactionEvent,
  type ReactionSnapshot,
  SHELL_MAINTAINER_ROLE,
  type VoteFeedback,
} from '../port.ts';
import { typedArgs } from '../typed-words.ts';
import { renderPlain } from './render.ts';

/** The catalogue's words for each code of a vote not counted (storage/votes.ts effects, arena ignore reasons). */
const WHY_NOT_COUNTED: Readonly<Record<string, MessageKey>> = {
  ignored_stale: 'shell.why.ignored_stale',
  ignored_no_vote: 'shell.why.ignored_no_vote',
  ignored_not_live: 'shell.why.ignored_not_live',
  retracted: 'shell.why.retracted',
  bot: 'shell.why.bot',
  unknown_emoji: 'shell.why.unknown_emoji',
  no_platform: 'shell.why.no_platform',
  buttons_battle: 'shell.why.buttons_battle',
};

/** The bot's user id in the terminal. */
export const SHELL_BOT_USER_ID = 'zhujiu-bot';

/** Constructor options of {@link ShellAdapter}. */
export interface ShellAdapterOptions {
  readonly input: Readable;
  readonly output: Writable;
  /**
   * Who types (config `platforms.shell`); a `name` of null (the default) is the person at the terminal, said as
   * "you" in the terminal's language (你 in Chinese), never a configured word of one language in the other's text.
   */
  readonly user: {
    readonly id: string;
    readonly name: string | null;
    readonly maintainer: boolean;
  };
  /** The emoji `vote … left|equal|right` stands for (config `arena.emoji.shell`). */
  readonly voteEmoji: {
    readonly left: string;
    readonly equal: string;
    readonly right: string;
    /** Both answers are bad; default 👎. */
    readonly bothbad?: string;
  };
  readonly logger: Logger;
  /** The one channel of the terminal (default `terminal`). */
  readonly channelId?: string;
  /** Appended to message ids (`m1-<tag>`) so ids stay unique across restarts; none by default. */
  readonly sessionTag?: string;
  readonly clock?: Clock;
  /** Print a `> ` prompt (interactive terminals). */
  readonly prompt?: boolean;
  /**
   * A person reads the output on a terminal, where log lines (stderr) would interleave with the chat (stdout).
   * Default: `prompt` is on and `output` is a TTY.
   */
  readonly interactive?: boolean;
  /**
   * Folder where images (the leaderboard chart) are written as files; the message prints the path. Without it the
   * message only names the image.
   */
  readonly imageDir?: string;
  /** The language of the terminal's own texts (config `locale`; default en). */
  readonly locale?: Locale;
}

/** The vote choices, in display order. */
type Choice = 'left' | 'equal' | 'right' | 'bothbad';
const CHOICE_WORDS: readonly Choice[] = ['left', 'equal', 'right', 'bothbad'];
/** Other words typed for "both are bad". */
const BOTHBAD_WORDS: ReadonlySet<string> = new Set(['both-bad', 'both_bad', 'bad']);
/** The both-bad emoji when the options name none (docs/scoring.md §4.1). */
const DEFAULT_BOTHBAD = '👎';

/** What the application knows about a battle typed by number (see {@link BattleInfo}). */
export type ShellBattleInfo = BattleInfo;

/** `2026-11-30 15:20 UTC`. */
const minuteUtc = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Why a battle takes no vote, in words (in `locale`, default en): voided by whom, when and why; closed when; or
 * undefined when it is open or its state says nothing more.
 */
export function closedWhy(
  battleId: number,
  b: ShellBattleInfo,
  locale: Locale = 'en',
): string | undefined {
  const n = battleId;
  const on = (d: Date | null | undefined) => (d ? t(locale, 'shell.on', { at: minuteUtc(d) }) : '');
  if (b.status === 'void') {
    const v = b.voided;
    if (!v && b.closedBecause) return t(locale, 'shell.withdrawn', { n, why: b.closedBecause });
    const by = v ? t(locale, v.byYou ? 'shell.voided.byYou' : 'shell.voided.byMaintainer') : '';
    const reason = v?.reason ? t(locale, 'shell.voided.reason', { reason: v.reason }) : '';
    return t(locale, 'shell.voided', { n, by, at: on(v?.at), reason });
  }
  if (b.status === 'closed') {
    const why = b.closedBecause ?? t(locale, 'shell.closed.ended');
    const shown = t(
      locale,
      b.revealed === false ? 'shell.closed.shortly' : 'shell.closed.revealed',
    );
    return t(locale, 'shell.closed', { n, at: on(b.closedAt), why, shown });
  }
  return undefined;
}

/** The answer to a battle number that names none of the community's battles, in `locale` (default en). */
export const noSuchBattle = (battleNumber: number | string, locale: Locale = 'en'): string =>
  t(locale, 'shell.noBattle', { n: battleNumber });

/** What emitting one reaction led to: the arena's outcome, `unknown` without a vote handler, or `failed`. */
type ReactResult = VoteFeedback | 'unknown' | 'failed';

interface Posted {
  ref: MessageRef;
  content: MessageContent;
  /** emoji → user ids holding it, in order. */
  reactions: Map<string, string[]>;
  /** The message whose thread this one was posted in. */
  threadOf?: string;
}

/**
 * The terminal's `help`, in `locale` (default en): every command it was started with (the bot's specs,
 * chat/help.ts), then the lines only the terminal has.
 */
export function shellHelp(specs: Iterable<CommandSpec>, locale: Locale = 'en'): string {
  const tr = (k: MessageKey) => t(locale, k);
  return [
    tr('help.shell.heading'),
    ...commandHelpLines(specs, 30, locale),
    helpLine('vote <battle> <choice>', tr('help.shell.vote')),
    helpLine('', tr('help.shell.voteExample')),
    helpLine('unvote <battle>', tr('help.shell.unvote')),
    helpLine('reply <battle> <text>', tr('help.shell.reply')),
    helpLine('as <user-id> <line>', tr('help.shell.as')),
    helpLine('help', tr('help.shell.help')),
    helpLine('quit', tr('help.shell.quit')),
  ].join('\n');
}

/**
 * What the terminal can do: votes are typed (`vote <battle> left|equal|right`, turned into reaction events),
 * plain text without a length limit, replies in threads (`reply <battle> <text>`), reactions kept in this process
 * only. `ownsTerminal` is the adapter's {@link ShellAdapter.interactive}; false here.
 */
export const SHELL_CAPABILITIES: PlatformCapabilities = {
  voting: 'typed',
  emojiText: 'unicode',
  markup: 'plain',
  edit: true,
  delete: true,
  maxMessageChars: Number.POSITIVE_INFINITY,
  threads: true,
  reactionsOutliveProcess: false,
  ownsTerminal: false,
};

export class ShellAdapter implements ChatPlatform {
  readonly name = 'shell' as const;
  readonly #o: ShellAdapterOptions;
  readonly #log: Logger;
  readonly #clock: Clock;
  readonly #channel: string;
  /** Makes reaction event ids unique across runs (a replayed id would be ignored by the vote rules). */
  readonly #eventTag: string;
  #rl: Interface | undefined;
  #handlers: ChatHandlers | undefined;
  #specs = new Map<string, CommandSpec>();
  #messages = new Map<string, Posted>();
  #nextMessage = 1;
  #nextEvent = 1;
  #chain: Promise<void> = Promise.resolve();
  #started = false;
  #linesRead = 0;
  /** Typed lines being handled now (output of the bot's own, between lines, shows the prompt again). */
  #linesInFlight = 0;
  /** The last thing written is the `> ` prompt. */
  #promptShown = false;
  /** Set by `quit`: lines after it (in piped input) are not run. */
  #quit = false;
  /** See {@link SHELL_CAPABILITIES}. */
  readonly capabilities: PlatformCapabilities;
  #closedResolve!: () => void;
  /** Resolves when the user typed `quit`, or the input ended after at least one line (not on an empty stdin). */
  readonly closed: Promise<void>;

  constructor(options: ShellAdapterOptions) {
    this.#o = options;
    this.#log = options.logger.child({ platform: 'shell' });
    this.#clock = options.clock ?? systemClock;
    this.#channel = options.channelId ?? 'terminal';
    this.#eventTag = options.sessionTag ?? this.#clock.now().getTime().toString(36);
    this.closed = new Promise<void>((resolve) => {
      this.#closedResolve = resolve;
    });
    this.capabilities = { ...SHELL_CAPABILITIES, ownsTerminal: this.interactive };
  }

  /** The battle numbered `battleId` as the application knows it for `userId` (undefined: none, or no finder). */
  async #findBattle(battleId: number, userId: string): Promise<BattleInfo | undefined> {
    const find = this.#handlers?.findBattle;
    return find ? await find.call(this.#handlers, 'shell', battleId, userId) : undefined;
  }

  get botUserId(): string | undefined {
    return this.#started ? SHELL_BOT_USER_ID : undefined;
  }

  /** The terminal's channel id. */
  get channelId(): string {
    return this.#channel;
  }

  /** True when a person reads the chat on a terminal (see {@link ShellAdapterOptions.interactive}). */
  get interactive(): boolean {
    return (
      this.#o.interactive ??
      (this.#o.prompt === true && (this.#o.output as { isTTY?: boolean }).isTTY === true)
    );
  }

  async start(handlers: ChatHandlers, commands: readonly CommandSpec[]): Promise<void> {
    if (this.#started) throw new AppError('chat_platform_error', 'shell: adapter already started');
    this.#handlers = handlers;
    this.#specs = new Map(commands.map((c) => [c.name, c]));
    this.#started = true;
    const rl = createInterface({
      input: this.#o.input,
      terminal: false,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    this.#rl = rl;
    rl.on('line', (line) => {
      if (this.#linesRead === 0 && !this.#o.prompt) this.#greet(); // a script: greet with its first line
      this.#linesRead++;
      this.#chain = this.#chain
        .then(() => this.#runLine(line))
        .catch((err: unknown) => this.#log.error({ err }, 'shell line failed'));
    });
    rl.on('close', () => {
      if (this.#linesRead === 0 && this.#rl === rl) {
        // No terminal at all (stdin is /dev/null: a container, CI, a service manager): keep the bot, its worker
        // and the health endpoint running headless until a signal, instead of quitting at once.
        this.#log.warn('no terminal input: running headless; stop with Ctrl-C or SIGTERM');
        return;
      }
      // A script piped in (or Ctrl-D after typing): finish its lines, then stop like `quit`.
      void this.#chain.then(() => this.#closedResolve());
    });
    // A person at a terminal is greeted at once; a script when its first line arrives; a headless bot (no input
    // at all) not at all: nobody could type "help" there.
    if (this.#o.prompt) this.#greet();
    this.#promptIfAny();
  }

  /** A message of the terminal's own in its language (`shell.*` of the catalogue). */
  #t(key: MessageKey, params?: Params): string {
    return t(this.#o.locale ?? 'en', key, params);
  }

  #greet(): void {
    const { name, maintainer } = this.#o.user;
    const help = this.#o.prompt ? this.#t('shell.greeting.help') : '';
    const who = `${name}${maintainer ? this.#t('shell.maintainer') : ''}`;
    this.#print(
      name !== null
        ? this.#t('shell.greeting', { who, help })
        : this.#t(maintainer ? 'shell.greeting.maintainer' : 'shell.greeting.plain', { help }),
    );
  }

  async stop(): Promise<void> {
    const rl = this.#rl;
    this.#rl = undefined;
    rl?.close();
    await this.#chain;
    this.#started = false;
    this.#closedResolve();
  }

  /** Runs one input line and waits until it is fully handled (tests; also what typed lines go through). */
  async say(line: string): Promise<void> {
    const run = this.#chain.then(() => this.#runLine(line));
    this.#chain = run.catch(() => undefined);
    await run;
  }

  /** Writes the content's image into `imageDir` (when both exist); returns its path, or undefined. */
  #saveImage(content: MessageContent): string | undefined {
    const dir = this.#o.imageDir;
    const image = content.image;
    if (!dir || !image) return undefined;
    try {
      makeDirsSync(dir);
      const path = join(dir, basename(image.filename));
      writeFileSync(path, image.data);
      return path;
    } catch (err) {
      this.#log.warn({ err, dir }, 'could not write the image file');
      return undefined;
    }
  }

  /** Resolves when every line received so far has been handled. */
  async idle(): Promise<void> {
    await this.#chain;
  }

  async post(
    channelId: string,
    content: MessageContent,
    options?: PostOptions,
  ): Promise<MessageRef> {
    const id = `m${this.#nextMessage++}${this.#o.sessionTag ? `-${this.#o.sessionTag}` : ''}`;
    const ref: MessageRef = { platform: 'shell', channelId, messageId: id, partIds: [] };
    const threadOf = options?.thread?.messageId;
    this.#messages.set(id, {
      ref,
      content,
      reactions: new Map(),
      ...(threadOf ? { threadOf } : {}),
    });
    this.#printEvent(
      `\n[${id}${threadOf ? this.#t('shell.thread', { id: threadOf }) : ''}] ${renderPlain(content, this.#saveImage(content))}`,
    );
    return ref;
  }

  /** One terminal, one person: printed as an `(only you)` line, with who it is for (`as <user>` users). */
  async notify(_channelId: string, userId: string, content: MessageContent): Promise<void> {
    this.#printEvent(
      `\n${userId === this.#o.user.id ? this.#t('shell.onlyYou') : this.#t('shell.onlyYouFor', { user: userId })} ${renderPlain(content)}`,
    );
  }

  async delete(ref: MessageRef): Promise<void> {
    if (this.#messages.delete(ref.messageId))
      this.#printEvent(this.#t('shell.removed', { id: ref.messageId }));
  }

  async edit(ref: MessageRef, content: MessageContent): Promise<void> {
    const m = this.#messages.get(ref.messageId);
    if (m) m.content = content;
    this.#printEvent(
      `\n${this.#t('shell.edited', { id: ref.messageId })} ${renderPlain(content, this.#saveImage(content))}`,
    );
  }

  async addReactions(ref: MessageRef, emojis: readonly string[]): Promise<void> {
    for (const e of emojis) this.#setReaction(ref.messageId, e, SHELL_BOT_USER_ID, true);
    this.#printEvent(this.#t('shell.reactions', { id: ref.messageId, emojis: emojis.join(' ') }));
  }

  /** @throws AppError `not_found` for a message this process did not post (reaction state is in memory). */
  async listReactions(ref: MessageRef): Promise<readonly ReactionSnapshot[]> {
    const m = this.#messages.get(ref.messageId);
    if (!m)
      throw new AppError(
        'not_found',
        `shell: message ${ref.messageId} was posted by an earlier run; its reactions are unknown`,
      );
    const out: ReactionSnapshot[] = [];
    for (const [emoji, users] of m.reactions) {
      const ids = users.filter((u) => u !== SHELL_BOT_USER_ID);
      if (ids.length > 0) out.push({ emoji, userIds: ids });
    }
    return out;
  }

  /** Every message posted in this session and not deleted (tests); `threadOf` for thread replies. */
  get posted(): readonly { ref: MessageRef; content: MessageContent; threadOf?: string }[] {
    return [...this.#messages.values()].map((m) => ({
      ref: m.ref,
      content: m.content,
      ...(m.threadOf ? { threadOf: m.threadOf } : {}),
    }));
  }

  // ---- internals -------------------------------------------------------------------------------------------

  #print(text: string): void {
    this.#o.output.write(`${text}\n`);
    this.#promptShown = false;
  }

  /**
   * Prints what the bot does on its own (a post, an edit, a notice: a battle closing, an evaluation's progress, a
   * submission decided). Between typed lines the `> ` prompt was already shown and this output ran past it, so the
   * prompt is shown again; while a line is handled its own end prompts.
   */
  #printEvent(text: string): void {
    const idle = this.#linesInFlight === 0 && this.#started && !this.#quit;
    // Leave the prompt's line first, so the output does not start after "> ".
    this.#print(idle && this.#promptShown && !text.startsWith('\n') ? `\n${text}` : text);
    if (idle) this.#promptIfAny();
  }

  #promptIfAny(): void {
    if (!this.#o.prompt) return;
    this.#o.output.write('> ');
    this.#promptShown = true;
  }

  #setReaction(messageId: string, emoji: string, userId: string, add: boolean): boolean {
    const m = this.#messages.get(messageId);
    if (!m) return true;
    const users = m.reactions.get(emoji) ?? [];
    m.reactions.set(emoji, users);
    const has = users.includes(userId);
    if (add && !has) users.push(userId);
    if (!add && has) users.splice(users.indexOf(userId), 1);
    return add !== has;
  }

  async #runLine(raw: string): Promise<void> {
    if (this.#quit) return;
    this.#linesInFlight++;
    try {
      await this.#dispatch(raw.trim(), {
        id: this.#o.user.id,
        ...(this.#o.user.name === null ? {} : { name: this.#o.user.name }),
        roles: this.#o.user.maintainer ? [SHELL_MAINTAINER_ROLE] : [],
      });
    } finally {
      this.#linesInFlight--;
    }
    this.#promptIfAny();
  }

  async #dispatch(line: string, user: ChatUser): Promise<void> {
    if (line === '') return;
    const [head = '', ...rest] = line.split(/\s+/u);
    const word = head.toLowerCase();
    if (word === 'help' || word === '/help')
      return this.#print(shellHelp(this.#specs.values(), this.#o.locale));
    if (word === 'quit' || word === 'exit' || word === '/quit') {
      this.#print(this.#t('shell.bye'));
      this.#quit = true;
      this.#rl?.close();
      this.#closedResolve();
      return;
    }
    if (word === 'as') {
      const [who, ...tail] = rest;
      if (!who || tail.length === 0) return this.#print(this.#t('shell.usage.as'));
      return this.#dispatch(tail.join(' '), { id: who, name: who, roles: [] });
    }
    if (word === 'vote' || word === 'unvote') return this.#vote(word === 'vote', rest, user);
    if (word === 'reply') return this.#threadReply(rest, user);
    if (head.startsWith('/'))
      return this.#command(head.slice(1), line.slice(head.length).trim(), user);
    const choice = rest.length === 0 ? this.#choiceEmoji(head) : undefined;
    if (choice) {
      // A vote typed without its battle (in a chat one reacts on the message; here the battle must be named).
      return this.#print(this.#t('shell.nameTheBattle', choice));
    }
    const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
    this.#print(this.#t('shell.unknownInput', { line: shown }));
  }

  async #command(name: string, text: string, user: ChatUser): Promise<void> {
    const spec = this.#specs.get(name);
    if (!spec || !this.#handlers) return this.#print(this.#t('shell.unknownCommand', { name }));
    // Quotes group words (a model name with spaces), as on Slack (chat/typed-words.ts).
    const args = typedArgs(
      text,
      spec.options.map((o) => o.name),
    );
    const ctx: CommandContext = {
      platform: 'shell',
      eventId: `shell:${this.#eventTag}:command:${this.#nextEvent++}`,
      name,
      args,
      text,
      user,
      channelId: this.#channel,
      reply: async (content, options) => {
        this.#print(
          `${options?.ephemeral ? `${this.#t('shell.onlyYou')} ` : ''}${renderPlain(content, this.#saveImage(content))}`,
        );
      },
    };
    try {
      await this.#handlers.onCommand(ctx);
    } catch (err) {
      this.#log.error({ err, command: name }, 'command handler failed');
      this.#print(this.#t('shell.failed'));
    }
  }

  /** `reply <battle> <text>`: a message in the battle's thread, delivered to `onThreadMessage`. */
  async #threadReply(args: string[], user: ChatUser): Promise<void> {
    const [idText = '', ...words] = args;
    const battleId = parseRecordId(idText);
    const text = words.join(' ').trim();
    const unknown = unknownRecordNumber(idText);
    const locale = this.#o.locale;
    if (unknown !== undefined && text !== '') return this.#print(noSuchBattle(unknown, locale));
    if (battleId === undefined || text === '') return this.#print(this.#t('shell.usage.reply'));
    const info = await this.#findBattle(battleId, user.id);
    const ref = info?.ref;
    if (!info) return this.#print(noSuchBattle(battleId, locale));
    if (!ref) return this.#print(this.#t('shell.notPosted', { n: battleId }));
    if (ref.platform !== 'shell')
      return this.#print(
        this.#t('shell.postedElsewhere.reply', { n: battleId, platform: ref.platform }),
      );
    const handler = this.#handlers?.onThreadMessage;
    if (!handler) return this.#print(this.#t('shell.noFollowUps'));
    try {
      await handler({
        platform: 'shell',
        eventId: `shell:${this.#eventTag}:thread:${this.#nextEvent++}`,
        channelId: ref.channelId,
        threadOf: ref.messageId,
        user,
        text,
        at: this.#clock.now(),
        reply: async (content) =>
          this.#print(`${this.#t('shell.onlyYou')} ${renderPlain(content)}`),
      });
    } catch (err) {
      this.#log.error({ err }, 'thread message handler failed');
      this.#print(this.#t('shell.failed'));
    }
  }

  /** The configured emoji a typed choice stands for (a word or an emoji, skin tone / FE0F aside), if any. */
  #choiceEmoji(text: string): { choice: Choice; emoji: string } | undefined {
    const word = text.toLowerCase();
    for (const c of CHOICE_WORDS) {
      const emoji = this.#emojiOf(c);
      if (word === c || normaliseEmoji('shell', text) === normaliseEmoji('shell', emoji))
        return { choice: c, emoji };
    }
    if (BOTHBAD_WORDS.has(word)) return { choice: 'bothbad', emoji: this.#emojiOf('bothbad') };
    return undefined;
  }

  /** The configured emoji of a choice. */
  #emojiOf(c: Choice): string {
    return c === 'bothbad' ? (this.#o.voteEmoji.bothbad ?? DEFAULT_BOTHBAD) : this.#o.voteEmoji[c];
  }

  async #vote(add: boolean, args: string[], user: ChatUser): Promise<void> {
    const [idText, choiceText, ...extra] = args;
    const battleId = parseRecordId(idText ?? '');
    const unknown = unknownRecordNumber(idText ?? '');
    if (
      unknown !== undefined &&
      extra.length === 0 &&
      (add ? choiceText !== undefined : choiceText === undefined)
    )
      return this.#print(noSuchBattle(unknown, this.#o.locale));
    if (
      battleId === undefined ||
      extra.length > 0 ||
      (add ? choiceText === undefined : choiceText !== undefined)
    ) {
      return this.#print(this.#t(add ? 'shell.usage.vote' : 'shell.usage.unvote'));
    }
    // Refuse an unknown choice before anything is emitted: a typo must not move (and so retract) a vote.
    const wanted = add ? this.#choiceEmoji(choiceText as string) : undefined;
    if (add && !wanted) {
      const { left: l, equal: e, right: r } = this.#o.voteEmoji;
      const b = this.#emojiOf('bothbad');
      return this.#print(this.#t('shell.unknownChoice', { choice: choiceText ?? '', l, e, r, b }));
    }
    const battle = await this.#findBattle(battleId, user.id);
    if (!battle) return this.#print(noSuchBattle(battleId, this.#o.locale));
    const ref = battle.ref;
    if (!ref) {
      return this.#print(
        this.#t(battle.status === 'void' ? 'shell.neverPosted' : 'shell.notPostedYet', {
          n: battleId,
        }),
      );
    }
    if (ref.platform !== 'shell')
      return this.#print(
        this.#t('shell.postedElsewhere.vote', { n: battleId, platform: ref.platform }),
      );
    const known = CHOICE_WORDS.map((c) => this.#emojiOf(c));
    const m = this.#messages.get(ref.messageId);
    // A message of an earlier run has no reaction state here: its stored live vote stands for the held emoji.
    const held = m
      ? known.filter((e) => m.reactions.get(e)?.includes(user.id) ?? false)
      : battle.liveChoice
        ? [this.#emojiOf(battle.liveChoice)]
        : [];
    // The terminal's own person without a configured name is "you" (the `.self` messages), never a name.
    const who =
      user.id === this.#o.user.id && this.#o.user.name === null
        ? undefined
        : (user.name ?? user.id);
    if (!wanted) {
      if (held.length === 0) return this.#print(this.#t('shell.noVote', { n: battleId }));
      const results: ReactResult[] = [];
      for (const e of held) results.push(await this.#react(ref, e, user.id, false));
      return this.#print(this.#describeRemove(results, battleId, battle));
    }
    const result = await this.#react(ref, wanted.emoji, user.id, true);
    for (const e of held) if (e !== wanted.emoji) await this.#react(ref, e, user.id, false);
    this.#print(this.#describeAdd(result, battleId, who, wanted, battle));
  }

  /** What a `vote` did, in words. */
  #describeAdd(
    r: ReactResult,
    battleId: number,
    who: string | undefined,
    wanted: { choice: Choice; emoji: string },
    battle: ShellBattleInfo,
  ): string {
    const n = battleId;
    const what = this.#t(`shell.choice.${wanted.choice}`, { emoji: wanted.emoji });
    const said = (
      key: 'shell.reacted' | 'shell.voted' | 'shell.changed' | 'shell.unchanged',
      p: Params,
    ) => (who === undefined ? this.#t(`${key}.self`, p) : this.#t(key, { ...p, who }));
    if (r === 'unknown') return said('shell.reacted', { emoji: wanted.emoji, n });
    if (r === 'failed') return this.#t('shell.notStored', { n });
    if (r.kind === 'ignored') return this.#describeIgnored(r.reason, battleId, battle);
    switch (r.effect) {
      case 'cast':
        return said('shell.voted', { what, n });
      case 'changed':
        return said('shell.changed', { what, n });
      case 'unchanged':
      case 'replayed':
        return said('shell.unchanged', { what, n });
      case 'ignored_closed':
        return closedWhy(n, battle, this.#o.locale) ?? this.#t('shell.isClosed', { n });
      default:
        return this.#t('shell.notCounted', { n, why: this.#why(r.effect) });
    }
  }

  /** What an `unvote` did, in words (one result per emoji taken away). */
  #describeRemove(
    results: readonly ReactResult[],
    battleId: number,
    battle: ShellBattleInfo,
  ): string {
    const n = battleId;
    const outcomes = results.filter((r): r is VoteFeedback => typeof r === 'object');
    const effects = outcomes.flatMap((r) => (r.kind === 'vote' ? [r.effect] : []));
    if (effects.includes('retracted')) return this.#t('shell.takenBack', { n });
    if (effects.includes('ignored_closed'))
      return closedWhy(n, battle, this.#o.locale) ?? this.#t('shell.isClosed', { n });
    if (results.includes('failed')) return this.#t('shell.takeBackFailed', { n });
    if (results.every((r) => r === 'unknown')) return this.#t('shell.takenBack', { n });
    const ignored = outcomes.find((r) => r.kind === 'ignored');
    if (ignored?.kind === 'ignored') return this.#describeIgnored(ignored.reason, battleId, battle);
    return this.#t('shell.noVote', { n });
  }

  #describeIgnored(
    reason: Extract<VoteFeedback, { kind: 'ignored' }>['reason'],
    battleId: number,
    battle: ShellBattleInfo,
  ): string {
    const n = battleId;
    switch (reason) {
      case 'not_open':
        return closedWhy(n, battle, this.#o.locale) ?? this.#t('shell.notOpen', { n });
      case 'unknown_message':
        return this.#t('shell.notHere', { n });
      default:
        return this.#t('shell.notCounted', { n, why: this.#why(reason) });
    }
  }

  /** Why a vote was not counted, from the arena's code, in the configured language. */
  #why(code: string): string {
    return this.#t(WHY_NOT_COUNTED[code] ?? 'shell.why.unknown');
  }

  async #react(ref: MessageRef, emoji: string, userId: string, add: boolean): Promise<ReactResult> {
    this.#setReaction(ref.messageId, emoji, userId, add);
    const seq = this.#nextEvent++;
    const event: ReactionEvent = {
      platform: 'shell',
      eventId: `shell:${this.#eventTag}:${seq}`,
      seq,
      channelId: ref.channelId,
      messageId: ref.messageId,
      userId,
      emoji,
      added: add,
      at: this.#clock.now(),
    };
    try {
      const r = await this.#handlers?.onReaction(event);
      if (!r) return 'unknown';
      return r.kind === 'failed' ? 'failed' : r;
    } catch (err) {
      this.#log.error({ err }, 'reaction handler failed');
      return 'failed';
    }
  }
}
