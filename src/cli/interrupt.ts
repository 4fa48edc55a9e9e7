/**
 * @module cli/interrupt
 * Ctrl-C (SIGINT) and SIGTERM during a one-shot command that writes in one transaction (the imports) or to one
 * file (`export battles --out`): the work is aborted through an `AbortSignal` that the command checks between
 * steps, so an interrupt before the commit rolls everything back and says `interrupted: nothing was <done>` (exit
 * 130), and one that arrives while the commit is under way lets it finish and says so (exit 0). A second Ctrl-C
 * is ignored while the work winds down, so a commit is never cut in half.
 */
import { type CliIo, requestExit } from './io.ts';

/** True for the error an aborted signal makes `throwIfAborted` throw. */
function isAbort(err: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted && (err === signal.reason || (err as Error | undefined)?.name === 'AbortError')
  );
}

/**
 * Runs `work` with a signal that Ctrl-C / SIGTERM aborts.
 * @param what the past participle for the messages, e.g. `imported` or `written`.
 * @returns what `work` returned, or undefined when it was interrupted before its commit (exit status 130 is set).
 */
export async function runInterruptible<T>(
  io: CliIo,
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T | undefined> {
  const ctl = new AbortController();
  const onSignal = () => {
    if (ctl.signal.aborted) return;
    io.err(`interrupt: stopping; nothing will be ${what} unless the commit is already under way`);
    ctl.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const r = await work(ctl.signal);
    if (ctl.signal.aborted) {
      io.err(
        `interrupted while committing: the commit finished, so everything was ${what} (see below)`,
      );
    }
    return r;
  } catch (err) {
    if (isAbort(err, ctl.signal)) {
      io.err(`interrupted: nothing was ${what}`);
      requestExit(130);
      return undefined;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
