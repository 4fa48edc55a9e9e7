/**
 * @module cli/unhandled
 * What a `zhujiu` process does with a promise rejection nobody handled (docs/architecture.md, "Failures"):
 * - a one-shot command (`import`, `eval`, `migrate`…) prints one redacted `error [unhandled_rejection]: …` line
 *   and exits with status 1: its work is written in transactions, so stopping leaves no half-written data, and a
 *   command that goes on after a lost promise could report success for work that failed;
 * - a long-lived process (`bot`, `worker`) logs it through its logger (redacted, level error) and keeps running:
 *   its state lives in the database (leases, claims, heartbeats), so a lost background write is retried by the
 *   loop that owns it, while an exit would take down the chat connection, the health endpoint and every run the
 *   process holds.
 * Exceptions nobody caught (`uncaughtException`) end a one-shot command as Node does. In a long-lived process
 * ({@link fatalOnUncaughtException}) a lost database connection (an `error` event of a PostgreSQL connection no
 * one listened on) is logged and the process goes on, and anything else is fatal: one line and exit 1 (also
 * {@link exitFatal}), so a supervisor restarts it instead of it running on in an unknown state.
 * bin/zhujiu.js installs the one-shot behaviour; `runLongLived` (cli/serve.ts) switches to logging while it runs.
 */

import { secretValuesOf } from '../config/secret-values.ts';
import type { Logger } from '../core/logger.ts';
import { localeFromPosixEnv, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { REDACTED, redactSecrets } from '../llm/redact.ts';

/** The password in a URL's user info (`postgres://user:password@host`). */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/giu;

/**
 * `text` without secrets: the given secret values (config/secret-values.ts gives the environment's), URL
 * passwords, and bearer-token-like strings (llm/redact.ts).
 */
export function redactProcessText(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets).replace(URL_PASSWORD, `$1${REDACTED}@`);
}

/** The rejection reason as plain, redacted fields for a log line: name, message, code and stack when present. */
export function describeRejection(
  reason: unknown,
  secrets: readonly string[] = processSecrets,
): { name?: string; message: string; code?: string; stack?: string } {
  if (!(reason instanceof Error)) return { message: redactProcessText(String(reason), secrets) };
  const code = (reason as { code?: unknown }).code;
  return {
    name: reason.name,
    message: redactProcessText(reason.message, secrets),
    ...(typeof code === 'string' ? { code } : {}),
    ...(reason.stack ? { stack: redactProcessText(reason.stack, secrets) } : {}),
  };
}

let logTo: Logger | undefined;
let installed: ((reason: unknown) => void) | undefined;
/** The secret values of the environment the handler was installed with. */
let processSecrets: readonly string[] = [];
/** The command line's language, from the locale variables of the environment the handler was installed with. */
let processLocale: Locale = 'en';

/** The process's listener: logs and goes on while a long-lived process runs, else prints and exits with 1. */
function onRejection(reason: unknown): void {
  const err = describeRejection(reason);
  if (logTo) {
    logTo.error({ err }, 'unhandled promise rejection; the process keeps running');
    return;
  }
  process.stderr.write(
    `${tc(processLocale, 'cli.unhandled.rejection', { message: err.message })}\n`,
  );
  process.exit(1);
}

/**
 * Installs the `unhandledRejection` listener once (bin/zhujiu.js does, before the command runs).
 * @param env the process's environment: the values of its secret-holding variables are redacted from what the
 *   listener prints or logs, and its locale variables (LC_ALL, LC_MESSAGES, LANG) choose the language of what
 *   it and {@link exitFatal} print (i18n/cli.ts localeFromPosixEnv, as every command's output).
 */
export function installUnhandledRejectionHandler(env?: NodeJS.ProcessEnv): void {
  if (env !== undefined) {
    processSecrets = secretValuesOf(env);
    processLocale = localeFromPosixEnv(env);
  }
  if (installed) return;
  installed = onRejection;
  process.on('unhandledRejection', installed);
}

/**
 * Long-lived processes: from now on an unhandled rejection is logged through `logger` and the process goes on.
 * Installs the listener when it is not yet there (a service started in-process). Returns the function that
 * restores the one-shot behaviour (and removes a listener installed here).
 */
export function keepRunningOnUnhandledRejection(logger: Logger): () => void {
  const own = !installed;
  installUnhandledRejectionHandler();
  const previous = logTo;
  logTo = logger.child({ component: 'process' });
  return () => {
    logTo = previous;
    if (own && installed) {
      process.off('unhandledRejection', installed);
      installed = undefined;
    }
  };
}

/** SQLSTATE classes and codes of a connection the server ended or lost (08: connection exception; 57P01–57P03). */
const LOST_CONNECTION_CODES = /^(08[0-9A-Z]{3}|57P0[123])$/u;

/**
 * True for the PostgreSQL driver's errors of a lost connection: the server ended it (`pg_terminate_backend`, a
 * restart: SQLSTATE 57P01–57P03, class 08), the socket closed or was reset, or pg's "Connection terminated".
 * Checks `err` and its causes.
 */
export function isConnectionLoss(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && LOST_CONNECTION_CODES.test(code)) return true;
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNREFUSED') return true;
    if (/^Connection terminated/u.test(e.message)) return true;
  }
  return false;
}

/**
 * Ends a long-lived process on a condition it cannot recover from in place: one redacted line
 * `fatal: WHAT; exiting so that a supervisor restarts zhujiu` on stderr, then exit status 1. The data folder's
 * lock left behind is taken over by the next start (storage/data-dir-lock.ts), and held claims by their leases.
 */
export function exitFatal(what: string): never {
  const line = redactProcessText(what, processSecrets).split('\n')[0] ?? '';
  process.stderr.write(`${tc(processLocale, 'cli.unhandled.fatal', { what: line })}\n`);
  process.exit(1);
}

/**
 * Long-lived processes: from now on an exception nobody caught is either a lost database connection, logged
 * through `logger` (the pools drop that connection and open a new one for the next statement; the loops retry),
 * or fatal ({@link exitFatal}). Returns the function that removes the listener.
 */
export function fatalOnUncaughtException(logger: Logger): () => void {
  const log = logger.child({ component: 'process' });
  const listener = (err: Error) => {
    if (isConnectionLoss(err)) {
      log.error(
        { err: describeRejection(err) },
        'database connection lost; the process keeps running',
      );
      return;
    }
    log.fatal({ err: describeRejection(err) }, 'uncaught exception');
    exitFatal(
      tc(processLocale, 'cli.unhandled.uncaught', {
        message: err instanceof Error ? err.message : String(err),
      }),
    );
  };
  process.on('uncaughtException', listener);
  return () => {
    process.off('uncaughtException', listener);
  };
}
