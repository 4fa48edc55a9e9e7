/**
 * @module cli/io
 * Where the command line writes: one line at a time to stdout (results) or stderr (errors). Tests replace it.
 */

/** Writes the CLI's output; tests replace it. */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

/** stdout for results, stderr for errors. */
export const defaultIo: CliIo = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
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
