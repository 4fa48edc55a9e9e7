/**
 * @module core/errors
 * One error type for the whole app: a string `code` from a closed union, a human message that names the
 * input and the fix, and an optional `cause`. Retry and user-facing decisions look at `code`, never at text.
 */

/** Every error code the app raises. Adapters map these to user-facing text. */
export const ERROR_CODES = [
  'config_invalid',
  'config_missing',
  'env_invalid',
  'db_unavailable',
  'db_migration_failed',
  /** The database has migrations this code does not know: a newer zhujiu migrated it. */
  'db_newer',
  'import_invalid',
  'dataset_invalid',
  /** A bad flag or argument value: a usage mistake (the CLI exits 2 for it, 1 for every other code). */
  'input_invalid',
  /** A file the user asked for cannot be written there (a folder, a missing folder, no permission). */
  'file_unwritable',
  'not_found',
  'conflict',
  'vote_invalid',
  'battle_closed',
  'rating_input_invalid',
  'rating_disconnected',
  'permission_denied',
  'chat_platform_error',
  /** The bot may not post in that channel (Slack not_in_channel / channel_not_found, Discord 50001 / 50013). */
  'chat_no_access',
  /**
   * The message is gone from the platform (Discord 10008 Unknown Message / 10003 Unknown Channel on a message
   * read, edit or delete; Slack `message_not_found` on any call on a message). Slack's `channel_not_found` is not
   * one: Slack also answers it for a private channel the bot cannot see (`chat_no_access` on a write).
   */
  'chat_message_gone',
  'llm_rate_limited',
  'llm_failed',
  'judge_unparseable',
  /**
   * A file of zhujiu's own program (a compiled module, a bundle chunk, a worker thread's module) or of a dependency
   * cannot be loaded: the installation is incomplete (core/module-load.ts); `npm run build` or `npm ci` fixes it.
   */
  'install_broken',
  'internal',
] as const;

/** A member of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The app's only error class.
 * @example throw new AppError('import_invalid', 'outputs.json:12: "output" must be a string');
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  override readonly name = 'AppError';
  /**
   * The message as a catalogue key and its parameters, when the thrower built it from one: a surface with another
   * language says it in that one (the command line: cli/index.ts errorText, i18n/cli.ts sayCli); `message` is
   * its English text (logs, tests).
   */
  readonly said?: Said;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; said?: Said }) {
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    if (options?.said) this.said = options.said;
  }
}

/**
 * A message of the catalogue as data: its key and its parameters, a parameter being text, a number or another
 * such message (said in the same language). Pure data, so the layers that throw need no language.
 */
export interface Said {
  readonly key: string;
  readonly params?: Readonly<Record<string, string | number | Said | SaidTexts>>;
}

/**
 * A text not of the catalogue given in each language (zod's own messages, which zod words in each), said in the
 * reader's language, else in English.
 */
export interface SaidTexts {
  readonly texts: Readonly<Record<string, string>> & { readonly en: string };
}

/** True when `err` is an {@link AppError}, optionally with the given code. */
export function isAppError(err: unknown, code?: ErrorCode): err is AppError {
  return err instanceof AppError && (code === undefined || err.code === code);
}

/**
 * The level an error is logged at where it is also thrown on: a database that cannot be used (`db_unavailable`: its
 * disk is full, its server is gone) is said by whoever the thrown error reaches (a command's last line, a worker's
 * failed job), so its log lines are `info`, kept off a command's terminal; anything else is `error`.
 */
export function levelOf(err: unknown): 'info' | 'error' {
  return err instanceof AppError && err.code === 'db_unavailable' ? 'info' : 'error';
}
