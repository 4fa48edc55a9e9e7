/**
 * @module test/fakes/slack
 * A fake Slack (Web API, response_url sink, file upload URL, Socket Mode `/link/` WebSocket) on 127.0.0.1 for
 * driving the real Bolt in tests, plus helpers that sign and deliver events and slash commands to Bolt's HTTP
 * receiver or over Socket Mode. Follows shared/guides/chat-testing.md §2.
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export const BOT_USER_ID = 'UBOT00001';
export const BOT_ID = 'BBOT00001';
export const TEAM_ID = 'T0000TEAM';
export const APP_ID = 'A0000APP1';
export const CHANNEL_ID = 'C0000ARENA';

/** One Web API call as received. */
export interface RecordedCall {
  readonly method: string;
  /** The Authorization header (`Bearer xoxb-…` / `Bearer xapp-…`). */
  readonly authorization: string | undefined;
  /** Form (or JSON) arguments; JSON-looking strings (blocks, files) are parsed. */
  readonly args: Record<string, unknown>;
  status: number;
}

/** A message as the fake stores it. */
export interface FakeSlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  thread_ts?: string;
}

export interface SlashCommandInput {
  command: string;
  text: string;
  user: string;
  channel?: string;
  userName?: string;
}

export interface ReactionInput {
  channel: string;
  ts: string;
  user: string;
  name: string;
  add: boolean;
  /** Reuse an event id (a retry); a fresh one by default. */
  eventId?: string;
}

export interface DeliverOptions {
  /** X-Slack-Retry-Num (HTTP) / retry_attempt (Socket Mode). */
  retryNum?: number;
  retryReason?: string;
  /** Break the signature (HTTP). */
  badSignature?: boolean;
  /** X-Slack-Request-Timestamp (Unix s) to sign with (HTTP); now by default. */
  timestamp?: number;
}

export class FakeSlack {
  readonly calls: RecordedCall[] = [];
  readonly messages = new Map<string, FakeSlackMessage>();
  /** `channel:ts` → reaction name → user ids. */
  readonly reactions = new Map<string, Map<string, string[]>>();
  /** Messages refused for Slack's limits ({@link SLACK_API_LIMITS}): the method, its arguments, the error. */
  readonly refusedTooLong: { method: string; args: Record<string, unknown>; error: string }[] = [];
  /** Bodies POSTed to response_url, by response id. */
  readonly responses: { id: string; body: Record<string, unknown> }[] = [];
  /** Files POSTed to the upload URLs of files.getUploadURLExternal (`data`: the file's bytes, `size` their count). */
  readonly uploads: {
    fileId: string;
    size: number;
    authorization: string | undefined;
    contentType: string | undefined;
    data: Buffer;
  }[] = [];
  /** user-group id → member user ids (for usergroups.users.list). */
  readonly userGroups = new Map<string, string[]>();
  /** Reaction names `reactions.add` refuses with `invalid_name` (Slack's answer to an unknown emoji name). */
  readonly invalidReactionNames = new Set<string>();
  /**
   * Channels the bot is not in → the error Slack answers there: `not_in_channel` (a public channel without
   * `chat:write.public`) or `channel_not_found` (a private channel the bot cannot see). Applies to
   * chat.postMessage, chat.update, chat.postEphemeral, reactions.add/get and files.completeUploadExternal;
   * response_url still works there (it belongs to the command, not to the bot's membership).
   */
  readonly notInChannel = new Map<string, 'not_in_channel' | 'channel_not_found'>();
  /** Web API methods that answer `{ ok: false, error }` with this error (e.g. `missing_scope`), until deleted. */
  readonly failingMethods = new Map<string, string>();
  /** Envelopes acknowledged by the Socket Mode client. */
  readonly acks: { envelope_id: string; payload?: unknown }[] = [];
  /**
   * Button presses (`block_actions`) acknowledged later than Slack's 3 s (Slack then shows the presser an error):
   * the action id and how late, ms. A test asserts it stays empty.
   */
  readonly lateAcks: { actionId: string; ms: number }[] = [];
  /** Messages sent with `chat.postEphemeral` (only `user` sees them), in order. */
  readonly ephemerals: { channel: string; user: string; text: string; blocks: unknown[] }[] = [];
  port = 0;

  #server: http.Server;
  #wss = new WebSocketServer({ noServer: true });
  #sockets = new Set<WebSocket>();
  #tsCounter = 100;
  #fileCounter = 1;
  #rateRules: { method: string; retryAfter: number }[] = [];
  #ackWaiters = new Map<string, (payload: unknown) => void>();
  readonly signingSecret: string;

  private constructor(signingSecret: string) {
    this.signingSecret = signingSecret;
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
    this.#server.on('upgrade', (req, socket, head) => {
      if (!(req.url ?? '').startsWith('/link/')) {
        socket.destroy();
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onSocket(ws));
    });
  }

  /** Starts a fake on a free loopback port. */
  static async start(options: { signingSecret?: string } = {}): Promise<FakeSlack> {
    const fake = new FakeSlack(options.signingSecret ?? 'fake-signing-secret');
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.#server.address() as AddressInfo).port;
    return fake;
  }

  /** Value for the WebClient's `slackApiUrl`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  /** True while a Socket Mode client is connected. */
  get socketConnected(): boolean {
    return this.#sockets.size > 0;
  }

  /** Calls of one Web API method. */
  callsOf(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Makes the next call of `method` answer 429 with `Retry-After: retryAfter` (seconds) once. */
  rateLimitOnce(method: string, retryAfter = 1): void {
    this.#rateRules.push({ method, retryAfter });
  }

  /** Users holding reaction `name` on a message. */
  reactionUsers(channel: string, ts: string, name: string): string[] {
    return [...(this.reactions.get(`${channel}:${ts}`)?.get(name) ?? [])];
  }

  /** Stores a message as if posted earlier; returns its ts. */
  seedMessage(channel: string, text: string): string {
    const ts = this.#nextTs();
    this.messages.set(`${channel}:${ts}`, { channel, ts, text, blocks: [] });
    return ts;
  }

  // ---- payload builders ------------------------------------------------------------------------------------

  /**
   * A message is deleted (by its author or an admin): gone with its reactions; returns the `event_callback`
   * body Slack sends (a `message` event with subtype `message_deleted`; no reaction_removed events follow).
   */
  deleteMessage(channel: string, ts: string): Record<string, unknown> {
    const { previous, now } = this.#remove(channel, ts);
    return this.#deletionEnvelope(now, {
      type: 'message',
      subtype: 'message_deleted',
      hidden: true,
      channel,
      channel_type: channel.startsWith('G') ? 'group' : 'channel',
      ts: now.toFixed(6),
      deleted_ts: ts,
      event_ts: now.toFixed(6),
      previous_message: {
        type: 'message',
        user: BOT_USER_ID,
        bot_id: BOT_ID,
        text: previous?.text ?? '',
        ts,
      },
    });
  }

  /**
   * A message that has thread replies is deleted: Slack keeps its place for the thread as a `tombstone` and sends
   * a `message` event with subtype `message_changed` whose new `message` has subtype `tombstone` (not
   * `message_deleted`). The message and its reactions are gone (`reactions.get` answers `message_not_found`).
   * Returns that `event_callback` body.
   */
  tombstoneMessage(channel: string, ts: string): Record<string, unknown> {
    const { previous, now } = this.#remove(channel, ts);
    return this.#deletionEnvelope(now, {
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      channel,
      channel_type: channel.startsWith('G') ? 'group' : 'channel',
      ts: now.toFixed(6),
      event_ts: now.toFixed(6),
      message: {
        type: 'message',
        subtype: 'tombstone',
        text: 'This message was deleted.',
        user: 'USLACKBOT',
        hidden: true,
        ts,
        thread_ts: ts,
        reply_count: 1,
      },
      previous_message: {
        type: 'message',
        user: BOT_USER_ID,
        bot_id: BOT_ID,
        text: previous?.text ?? '',
        ts,
        thread_ts: ts,
        reply_count: 1,
      },
    });
  }

  /** Removes a message and its reactions from the fake: its stored fields (if any) and the time, in seconds. */
  #remove(channel: string, ts: string) {
    const key = `${channel}:${ts}`;
    const previous = this.messages.get(key);
    this.messages.delete(key);
    this.reactions.delete(key);
    return { previous, now: Date.now() / 1000 };
  }

  /** The `event_callback` body Slack sends for a message-deletion `event` at `now` (seconds). */
  #deletionEnvelope(now: number, event: Record<string, unknown>): Record<string, unknown> {
    return {
      token: 'verification-token',
      team_id: TEAM_ID,
      api_app_id: APP_ID,
      type: 'event_callback',
      event_id: `Ev${randomUUID().replace(/-/gu, '').slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(now),
      authorizations: [
        {
          enterprise_id: null,
          team_id: TEAM_ID,
          user_id: BOT_USER_ID,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      event,
    };
  }

  /** The `event_callback` body of a person's message in the thread of `threadTs` (a `message` event). */
  threadMessage(input: {
    channel: string;
    threadTs: string;
    user: string;
    text: string;
  }): Record<string, unknown> {
    const ts = this.#nextTs();
    this.messages.set(`${input.channel}:${ts}`, {
      channel: input.channel,
      ts,
      text: input.text,
      blocks: [],
      thread_ts: input.threadTs,
    });
    return {
      token: 'verification-token',
      team_id: TEAM_ID,
      api_app_id: APP_ID,
      type: 'event_callback',
      event_id: `Ev${randomUUID().replace(/-/gu, '').slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(Number(ts)),
      authorizations: [
        {
          enterprise_id: null,
          team_id: TEAM_ID,
          user_id: BOT_USER_ID,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      event: {
        type: 'message',
        channel: input.channel,
        channel_type: input.channel.startsWith('G') ? 'group' : 'channel',
        user: input.user,
        text: slackEscape(input.text),
        ts,
        thread_ts: input.threadTs,
        event_ts: ts,
      },
    };
  }

  /** Updates reaction state and returns the `event_callback` body Slack would send. */
  userReact(input: ReactionInput): Record<string, unknown> {
    this.#setReaction(input.channel, input.ts, input.name, input.user, input.add);
    return this.reactionBody(input);
  }

  /** The `event_callback` body for a reaction (without touching state). */
  reactionBody(input: ReactionInput): Record<string, unknown> {
    // Slack's event_ts is to the microsecond and increases from one event to the next.
    this.#lastEventUs = Math.max(Date.now() * 1000, this.#lastEventUs + 1);
    const us = this.#lastEventUs;
    const now = us / 1e6;
    const eventTs = `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
    return {
      token: 'verification-token',
      team_id: TEAM_ID,
      api_app_id: APP_ID,
      type: 'event_callback',
      event_id: input.eventId ?? `Ev${randomUUID().replace(/-/gu, '').slice(0, 10).toUpperCase()}`,
      event_time: Math.floor(now),
      authorizations: [
        {
          enterprise_id: null,
          team_id: TEAM_ID,
          user_id: BOT_USER_ID,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      event: {
        type: input.add ? 'reaction_added' : 'reaction_removed',
        user: input.user,
        reaction: input.name,
        item_user: BOT_USER_ID,
        item: { type: 'message', channel: input.channel, ts: input.ts },
        event_ts: eventTs,
      },
    };
  }

  /**
   * A person presses the button `actionId` of the message `channel:ts` (it must carry it in an `actions` block, as
   * on Slack): the `block_actions` payload goes over Socket Mode (`interactive`). Resolves when the app acks;
   * an ack later than Slack's 3 s is recorded in {@link lateAcks}.
   */
  async pressButton(input: {
    channel: string;
    ts: string;
    actionId: string;
    user: string;
  }): Promise<void> {
    const msg = this.messages.get(`${input.channel}:${input.ts}`);
    const buttons = (msg?.blocks ?? []).flatMap((b) => {
      const block = b as { type?: string; block_id?: string; elements?: unknown[] };
      return block.type === 'actions'
        ? (block.elements ?? []).map((e) => ({ block, e: e as Record<string, unknown> }))
        : [];
    });
    const hit = buttons.find((x) => x.e.action_id === input.actionId);
    if (!msg || !hit) throw new Error(`fake slack: no button ${input.actionId} on ${input.ts}`);
    this.#lastEventUs = Math.max(Date.now() * 1000, this.#lastEventUs + 1);
    const us = this.#lastEventUs;
    const actionTs = `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
    const payload = {
      type: 'block_actions',
      user: {
        id: input.user,
        username: `user-${input.user}`,
        name: `user-${input.user}`,
        team_id: TEAM_ID,
      },
      api_app_id: APP_ID,
      token: 'verification-token',
      container: {
        type: 'message',
        message_ts: input.ts,
        channel_id: input.channel,
        is_ephemeral: false,
      },
      trigger_id: `${Math.floor(us / 1e6)}.${randomUUID().replace(/-/gu, '').slice(0, 12)}`,
      team: { id: TEAM_ID, domain: 'arena' },
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: input.channel, name: 'arena' },
      message: {
        type: 'message',
        user: BOT_USER_ID,
        ts: input.ts,
        text: msg.text,
        blocks: msg.blocks,
      },
      state: { values: {} },
      response_url: `http://127.0.0.1:${this.port}/response/${randomUUID()}`,
      actions: [
        {
          type: 'button',
          block_id: hit.block.block_id ?? 'b',
          action_id: input.actionId,
          text: hit.e.text,
          value: hit.e.value,
          action_ts: actionTs,
        },
      ],
    };
    const start = Date.now();
    await this.sendEnvelope('interactive', payload);
    const ms = Date.now() - start;
    if (ms > 3000) this.lateAcks.push({ actionId: input.actionId, ms });
  }

  /** The slash-command form fields Slack would send (response_url points at this fake). */
  commandFields(input: SlashCommandInput): Record<string, string> {
    const responseId = randomUUID();
    return {
      token: 'verification-token',
      team_id: TEAM_ID,
      team_domain: 'arena',
      channel_id: input.channel ?? CHANNEL_ID,
      channel_name: 'arena',
      user_id: input.user,
      user_name: input.userName ?? 'someone',
      command: input.command,
      // Slack escapes &, < and > in what the person typed.
      text: slackEscape(input.text),
      api_app_id: APP_ID,
      is_enterprise_install: 'false',
      response_url: `http://127.0.0.1:${this.port}/response/${responseId}`,
      trigger_id: `trigger.${responseId}`,
    };
  }

  /** Responses posted to the response_url of a command built with {@link commandFields}. */
  responsesFor(fields: Record<string, string>): Record<string, unknown>[] {
    const id = (fields.response_url ?? '').split('/').pop();
    return this.responses.filter((r) => r.id === id).map((r) => r.body);
  }

  // ---- HTTP delivery (Bolt's HTTPReceiver) -----------------------------------------------------------------

  /** Signature headers for `rawBody` (v0 scheme, guide §2.2). */
  sign(rawBody: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
    const sig = `v0=${createHmac('sha256', this.signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
    return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': sig };
  }

  /** POSTs a signed body to a Bolt receiver URL. */
  async postSigned(
    url: string,
    rawBody: string,
    contentType: string,
    opts: DeliverOptions = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      'content-type': contentType,
      ...this.sign(rawBody, opts.timestamp),
    };
    if (opts.badSignature) headers['x-slack-signature'] = `v0=${'0'.repeat(64)}`;
    if (opts.retryNum !== undefined) {
      headers['x-slack-retry-num'] = String(opts.retryNum);
      headers['x-slack-retry-reason'] = opts.retryReason ?? 'http_timeout';
    }
    return fetch(url, { method: 'POST', headers, body: rawBody });
  }

  /** Delivers an Events API body over HTTP. */
  deliverEventHttp(
    url: string,
    body: Record<string, unknown>,
    opts: DeliverOptions = {},
  ): Promise<Response> {
    return this.postSigned(url, JSON.stringify(body), 'application/json', opts);
  }

  /** Delivers a slash command over HTTP (form-encoded). */
  deliverCommandHttp(
    url: string,
    fields: Record<string, string>,
    opts: DeliverOptions = {},
  ): Promise<Response> {
    return this.postSigned(
      url,
      new URLSearchParams(fields).toString(),
      'application/x-www-form-urlencoded',
      opts,
    );
  }

  // ---- Socket Mode delivery --------------------------------------------------------------------------------

  /** Sends an envelope to the connected Socket Mode client; resolves with the ack's payload. */
  sendEnvelope(
    type: 'events_api' | 'slash_commands' | 'interactive',
    payload: unknown,
    opts: DeliverOptions = {},
  ): Promise<unknown> {
    const envelopeId = randomUUID();
    const ack = new Promise<unknown>((resolve) => this.#ackWaiters.set(envelopeId, resolve));
    const frame = JSON.stringify({
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
      ...(type === 'events_api'
        ? { retry_attempt: opts.retryNum ?? 0, retry_reason: opts.retryReason ?? '' }
        : {}),
    });
    for (const ws of this.#sockets) ws.send(frame);
    return ack;
  }

  /** Delivers an Events API body over Socket Mode (`retryNum` → `retry_attempt`); resolves on ack. */
  deliverEventSocket(body: Record<string, unknown>, opts: DeliverOptions = {}): Promise<unknown> {
    return this.sendEnvelope('events_api', body, opts);
  }

  /** Delivers a slash command over Socket Mode; resolves with the ack payload (the immediate response). */
  deliverCommandSocket(fields: Record<string, string>): Promise<unknown> {
    return this.sendEnvelope('slash_commands', fields);
  }

  /**
   * The Socket Mode connection drops (Slack recycles it, the network fails): every socket is cut; envelopes sent
   * until the client connects again (`apps.connections.open`, a new socket, `hello`) reach nobody.
   */
  dropSockets(): void {
    for (const ws of this.#sockets) ws.terminate();
    this.#sockets.clear();
  }

  /** Resolves when no Socket Mode client is connected (Bolt's stop resolves before the close handshake). */
  async waitSocketClosed(timeoutMs = 120_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.#sockets.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  }

  /** Terminates sockets and closes the server. */
  async close(): Promise<void> {
    for (const ws of this.#sockets) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- internals -------------------------------------------------------------------------------------------

  #onSocket(ws: WebSocket): void {
    this.#sockets.add(ws);
    ws.on('close', () => this.#sockets.delete(ws));
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw)) as { envelope_id: string; payload?: unknown };
      this.acks.push(msg);
      this.#ackWaiters.get(msg.envelope_id)?.(msg.payload);
      this.#ackWaiters.delete(msg.envelope_id);
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        connection_info: { app_id: APP_ID },
        debug_info: { host: 'fake-slack', approximate_connection_time: 18060 },
      }),
    );
  }

  #lastEventUs = 0;

  #nextTs(): string {
    this.#tsCounter += 1;
    return `1700000000.${String(this.#tsCounter).padStart(6, '0')}`;
  }

  #setReaction(channel: string, ts: string, name: string, user: string, add: boolean): boolean {
    const key = `${channel}:${ts}`;
    let byName = this.reactions.get(key);
    if (!byName) {
      byName = new Map();
      this.reactions.set(key, byName);
    }
    const users = byName.get(name) ?? [];
    const has = users.includes(user);
    if (add && !has) users.push(user);
    if (!add && has) users.splice(users.indexOf(user), 1);
    if (users.length > 0) byName.set(name, users);
    else byName.delete(name);
    return add ? !has : has;
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };

    if (url.pathname.startsWith('/response/')) {
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      const refused = slackMessageError(body);
      if (refused) {
        this.refusedTooLong.push({ method: 'response_url', args: body, error: refused.error });
        json(200, { ok: false, error: refused.error });
        return;
      }
      this.responses.push({
        id: url.pathname.slice('/response/'.length),
        body: JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>,
      });
      json(200, { ok: true });
      return;
    }
    if (url.pathname.startsWith('/upload/')) {
      // The upload URL takes the file as the raw body or as a multipart form (what @slack/web-api sends).
      const ct = req.headers['content-type'] ?? '';
      let data = raw;
      if (ct.startsWith('multipart/form-data')) {
        const form = await new Response(raw, { headers: { 'content-type': ct } }).formData();
        const file = [...form.values()].find((v): v is File => typeof v !== 'string');
        if (!file) {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end('no file in the form');
          return;
        }
        data = Buffer.from(await file.arrayBuffer());
      }
      this.uploads.push({
        fileId: url.pathname.split('/').pop() ?? '',
        size: data.length,
        authorization: req.headers.authorization,
        contentType: ct || undefined,
        data,
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`OK - ${data.length}`);
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      json(404, { ok: false, error: 'not_found' });
      return;
    }
    const method = url.pathname.slice('/api/'.length);
    const ct = req.headers['content-type'] ?? '';
    let args: Record<string, unknown> = {};
    if (ct.startsWith('application/json'))
      args = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    else {
      for (const [k, v] of new URLSearchParams(raw.toString('utf8'))) {
        args[k] = /^[[{]/u.test(v) ? safeJson(v) : v;
      }
    }
    const call: RecordedCall = {
      method,
      authorization: req.headers.authorization,
      args,
      status: 200,
    };
    this.calls.push(call);

    const ruleIdx = this.#rateRules.findIndex((r) => r.method === method);
    if (ruleIdx >= 0) {
      const rule = this.#rateRules[ruleIdx] as { method: string; retryAfter: number };
      this.#rateRules.splice(ruleIdx, 1);
      call.status = 429;
      json(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(rule.retryAfter) });
      return;
    }
    const s = (k: string): string => (typeof args[k] === 'string' ? (args[k] as string) : '');
    const ok = (body: Record<string, unknown> = {}): void => json(200, { ok: true, ...body });
    const fail = (error: string): void => json(200, { ok: false, error });

    const failing = this.failingMethods.get(method);
    if (failing) return fail(failing);
    const membership = this.notInChannel.get(s('channel') || s('channel_id'));
    if (
      membership &&
      [
        'chat.postMessage',
        'chat.update',
        'chat.postEphemeral',
        'reactions.add',
        'reactions.get',
        'files.completeUploadExternal',
      ].includes(method)
    ) {
      return fail(membership);
    }
    if (['chat.postMessage', 'chat.update', 'chat.postEphemeral'].includes(method)) {
      const refused = slackMessageError(args);
      if (refused) {
        this.refusedTooLong.push({ method, args, error: refused.error });
        return json(200, {
          ok: false,
          error: refused.error,
          ...(refused.messages
            ? { errors: refused.messages, response_metadata: { messages: refused.messages } }
            : {}),
        });
      }
    }
    if (method === 'reactions.add' && this.invalidReactionNames.has(s('name'))) {
      return fail('invalid_name');
    }
    switch (method) {
      case 'auth.test':
        return ok({
          url: 'https://arena.slack.invalid/',
          team: 'Arena',
          user: 'arena-bot',
          team_id: TEAM_ID,
          user_id: BOT_USER_ID,
          bot_id: BOT_ID,
        });
      case 'chat.postMessage': {
        const ts = this.#nextTs();
        const msg: FakeSlackMessage = {
          channel: s('channel'),
          ts,
          text: s('text'),
          blocks: Array.isArray(args.blocks) ? args.blocks : [],
        };
        if (s('thread_ts')) msg.thread_ts = s('thread_ts');
        this.messages.set(`${msg.channel}:${ts}`, msg);
        return ok({
          channel: msg.channel,
          ts,
          message: {
            type: 'message',
            user: BOT_USER_ID,
            bot_id: BOT_ID,
            text: msg.text,
            blocks: msg.blocks,
            ts,
          },
        });
      }
      case 'chat.update': {
        const msg = this.messages.get(`${s('channel')}:${s('ts')}`);
        if (!msg) return fail('message_not_found');
        msg.text = s('text');
        msg.blocks = Array.isArray(args.blocks) ? args.blocks : [];
        return ok({
          channel: msg.channel,
          ts: msg.ts,
          text: msg.text,
          message: { text: msg.text, blocks: msg.blocks },
        });
      }
      case 'chat.delete': {
        const key = `${s('channel')}:${s('ts')}`;
        if (!this.messages.has(key)) return fail('message_not_found');
        this.messages.delete(key);
        this.reactions.delete(key);
        return ok({ channel: s('channel'), ts: s('ts') });
      }
      case 'chat.postEphemeral':
        if (!s('user')) return fail('user_not_in_channel');
        this.ephemerals.push({
          channel: s('channel'),
          user: s('user'),
          text: s('text'),
          blocks: Array.isArray(args.blocks) ? args.blocks : [],
        });
        return ok({ message_ts: this.#nextTs() });
      case 'reactions.add':
      case 'reactions.remove': {
        if (!this.messages.has(`${s('channel')}:${s('timestamp')}`))
          return fail('message_not_found');
        const changed = this.#setReaction(
          s('channel'),
          s('timestamp'),
          s('name'),
          BOT_USER_ID,
          method === 'reactions.add',
        );
        if (!changed) return fail(method === 'reactions.add' ? 'already_reacted' : 'no_reaction');
        return ok();
      }
      case 'reactions.get': {
        const key = `${s('channel')}:${s('timestamp')}`;
        const msg = this.messages.get(key);
        if (!msg) return fail('message_not_found');
        const reactions = [
          ...(this.reactions.get(key) ?? new Map<string, string[]>()).entries(),
        ].map(([name, users]) => ({ name, users, count: users.length }));
        return ok({
          type: 'message',
          channel: msg.channel,
          message: {
            type: 'message',
            text: msg.text,
            ts: msg.ts,
            ...(reactions.length > 0 ? { reactions } : {}),
          },
        });
      }
      case 'files.getUploadURLExternal': {
        const fileId = `F${String(this.#fileCounter++).padStart(8, '0')}`;
        return ok({
          upload_url: `http://127.0.0.1:${this.port}/upload/v1/${fileId}`,
          file_id: fileId,
        });
      }
      case 'files.completeUploadExternal': {
        const files = Array.isArray(args.files)
          ? (args.files as { id: string; title?: string }[])
          : [];
        return ok({ files: files.map((f) => ({ id: f.id, title: f.title ?? '' })) });
      }
      case 'apps.connections.open':
        return ok({ url: `ws://127.0.0.1:${this.port}/link/?ticket=fake-ticket` });
      case 'usergroups.users.list':
        return ok({ users: this.userGroups.get(s('usergroup')) ?? [] });
      default:
        return fail('unknown_method');
    }
  }
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Slack's escaping of user-typed text in events and commands: `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`. */
export function slackEscape(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

/**
 * Slack's message limits as its Web API enforces them: ≤ 50 blocks (`invalid_blocks`); a section's or context
 * element's text ≤ 3,000 characters and a header's ≤ 150 (`invalid_blocks`, Block Kit reference); the text of all
 * blocks together ≤ about 12,000 characters (`msg_blocks_too_long`: not documented by Slack; README "Long
 * battles"); the top-level `text` ≤ 40,000 (`msg_too_long`).
 */
export const SLACK_API_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  headerText: 150,
  blockText: 12_000,
  text: 40_000,
} as const;

/**
 * Slack's limits on an `actions` block (Block Kit reference, "Actions block" and "Button element"): ≤ 25
 * elements; a button's `action_id` ≤ 255 characters and unique in the message's blocks, its text ≤ 75.
 */
export const SLACK_ACTION_LIMITS = { elements: 25, actionId: 255, buttonText: 75 } as const;

/** The `invalid_blocks` messages of one `actions` block (`i`: its index); none when it is within the limits. */
function actionsErrors(elements: Record<string, unknown>[], i: number): string[] {
  const L = SLACK_ACTION_LIMITS;
  const out: string[] = [];
  if (elements.length > L.elements)
    out.push(
      `[ERROR] no more than ${L.elements} items allowed [json-pointer:/blocks/${i}/elements]`,
    );
  const ids = new Set<string>();
  elements.forEach((e, j) => {
    const id = typeof e.action_id === 'string' ? e.action_id : '';
    if ([...id].length > L.actionId)
      out.push(
        `[ERROR] must be less than ${L.actionId + 1} characters [json-pointer:/blocks/${i}/elements/${j}/action_id]`,
      );
    if (ids.has(id))
      out.push(
        `[ERROR] action_id must be unique [json-pointer:/blocks/${i}/elements/${j}/action_id]`,
      );
    ids.add(id);
    const text = ((e.text ?? {}) as Record<string, unknown>).text;
    if (typeof text === 'string' && [...text].length > L.buttonText)
      out.push(
        `[ERROR] must be less than ${L.buttonText + 1} characters [json-pointer:/blocks/${i}/elements/${j}/text/text]`,
      );
  });
  return out;
}

/** Slack's error for a message over {@link SLACK_API_LIMITS} (with `invalid_blocks`' messages); undefined: fine. */
export function slackMessageError(
  args: Record<string, unknown>,
): { error: string; messages?: string[] } | undefined {
  const L = SLACK_API_LIMITS;
  const text = typeof args.text === 'string' ? args.text : '';
  if ([...text].length > L.text) return { error: 'msg_too_long' };
  const blocks = Array.isArray(args.blocks) ? (args.blocks as Record<string, unknown>[]) : [];
  const messages: string[] = [];
  if (blocks.length > L.blocks)
    messages.push(`[ERROR] no more than ${L.blocks} items allowed [json-pointer:/blocks]`);
  let total = 0;
  blocks.forEach((b, i) => {
    const texts: [string, string, number][] = [];
    const t = (b.text ?? {}) as Record<string, unknown>;
    if (typeof t.text === 'string')
      texts.push([
        t.text,
        `/blocks/${i}/text/text`,
        b.type === 'header' ? L.headerText : L.sectionText,
      ]);
    const elements = Array.isArray(b.elements) ? (b.elements as Record<string, unknown>[]) : [];
    elements.forEach((e, j) => {
      if (typeof e.text === 'string')
        texts.push([e.text, `/blocks/${i}/elements/${j}/text`, L.sectionText]);
    });
    if (b.type === 'actions') messages.push(...actionsErrors(elements, i));
    for (const [value, pointer, max] of texts) {
      const n = [...value].length;
      total += n;
      if (n > max)
        messages.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:${pointer}]`);
    }
  });
  if (messages.length > 0) return { error: 'invalid_blocks', messages };
  if (total > L.blockText) return { error: 'msg_blocks_too_long' };
  return undefined;
}
