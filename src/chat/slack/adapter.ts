/**
 * @module chat/slack/adapter
 * The @slack/bolt adapter: translates {@link ChatPlatform} to Web API calls and Bolt listeners.
 *
 * Decisions (see shared/guides/chat-testing.md §2):
 * - Socket Mode when `appToken` is set (no public URL needed), else the HTTP receiver (`signingSecret`, `port`,
 *   `host`): Bolt checks the signature; a timestamp more than five minutes from now either way is refused (401),
 *   and a command or interaction replayed (same `trigger_id`, or the same signed request) acts once
 *   (chat/slack/request-guard.ts).
 * - Slash commands are `ack()`ed before anything else (3-s rule, T8); the handler then runs and answers with
 *   `respond()` (response_url, ephemeral) or `chat.postMessage` (public, bot token, no expiry). Where the bot is
 *   not in the channel (`not_in_channel` / `channel_not_found`), a public answer goes through `respond()` with
 *   `response_type: in_channel` instead (response_url works in any channel the command came from), and a post
 *   that must be the bot's own message (a battle) fails with AppError `chat_no_access` saying to invite the bot.
 * - Reactions: `eventId = body.event_id`, so HTTP retries (X-Slack-Retry-Num) and Socket Mode re-deliveries of
 *   one event share an id (T7); `retryNum` is Bolt's `context.retryNum` (0 on a first Socket Mode delivery is
 *   reported as absent, like HTTP). `emoji` is the raw reaction name (`point_left::skin-tone-3`).
 *   Bolt's `ignoreSelf` drops the bot's own reactions. A `message_deleted` message event goes to
 *   `onMessageDeleted` (Slack sends no reaction_removed for the reactions it took with it); Slack has no
 *   "remove everyone's reactions" action, so there is no cleared-reactions event.
 * - A message gone from Slack: `message_deleted`, and `message_changed` whose new message is a `tombstone` (what
 *   Slack sends when a message with thread replies is deleted: the thread stays, the message is gone), both go to
 *   `onMessageDeleted`; `message_not_found` from a Web API call on a message is AppError `chat_message_gone`.
 * - Socket Mode: every connection after the first (Slack recycles connections; the network drops) goes to `onGap`:
 *   Slack retries an unacknowledged event only a few times, so events of the gap may be lost.
 * - The WebClient has a per-request timeout and bounded retries (default 3) that honour Retry-After (S1).
 */
import type { EventEmitter } from 'node:events';
import { App, type Logger as BoltLogger, HTTPReceiver, LogLevel, webApi } from '@slack/bolt';
import { AppError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { type Locale, t } from '../../i18n/index.ts';
import { ChatNoAccessError } from '../no-access.ts';
import type {
  ButtonPressEvent,
  ChatHandlers,
  ChatPlatform,
  CommandContext,
  CommandSpec,
  EditOptions,
  MessageContent,
  MessageRef,
  PlatformCapabilities,
  PostOptions,
  ReactionEvent,
  ReactionSnapshot,
} from '../port.ts';
import { fullText } from '../render/index.ts';
import { typedArgs } from '../typed-words.ts';
import {
  decodeSlackText,
  renderSlackFitted,
  renderSlackMessages,
  SLACK_LIMITS,
  type SlackBlockJson,
  type SlackMessageJson,
} from './render.ts';
import { ReplayGuard, timestampRefusal } from './request-guard.ts';

/** Constructor options of {@link SlackAdapter}. */
export interface SlackAdapterOptions {
  /** Bot token `xoxb-…` (never logged). */
  readonly botToken: string;
  /** The language of the adapter's own replies (config `locale`; default en). */
  readonly locale?: Locale;
  /** App-level token `xapp-…`: enables Socket Mode (preferred when present). */
  readonly appToken?: string;
  /** Signing secret for the HTTP receiver (required without `appToken`). */
  readonly signingSecret?: string;
  /** HTTP receiver port (default 3000; 0 = any free port, see {@link SlackAdapter.listeningPort}). */
  readonly port?: number;
  /** HTTP receiver host (default all interfaces; the bot passes `platforms.slack.host`, 127.0.0.1 by default). */
  readonly host?: string;
  /** Web API base URL (`platforms.slack.api_url`; tests: the fake's `/api/`); Socket Mode's too. */
  readonly slackApiUrl?: string;
  readonly logger: Logger;
  /** Retries per Web API call (429 Retry-After waits count against them); default 3. */
  readonly apiRetries?: number;
  /** Per-request Web API timeout (ms); default 10,000. */
  readonly apiTimeoutMs?: number;
  /**
   * User-group ids to report as `ChatUser.roles` when the caller belongs to them (checked with
   * `usergroups.users.list`, cached for 5 minutes). Without it Slack users have no roles.
   */
  readonly roleGroupIds?: readonly string[];
  /** How people vote on battles here (`arena.voting.slack`): `reactions` (default) or `buttons`. */
  readonly voting?: 'reactions' | 'buttons';
}

/**
 * Parses `key=value` words and positional words of a command's text (quotes group words, chat/typed-words.ts: the
 * terminal reads typed commands the same way).
 */
export function parseCommandArgs(text: string, spec: CommandSpec): Record<string, string> {
  return typedArgs(
    text,
    spec.options.map((o) => o.name),
  );
}

/** Votes are reactions; messages can be edited and deleted; 3,000 characters per section block per message. */
export const SLACK_CAPABILITIES: PlatformCapabilities = {
  voting: 'reactions',
  emojiText: 'shortcode',
  markup: 'mrkdwn',
  edit: true,
  delete: true,
  maxMessageChars: SLACK_LIMITS.sectionText,
  threads: true,
  reactionsOutliveProcess: true,
  ownsTerminal: false,
};

export class SlackAdapter implements ChatPlatform {
  readonly name = 'slack' as const;
  /** See {@link SLACK_CAPABILITIES}; `voting` as configured. */
  readonly capabilities: PlatformCapabilities;
  #opts: SlackAdapterOptions;
  #log: Logger;
  #app: App | undefined;
  #handlers: ChatHandlers | undefined;
  #specs = new Map<string, CommandSpec>();
  #botUserId: string | undefined;
  /** The bot's user name (from auth.test), for "invite @name" advice. */
  #botName: string | undefined;
  #port: number | undefined;
  #groupCache = new Map<string, { users: Set<string>; until: number }>();
  #replays = new ReplayGuard();

  constructor(options: SlackAdapterOptions) {
    this.#opts = options;
    this.#log = options.logger.child({ platform: 'slack' });
    this.capabilities = { ...SLACK_CAPABILITIES, voting: options.voting ?? 'reactions' };
  }

  get botUserId(): string | undefined {
    return this.#botUserId;
  }

  /** The HTTP receiver's port once started (undefined in Socket Mode). */
  get listeningPort(): number | undefined {
    return this.#port;
  }

  async start(handlers: ChatHandlers, commands: readonly CommandSpec[]): Promise<void> {
    if (this.#app) throw new AppError('chat_platform_error', 'slack: adapter already started');
    const { appToken, signingSecret } = this.#opts;
    if (!appToken && !signingSecret) {
      throw new AppError(
        'config_invalid',
        'slack: set an app token (Socket Mode) or a signing secret (HTTP mode)',
      );
    }
    this.#handlers = handlers;
    this.#specs = new Map(commands.map((c) => [c.name, c]));
    const app = this.#newApp(appToken, signingSecret);
    this.#app = app;
    if (appToken) this.#watchReconnects(app);
    app.client.on(
      webApi.WebClientEvent.RATE_LIMITED,
      (retryAfterSec: number, info: { url?: string }) =>
        this.#log.warn({ retryAfterSec, url: info?.url }, 'slack rate limited; waiting'),
    );
    // A command or interaction seen again (same trigger_id, or the same signed request) acts once.
    app.use(async (args) => {
      if (this.#isReplay(args.body as Record<string, unknown>, args.context)) {
        await (args as { ack?: () => Promise<void> }).ack?.();
        return;
      }
      await args.next();
    });
    app.error(async (err) => {
      this.#log.error(
        { err: errMessage(err), code: (err as { code?: string }).code },
        'slack listener error',
      );
    });
    app.event('reaction_added', async ({ event, body, context }) => {
      await this.#onReaction(true, event, body as { event_id?: string }, context.retryNum);
    });
    app.event('reaction_removed', async ({ event, body, context }) => {
      await this.#onReaction(false, event, body as { event_id?: string }, context.retryNum);
    });
    // A deleted message takes its reactions with it and Slack sends no reaction_removed for them
    // (needs the message.channels / message.groups event subscriptions).
    app.event('message', async ({ event, body }) => {
      const e = event as {
        subtype?: string;
        channel?: string;
        deleted_ts?: string;
        event_ts?: string;
        ts?: string;
        thread_ts?: string;
        user?: string;
        bot_id?: string;
        text?: string;
      };
      if (
        e.subtype === undefined &&
        e.channel &&
        e.thread_ts &&
        e.ts !== e.thread_ts &&
        e.user &&
        !e.bot_id &&
        e.user !== this.#botUserId
      ) {
        await this.#onThreadMessage(
          {
            channel: e.channel,
            threadTs: e.thread_ts,
            ts: e.ts ?? '',
            user: e.user,
            // Decoded once here, so the bot and the models see what the person typed.
            text: decodeSlackText(e.text ?? ''),
          },
          (body as { event_id?: string }).event_id,
        );
        return;
      }
      const gone = goneMessageTs(event);
      if (gone === undefined || !e.channel) return;
      const ev = {
        platform: 'slack' as const,
        eventId: (body as { event_id?: string }).event_id ?? `slack:deleted:${e.channel}:${gone}`,
        channelId: e.channel,
        messageId: gone,
        at: e.event_ts ? new Date(Number(e.event_ts) * 1000) : new Date(),
      };
      try {
        await this.#handlers?.onMessageDeleted?.(ev);
      } catch (err) {
        this.#log.error({ err, eventId: ev.eventId }, 'message deletion handler failed');
      }
    });
    this.#listenButtons(app);
    app.command(/.*/u, async ({ command, ack, respond, client }) => {
      const name = command.command.replace(/^\//u, '');
      const spec = this.#specs.get(name);
      if (!spec) {
        await ack({
          response_type: 'ephemeral',
          text: t(this.#opts.locale ?? 'en', 'adapter.unknownCommand'),
        });
        return;
      }
      await ack();
      await this.#runCommand(spec, command, respond, client);
    });

    try {
      if (appToken) {
        await app.start();
      } else {
        const server = (await app.start({
          port: this.#opts.port ?? 3000,
          ...(this.#opts.host ? { host: this.#opts.host } : {}),
        })) as {
          address(): { port: number } | string | null;
        };
        const addr = server.address();
        this.#port = typeof addr === 'object' && addr ? addr.port : undefined;
      }
      const auth = await app.client.auth.test();
      this.#botUserId = auth.user_id;
      this.#botName = auth.user;
      this.#log.info(
        { botUserId: this.#botUserId, socketMode: Boolean(appToken), port: this.#port },
        'slack adapter started',
      );
    } catch (err) {
      await this.stop().catch(() => undefined);
      throw new AppError('chat_platform_error', `slack: start failed: ${errMessage(err)}`, {
        cause: err,
      });
    }
  }

  /** The Bolt app: Socket Mode with `appToken`, else the HTTP receiver of {@link SlackAdapter.#httpReceiver}. */
  #newApp(appToken: string | undefined, signingSecret: string | undefined): App {
    return new App({
      token: this.#opts.botToken,
      ...(appToken
        ? { socketMode: true, appToken }
        : { receiver: this.#httpReceiver(signingSecret as string) }),
      logger: boltLogger(this.#log),
      ignoreSelf: true,
      clientOptions: this.#clientOptions(),
    });
  }

  /**
   * Bolt's HTTP receiver (signature check, Slack's "Verifying requests from Slack"), behind a check that refuses
   * (401) a request whose timestamp is more than five minutes from now either way (Bolt checks only the past);
   * it hands the request's signature to the replay check ({@link SlackAdapter.#isReplay}).
   */
  #httpReceiver(signingSecret: string): HTTPReceiver {
    const receiver = new HTTPReceiver({
      signingSecret,
      logger: boltLogger(this.#log),
      // Called after the signature was verified.
      customPropertiesExtractor: (req) => {
        const sig = req.headers['x-slack-signature'];
        return typeof sig === 'string' ? { zjSignature: sig } : {};
      },
    });
    const verified = receiver.requestListener;
    receiver.requestListener = (req, res) => {
      const refusal = timestampRefusal(req.headers['x-slack-request-timestamp'], Date.now());
      if (refusal) {
        this.#log.warn({ path: req.url }, `slack request refused: ${refusal}`);
        res.writeHead(401).end();
        return;
      }
      verified(req, res);
    };
    return receiver;
  }

  /**
   * True for a command or interaction already acted on (logged): its `trigger_id`, or over HTTP its signature
   * (the same signed body and timestamp), was seen within twice the request window. Events are not checked
   * here: a re-delivered event keeps its `event_id`, which the votes already act on once.
   */
  #isReplay(body: Record<string, unknown>, context: Record<string, unknown>): boolean {
    if (body.type === 'event_callback') return false;
    const keys: string[] = [];
    if (typeof body.trigger_id === 'string') keys.push(`trigger:${body.trigger_id}`);
    if (typeof context.zjSignature === 'string') keys.push(`sig:${context.zjSignature}`);
    if (keys.length === 0 || !this.#replays.replayed(keys, Date.now())) return false;
    this.#log.warn(
      { trigger: typeof body.trigger_id === 'string' ? body.trigger_id : undefined },
      'slack request replayed: ignored (it was acted on once)',
    );
    return true;
  }

  /** The Web API client's options: the configured base URL (`slackApiUrl`), bounded retries, a timeout. */
  #clientOptions(): webApi.WebClientOptions {
    return {
      ...(this.#opts.slackApiUrl ? { slackApiUrl: this.#opts.slackApiUrl } : {}),
      retryConfig: {
        retries: this.#opts.apiRetries ?? 3,
        factor: 2,
        minTimeout: 500,
        maxTimeout: 10_000,
      },
      timeout: this.#opts.apiTimeoutMs ?? 10_000,
    };
  }

  async stop(): Promise<void> {
    const app = this.#app;
    this.#app = undefined;
    this.#port = undefined;
    if (!app) return;
    await app.stop();
    this.#log.info('slack adapter stopped');
  }

  /**
   * Every Socket Mode connection after the first is a gap: events Slack sent while the socket was down are retried
   * a few times only, so the application re-reads (`onGap`).
   */
  #watchReconnects(app: App): void {
    const socket = (app as unknown as { receiver?: { client?: EventEmitter } }).receiver?.client;
    if (!socket) return;
    let connections = 0;
    socket.on('connected', () => {
      connections += 1;
      if (connections === 1) return;
      this.#log.warn(
        { connections },
        'slack socket mode connected again; events of the gap re-read',
      );
      this.#handlers
        ?.onGap?.({ platform: 'slack', reason: 'socket_reconnect', at: new Date() })
        .catch((err: unknown) => this.#log.error({ err }, 'gap handler failed'));
    });
  }

  /** A person's message in a thread (needs the message.channels / message.groups subscriptions). */
  async #onThreadMessage(
    m: { channel: string; threadTs: string; ts: string; user: string; text: string },
    eventId: string | undefined,
  ): Promise<void> {
    const handler = this.#handlers?.onThreadMessage;
    if (!handler) return;
    const client = this.#client('thread reply');
    try {
      await handler({
        platform: 'slack',
        eventId: eventId ?? `slack:thread:${m.channel}:${m.ts}`,
        channelId: m.channel,
        threadOf: m.threadTs,
        user: { id: m.user, roles: [] },
        text: m.text,
        at: m.ts ? new Date(Number(m.ts) * 1000) : new Date(),
        reply: async (content) => {
          // Every part (content longer than one message is several), not the first only.
          for (const r of renderSlackMessages(content)) {
            await this.#call('chat.postEphemeral', () =>
              client.chat.postEphemeral({
                channel: m.channel,
                user: m.user,
                thread_ts: m.threadTs,
                text: r.text,
                blocks: r.blocks,
              }),
            );
          }
        },
      });
    } catch (err) {
      this.#log.error({ err, channel: m.channel }, 'thread message handler failed');
    }
  }

  /** An ephemeral message to `userId` in `channelId` (`chat.postEphemeral`): only they see it. */
  async notify(channelId: string, userId: string, content: MessageContent): Promise<void> {
    const client = this.#client('notify');
    // Every part (content longer than one message is several), not the first only.
    for (const r of renderSlackMessages(content)) {
      await this.#call('chat.postEphemeral', () =>
        client.chat.postEphemeral({
          channel: channelId,
          user: userId,
          text: r.text,
          blocks: r.blocks,
        }),
      );
    }
  }

  async delete(ref: MessageRef): Promise<void> {
    const client = this.#client('delete');
    for (const ts of [ref.messageId, ...ref.partIds]) {
      await this.#call('chat.delete', () => client.chat.delete({ channel: ref.channelId, ts }));
    }
  }

  async post(
    channelId: string,
    content: MessageContent,
    options?: PostOptions,
  ): Promise<MessageRef> {
    const client = this.#client('post');
    const fitted = content.fit
      ? renderSlackFitted(content, content.fit.maxMessages)
      : { messages: renderSlackMessages(content), cutChars: 0 };
    const messages = withButtons(fitted.messages, content);
    const ids: string[] = [];
    let channel = options?.thread?.channelId ?? channelId;
    const thread = options?.thread ? { thread_ts: options.thread.messageId } : {};
    for (const m of messages) {
      const res = await this.#call('chat.postMessage', () =>
        client.chat.postMessage({
          channel,
          text: m.text,
          blocks: m.blocks,
          unfurl_links: false,
          unfurl_media: false,
          ...thread,
        }),
      );
      // postMessage resolves a channel name to its id; keep the id for the ref and later calls.
      if (res.channel) channel = res.channel;
      ids.push(res.ts as string);
    }
    const [messageId, ...partIds] = ids as [string, ...string[]];
    if (content.image) {
      // uploadV2 gives no message ts (T12), so the image goes in the primary message's thread.
      const image = content.image;
      await this.#call('files.uploadV2', () =>
        client.files.uploadV2({
          channel_id: channel,
          thread_ts: messageId,
          file: Buffer.from(image.data),
          filename: image.filename,
          title: image.alt,
          alt_text: image.alt,
        }),
      );
    }
    if (fitted.cutChars > 0 && content.fit) {
      // A cut battle's full text, in its thread (chat/render/fit.ts). The battle is posted by now: a failed upload
      // (e.g. no `files:write` scope) is logged and the battle stands, rather than failing a post that happened.
      const name = content.fit.fileName;
      const data = Buffer.from(fullText(content), 'utf8');
      await this.#call('files.uploadV2', () =>
        client.files.uploadV2({
          channel_id: channel,
          thread_ts: messageId,
          file: data,
          filename: name,
          title: name,
        }),
      ).catch((err: unknown) =>
        this.#log.warn(
          { ts: messageId, file: name, err: errMessage(err) },
          'slack: the full text of a cut message could not be uploaded in its thread; the message stands',
        ),
      );
    }
    return { platform: 'slack', channelId: channel, messageId, partIds };
  }

  async edit(ref: MessageRef, content: MessageContent, options?: EditOptions): Promise<void> {
    const client = this.#client('edit');
    const ids = [ref.messageId, ...ref.partIds];
    // Fitted content is fitted to the messages the ref has; the previous content, rendered alike, tells which
    // of them change.
    const render = (c: MessageContent): ButtonedMessage[] =>
      withButtons(c.fit ? renderSlackFitted(c, ids.length).messages : renderSlackMessages(c), c);
    const messages = render(content);
    const before = options?.previous ? render(options.previous) : undefined;
    if (messages.length > ids.length) {
      this.#log.warn(
        { ts: ref.messageId, needed: messages.length, available: ids.length },
        'slack edit: content needs more messages than posted; dropping the rest',
      );
    }
    const blank: ButtonedMessage = { text: '…', blocks: [] };
    for (const [i, ts] of ids.entries()) {
      const m: ButtonedMessage = messages[i] ?? blank;
      if (before && JSON.stringify(before[i] ?? blank) === JSON.stringify(m)) continue;
      await this.#call('chat.update', () =>
        client.chat.update({ channel: ref.channelId, ts, text: m.text, blocks: m.blocks }),
      );
    }
  }

  /** Adds reactions by name (`point_left`, with or without surrounding colons), in order. */
  async addReactions(ref: MessageRef, emojis: readonly string[]): Promise<void> {
    const client = this.#client('addReactions');
    // One refused name (invalid_name, a missing scope) does not stop the others.
    const failed: string[] = [];
    for (const emoji of emojis) {
      const name = emoji.replace(/^:|:$/gu, '');
      try {
        await client.reactions.add({ channel: ref.channelId, timestamp: ref.messageId, name });
      } catch (err) {
        if (slackErrorCode(err) === 'already_reacted') continue;
        failed.push(`${name} (${this.#wrap('reactions.add', err).message})`);
      }
    }
    if (failed.length > 0) {
      throw new AppError(
        'chat_platform_error',
        `slack: could not add ${failed.length} of ${emojis.length} reactions: ${failed.join(', ')}`,
      );
    }
  }

  /**
   * Reactions present on the primary message (`reactions.get full=true`: every user, not a truncated list); the
   * bot itself is left out.
   * @throws AppError `chat_message_gone` when Slack answers `message_not_found`.
   */
  async listReactions(ref: MessageRef): Promise<readonly ReactionSnapshot[]> {
    const client = this.#client('listReactions');
    const res = await this.#call('reactions.get', () =>
      client.reactions.get({ channel: ref.channelId, timestamp: ref.messageId, full: true }),
    );
    const reactions =
      (res.message as { reactions?: { name?: string; users?: string[] }[] } | undefined)
        ?.reactions ?? [];
    const out: ReactionSnapshot[] = [];
    for (const r of reactions) {
      const userIds = (r.users ?? []).filter((u) => u !== this.#botUserId);
      if (r.name && userIds.length > 0) out.push({ emoji: r.name, userIds });
    }
    return out;
  }

  // ---- internals -------------------------------------------------------------------------------------------

  #client(what: string): App['client'] {
    if (!this.#app)
      throw new AppError('chat_platform_error', `slack: ${what}: adapter not started`);
    return this.#app.client;
  }

  async #call<T>(method: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.#wrap(method, err);
    }
  }

  #wrap(method: string, err: unknown): AppError {
    const code = slackErrorCode(err);
    if (code === 'message_not_found') {
      this.#log.info({ method }, 'slack: the message is gone');
      return new AppError('chat_message_gone', `slack: ${method}: the message is gone (${code})`, {
        cause: err,
      });
    }
    if ((code === 'not_in_channel' || code === 'channel_not_found') && WRITE_METHODS.has(method)) {
      this.#log.warn({ method, error: code }, 'slack: the bot is not in the channel');
      return new ChatNoAccessError(
        { platform: 'slack', code, botName: this.#botName },
        { cause: err },
      );
    }
    this.#log.error({ method, error: code ?? errMessage(err) }, 'slack Web API call failed');
    return new AppError(
      'chat_platform_error',
      `slack: ${method} failed: ${code ?? errMessage(err)}`,
      { cause: err },
    );
  }

  async #onReaction(
    added: boolean,
    event: {
      user: string;
      reaction: string;
      item: { type: string; channel?: string; ts?: string };
      event_ts: string;
    },
    body: { event_id?: string },
    retryNum: number | undefined,
  ): Promise<void> {
    if (event.item.type !== 'message' || !event.item.channel || !event.item.ts) return;
    const ev: ReactionEvent = {
      platform: 'slack',
      eventId:
        body.event_id ??
        `slack:${event.item.channel}:${event.item.ts}:${event.user}:${event.event_ts}`,
      channelId: event.item.channel,
      messageId: event.item.ts,
      userId: event.user,
      emoji: event.reaction,
      added,
      ...slackEventTime(event.event_ts),
      ...(retryNum ? { retryNum } : {}),
    };
    try {
      await this.#handlers?.onReaction(ev);
    } catch (err) {
      this.#log.error({ err, eventId: ev.eventId }, 'reaction handler failed');
    }
  }

  /** Buttons (a battle's vote buttons): acknowledged first (3-s rule), then answered with chat.postEphemeral. */
  #listenButtons(app: App): void {
    app.action(/.*/u, async ({ ack, body, action, client }) => {
      await ack();
      await this.#onButton(
        body as unknown as BlockActionBody,
        action as { action_id?: string; action_ts?: string },
        client,
      );
    });
  }

  /**
   * A button pressed (a `block_actions` interaction, already acknowledged): goes to `onButton` with the press's
   * `action_ts` as its time; the handler's answer is `chat.postEphemeral` to the presser in the message's channel.
   */
  async #onButton(
    body: BlockActionBody,
    action: { action_id?: string; action_ts?: string },
    client: App['client'],
  ): Promise<void> {
    const handler = this.#handlers?.onButton;
    const channel = body.channel?.id ?? body.container?.channel_id;
    const messageId = body.message?.ts ?? body.container?.message_ts;
    const user = body.user?.id;
    if (!handler || body.type !== 'block_actions' || !channel || !messageId || !user) return;
    if (!action.action_id) return;
    const ev: ButtonPressEvent = {
      platform: 'slack',
      eventId: `slack:action:${body.trigger_id ?? `${channel}:${messageId}:${user}:${action.action_ts}`}`,
      channelId: channel,
      messageId,
      userId: user,
      buttonId: action.action_id,
      ...slackEventTime(action.action_ts),
      reply: async (content) => {
        for (const r of renderSlackMessages(content)) {
          await this.#call('chat.postEphemeral', () =>
            client.chat.postEphemeral({ channel, user, text: r.text, blocks: r.blocks }),
          );
        }
      },
    };
    try {
      await handler(ev);
    } catch (err) {
      this.#log.error({ err, eventId: ev.eventId }, 'button handler failed');
    }
  }

  async #runCommand(
    spec: CommandSpec,
    command: {
      text: string;
      user_id: string;
      user_name: string;
      channel_id: string;
      trigger_id: string;
    },
    respond: (msg: Record<string, unknown>) => Promise<unknown>,
    client: App['client'],
  ): Promise<void> {
    const log = this.#log.child({ command: spec.name, trigger: command.trigger_id });
    // Decoded once here, so the bot, storage and the models see what the person typed.
    const text = decodeSlackText(command.text);
    const ctx: CommandContext = {
      platform: 'slack',
      eventId: `slack:command:${command.trigger_id}`,
      name: spec.name,
      args: parseCommandArgs(text, spec),
      text,
      user: {
        id: command.user_id,
        name: command.user_name,
        roles: await this.#rolesOf(command.user_id, client),
      },
      channelId: command.channel_id,
      reply: async (content, options) => {
        if (!options?.ephemeral) {
          try {
            await this.post(command.channel_id, content);
            return;
          } catch (err) {
            if (!(err instanceof AppError && err.code === 'chat_no_access')) throw err;
          }
          // The bot is not in this channel (a private channel, or public without chat:write.public): the
          // command's own response_url still reaches it, visible to everyone as the command intends.
          log.info('bot not in the channel; answering through response_url (in_channel)');
          for (const m of renderSlackMessages(content)) {
            await respond({
              response_type: 'in_channel',
              replace_original: false,
              text: m.text,
              blocks: m.blocks,
            });
          }
          return;
        }
        for (const m of renderSlackMessages(content)) {
          try {
            await respond({
              response_type: 'ephemeral',
              replace_original: false,
              text: m.text,
              blocks: m.blocks,
            });
          } catch (err) {
            // response_url expired or used up (5 uses / 30 min): fall back to the bot token.
            log.warn({ error: errMessage(err) }, 'respond() failed; using chat.postEphemeral');
            await this.#call('chat.postEphemeral', () =>
              client.chat.postEphemeral({
                channel: command.channel_id,
                user: command.user_id,
                text: m.text,
                blocks: m.blocks,
              }),
            );
          }
        }
      },
    };
    try {
      await this.#handlers?.onCommand(ctx);
    } catch (err) {
      log.error({ err }, 'command handler failed');
      await respond({
        response_type: 'ephemeral',
        text: t(this.#opts.locale ?? 'en', 'adapter.failed'),
      }).catch(() => undefined);
    }
  }

  async #rolesOf(userId: string, client: App['client']): Promise<string[]> {
    const roles: string[] = [];
    for (const group of this.#opts.roleGroupIds ?? []) {
      let cached = this.#groupCache.get(group);
      if (!cached || cached.until < Date.now()) {
        try {
          const res = await client.usergroups.users.list({ usergroup: group });
          cached = { users: new Set(res.users ?? []), until: Date.now() + 5 * 60_000 };
          this.#groupCache.set(group, cached);
        } catch (err) {
          this.#log.warn(
            { group, error: slackErrorCode(err) ?? errMessage(err) },
            'slack usergroups.users.list failed',
          );
          continue;
        }
      }
      if (cached.users.has(userId)) roles.push(group);
    }
    return roles;
  }
}

/** The Block Kit `actions` block of a message's buttons. */
interface ActionsBlock {
  readonly type: 'actions';
  readonly block_id: string;
  readonly elements: {
    readonly type: 'button';
    readonly action_id: string;
    readonly value: string;
    readonly text: { readonly type: 'plain_text'; readonly text: string; readonly emoji: true };
  }[];
}

/** A message as posted: its rendered blocks, the first one's followed by its buttons' `actions` block. */
interface ButtonedMessage {
  readonly text: string;
  blocks: (SlackBlockJson | ActionsBlock)[];
}

/** The parts of a `block_actions` interaction body the adapter reads. */
interface BlockActionBody {
  readonly type: string;
  readonly trigger_id?: string;
  readonly user?: { readonly id?: string };
  readonly channel?: { readonly id?: string };
  readonly message?: { readonly ts?: string };
  readonly container?: { readonly channel_id?: string; readonly message_ts?: string };
}

/**
 * `messages` with `content.buttons` as an `actions` block at the end of the first message (Block Kit buttons:
 * `action_id` the button's id, the emoji as a `:name:` shortcode in the plain-text label); unchanged without
 * buttons, so an edit to content without them removes the block (`chat.update` replaces the blocks).
 */
export function withButtons(
  messages: readonly SlackMessageJson[],
  content: MessageContent,
): ButtonedMessage[] {
  const buttons = content.buttons ?? [];
  const [first, ...rest] = messages;
  if (buttons.length === 0 || !first) return [...messages];
  const actions: ActionsBlock = {
    type: 'actions',
    block_id: 'zhujiu_buttons',
    elements: buttons.map((b) => ({
      type: 'button' as const,
      action_id: b.id,
      value: b.id,
      text: {
        type: 'plain_text' as const,
        text: b.emoji ? `:${b.emoji.replace(/^:|:$/gu, '')}: ${b.label}` : b.label,
        emoji: true as const,
      },
    })),
  };
  return [{ ...first, blocks: [...first.blocks, actions] }, ...rest];
}

/** Web API methods that need the bot to be in the channel. */
const WRITE_METHODS = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'reactions.add',
  'reactions.get',
  'files.uploadV2',
]);

/** Routes Bolt's own logging into pino (Bolt passes strings and objects). */
function boltLogger(log: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  const text = (msg: unknown[]): string =>
    msg.map((m) => (typeof m === 'string' ? m : errMessage(m))).join(' ');
  return {
    debug: (...msg: unknown[]) => log.debug({ src: 'bolt' }, text(msg)),
    info: (...msg: unknown[]) => log.info({ src: 'bolt' }, text(msg)),
    warn: (...msg: unknown[]) => log.warn({ src: 'bolt' }, text(msg)),
    error: (...msg: unknown[]) => log.error({ src: 'bolt' }, text(msg)),
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * The ts of the message a `message` event says is gone: `deleted_ts` of a `message_deleted`, or the ts of a
 * `message_changed` whose new message is a `tombstone` (a deleted message that had thread replies); else undefined.
 */
export function goneMessageTs(event: unknown): string | undefined {
  const e = event as {
    subtype?: string;
    deleted_ts?: string;
    message?: { subtype?: string; ts?: string };
  };
  if (e.subtype === 'message_deleted') return e.deleted_ts || undefined;
  if (e.subtype === 'message_changed' && e.message?.subtype === 'tombstone')
    return e.message.ts || undefined;
  return undefined;
}

function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

function errMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null) {
    try {
      return JSON.stringify(err);
    } catch {
      return String(err);
    }
  }
  return String(err);
}

/**
 * A Slack `event_ts` ("1700000000.123456": seconds, then microseconds) as the event's time to the millisecond and
 * the microseconds below it as `seq`, so events are ordered as Slack ordered them (docs/scoring.md §4.1). A
 * malformed value falls back to its nearest millisecond (or now) without `seq`.
 */
export function slackEventTime(ts: string | undefined): { at: Date; seq?: number } {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(ts ?? '');
  if (!m) {
    const n = Number(ts);
    return {
      at: Number.isFinite(n) && ts !== undefined && ts !== '' ? new Date(n * 1000) : new Date(),
    };
  }
  const micros = Number((m[2] ?? '').padEnd(6, '0'));
  return { at: new Date(Number(m[1]) * 1000 + Math.floor(micros / 1000)), seq: micros % 1000 };
}
