/**
 * @module core/logger
 * pino JSON logs with a redact list, so tokens, secrets and raw voter ids never reach a log line.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

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

/** A logger that drops everything (tests, pure helpers). */
export const silentLogger: Logger = pino({ level: 'silent' });
