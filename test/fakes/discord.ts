/**
 * @module test/fakes/discord
 * A fake Discord (REST + gateway) on 127.0.0.1 for driving the real discord.js in tests.
 * Follows shared/guides/chat-testing.md §1.2–1.4 (and pitfalls D1, D6, D10).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export const BOT_USER_ID = '1100000000000000001';
export const APP_ID = '1100000000000000002';
export const GUILD_ID = '1100000000000000003';
export const CHANNEL_ID = '1100000000000000004';
export const MAINTAINER_ROLE_ID = '1100000000000000005';

/** One REST request as received. */
export interface RecordedRequest {
  readonly method: string;
  /** Percent-decoded path after `/api/v10`. */
  readonly path: string;
  /** Raw path after `/api/v10` (no query), for encoding assertions. */
  readonly rawPath: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: http.IncomingHttpHeaders;
  /** JSON body, or `payload_json` of a multipart body. */
  readonly json: unknown;
  /** Files of a multipart body (`data`: the file's bytes). */
  readonly files: readonly {
    field: string;
    name: string;
    type: string;
    size: number;
    data: Buffer;
  }[];
  /** Status the fake answered. */
  status: number;
}

/** A message as the fake stores it. */
export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: unknown[];
  attachments: unknown[];
  edited_timestamp: string | null;
  flags: number;
  /** Message components (action rows of buttons), as last sent. */
  components: unknown[];
}

/** Something posted to an interaction webhook (callback, @original edit, follow-up). */
export interface InteractionResponse {
  readonly interactionId: string | undefined;
  readonly token: string;
  readonly kind: 'callback' | 'original' | 'followup' | 'delete-original';
  readonly body: Record<string, unknown>;
}

export interface FakeDiscordOptions {
  /** HELLO heartbeat interval (ms); long by default so no heartbeat fires. */
  heartbeatInterval?: number;
  /** Close the gateway with this code on IDENTIFY (e.g. 4014 "Disallowed intents"). */
  closeOnIdentify?: number;
  /**
   * The gateway URL `GET /gateway/bot` names (default: this fake's own), e.g. an unreachable one, to show that a
   * client configured with its own gateway URL does not use it.
   */
  advertisedGatewayUrl?: string;
}

interface RateLimitRule {
  method: string;
  path: RegExp;
  retryAfter: number;
}

export interface SlashUser {
  id: string;
  username?: string;
  roles?: string[];
  /** The user's client language, as Discord sends it in `locale` (default en-US). */
  locale?: string;
}

export class FakeDiscord {
  readonly requests: RecordedRequest[] = [];
  readonly identifies: Record<string, unknown>[] = [];
  readonly resumes: Record<string, unknown>[] = [];
  readonly messages = new Map<string, FakeMessage>();
  /** Requests refused with 50035 because a message was over Discord's limits ({@link DISCORD_API_LIMITS}). */
  readonly refusedTooLong: RecordedRequest[] = [];
  /** Threads started on messages: thread id (= the message id) → parent channel id. */
  readonly threads = new Map<string, string>();
  /** messageId → emoji (as in the decoded path / dispatch name) → user ids in the order they reacted. */
  readonly reactions = new Map<string, Map<string, string[]>>();
  /**
   * Super (burst) reactions, kept apart as Discord does (`GET …/reactions/:emoji?type=1` lists them, `type=0` or
   * no type the normal ones; a message's `count_details` counts each kind): messageId → emoji → user ids.
   */
  readonly burstReactions = new Map<string, Map<string, string[]>>();
  readonly interactionResponses: InteractionResponse[] = [];
  /**
   * Interaction callbacks that came later than Discord's 3 s after the INTERACTION_CREATE (refused with 10062
   * Unknown interaction, as Discord does): the interaction id and how late, ms. A test asserts it stays empty.
   */
  readonly lateInteractions: { interactionId: string; ms: number }[] = [];
  readonly registeredCommands: { path: string; body: unknown }[] = [];
  readonly rateLimited: RecordedRequest[] = [];
  port = 0;

  #server: http.Server;
  #wss: WebSocketServer;
  #sockets = new Set<WebSocket>();
  #ready = new Set<WebSocket>();
  #seq = 0;
  #sessionId = '';
  #nextId = 1200000000000000000n;
  #rateRules: RateLimitRule[] = [];
  #interactionTokens = new Map<string, string>();
  /** When each interaction was dispatched (ms) and its type (2 command, 3 component), for the 3-s rule. */
  #interactionSent = new Map<string, { at: number; type: number }>();
  #heartbeatInterval: number;
  #closeOnIdentify: number | undefined;
  #advertisedGatewayUrl: string | undefined;
  /** A RESUME is answered with op 9 Invalid Session `d: false` (the session expired): the client must IDENTIFY. */
  #refuseResume = false;

  private constructor(options: FakeDiscordOptions) {
    this.#heartbeatInterval = options.heartbeatInterval ?? 41_250;
    this.#closeOnIdentify = options.closeOnIdentify;
    this.#advertisedGatewayUrl = options.advertisedGatewayUrl;
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(err), code: 0 }));
      });
    });
    this.#wss = new WebSocketServer({ server: this.#server });
    this.#wss.on('connection', (ws) => this.#onConnection(ws));
  }

  /** Starts a fake on a free loopback port. */
  static async start(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
    const fake = new FakeDiscord(options);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  /** Base URL to pass as discord.js `rest.api` (without version). */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** True while a client has identified (or resumed) and can receive dispatches. */
  get connected(): boolean {
    return this.#ready.size > 0;
  }

  /** Current gateway session id (changes on every IDENTIFY). */
  get sessionId(): string {
    return this.#sessionId;
  }

  /** Next snowflake (19 digits, increasing). */
  snowflake(): string {
    this.#nextId += 1n;
    return this.#nextId.toString();
  }

  /** Makes the next request matching `method` + decoded `path` answer 429 once (guide D10). */
  rateLimitOnce(method: string, path: RegExp, retryAfter = 0.2): void {
    this.#rateRules.push({ method, path, retryAfter });
  }

  /** Sends a dispatch to connected clients with the next sequence number; returns that sequence (or -1). */
  dispatch(t: string, d: unknown): number {
    if (this.#ready.size === 0) return -1;
    this.#seq += 1;
    this.#sent.set(this.#seq, { t, d });
    this.#send({ op: 0, t, s: this.#seq, d });
    return this.#seq;
  }

  /** Dispatches what was sent at sequence `s` again, unchanged (a RESUME replay); false when there was none. */
  replay(s: number): boolean {
    const p = this.#sent.get(s);
    if (!p || this.#ready.size === 0) return false;
    this.#send({ op: 0, t: p.t, s, d: p.d });
    return true;
  }

  /** Every dispatch sent in this session, by sequence (for {@link replay}). */
  readonly #sent = new Map<number, { t: string; d: unknown }>();

  /** Sends a dispatch with an explicit (possibly repeated) sequence number, as a replay after RESUME would. */
  dispatchWithSeq(t: string, d: unknown, s: number): void {
    this.#send({ op: 0, t, s, d });
  }

  /** Sends any gateway payload (e.g. `{op: 7}` RECONNECT). */
  sendOp(payload: Record<string, unknown>): void {
    this.#send(payload);
  }

  /**
   * A user adds or removes a reaction: updates the fake's state and, when a client is connected, dispatches
   * MESSAGE_REACTION_ADD/REMOVE (ADD carries `member`, REMOVE does not, as on real Discord). `burst`: a super
   * reaction (`burst: true`, `type: 1`, kept apart from the normal ones); `lost`: no dispatch is sent.
   * Returns the dispatch's sequence number, or -1 when no client was connected.
   */
  userReact(
    messageId: string,
    emoji: string,
    userId: string,
    add: boolean,
    opts: {
      roles?: string[];
      bot?: boolean;
      channelId?: string;
      burst?: boolean;
      lost?: boolean;
    } = {},
  ): number {
    const channelId = opts.channelId ?? this.messages.get(messageId)?.channel_id ?? CHANNEL_ID;
    const burst = opts.burst === true;
    this.#setReaction(messageId, emoji, userId, add, burst ? this.burstReactions : this.reactions);
    const d: Record<string, unknown> = {
      user_id: userId,
      channel_id: channelId,
      message_id: messageId,
      guild_id: GUILD_ID,
      emoji: parseEmoji(emoji),
      burst,
      type: burst ? 1 : 0,
    };
    if (burst && add) d.burst_colors = ['#ffcc00'];
    if (add) {
      d.member = {
        user: {
          id: userId,
          username: `user${userId.slice(-4)}`,
          discriminator: '0',
          avatar: null,
          bot: opts.bot ?? false,
        },
        roles: opts.roles ?? [],
        joined_at: '2024-01-01T00:00:00.000Z',
        deaf: false,
        mute: false,
        flags: 0,
      };
    }
    // `lost`: the reaction is on the message, but its dispatch never reaches the client (a missed event).
    if (opts.lost) return -1;
    return this.dispatch(add ? 'MESSAGE_REACTION_ADD' : 'MESSAGE_REACTION_REMOVE', d);
  }

  /** Dispatches a slash command (INTERACTION_CREATE type 2); returns the interaction id. */
  slashCommand(
    name: string,
    options: Record<string, string>,
    user: SlashUser,
    where: { threadOf?: string } = {},
  ): string {
    const id = this.snowflake();
    // In a thread started on a message: the thread has the message's id and the channel as its parent.
    const channel = where.threadOf
      ? {
          id: where.threadOf,
          type: 11,
          guild_id: GUILD_ID,
          parent_id: CHANNEL_ID,
          name: 'Follow-ups',
          thread_metadata: { archived: false, auto_archive_duration: 1440, locked: false },
        }
      : { id: CHANNEL_ID, type: 0, guild_id: GUILD_ID, name: 'arena' };
    const token = `itoken-${randomUUID()}`;
    this.#interactionTokens.set(token, id);
    this.#interactionSent.set(id, { at: Date.now(), type: 2 });
    this.dispatch('INTERACTION_CREATE', {
      id,
      application_id: APP_ID,
      type: 2,
      token,
      version: 1,
      guild_id: GUILD_ID,
      channel_id: channel.id,
      channel,
      member: {
        user: {
          id: user.id,
          username: user.username ?? 'someone',
          discriminator: '0',
          avatar: null,
        },
        roles: user.roles ?? [],
        permissions: '2248473465835073',
        joined_at: '2024-01-01T00:00:00.000Z',
        deaf: false,
        mute: false,
        flags: 0,
      },
      data: {
        id: this.snowflake(),
        name,
        type: 1,
        options: Object.entries(options).map(([k, v]) => ({ name: k, type: 3, value: v })),
      },
      locale: user.locale ?? 'en-US',
      guild_locale: 'en-US',
      app_permissions: '2248473465835073',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD_ID },
      context: 0,
    });
    return id;
  }

  /**
   * A person presses the button `customId` on message `messageId` (it must carry it, as on Discord): dispatches
   * INTERACTION_CREATE type 3 (message component, component_type 2) with the message; returns the interaction id.
   * The app must answer (callback) within 3 s ({@link lateInteractions}).
   */
  pressButton(messageId: string, customId: string, user: SlashUser): string {
    const msg = this.messages.get(messageId);
    const has = (msg?.components ?? []).some((row) =>
      ((row as { components?: { custom_id?: string }[] }).components ?? []).some(
        (c) => c.custom_id === customId,
      ),
    );
    if (!msg || !has) throw new Error(`fake discord: no button ${customId} on ${messageId}`);
    const id = this.snowflake();
    const token = `itoken-${randomUUID()}`;
    this.#interactionTokens.set(token, id);
    this.#interactionSent.set(id, { at: Date.now(), type: 3 });
    this.dispatch('INTERACTION_CREATE', {
      id,
      application_id: APP_ID,
      type: 3,
      token,
      version: 1,
      guild_id: GUILD_ID,
      channel_id: msg.channel_id,
      channel: { id: msg.channel_id, type: 0, guild_id: GUILD_ID, name: 'arena' },
      member: {
        user: {
          id: user.id,
          username: user.username ?? 'someone',
          discriminator: '0',
          avatar: null,
        },
        roles: user.roles ?? [],
        permissions: '2248473465835073',
        joined_at: '2024-01-01T00:00:00.000Z',
        deaf: false,
        mute: false,
        flags: 0,
      },
      message: this.#messageJson(msg),
      data: { custom_id: customId, component_type: 2 },
      locale: user.locale ?? 'en-US',
      guild_locale: 'en-US',
      app_permissions: '2248473465835073',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD_ID },
      context: 0,
    });
    return id;
  }

  /** Responses to one interaction (callback, @original edits, follow-ups), in arrival order. */
  responsesFor(interactionId: string): InteractionResponse[] {
    return this.interactionResponses.filter((r) => r.interactionId === interactionId);
  }

  /** Users currently holding `emoji` on `messageId` (normal reactions; `burst`: the super reactions). */
  reactionUsers(messageId: string, emoji: string, burst = false): string[] {
    return [...((burst ? this.burstReactions : this.reactions).get(messageId)?.get(emoji) ?? [])];
  }

  /**
   * The connection drops (the network, a gateway restart): every socket is cut at once, so dispatches sent until
   * the client is back are lost to it. `resumable: false` (the session expired meanwhile) answers the client's
   * RESUME with op 9 Invalid Session `d: false`, so it IDENTIFYs anew and gets a new READY; nothing is replayed.
   */
  disconnect(o: { resumable: boolean }): void {
    this.#refuseResume = !o.resumable;
    for (const ws of this.#sockets) ws.terminate();
    this.#ready.clear();
  }

  /**
   * Emoji the bot's `PUT …/reactions/:emoji/@me` refuses with 400 `10014 Unknown Emoji`, as Discord does for a
   * string it does not know as an emoji (e.g. a text-presentation form). Exact strings, as decoded.
   */
  readonly unknownEmoji = new Set<string>();

  /**
   * Channels where the bot may not send messages: `POST /channels/:id/messages` answers 403 `50013 Missing
   * Permissions` (interaction responses still work there, as on Discord: they go through the webhook).
   */
  readonly noAccessChannels = new Set<string>();

  /**
   * A moderator removes every reaction of `emoji` on a message: the fake's state loses them (the bot's too) and a
   * MESSAGE_REACTION_REMOVE_EMOJI is dispatched, with no per-user events (as on Discord). Returns the sequence.
   */
  moderatorRemoveEmoji(messageId: string, emoji: string): number {
    this.reactions.get(messageId)?.delete(emoji);
    this.burstReactions.get(messageId)?.delete(emoji);
    const channelId = this.messages.get(messageId)?.channel_id ?? CHANNEL_ID;
    return this.dispatch('MESSAGE_REACTION_REMOVE_EMOJI', {
      channel_id: channelId,
      guild_id: GUILD_ID,
      message_id: messageId,
      emoji: parseEmoji(emoji),
    });
  }

  /** A moderator removes all reactions of a message: MESSAGE_REACTION_REMOVE_ALL, no per-user events. */
  moderatorRemoveAll(messageId: string): number {
    this.reactions.delete(messageId);
    this.burstReactions.delete(messageId);
    const channelId = this.messages.get(messageId)?.channel_id ?? CHANNEL_ID;
    return this.dispatch('MESSAGE_REACTION_REMOVE_ALL', {
      channel_id: channelId,
      guild_id: GUILD_ID,
      message_id: messageId,
    });
  }

  /** A moderator removes one user's reaction (DELETE …/reactions/:emoji/:user): a MESSAGE_REACTION_REMOVE. */
  moderatorRemoveUserReaction(messageId: string, emoji: string, userId: string): number {
    return this.userReact(messageId, emoji, userId, false);
  }

  /** A message is deleted: gone from the fake with its reactions, MESSAGE_DELETE dispatched. */
  deleteMessage(messageId: string): number {
    const channelId = this.messages.get(messageId)?.channel_id ?? CHANNEL_ID;
    this.messages.delete(messageId);
    this.reactions.delete(messageId);
    this.burstReactions.delete(messageId);
    return this.dispatch('MESSAGE_DELETE', {
      id: messageId,
      channel_id: channelId,
      guild_id: GUILD_ID,
    });
  }

  /** Several messages deleted at once (a moderator's purge): MESSAGE_DELETE_BULK. */
  bulkDelete(messageIds: string[], channelId = CHANNEL_ID): number {
    for (const id of messageIds) {
      this.messages.delete(id);
      this.reactions.delete(id);
      this.burstReactions.delete(id);
    }
    return this.dispatch('MESSAGE_DELETE_BULK', {
      ids: messageIds,
      channel_id: channelId,
      guild_id: GUILD_ID,
    });
  }

  /** Adds a message directly (as if posted earlier). */
  seedMessage(content: string, channelId = CHANNEL_ID): FakeMessage {
    const m: FakeMessage = {
      id: this.snowflake(),
      channel_id: channelId,
      content,
      embeds: [],
      attachments: [],
      edited_timestamp: null,
      flags: 0,
      components: [],
    };
    this.messages.set(m.id, m);
    return m;
  }

  /** Resolves when no client socket is open (after the client was destroyed). */
  async waitDisconnected(timeoutMs = 120_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.#sockets.size > 0 && Date.now() < end) await sleep(20);
  }

  /** Terminates sockets and closes the server. */
  async close(): Promise<void> {
    for (const ws of this.#sockets) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- gateway ---------------------------------------------------------------------------------------------

  #send(payload: unknown): void {
    const text = JSON.stringify(payload);
    for (const ws of this.#ready) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  #onConnection(ws: WebSocket): void {
    this.#sockets.add(ws);
    ws.on('close', () => {
      this.#sockets.delete(ws);
      this.#ready.delete(ws);
    });
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> };
      if (msg.op === 1) ws.send(JSON.stringify({ op: 11 }));
      else if (msg.op === 2) this.#onIdentify(ws, msg.d);
      else if (msg.op === 6) {
        this.resumes.push(msg.d);
        if (this.#refuseResume) {
          this.#refuseResume = false;
          ws.send(JSON.stringify({ op: 9, d: false }));
          return;
        }
        this.#ready.add(ws);
        ws.send(JSON.stringify({ op: 0, t: 'RESUMED', s: ++this.#seq, d: {} }));
      }
    });
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.#heartbeatInterval } }));
  }

  #onIdentify(ws: WebSocket, d: Record<string, unknown>): void {
    this.identifies.push(d);
    if (this.#closeOnIdentify !== undefined) {
      ws.close(this.#closeOnIdentify, 'Disallowed intent(s).');
      return;
    }
    this.#sessionId = randomUUID().replace(/-/gu, '');
    this.#seq = 0;
    this.#sent.clear();
    this.#ready.add(ws);
    const shard = (d.shard as number[] | undefined) ?? [0, 1];
    const url = `ws://127.0.0.1:${this.port}`;
    const send = (t: string, data: unknown): void => {
      this.#seq += 1;
      ws.send(JSON.stringify({ op: 0, t, s: this.#seq, d: data }));
    };
    send('READY', {
      v: 10,
      user: {
        id: BOT_USER_ID,
        username: 'arena-bot',
        discriminator: '0',
        bot: true,
        avatar: null,
        flags: 0,
      },
      guilds: [{ id: GUILD_ID, unavailable: true }],
      session_id: this.#sessionId,
      resume_gateway_url: url,
      shard,
      application: { id: APP_ID, flags: 0 },
      private_channels: [],
      user_settings: {},
    });
    send('GUILD_CREATE', {
      id: GUILD_ID,
      name: 'Arena Guild',
      unavailable: false,
      owner_id: '1100000000000000099',
      member_count: 3,
      roles: [
        {
          id: GUILD_ID,
          name: '@everyone',
          permissions: '0',
          position: 0,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
        {
          id: MAINTAINER_ROLE_ID,
          name: 'maintainer',
          permissions: '8',
          position: 1,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      channels: [
        {
          id: CHANNEL_ID,
          type: 0,
          name: 'arena',
          position: 0,
          permission_overwrites: [],
          guild_id: GUILD_ID,
        },
      ],
      members: [],
      emojis: [],
      stickers: [],
      threads: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    });
  }

  // ---- REST ------------------------------------------------------------------------------------------------

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawPath = url.pathname.replace(/^\/api\/v10/u, '');
    const path = decodeURIComponent(rawPath);
    const method = req.method ?? 'GET';
    const ct = req.headers['content-type'] ?? '';
    let json: unknown;
    const files: { field: string; name: string; type: string; size: number; data: Buffer }[] = [];
    if (ct.startsWith('application/json') && raw.length > 0)
      json = JSON.parse(raw.toString('utf8'));
    else if (ct.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': ct } }).formData();
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') {
          if (field === 'payload_json') json = JSON.parse(value);
        } else
          files.push({
            field,
            name: value.name,
            type: value.type,
            size: value.size,
            data: Buffer.from(await value.arrayBuffer()),
          });
      }
    }
    const rec: RecordedRequest = {
      method,
      path,
      rawPath,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      json,
      files,
      status: 0,
    };
    this.requests.push(rec);

    const send = (status: number, body?: unknown, headers: Record<string, string> = {}): void => {
      rec.status = status;
      if (body === undefined) {
        // D1: a 204 must carry no content-type, or @discordjs/rest tries to parse the empty body.
        res.writeHead(status, headers);
        res.end();
      } else {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      }
    };

    const ruleIdx = this.#rateRules.findIndex((r) => r.method === method && r.path.test(path));
    if (ruleIdx >= 0) {
      const rule = this.#rateRules[ruleIdx] as RateLimitRule;
      this.#rateRules.splice(ruleIdx, 1);
      this.rateLimited.push(rec);
      send(
        429,
        { message: 'You are being rate limited.', retry_after: rule.retryAfter, global: false },
        { 'retry-after': String(rule.retryAfter), 'x-ratelimit-scope': 'user' },
      );
      return;
    }

    const body = (json ?? {}) as Record<string, unknown>;
    // What Discord refuses as too long (message create/edit, interaction replies and follow-ups).
    const message =
      /^\/(channels\/\d+\/messages(\/\d+)?|webhooks\/\d+\/[^/]+(\/messages\/@original)?)$/u.test(
        path,
      ) &&
      (method === 'POST' || method === 'PATCH')
        ? body
        : /^\/interactions\/\d+\/[^/]+\/callback$/u.test(path) && method === 'POST'
          ? ((body.data ?? {}) as Record<string, unknown>)
          : undefined;
    const invalid = message
      ? (discordMessageErrors(message) ?? discordComponentErrors(message))
      : undefined;
    if (invalid) {
      this.refusedTooLong.push(rec);
      return send(400, { message: 'Invalid Form Body', code: 50035, errors: invalid });
    }
    let m: RegExpMatchArray | null = null;
    const on = (re: RegExp): boolean => {
      m = path.match(re);
      return m !== null;
    };
    const g = (i: number): string => (m as RegExpMatchArray | null)?.[i] ?? '';
    if (method === 'GET' && path === '/gateway/bot') {
      send(200, {
        url: this.#advertisedGatewayUrl ?? `ws://127.0.0.1:${this.port}`,
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: 999,
          reset_after: 14_400_000,
          max_concurrency: 16,
        },
      });
    } else if (method === 'PUT' && on(/^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/u)) {
      this.registeredCommands.push({ path, body: json });
      const defs = Array.isArray(json) ? (json as Record<string, unknown>[]) : [];
      send(
        200,
        defs.map((d) => ({
          ...d,
          id: this.snowflake(),
          application_id: g(1),
          guild_id: g(2),
          version: this.snowflake(),
          type: 1,
        })),
      );
    } else if (method === 'POST' && on(/^\/channels\/(\d+)\/messages$/u)) {
      if (this.noAccessChannels.has(g(1)))
        return send(403, { message: 'Missing Permissions', code: 50013 });
      const msg: FakeMessage = {
        id: this.snowflake(),
        channel_id: g(1),
        content: typeof body.content === 'string' ? body.content : '',
        embeds: Array.isArray(body.embeds) ? body.embeds : [],
        attachments: files.map((f, i) => ({
          id: this.snowflake(),
          filename: f.name,
          size: f.size,
          url: `https://cdn.invalid/${i}`,
          proxy_url: `https://cdn.invalid/${i}`,
          content_type: f.type,
        })),
        edited_timestamp: null,
        flags: 0,
        components: Array.isArray(body.components) ? body.components : [],
      };
      this.messages.set(msg.id, msg);
      send(200, this.#messageJson(msg));
    } else if (method === 'PATCH' && on(/^\/channels\/(\d+)\/messages\/(\d+)$/u)) {
      const msg = this.messages.get(g(2));
      if (!msg) return send(404, { message: 'Unknown Message', code: 10008 });
      if (typeof body.content === 'string') msg.content = body.content;
      if (Array.isArray(body.embeds)) msg.embeds = body.embeds;
      if (Array.isArray(body.components)) msg.components = body.components;
      msg.edited_timestamp = new Date().toISOString();
      send(200, this.#messageJson(msg));
    } else if (method === 'GET' && on(/^\/channels\/(\d+)\/messages\/(\d+)$/u)) {
      const msg = this.messages.get(g(2));
      if (!msg) return send(404, { message: 'Unknown Message', code: 10008 });
      send(200, this.#messageJson(msg));
    } else if (method === 'POST' && on(/^\/channels\/(\d+)\/messages\/(\d+)\/threads$/u)) {
      // A thread started on a message gets the message's id.
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      if (this.threads.has(g(2)))
        return send(400, {
          message: 'A thread has already been created for this message',
          code: 160004,
        });
      this.threads.set(g(2), g(1));
      send(201, {
        id: g(2),
        type: 11,
        guild_id: GUILD_ID,
        parent_id: g(1),
        name: typeof body.name === 'string' ? body.name : 'thread',
        thread_metadata: { archived: false, auto_archive_duration: 1440, locked: false },
      });
    } else if (method === 'DELETE' && on(/^\/channels\/(\d+)\/messages\/(\d+)$/u)) {
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      send(204);
      this.deleteMessage(g(2));
    } else if (method === 'DELETE' && on(/^\/channels\/(\d+)\/messages\/(\d+)\/reactions$/u)) {
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      send(204);
      this.moderatorRemoveAll(g(2));
    } else if (on(/^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/u)) {
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      if (method !== 'PUT' && method !== 'DELETE')
        return send(405, { message: '405: Method Not Allowed', code: 0 });
      if (method === 'PUT' && this.unknownEmoji.has(g(3)))
        return send(400, { message: 'Unknown Emoji', code: 10014 });
      const add = method === 'PUT';
      this.#setReaction(g(2), g(3), BOT_USER_ID, add);
      // D5: real Discord echoes the bot's own reaction as a gateway event.
      const d: Record<string, unknown> = {
        user_id: BOT_USER_ID,
        channel_id: g(1),
        message_id: g(2),
        guild_id: GUILD_ID,
        emoji: parseEmoji(g(3)),
        burst: false,
        type: 0,
      };
      if (add)
        d.member = {
          user: {
            id: BOT_USER_ID,
            username: 'arena-bot',
            discriminator: '0',
            bot: true,
            avatar: null,
          },
          roles: [],
          joined_at: '2024-01-01T00:00:00.000Z',
        };
      send(204);
      this.dispatch(add ? 'MESSAGE_REACTION_ADD' : 'MESSAGE_REACTION_REMOVE', d);
    } else if (
      method === 'DELETE' &&
      on(/^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/(\d+)$/u)
    ) {
      send(204);
      this.moderatorRemoveUserReaction(g(2), g(3), g(4));
    } else if (
      method === 'DELETE' &&
      on(/^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)$/u)
    ) {
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      send(204);
      this.moderatorRemoveEmoji(g(2), g(3));
    } else if (
      method === 'GET' &&
      on(/^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)$/u)
    ) {
      if (!this.messages.has(g(2))) return send(404, { message: 'Unknown Message', code: 10008 });
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25));
      const after = BigInt(url.searchParams.get('after') ?? '0');
      // type 0 (or none): normal reactions; type 1: super (burst) reactions.
      const users = this.reactionUsers(g(2), g(3), url.searchParams.get('type') === '1')
        .map((u) => BigInt(u))
        .filter((u) => u > after)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, limit)
        .map((u) => ({
          id: u.toString(),
          username: `user${u.toString().slice(-4)}`,
          discriminator: '0',
          avatar: null,
          bot: u.toString() === BOT_USER_ID,
        }));
      send(200, users);
    } else if (method === 'POST' && on(/^\/interactions\/(\d+)\/([^/]+)\/callback$/u)) {
      const sent = this.#interactionSent.get(g(1));
      // Discord forgets an interaction not answered within 3 s.
      if (sent && Date.now() - sent.at > 3000) {
        this.lateInteractions.push({ interactionId: g(1), ms: Date.now() - sent.at });
        return send(404, { message: 'Unknown interaction', code: 10062 });
      }
      this.interactionResponses.push({
        interactionId: g(1),
        token: g(2),
        kind: 'callback',
        body,
      });
      if (url.searchParams.get('with_response') === 'true')
        send(200, { interaction: { id: g(1), type: sent?.type ?? 2 } });
      else send(204);
    } else if (on(/^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/u)) {
      const token = g(2);
      const interactionId = this.#interactionTokens.get(token);
      if (method === 'DELETE') {
        this.interactionResponses.push({ interactionId, token, kind: 'delete-original', body: {} });
        return send(204);
      }
      this.interactionResponses.push({ interactionId, token, kind: 'original', body });
      send(200, this.#webhookMessage(body));
    } else if (method === 'POST' && on(/^\/webhooks\/(\d+)\/([^/]+)$/u)) {
      const token = g(2);
      this.interactionResponses.push({
        interactionId: this.#interactionTokens.get(token),
        token,
        kind: 'followup',
        body,
      });
      send(200, this.#webhookMessage(body));
    } else {
      send(404, { message: `fake discord: no route ${method} ${path}`, code: 0 });
    }
  }

  #setReaction(
    messageId: string,
    emoji: string,
    userId: string,
    add: boolean,
    store = this.reactions,
  ): void {
    let byEmoji = store.get(messageId);
    if (!byEmoji) {
      byEmoji = new Map();
      store.set(messageId, byEmoji);
    }
    const users = byEmoji.get(emoji) ?? [];
    const has = users.includes(userId);
    if (add && !has) users.push(userId);
    if (!add && has) users.splice(users.indexOf(userId), 1);
    if (users.length > 0) byEmoji.set(emoji, users);
    else byEmoji.delete(emoji);
  }

  #messageJson(msg: FakeMessage): Record<string, unknown> {
    const normal = this.reactions.get(msg.id) ?? new Map<string, string[]>();
    const burst = this.burstReactions.get(msg.id) ?? new Map<string, string[]>();
    // One entry per emoji, counting both kinds (a person may hold a normal and a super reaction of one emoji).
    const reactions = [...new Set([...normal.keys(), ...burst.keys()])].map((emoji) => {
      const n = normal.get(emoji) ?? [];
      const b = burst.get(emoji) ?? [];
      return {
        emoji: parseEmoji(emoji),
        count: n.length + b.length,
        count_details: { burst: b.length, normal: n.length },
        me: n.includes(BOT_USER_ID),
        me_burst: b.includes(BOT_USER_ID),
        burst_me: b.includes(BOT_USER_ID),
        burst_count: b.length,
        burst_colors: b.length > 0 ? ['#ffcc00'] : [],
      };
    });
    return {
      id: msg.id,
      channel_id: msg.channel_id,
      guild_id: GUILD_ID,
      author: {
        id: BOT_USER_ID,
        username: 'arena-bot',
        discriminator: '0',
        bot: true,
        avatar: null,
      },
      content: msg.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: msg.edited_timestamp,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: msg.attachments,
      embeds: msg.embeds,
      components: msg.components,
      reactions,
      pinned: false,
      type: 0,
      flags: msg.flags,
    };
  }

  #webhookMessage(body: Record<string, unknown>): Record<string, unknown> {
    const msg: FakeMessage = {
      id: this.snowflake(),
      channel_id: CHANNEL_ID,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      attachments: [],
      edited_timestamp: null,
      flags: typeof body.flags === 'number' ? body.flags : 0,
      components: [],
    };
    return { ...this.#messageJson(msg), webhook_id: APP_ID, application_id: APP_ID };
  }
}

/** `name:id` (custom emoji, as in REST paths) or a unicode emoji → the gateway emoji object. */
function parseEmoji(emoji: string): { id: string | null; name: string } {
  const m = emoji.match(/^<?a?:?([\w~-]+):(\d{17,20})>?$/u);
  return m ? { id: m[2] as string, name: m[1] as string } : { id: null, name: emoji };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Discord's message limits, as its API enforces them (API reference, "Create Message" and "Embed Limits"):
 * content 2,000 characters; ≤ 10 embeds; per embed title 256, description 4,096, ≤ 25 fields, field name 256,
 * field value 1,024, footer text 2,048, author name 256; ≤ 6,000 characters across the title, description,
 * field names and values, footer text and author name of all embeds. Characters are Unicode code points.
 */
export const DISCORD_API_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
} as const;

const chars = (v: unknown): number => (typeof v === 'string' ? [...v].length : 0);
const tooLong = (max: number) => ({
  _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` }],
});

/** The `errors` of Discord's 400 `50035 Invalid Form Body` for a message body over the limits; undefined: fine. */
export function discordMessageErrors(
  body: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const L = DISCORD_API_LIMITS;
  const errors: Record<string, unknown> = {};
  if (chars(body.content) > L.content) errors.content = tooLong(L.content);
  const embeds = Array.isArray(body.embeds) ? (body.embeds as Record<string, unknown>[]) : [];
  if (embeds.length > L.embeds) errors.embeds = tooLong(L.embeds);
  let total = 0;
  const each: Record<string, unknown> = {};
  embeds.forEach((e, i) => {
    const err: Record<string, unknown> = {};
    const footer = (e.footer ?? {}) as Record<string, unknown>;
    const author = (e.author ?? {}) as Record<string, unknown>;
    const fields = Array.isArray(e.fields) ? (e.fields as Record<string, unknown>[]) : [];
    if (chars(e.title) > L.title) err.title = tooLong(L.title);
    if (chars(e.description) > L.description) err.description = tooLong(L.description);
    if (chars(footer.text) > L.footer) err.footer = { text: tooLong(L.footer) };
    if (chars(author.name) > L.author) err.author = { name: tooLong(L.author) };
    if (fields.length > L.fields) err.fields = tooLong(L.fields);
    const fieldErrors: Record<string, unknown> = {};
    fields.forEach((f, j) => {
      const fe: Record<string, unknown> = {};
      if (chars(f.name) > L.fieldName) fe.name = tooLong(L.fieldName);
      if (chars(f.value) > L.fieldValue) fe.value = tooLong(L.fieldValue);
      if (Object.keys(fe).length > 0) fieldErrors[j] = fe;
      total += chars(f.name) + chars(f.value);
    });
    if (Object.keys(fieldErrors).length > 0 && !err.fields) err.fields = fieldErrors;
    total += chars(e.title) + chars(e.description) + chars(footer.text) + chars(author.name);
    if (Object.keys(err).length > 0) each[i] = err;
  });
  if (Object.keys(each).length > 0 && !errors.embeds) errors.embeds = each;
  if (total > L.embedTotal && !errors.embeds)
    errors.embeds = {
      _errors: [
        {
          code: 'MAX_EMBED_SIZE_EXCEEDED',
          message: `Embed size exceeds maximum size of ${L.embedTotal}`,
        },
      ],
    };
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * Discord's limits on message components (API reference, "Component Reference"): ≤ 5 action rows (type 1) per
 * message, ≤ 5 buttons per row; a button's `custom_id` 1–100 characters and unique in the message, its label ≤ 80.
 */
export const DISCORD_COMPONENT_LIMITS = { rows: 5, perRow: 5, customId: 100, label: 80 } as const;

/** The `errors` of Discord's 50035 for a message's components over the limits; undefined: fine. */
export function discordComponentErrors(
  body: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const L = DISCORD_COMPONENT_LIMITS;
  const rows = Array.isArray(body.components) ? (body.components as Record<string, unknown>[]) : [];
  const errors: Record<string, unknown> = {};
  if (rows.length > L.rows) errors.components = tooLong(L.rows);
  const ids = new Set<string>();
  rows.forEach((row, i) => {
    const items = Array.isArray(row.components)
      ? (row.components as Record<string, unknown>[])
      : [];
    if (row.type !== 1 || items.length === 0 || items.length > L.perRow)
      errors[`components.${i}`] = tooLong(L.perRow);
    items.forEach((c, j) => {
      const id = typeof c.custom_id === 'string' ? c.custom_id : '';
      if (chars(id) < 1 || chars(id) > L.customId || ids.has(id))
        errors[`components.${i}.components.${j}.custom_id`] = tooLong(L.customId);
      ids.add(id);
      if (chars(c.label) > L.label)
        errors[`components.${i}.components.${j}.label`] = tooLong(L.label);
    });
  });
  return Object.keys(errors).length > 0 ? errors : undefined;
}
