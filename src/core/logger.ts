/**
 * @module core/logger
 * pino logs with a redact list, so tokens, secrets and raw voter ids never reach a log line. They are written in
 * human form by default (pino-pretty: time, level, message, fields on one line) or as JSON lines for log
 * collectors, to stderr or to a file ({@link openLogDestination}; main.ts decides from LOG_FORMAT / LOG_FILE).
 */
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type DestinationStream, type Logger, pino } from 'pino';
import { said, saidError, sayCli } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import type { Locale } from '../i18n/index.ts';
import type { Said } from './errors.ts';
import { makeDirsSync } from './make-dirs.ts';

export type { Logger } from 'pino';

/** Keys whose values are replaced by "[redacted]" wherever they appear (two levels deep). */
export const REDACT_PATHS = [
  'token',
  'apiKey',
  'api_key',
  'password',
  'secret',
  'signingSecret',
  'appToken',
  'authorization',
  'databaseUrl',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.password',
  '*.secret',
  '*.signingSecret',
  '*.appToken',
  '*.authorization',
  '*.databaseUrl',
  'headers.authorization',
];

/**
 * Creates the root logger.
 * @param level pino level name ('fatal' … 'trace', or 'silent').
 * @param destination where to write; stderr by default so stdout stays clean for CLI output (JSON, tables).
 */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { app: 'zhujiu' } },
    destination ?? pino.destination(2),
  );
}

/** pino-pretty's factory, as its CommonJS module exports it. */
type PrettyBuild = (opts: import('pino-pretty').PrettyOptions) => DestinationStream;

/** Where and how logs are written. */
export interface LogOutput {
  /** `pretty`: one human line per event; `json`: pino's JSON lines (for log collectors). */
  readonly format: 'pretty' | 'json';
  /** A file to append to (its folder is created); stderr when absent. */
  readonly file?: string;
}

/**
 * Checks that the log file can be opened for appending (creating its folder), so a path that cannot work is one
 * clear error at start instead of logs that silently go nowhere (pino opens its file later, off the call stack).
 * @throws AppError `env_invalid` naming LOG_FILE, the path, the reason and the fix.
 */
export function checkLogFile(file: string): void {
  try {
    makeDirsSync(dirname(file));
    closeSync(openSync(file, 'a'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? said('cli.log.isFolder')
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? said('cli.log.fileInPath')
          : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
            ? said('cli.log.noPermission', { code })
            : causeSaid(code ?? String(err));
    throw saidError('env_invalid', said('cli.log.cannotOpen', { file, why }), { cause: err });
  }
}

/**
 * Opens the stream the logs go to. Writes are synchronous, so no line is lost when the process exits. In human
 * form, pino-pretty (~40 modules, ~40 ms to load on the 2-core machine we measure on) is loaded at the first line
 * written: a one-shot command that logs nothing at its level (`zhujiu eval` logs warnings only) never loads it.
 * @example createLogger('info', await openLogDestination({ format: 'pretty', file: 'data/zhujiu.log' }))
 * @throws AppError `env_invalid` when the file cannot be opened (see {@link checkLogFile}).
 */
export async function openLogDestination(out: LogOutput): Promise<DestinationStream> {
  if (out.file !== undefined) checkLogFile(out.file);
  if (out.format === 'json') {
    return out.file
      ? pino.destination({ dest: out.file, mkdir: true, sync: true })
      : pino.destination({ dest: 2, sync: true });
  }
  let pretty: DestinationStream | undefined;
  const open = (): DestinationStream => {
    if (pretty !== undefined) return pretty;
    const build = createRequire(import.meta.url)('pino-pretty') as PrettyBuild;
    pretty = build({
      destination: out.file ?? 2,
      mkdir: true,
      sync: true,
      colorize: out.file === undefined && process.stderr.isTTY === true,
      translateTime: 'SYS:yyyy-mm-dd HH:MM:ss',
      ignore: 'pid,hostname,app',
      singleLine: true,
    });
    return pretty;
  };
  // What pino calls on a destination: write, and flush when it has one (pino's `logger.flush`).
  return {
    write: (line: string) => open().write(line),
    flush: (cb?: (err?: Error) => void) => {
      const p = pretty as { flush?: (cb?: (err?: Error) => void) => void } | undefined;
      if (p?.flush) p.flush(cb);
      else cb?.();
    },
  } as DestinationStream;
}

/**
 * The log destination `dest` for lines that carry their message as catalogue data (a `said` field: core/errors
 * `Said`, a message of the command line's catalogue), as warnings a person at the terminal reads (a stale lock taken
 * over, a disabled model): when the lines go to the terminal in human form (`toTerminal`) in `locale`, the message
 * is said in that language; in a file, as JSON, or in English, the English `msg` stays (docs/architecture.md
 * "Languages": log files are English). The `said` field is dropped either way: it is the message, not a field.
 */
export function saidLogLines<D extends { write(s: string): unknown }>(
  dest: D,
  locale: Locale,
  toTerminal: boolean,
): D {
  const write = (line: string): unknown => {
    if (!line.includes('"said":{')) return dest.write(line);
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return dest.write(line);
    }
    const said = rec.said as Said | undefined;
    delete rec.said;
    if (toTerminal && locale !== 'en' && said !== undefined) {
      try {
        rec.msg = sayCli(locale, said);
      } catch {
        // Not a command line message: the English stays.
      }
    }
    return dest.write(`${JSON.stringify(rec)}\n`);
  };
  return new Proxy(dest, { get: (t, k) => (k === 'write' ? write : Reflect.get(t, k)) });
}

/** A logger that drops everything (tests, pure helpers). */
export const silentLogger: Logger = pino({ level: 'silent' });
