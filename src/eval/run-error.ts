/**
 * @module eval/run-error
 * The recorded error of a run that ended with every item failed (`eval_runs.error`, written by eval/runner.ts): an
 * English text kept as recorded (logs, `--json`), recognised again by eval/summary.ts `runErrorText` so the command
 * line and the chat say it in their language. No dependencies.
 */

/** The recorded error of a run whose `n` (≥ 1) items all failed: `every item failed (9)`. */
export function allFailedError(n: number): string {
  return `every item failed (${n})`;
}

/** The number of failed items when `error` is an {@link allFailedError} text, else undefined. */
export function allFailedCount(error: string): number | undefined {
  const m = /^every item failed \((\d+)\)$/u.exec(error);
  return m ? Number(m[1]) : undefined;
}
