/**
 * @module cli/io
 * Where the command line writes: one line at a time to stdout (results) or stderr (errors). Tests replace it.
 *
 * A reader that closes stdout early (`zhujiu export battles | head -2`) ends the command quietly: the next write
 * throws {@link OutputClosedError}, which stops the command's work (no more rows are read), and `runCli` ends with
 * exit 0 and no message, as `head`'s writer would under a shell. Node ignores SIGPIPE, so the closed pipe shows up
 * as an `EPIPE` error on stdout; {@link watchStdout} turns it into that state instead of an uncaught exception.
 */
import type { Writable } from 'node:stream';
import type { AppError } from '../core/errors.ts';
import { said, saidError } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';

/** Writes the CLI's output; tests replace it. */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
  /**
   * The stream of a command that writes many lines itself (`export battles` without `--out`): process.stdout by
   * default. Its `EPIPE` error ends the command like a closed `out`.
   */
  readonly stdout?: Writable;
}

/**
 * The reader of stdout has gone (EPIPE): thrown by a write after that, so the command stops; `runCli` ends it with
 * exit 0 and prints nothing.
 */
export class OutputClosedError extends Error {
  override readonly name = 'OutputClosedError';
  constructor() {
    super('stdout was closed by its reader');
  }
}

/** True for {@link OutputClosedError} or an `EPIPE` error (also as the `cause` of another error). */
export function isOutputClosed(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof OutputClosedError || (e as NodeJS.ErrnoException).code === 'EPIPE')
      return true;
  }
  return false;
}

let stdoutClosed = false;
/** A write to stdout that failed otherwise (a full disk, `> /dev/full`): the command ends with it ({@link out}). */
let stdoutFailure: NodeJS.ErrnoException | undefined;
let watching = false;

/**
 * The refusal of stdout that cannot be written (`err`: its write's error), naming the cause and the fix.
 */
function stdoutFailed(err: NodeJS.ErrnoException): AppError {
  return saidError(
    'file_unwritable',
    said('cli.stdout.failed', { cause: causeSaid(err.code ?? 'EIO') }),
    { cause: err },
  );
}

/**
 * Throws when a write to stdout failed (other than its reader going away, which {@link isOutputClosed} tells):
 * `runCli` calls it after a command, whose last lines' failure comes after their writes returned.
 * @throws AppError `file_unwritable`: `cannot write the standard output (…)`.
 */
export function throwIfStdoutFailed(): void {
  if (stdoutFailure) throw stdoutFailed(stdoutFailure);
}

/** True once stdout's reader has closed it (its `EPIPE` was seen, or the stream failed with one). */
function stdoutGone(): boolean {
  if (stdoutClosed) return true;
  const e = process.stdout.errored as NodeJS.ErrnoException | null | undefined;
  return e?.code === 'EPIPE';
}

/**
 * Listens for stdout's errors (once per process; `runCli` calls it) instead of letting one crash the process with a
 * stack trace: `EPIPE` marks stdout closed; any other (a full disk) ends the command with one line
 * ({@link throwIfStdoutFailed}).
 */
export function watchStdout(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') stdoutClosed = true;
    else stdoutFailure ??= err;
  });
}

/**
 * stdout for results, stderr for errors.
 * `out` throws {@link OutputClosedError} once stdout's reader has closed it.
 */
export const defaultIo: CliIo = {
  out: (s) => {
    if (stdoutGone()) throw new OutputClosedError();
    throwIfStdoutFailed();
    process.stdout.write(`${s}\n`);
  },
  err: (s) => process.stderr.write(`${s}\n`),
  get stdout() {
    return process.stdout;
  },
};

let requested: number | undefined;

/**
 * Sets the exit status a command ends with when it returns normally (130 after Ctrl-C, 1 when its work failed).
 * Kept here and applied by `runCli` after the command returns, because `process.exitCode` set inside a command
 * does not survive: closing PGlite (its Emscripten runtime) resets it to 0.
 * @param code 0–255.
 */
export function requestExit(code: number): void {
  requested = code;
  process.exitCode = code;
}

/** The status {@link requestExit} asked for since the last call (undefined: none), and forgets it. */
export function takeRequestedExit(): number | undefined {
  const r = requested;
  requested = undefined;
  return r;
}

/**
 * East Asian wide characters (CJK ideographs, kana, hangul, full-width forms: Unicode UAX #11 "W"/"F", approximated
 * by their blocks), as the source of a regular-expression character class (without the brackets).
 */
export const WIDE_CHARS =
  '\\u1100-\\u115f\\u2e80-\\u303e\\u3041-\\u33ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uff60\\uffe0-\\uffe6';
const WIDE = new RegExp(`[${WIDE_CHARS}]`, 'u');

/** The columns `s` takes on a terminal: two for each {@link WIDE_CHARS} character, one for any other. */
export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDE.test(ch) ? 2 : 1;
  return w;
}

/**
 * A text table: the header, a rule of dashes, then the rows; columns two spaces apart, sized and padded by terminal
 * columns ({@link textWidth}), right-aligned where `right[c]`, trailing spaces cut.
 */
export function tableLines(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
): string[] {
  const widths = head.map((h, c) =>
    Math.max(textWidth(h), ...rows.map((r) => textWidth(r[c] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((s, c) => {
        const fill = ' '.repeat(Math.max(0, (widths[c] ?? 0) - textWidth(s)));
        return right[c] ? fill + s : s + fill;
      })
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** `s` padded with spaces to `width` terminal columns ({@link textWidth}), for the columns of a table. */
export function padColumns(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - textWidth(s)));
}

/** `s` cut to at most `width` terminal columns ({@link textWidth}: a wide character is never split). */
export function cutToColumns(s: string, width: number): string {
  let w = 0;
  let out = '';
  for (const ch of s) {
    w += WIDE.test(ch) ? 2 : 1;
    if (w > width) break;
    out += ch;
  }
  return out;
}
