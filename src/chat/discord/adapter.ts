/**
 * @module chat/discord/adapter
 * The discord.js adapter: translates {@link ChatPlatform} to Discord REST calls and gateway events.
 *
 * Decisions (see shared/guides/chat-testing.md for the pitfalls referenced as Dn):
 * - Intents are exactly Guilds + GuildMessages + GuildMessageReactions (1537, D4; none privileged, and without
 *   MessageContent no message text arrives); partials Message/Channel/Reaction/User (D3); no message cache.
 * - Removals for everyone (MESSAGE_REACTION_REMOVE_EMOJI / _ALL, MESSAGE_DELETE / _BULK) go to
 *   `onReactionsCleared` / `onMessageDeleted`: Discord sends no per-user removal events for them.
 * - Reactions are read from the client's `raw` dispatches, not from `messageReactionAdd`: the raw packet carries
 *   the gateway sequence `s`, so `eventId = discord:<session id>:<seq>` is identical for a replayed dispatch
 *   (RESUME replays keep their sequence), and no partial message/reaction has to be fetched. The bot's own
 *   reactions (D5) and other bots' are dropped.
 * - Messages are sent/edited/reacted through `client.rest` with explicit routes: no dependency on the channel or
 *   message cache, so everything works for messages posted before a restart.
 * - A READY after the first of a shard is a new session (Discord refused to RESUME, or the gateway asked for a
 *   fresh IDENTIFY): the dispatches of the gap are not replayed, so it goes to `onGap` and the application re-reads.
 *   `listReactions` reads normal and super (burst) reactions (`type=0` and `type=1`), every page of users; a message
 *   or channel that no longer exists (10008 Unknown Message, 10003 Unknown Channel) is AppError `chat_message_gone`.
 * - `restApi` and `gatewayUrl` replace Discord's URLs (a proxy; the tests' fake): the gateway URL that
 *   `GET /gateway/bot` and READY's `resume_gateway_url` name is replaced by `gatewayUrl`.
 * - Buttons (`MessageContent.buttons`, a battle's vote buttons in buttons mode) are message components on the first
 *   message; an edit of the first message always sends its components, so content without buttons removes them.
 *   A press (INTERACTION_CREATE of a component) is deferred at once as an ephemeral reply and goes to `onButton`.
 * - Slash commands are deferred immediately (3-s rule, D11): ephemerally for `maintainerOnly` commands, publicly
 *   otherwise. If the handler's first reply has the other visibility, the deferred reply is deleted and the
 *   answer is sent as a follow-up with the right flags (64 = ephemeral). Later replies are follow-ups.
 */
import type { EventEmitter } from 'node:events';
import {
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  MessageFlags,
  Options,
  Partials,
  type RawFile,
  RESTEvents,
  Routes,
} from 'discord.js';
import { AppError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { type Locale, localeFromTag, type MessageKey, t } from '../../i18n/index.ts';
import { ChatNoAccessError } from '../no-access.ts';
import type {
  ChatHandlers,
  ChatPlatform,
  CommandContext,
  CommandSpec,
  EditOptions,
  Localizations,
  MessageContent,
  MessageRef,
  PlatformCapabilities,
  PostOptions,
  ReactionSnapshot,
  ReplyOptions,
} from '../port.ts';
import { fullText, truncate } from '../render/index.ts';
import {
  DISCORD_LIMITS,
  type DiscordMessageJson,
  renderDiscordFitted,
  renderDiscordMessages,
} from './render.ts';

/** Constructor options of {@link DiscordAdapter}. */
export interface DiscordAdapterOptions {
  /** Bot token (sent as `Bot <token>`; never logged). */
  readonly token: string;
  /** Application id; defaults to the one in the gateway READY. */
  readonly applicationId?: string;
  /** Register commands per guild (instant); when absent, commands are registered globally. */
  readonly guildIds?: readonly string[];
  /** Base REST URL without version (`platforms.discord.api_url`; tests: the fake's `/api`). */
  readonly restApi?: string;
  /**
   * Gateway WebSocket URL (`platforms.discord.gateway_url`), used instead of the one Discord names in
   * `GET /gateway/bot` and in READY's `resume_gateway_url`; default: Discord's.
   */
  readonly gatewayUrl?: string;
  readonly logger: Logger;
  /**
   * Role ids allowed to run `maintainerOnly` commands. When non-empty the adapter refuses other callers with an
   * ephemeral "Maintainers only." before the handler runs (the handler should check again).
   */
  readonly maintainerRoleIds?: readonly string[];
  /** The language of the adapter's own replies when the user's is not zh-CN or en (config `locale`; default en). */
  readonly locale?: Locale;
  /** Per-request REST timeout (ms); default 15,000. */
  readonly restTimeoutMs?: number;
  /** Retries for 5xx/network errors (429s are always waited out, honouring Retry-After); default 3. */
  readonly restRetries?: number;
  /** How long to wait for the gateway to become ready (ms); default 60,000. */
  readonly readyTimeoutMs?: number;
  /** How people vote on battles here (`arena.voting.discord`): `reactions` (default) or `buttons`. */
  readonly voting?: 'reactions' | 'buttons';
}

/** Gateway dispatch as emitted on the client's `raw` event. */
interface RawPacket {
  readonly t: string | null;
  readonly s: number | null;
  readonly op: number;
  readonly d: unknown;
}

interface RawReaction {
  user_id: string;
  channel_id: string;
  message_id: string;
  emoji: { id: string | null; name: string | null };
  member?: { user?: { bot?: boolean } };
}

/** `{ [field]: texts }` with each text cut to `max` characters, or nothing without texts (Discord's limits). */
function localizations(
  field: string,
  texts: Localizations | undefined,
  max: number,
): Record<string, Record<string, string>> {
  if (!texts || Object.keys(texts).length === 0) return {};
  return {
    [field]: Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, truncate(v, max)])),
  };
}

/** `name:id` for custom emoji (as REST wants it), the unicode string otherwise. */
function emojiKey(emoji: { id: string | null; name: string | null }): string {
  return emoji.id ? `${emoji.name ?? '_'}:${emoji.id}` : (emoji.name ?? '');
}

/** Percent-encodes an emoji for a REST path exactly once (custom `name:id` stays as is). */
export function encodeEmoji(emoji: string): string {
  return /^[\w~-]+:\d{17,20}$/u.test(emoji) ? emoji : encodeURIComponent(emoji);
}

/** Votes are reactions; messages can be edited and deleted; 2,000 characters of content per message. */
export const DISCORD_CAPABILITIES: PlatformCapabilities = {
  voting: 'reactions',
  emojiText: 'unicode',
  markup: 'markdown',
  edit: true,
  delete: true,
  maxMessageChars: DISCORD_LIMITS.content,
  threads: true,
  reactionsOutliveProcess: true,
  ownsTerminal: false,
};

/** Discord error codes that mean the message, or its channel, is gone (on a message read or edit). */
const GONE_CODES = new Set([10008, 10003]);

/** The REST calls on one message whose 10008 / 10003 means that message is gone (see {@link GONE_CODES}). */
const MESSAGE_CALLS = new Set([
  'get message',
  'edit message',
  'list reaction users',
  'delete message',
]);

/** How many reaction dispatch ids {@link DiscordAdapter} remembers to drop RESUME replays (a few minutes of voting). */
const SEEN_EVENTS = 10_000;

export class DiscordAdapter implements ChatPlatform {
  /** Messages this process started a thread on (their thread ids: the same). */
  readonly #threads = new Set<string>();
  readonly name = 'discord' as const;
  /** See {@link DISCORD_CAPABILITIES}; `voting` as configured. */
  readonly capabilities: PlatformCapabilities;
  #opts: DiscordAdapterOptions;
  #log: Logger;
  #client: Client | undefined;
  #handlers: ChatHandlers | undefined;
  #specs = new Map<string, CommandSpec>();
  #sessions = new Map<number, string>();
  /**
   * The event ids of the latest reaction dispatches this process received, oldest first (at most
   * {@link SEEN_EVENTS}). A RESUME replays dispatches with their sequence, so a replay arrives in the same process
   * as its original, later; it is dropped here, before the handlers, because handlers run concurrently and a replay
   * applied ahead of its original would carry a later receipt time than the events between them.
   */
  #seenEvents = new Set<string>();
  #botUserId: string | undefined;
  /** Orders button presses received in one millisecond (chat/port `ButtonPressEvent.seq`). */
  #presses = 0;

  constructor(options: DiscordAdapterOptions) {
    this.#opts = options;
    this.#log = options.logger.child({ platform: 'discord' });
    this.capabilities = { ...DISCORD_CAPABILITIES, voting: options.voting ?? 'reactions' };
  }

  get botUserId(): string | undefined {
    return this.#botUserId;
  }

  async start(handlers: ChatHandlers, commands: readonly CommandSpec[]): Promise<void> {
    if (this.#client) throw new AppError('chat_platform_error', 'discord: adapter already started');
    this.#handlers = handlers;
    this.#specs = new Map(commands.map((c) => [c.name, c]));
    const client = new Client({
      // GuildMessages brings MESSAGE_DELETE (a deleted battle takes its reactions with it); it is not
      // privileged and, without MessageContent, carries no message text. Messages are not cached.
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.GuildMessageReactions,
      ],
      makeCache: Options.cacheWithLimits({
        ...Options.DefaultMakeCacheSettings,
        MessageManager: 0,
      }),
      partials: [Partials.Message, Partials.Channel, Partials.Reaction, Partials.User],
      rest: this.#restOptions(),
    });
    this.#client = client;
    if (this.#opts.gatewayUrl) useGatewayUrl(client, this.#opts.gatewayUrl);
    // D2: without an 'error' listener a rejected listener promise kills the process.
    client.on(Events.Error, (err) => this.#log.error({ err }, 'discord client error'));
    client.on(Events.Warn, (message) => this.#log.warn({ message }, 'discord client warning'));
    client.on(Events.ShardDisconnect, (ev, shardId) =>
      this.#log.warn({ code: ev.code, shardId }, 'discord shard disconnected'),
    );
    client.on(Events.ShardResume, (shardId, replayed) =>
      this.#log.info({ shardId, replayed }, 'discord shard resumed'),
    );
    client.rest.on(RESTEvents.RateLimited, (info) =>
      this.#log.warn(
        {
          route: info.route,
          method: info.method,
          retryAfterMs: info.retryAfter,
          scope: info.scope,
          global: info.global,
        },
        'discord rate limited; waiting',
      ),
    );
    // An unexpected 429 (no prior rate-limit headers) is retried after Retry-After without a RateLimited event.
    client.rest.on(RESTEvents.Response, (request, response) => {
      if (response.status === 429) {
        this.#log.warn(
          {
            route: request.route,
            method: request.method,
            retryAfter: response.headers.get('retry-after'),
            scope: response.headers.get('x-ratelimit-scope'),
          },
          'discord rate limited; waiting',
        );
      }
    });
    (client as unknown as EventEmitter).on('raw', (packet: RawPacket, shardId: number) =>
      this.#onRaw(packet, shardId),
    );
    client.on(Events.InteractionCreate, (interaction) => {
      this.#onInteraction(interaction).catch((err: unknown) =>
        this.#log.error({ err }, 'discord interaction failed'),
      );
    });

    try {
      const ready = new Promise<void>((resolve) =>
        client.once(Events.ClientReady, () => resolve()),
      );
      await withTimeout(
        (async () => {
          await client.login(this.#opts.token);
          await ready;
        })(),
        this.#opts.readyTimeoutMs ?? 60_000,
        'discord gateway ready',
      );
      this.#botUserId = client.user?.id;
      await this.#registerCommands(commands);
      this.#log.info(
        { botUserId: this.#botUserId, commands: commands.length },
        'discord adapter started',
      );
    } catch (err) {
      await this.stop();
      throw err instanceof AppError
        ? err
        : new AppError('chat_platform_error', `discord: start failed: ${errMessage(err)}`, {
            cause: err,
          });
    }
  }

  /** The REST client's options: the configured base URL (`restApi`), timeout and retries. */
  #restOptions(): { api?: string; timeout: number; retries: number } {
    return {
      ...(this.#opts.restApi ? { api: this.#opts.restApi } : {}),
      timeout: this.#opts.restTimeoutMs ?? 15_000,
      retries: this.#opts.restRetries ?? 3,
    };
  }

  async stop(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    client.removeAllListeners();
    await client.destroy();
    this.#log.info('discord adapter stopped');
  }

  async post(
    channelId: string,
    content: MessageContent,
    options?: PostOptions,
  ): Promise<MessageRef> {
    if (options?.thread) channelId = await this.#threadOn(options.thread);
    const fitted = content.fit
      ? renderDiscordFitted(content, content.fit.maxMessages)
      : { messages: renderDiscordMessages(content), cutChars: 0 };
    // A cut battle carries its full text as a file on its first message (chat/render/fit.ts).
    const file =
      fitted.cutChars > 0 && content.fit
        ? { name: content.fit.fileName, data: Buffer.from(fullText(content), 'utf8') }
        : undefined;
    const ids: string[] = [];
    for (const [i, m] of fitted.messages.entries()) {
      const res = (await this.#rest('post message', (rest) =>
        rest.post(
          Routes.channelMessages(channelId),
          this.#messageRequest(m, i === 0 ? content : undefined, i === 0 ? file : undefined),
        ),
      )) as { id: string };
      ids.push(res.id);
    }
    const [messageId, ...partIds] = ids as [string, ...string[]];
    return { platform: 'discord', channelId, messageId, partIds };
  }

  /**
   * The thread started on a message (created on first use): a thread started on a message has that message's
   * id, so only its creation needs a call; "already created" (code 160004) means another post made it.
   */
  async #threadOn(ref: MessageRef): Promise<string> {
    if (this.#threads.has(ref.messageId)) return ref.messageId;
    const client = this.#client;
    if (!client)
      throw new AppError('chat_platform_error', 'discord: start a thread: adapter not started');
    try {
      await client.rest.post(Routes.threads(ref.channelId, ref.messageId), {
        body: { name: 'Follow-ups', auto_archive_duration: 1440 },
      });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 160004) {
        this.#log.error({ err: errMessage(err) }, 'discord: starting a thread failed');
        throw new AppError(
          'chat_platform_error',
          `discord: start a thread failed: ${errMessage(err)}`,
          {
            cause: err,
          },
        );
      }
    }
    if (this.#threads.size >= 10_000) this.#threads.clear();
    this.#threads.add(ref.messageId);
    return ref.messageId;
  }

  async delete(ref: MessageRef): Promise<void> {
    for (const id of [ref.messageId, ...ref.partIds]) {
      await this.#rest('delete message', (rest) =>
        rest.delete(Routes.channelMessage(ref.channelId, id)),
      );
    }
  }

  async edit(ref: MessageRef, content: MessageContent, options?: EditOptions): Promise<void> {
    const ids = [ref.messageId, ...ref.partIds];
    // Fitted content is fitted to the messages the ref has; the previous content, rendered alike, tells which
    // of them change.
    const render = (c: MessageContent): DiscordMessageJson[] =>
      c.fit ? renderDiscordFitted(c, ids.length).messages : renderDiscordMessages(c);
    const messages = render(content);
    const before = options?.previous ? render(options.previous) : undefined;
    if (messages.length > ids.length) {
      this.#log.warn(
        { messageId: ref.messageId, needed: messages.length, available: ids.length },
        'discord edit: content needs more messages than posted; dropping the rest',
      );
    }
    const blank: DiscordMessageJson = { content: '\u200b', embeds: [] };
    for (const [i, id] of ids.entries()) {
      const m: DiscordMessageJson = messages[i] ?? blank;
      if (before && JSON.stringify(before[i] ?? blank) === JSON.stringify(m)) continue;
      await this.#rest('edit message', (rest) =>
        rest.patch(
          Routes.channelMessage(ref.channelId, id),
          this.#messageRequest(m, i === 0 ? content : undefined),
        ),
      );
    }
  }

  async addReactions(ref: MessageRef, emojis: readonly string[]): Promise<void> {
    // Sequential on purpose: reactions have a tight per-channel bucket and the order is visible to users.
    // One refused emoji (10014 Unknown Emoji, a missing permission) does not stop the others.
    const failed: string[] = [];
    for (const emoji of emojis) {
      try {
        await this.#rest('add reaction', (rest) =>
          rest.put(
            Routes.channelMessageOwnReaction(ref.channelId, ref.messageId, encodeEmoji(emoji)),
          ),
        );
      } catch (err) {
        failed.push(`${emoji} (${errMessage(err)})`);
      }
    }
    if (failed.length > 0) {
      throw new AppError(
        'chat_platform_error',
        `discord: could not add ${failed.length} of ${emojis.length} reactions: ${failed.join(', ')}`,
      );
    }
  }

  /**
   * Reactions present on the primary message, normal and super (burst) alike (a person holding both kinds of one
   * emoji is listed once); the bot's own user id is left out of `userIds`. Each kind is read only where the
   * message's `count_details` counts someone other than the bot (both when it has none), every page of 100 users.
   * @throws AppError `chat_message_gone` when the message or its channel no longer exists.
   */
  async listReactions(ref: MessageRef): Promise<readonly ReactionSnapshot[]> {
    const msg = (await this.#rest('get message', (rest) =>
      rest.get(Routes.channelMessage(ref.channelId, ref.messageId)),
    )) as {
      reactions?: {
        emoji: { id: string | null; name: string | null };
        count_details?: { normal?: number; burst?: number };
        me?: boolean;
        me_burst?: boolean;
      }[];
    };
    const out: ReactionSnapshot[] = [];
    for (const r of msg.reactions ?? []) {
      const emoji = emojiKey(r.emoji);
      const users = new Set<string>();
      const counts = r.count_details;
      // type 0: normal reactions, type 1: super (burst) reactions; each kind is listed on its own, unless its count
      // says nobody but the bot (`me`, `me_burst`) holds it.
      for (const type of [0, 1] as const) {
        const n =
          type === 0
            ? (counts?.normal ?? 0) - (r.me === true ? 1 : 0)
            : (counts?.burst ?? 0) - (r.me_burst === true ? 1 : 0);
        if (counts && n <= 0) continue;
        for (const u of await this.#reactionUsers(ref, emoji, type)) users.add(u);
      }
      users.delete(this.#botUserId ?? '');
      if (users.size > 0) out.push({ emoji, userIds: [...users] });
    }
    return out;
  }

  /** Every user holding `emoji` of one reaction `type` (0 normal, 1 burst), paged 100 at a time by `after`. */
  async #reactionUsers(ref: MessageRef, emoji: string, type: 0 | 1): Promise<string[]> {
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: '100', type: String(type) });
      if (after) query.set('after', after);
      const page = (await this.#rest('list reaction users', (rest) =>
        rest.get(Routes.channelMessageReaction(ref.channelId, ref.messageId, encodeEmoji(emoji)), {
          query,
        }),
      )) as { id: string }[];
      for (const u of page) ids.push(u.id);
      if (page.length < 100) return ids;
      after = page[page.length - 1]?.id;
    }
  }

  // ---- internals -------------------------------------------------------------------------------------------

  #messageRequest(
    m: DiscordMessageJson,
    withImageOf?: MessageContent,
    textFile?: { readonly name: string; readonly data: Buffer },
  ): { body: Record<string, unknown>; files?: RawFile[] } {
    // allowed_mentions: model output must never ping @everyone or roles.
    const body: Record<string, unknown> = {
      content: m.content,
      embeds: m.embeds,
      allowed_mentions: { parse: [] },
    };
    // The first message carries the buttons; without them, an edit removes the ones it had (the reveal).
    if (withImageOf) body.components = buttonRows(withImageOf);
    const image = withImageOf?.image;
    const attachments: Record<string, unknown>[] = [];
    const files: RawFile[] = [];
    if (image) {
      attachments.push({ id: 0, filename: image.filename, description: truncate(image.alt, 1024) });
      files.push({
        name: image.filename,
        data: Buffer.from(image.data),
        contentType: image.mimeType ?? 'image/png',
      });
    }
    if (textFile) {
      attachments.push({ id: files.length, filename: textFile.name });
      files.push({
        name: textFile.name,
        data: textFile.data,
        contentType: 'text/plain; charset=utf-8',
      });
    }
    if (files.length === 0) return { body };
    body.attachments = attachments;
    return { body, files };
  }

  async #rest(what: string, call: (rest: Client['rest']) => Promise<unknown>): Promise<unknown> {
    const client = this.#client;
    if (!client) throw new AppError('chat_platform_error', `discord: ${what}: adapter not started`);
    try {
      return await call(client.rest);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'number' && GONE_CODES.has(code) && MESSAGE_CALLS.has(what)) {
        this.#log.info({ what, code }, 'discord: the message is gone');
        throw new AppError(
          'chat_message_gone',
          `discord: ${what}: the message is gone (Discord ${code} ${code === 10008 ? 'Unknown Message' : 'Unknown Channel'})`,
          { cause: err },
        );
      }
      if (code === 50001 || code === 50013) {
        // Missing Access / Missing Permissions: the channel does not let the bot in; say what to grant.
        this.#log.warn({ what, code }, 'discord: no access to the channel');
        throw new ChatNoAccessError({ platform: 'discord', code, what }, { cause: err });
      }
      this.#log.error({ err: errMessage(err), what }, 'discord REST call failed');
      throw new AppError('chat_platform_error', `discord: ${what} failed: ${errMessage(err)}`, {
        cause: err,
      });
    }
  }

  async #registerCommands(commands: readonly CommandSpec[]): Promise<void> {
    const appId = this.#opts.applicationId ?? this.#client?.application?.id;
    if (!appId)
      throw new AppError('chat_platform_error', 'discord: no application id (set applicationId)');
    const body = commands.map((c) => ({
      type: 1,
      name: c.name,
      description: truncate(c.description, 100),
      ...localizations('name_localizations', c.nameLocalizations, 32),
      ...localizations('description_localizations', c.descriptionLocalizations, 100),
      // Discord wants required options first; the stable sort keeps the declared order otherwise.
      options: [...c.options]
        .sort((a, b) => Number(b.required === true) - Number(a.required === true))
        .map((o) => ({
          type: 3,
          name: o.name,
          description: truncate(o.description, 100),
          ...localizations('description_localizations', o.descriptionLocalizations, 100),
          required: o.required === true,
          ...(o.choices && o.choices.length > 0
            ? {
                choices: o.choices.slice(0, 25).map((ch) => ({
                  name: ch,
                  value: ch,
                  ...localizations('name_localizations', o.choiceLocalizations?.[ch], 100),
                })),
              }
            : {}),
        })),
      // "0" hides the command from everyone but administrators (who can grant it per role); still checked server-side.
      default_member_permissions: c.maintainerOnly ? '0' : null,
      contexts: [0],
    }));
    const guildIds = this.#opts.guildIds ?? [];
    if (guildIds.length === 0) {
      await this.#rest('register global commands', (rest) =>
        rest.put(Routes.applicationCommands(appId), { body }),
      );
    }
    for (const guildId of guildIds) {
      await this.#rest('register guild commands', (rest) =>
        rest.put(Routes.applicationGuildCommands(appId, guildId), { body }),
      );
    }
  }

  #onRaw(packet: RawPacket, shardId: number): void {
    if (packet.op !== 0) return;
    if (packet.t === 'READY') {
      const d = packet.d as { session_id?: string; user?: { id?: string } };
      const again = this.#sessions.has(shardId);
      if (d.session_id) this.#sessions.set(shardId, d.session_id);
      if (d.user?.id) this.#botUserId = d.user.id;
      if (this.#opts.gatewayUrl) resumeAt(this.#client, shardId, this.#opts.gatewayUrl);
      if (again) this.#onGap(shardId);
      return;
    }
    if (
      packet.t === 'MESSAGE_REACTION_REMOVE_ALL' ||
      packet.t === 'MESSAGE_REACTION_REMOVE_EMOJI' ||
      packet.t === 'MESSAGE_DELETE' ||
      packet.t === 'MESSAGE_DELETE_BULK'
    ) {
      this.#onRawClear(packet, shardId);
      return;
    }
    if (packet.t !== 'MESSAGE_REACTION_ADD' && packet.t !== 'MESSAGE_REACTION_REMOVE') return;
    const d = packet.d as RawReaction;
    const added = packet.t === 'MESSAGE_REACTION_ADD';
    // D5: the bot's own reactions come back as events; other bots never vote.
    if (d.user_id === this.#botUserId) return;
    if (d.member?.user?.bot === true || this.#client?.users.cache.get(d.user_id)?.bot === true)
      return;
    const session = this.#sessions.get(shardId) ?? `shard${shardId}`;
    const event = {
      platform: 'discord' as const,
      eventId: `discord:${session}:${packet.s ?? 'none'}`,
      channelId: d.channel_id,
      messageId: d.message_id,
      userId: d.user_id,
      emoji: emojiKey(d.emoji),
      added,
      at: new Date(),
      // Receipt time orders sessions; the gateway sequence orders the events of one session (docs/scoring.md §4.1).
      ...(typeof packet.s === 'number' ? { seq: packet.s } : {}),
    };
    const handlers = this.#handlers;
    if (!handlers) return;
    if (this.#seenEvents.has(event.eventId)) return; // a replay of a dispatch already taken (see #seenEvents)
    this.#seenEvents.add(event.eventId);
    if (this.#seenEvents.size > SEEN_EVENTS) {
      const oldest = this.#seenEvents.values().next().value;
      if (oldest !== undefined) this.#seenEvents.delete(oldest);
    }
    handlers
      .onReaction(event)
      .catch((err: unknown) =>
        this.#log.error({ err, eventId: event.eventId }, 'reaction handler failed'),
      );
  }

  /** A new session after the first: what was dispatched in between is lost, so the application re-reads. */
  #onGap(shardId: number): void {
    this.#log.warn(
      { shardId },
      'discord gateway session was not resumed; events of the gap re-read',
    );
    this.#handlers
      ?.onGap?.({ platform: 'discord', reason: 'reconnect', at: new Date() })
      .catch((err: unknown) => this.#log.error({ err }, 'gap handler failed'));
  }

  /**
   * Removals for everyone, which Discord sends as one dispatch with no per-user events: a moderator's
   * MESSAGE_REACTION_REMOVE_EMOJI / MESSAGE_REACTION_REMOVE_ALL, and message deletion (MESSAGE_DELETE, and
   * MESSAGE_DELETE_BULK with one event per message id).
   */
  #onRawClear(packet: RawPacket, shardId: number): void {
    const handlers = this.#handlers;
    if (!handlers) return;
    const session = this.#sessions.get(shardId) ?? `shard${shardId}`;
    const eventId = `discord:${session}:${packet.s ?? 'none'}`;
    const at = new Date();
    const log = (err: unknown) =>
      this.#log.error({ err, eventId, t: packet.t }, 'reaction clear handler failed');
    if (
      packet.t === 'MESSAGE_REACTION_REMOVE_ALL' ||
      packet.t === 'MESSAGE_REACTION_REMOVE_EMOJI'
    ) {
      const d = packet.d as {
        channel_id: string;
        message_id: string;
        emoji?: { id: string | null; name: string | null };
      };
      handlers
        .onReactionsCleared?.({
          platform: 'discord',
          eventId,
          channelId: d.channel_id,
          messageId: d.message_id,
          emoji: packet.t === 'MESSAGE_REACTION_REMOVE_EMOJI' && d.emoji ? emojiKey(d.emoji) : null,
          at,
        })
        .catch(log);
      return;
    }
    const d = packet.d as { id?: string; ids?: string[]; channel_id: string };
    const ids = packet.t === 'MESSAGE_DELETE' ? (d.id ? [d.id] : []) : (d.ids ?? []);
    for (const messageId of ids) {
      handlers
        .onMessageDeleted?.({
          platform: 'discord',
          eventId: ids.length > 1 ? `${eventId}:${messageId}` : eventId,
          channelId: d.channel_id,
          messageId,
          at,
        })
        .catch(log);
    }
  }

  /**
   * A button pressed: deferred at once as an ephemeral reply (flags 64; the 3-s rule, D11), then `onButton`; its
   * answer edits the deferred reply (only the presser sees it), and without one the deferred reply is deleted.
   */
  async #onButton(interaction: ButtonInteraction): Promise<void> {
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const handler = this.#handlers?.onButton;
    let replied = false;
    try {
      if (handler && !interaction.user.bot)
        await handler({
          platform: 'discord',
          eventId: `discord:interaction:${interaction.id}`,
          channelId: interaction.channelId,
          messageId: interaction.message.id,
          userId: interaction.user.id,
          buttonId: interaction.customId,
          ...((l) => (l ? { locale: l } : {}))(localeFromTag(interaction.locale)),
          // Receipt time, as for reactions; the counter orders presses received in one millisecond.
          at: new Date(),
          seq: this.#presses++,
          reply: async (content) => {
            replied = true;
            const [first] = renderDiscordMessages(content);
            if (first) await interaction.editReply(toInteractionPayload(first));
          },
        });
    } catch (err) {
      this.#log.error({ err, interactionId: interaction.id }, 'button handler failed');
    }
    if (!replied) await interaction.deleteReply().catch(() => undefined);
  }

  /** The language of a reply to `interaction`: the user's (zh-CN, en-*), else the configured one. */
  #localeOf(interaction: { readonly locale: string }): Locale {
    return localeFromTag(interaction.locale) ?? this.#opts.locale ?? 'en';
  }

  /** An ephemeral answer (the message `key`) in the user's language, before anything is deferred. */
  async #answerPrivately(interaction: ChatInputCommandInteraction, key: MessageKey): Promise<void> {
    const content = t(this.#localeOf(interaction), key);
    await interaction.reply({ content, flags: MessageFlags.Ephemeral });
  }

  async #onInteraction(interaction: Interaction): Promise<unknown> {
    if (!interaction.isChatInputCommand())
      return interaction.isButton() && this.#onButton(interaction);
    const spec = this.#specs.get(interaction.commandName);
    const handlers = this.#handlers;
    if (!spec || !handlers) {
      await this.#answerPrivately(interaction, 'adapter.unknownCommand');
      return;
    }
    const roles = memberRoleIds(interaction);
    const log = this.#log.child({ command: spec.name, interactionId: interaction.id });
    const maintainers = this.#opts.maintainerRoleIds ?? [];
    if (
      spec.maintainerOnly &&
      maintainers.length > 0 &&
      !roles.some((r) => maintainers.includes(r))
    ) {
      await this.#answerPrivately(interaction, 'adapter.maintainersOnly');
      log.info('maintainer-only command refused');
      return;
    }
    const deferEphemeral = spec.maintainerOnly === true;
    await interaction.deferReply(deferEphemeral ? { flags: MessageFlags.Ephemeral } : {});
    let replied = false;
    let chain: Promise<void> = Promise.resolve();
    const sendReply = async (content: MessageContent, options?: ReplyOptions): Promise<void> => {
      const ephemeral = options?.ephemeral === true;
      const payloads = renderDiscordMessages(content).map((m, i) =>
        toInteractionPayload(m, i === 0 ? content : undefined),
      );
      let rest = payloads;
      if (!replied) {
        replied = true;
        if (ephemeral === deferEphemeral) {
          await interaction.editReply(payloads[0] as InteractionEditReplyOptions);
          rest = payloads.slice(1);
        } else {
          // The deferred reply's visibility cannot change: drop it and answer with follow-ups instead.
          await interaction.deleteReply();
        }
      }
      for (const p of rest) {
        await interaction.followUp({
          ...p,
          ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
        } as InteractionReplyOptions);
      }
    };
    const ctx: CommandContext = {
      platform: 'discord',
      eventId: `discord:interaction:${interaction.id}`,
      name: spec.name,
      args: Object.fromEntries(
        interaction.options.data.map((o) => [o.name, String(o.value ?? '')]),
      ),
      text: '',
      user: {
        id: interaction.user.id,
        name: interaction.user.username,
        roles,
        isBot: interaction.user.bot,
      },
      channelId: interaction.channelId,
      ...((l) => (l ? { locale: l } : {}))(localeFromTag(interaction.locale)),
      ...threadOfInteraction(interaction),
      reply: (content, options) => {
        const next = chain.then(() => sendReply(content, options));
        chain = next.catch(() => undefined);
        return next.catch((err: unknown) => {
          throw new AppError('chat_platform_error', `discord: reply failed: ${errMessage(err)}`, {
            cause: err,
          });
        });
      },
    };
    try {
      await handlers.onCommand(ctx);
      await chain;
      if (!replied) await interaction.deleteReply();
    } catch (err) {
      log.error({ err }, 'command handler failed');
      if (!replied) {
        replied = true;
        const content = t(this.#localeOf(interaction), 'adapter.failed');
        await interaction.editReply({ content }).catch(() => undefined);
      }
    }
  }
}

/**
 * Where the message lives that a thread hangs on, when the command was run in a thread started on a message (its
 * id is the thread's; its channel is the thread's parent).
 */
function threadOfInteraction(
  interaction: ChatInputCommandInteraction,
): { thread: { channelId: string; messageId: string } } | Record<string, never> {
  const ch = interaction.channel;
  if (ch?.isThread() && ch.parentId)
    return { thread: { channelId: ch.parentId, messageId: ch.id } };
  return {};
}

/** Raw role ids of the invoking member, without @everyone (D12: cached manager or raw API array). */
function memberRoleIds(interaction: ChatInputCommandInteraction): string[] {
  const member = interaction.member;
  if (!member) return [];
  const ids = Array.isArray(member.roles) ? [...member.roles] : [...member.roles.cache.keys()];
  return ids.filter((id) => id !== interaction.guildId);
}

function toInteractionPayload(
  m: DiscordMessageJson,
  withImageOf?: MessageContent,
): InteractionEditReplyOptions {
  const image = withImageOf?.image;
  return {
    content: m.content,
    embeds: m.embeds,
    allowedMentions: { parse: [] },
    ...(image
      ? {
          files: [
            { attachment: Buffer.from(image.data), name: image.filename, description: image.alt },
          ],
        }
      : {}),
  };
}

/**
 * The message components of `content.buttons`: action rows (type 1) of at most 5 secondary buttons (type 2,
 * style 2) each, `custom_id` the button's id, the emoji as `{ name }` (unicode) or `{ name, id }` (custom
 * `name:id`); [] without buttons.
 */
export function buttonRows(content: MessageContent): Record<string, unknown>[] {
  const buttons = (content.buttons ?? []).map((b) => {
    const custom = b.emoji?.match(/^<?a?:?([\w~-]+):(\d{17,20})>?$/u);
    return {
      type: 2,
      style: 2,
      custom_id: b.id,
      label: b.label,
      ...(b.emoji
        ? { emoji: custom ? { name: custom[1], id: custom[2] } : { name: b.emoji } }
        : {}),
    };
  });
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < buttons.length; i += 5)
    rows.push({ type: 1, components: buttons.slice(i, i + 5) });
  return rows;
}

/**
 * Makes discord.js connect to `url` instead of the gateway `GET /gateway/bot` names: that one response is
 * rewritten where the client reads it (its REST client), so every other request is untouched.
 */
function useGatewayUrl(client: Client, url: string): void {
  const rest = client.rest;
  const get = rest.get.bind(rest);
  rest.get = async (route, options) => {
    const res = await get(route, options);
    return route === Routes.gatewayBot() ? { ...(res as object), url } : res;
  };
}

/**
 * Makes a shard resume at `url` rather than READY's `resume_gateway_url` (discord.js keeps it in the shard's session
 * info, read again before every RESUME).
 */
function resumeAt(client: Client | undefined, shardId: number, url: string): void {
  const shard = (
    client?.ws as unknown as
      | { shards?: Map<number, { sessionInfo?: { resumeURL?: string } | null }> }
      | undefined
  )?.shards?.get(shardId);
  if (shard?.sessionInfo) shard.sessionInfo.resumeURL = url;
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new AppError('chat_platform_error', `discord: ${what} timed out after ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
