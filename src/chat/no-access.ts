/**
 * @module chat/no-access
 * The adapters' "the bot may not post in this channel" as a value: {@link ChatNoAccessError} (AppError
 * `chat_no_access`, its English message for the logs) carries {@link NoAccess}, what the platform answered, and
 * {@link noAccessText} says it in a language of the catalogue with the fix (Discord: the permissions to grant;
 * Slack: invite the bot), for the person who asked for the post (docs/architecture.md "Languages").
 */
import { AppError } from '../core/errors.ts';
import { type Locale, type MessageKey, t } from '../i18n/index.ts';

/** The Discord REST operations an adapter names (chat/discord/adapter.ts), with a catalogue key each. */
const DISCORD_OPS: Readonly<Record<string, MessageKey>> = {
  'post message': 'noAccess.op.post',
  'get message': 'noAccess.op.get',
  'edit message': 'noAccess.op.edit',
  'delete message': 'noAccess.op.delete',
  'add reaction': 'noAccess.op.react',
  'list reaction users': 'noAccess.op.listReactions',
};

/** What a platform answered when the bot may not act in a channel. */
export type NoAccess =
  /** Discord 50001 Missing Access or 50013 Missing Permissions on REST operation `what` (`post message` …). */
  | { readonly platform: 'discord'; readonly code: 50001 | 50013; readonly what: string }
  /** Slack `not_in_channel` / `channel_not_found` on a write; `botName`: the bot's user name when known. */
  | { readonly platform: 'slack'; readonly code: string; readonly botName?: string | undefined };

/** AppError `chat_no_access` with what the platform answered. */
export class ChatNoAccessError extends AppError {
  readonly access: NoAccess;

  constructor(access: NoAccess, options?: { cause?: unknown }) {
    super('chat_no_access', noAccessText(access, 'en'), options);
    this.access = access;
  }
}

/** The {@link NoAccess} of an error, or undefined when it is not a {@link ChatNoAccessError}. */
export function noAccessOf(err: unknown): NoAccess | undefined {
  return err instanceof ChatNoAccessError ? err.access : undefined;
}

/**
 * Why the bot may not act in the channel and how to let it, in `locale`: Discord's permissions to grant there,
 * or Slack's `/invite @bot`.
 */
export function noAccessText(a: NoAccess, locale: Locale): string {
  if (a.platform === 'discord') {
    const op = DISCORD_OPS[a.what];
    return t(locale, 'noAccess.discord', {
      what: op ? t(locale, op) : a.what,
      code: a.code,
      name: a.code === 50001 ? 'Missing Access' : 'Missing Permissions',
    });
  }
  return t(locale, 'noAccess.slack', {
    code: a.code,
    bot: a.botName ?? t(locale, 'noAccess.slack.bot'),
  });
}
