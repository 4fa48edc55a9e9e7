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
