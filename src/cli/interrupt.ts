/**
 * @module cli/interrupt
 * Ctrl-C (SIGINT) and SIGTERM during a one-shot command that writes in one transaction (the imports) or to one
 * file (`export battles --out`): the work is aborted through an `AbortSignal` that the command checks between
 * steps, so an interrupt before the commit rolls everything back and says `interrupted: nothing was <done>` (exit
 * 130), and one that arrives while the commit is under way lets it finish and says so (exit 0). A second Ctrl-C
 * is ignored while the work winds down, so a commit is never cut in half.
 */
import { tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { type CliIo, requestExit } from './io.ts';

/** True for the error an aborted signal makes `throwIfAborted` throw. */
function isAbort(err: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted && (err === signal.reason || (err as Error | undefined)?.name === 'AbortError')
  );
}

/**
 * Runs `work` with a signal that Ctrl-C / SIGTERM aborts.
 * @param what what the work does, for the messages: `imported` or `written`.
 * @param locale the language of the messages (cli/deps.ts `cliLocale`).
 * @returns what `work` returned, or undefined when it was interrupted before its commit (exit status 130 is set).
 */
export async function runInterruptible<T>(
  io: CliIo,
  what: 'imported' | 'written',
  work: (signal: AbortSignal) => Promise<T>,
  locale: Locale = 'en',
): Promise<T | undefined> {
  const ctl = new AbortController();
  const done = tc(locale, what === 'imported' ? 'cli.interrupt.imported' : 'cli.interrupt.written');
  const onSignal = () => {
    if (ctl.signal.aborted) return;
    io.err(tc(locale, 'cli.interrupt.stopping', { what: done }));
    ctl.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const r = await work(ctl.signal);
    if (ctl.signal.aborted) {
      io.err(tc(locale, 'cli.interrupt.committed', { what: done }));
    }
    return r;
  } catch (err) {
    if (isAbort(err, ctl.signal)) {
      io.err(tc(locale, 'cli.interrupt.nothing', { what: done }));

      requestExit(130);
      return undefined;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
