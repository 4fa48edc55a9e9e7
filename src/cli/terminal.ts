/**
 * @module cli/terminal
 * Terminal modes a command changes while it draws are given back on every way out. cli-progress hides the cursor
 * (`ESC[?25l`) and turns line wrap off (`ESC[?7l`) while its bar is shown, and turns them on again only in its
 * `stop()`, which does nothing when its first drawing threw (it has no timer yet). A terminal left that way cuts
 * every later long line at the window edge, the shell's and the chat's included. So a command that draws takes a
 * {@link TerminalModes} first: `restore()` after the bar ends (normal end, Ctrl-C, an error), and a
 * `process.on('exit')` hook for whatever ends the process without passing there (an uncaught exception, an error
 * thrown from a bar's timer, `process.exit`). A signal that is not handled kills without an exit event, so the
 * commands that draw handle SIGINT, SIGTERM and SIGHUP themselves.
 */
import { writeSync } from 'node:fs';

/** Cursor shown (`ESC[?25h`) and line wrap on (`ESC[?7h`): the terminal's defaults. */
export const RESTORE_TERMINAL = '\u001b[?25h\u001b[?7h';

/** A claim on the terminal's modes; see the module comment. */
export interface TerminalModes {
  /** Turns the cursor and line wrap on again (once; later calls do nothing) and drops the exit hook. */
  restore(): void;
}

/**
 * Guards the modes of the terminal behind `stream` (stderr for progress bars): on a TTY, registers the exit hook
 * and returns the claim; on anything else (a pipe, a file) the claim does nothing, so nothing is written there.
 * @param stream the stream the drawing goes to; its `fd` is written synchronously at exit.
 */
export function guardTerminal(stream: NodeJS.WriteStream & { readonly fd: number }): TerminalModes {
  if (!stream.isTTY) return { restore: () => {} };
  let done = false;
  const write = () => {
    try {
      // Synchronous: at 'exit' the event loop no longer runs, so a stream write would be lost.
      writeSync(stream.fd, RESTORE_TERMINAL);
    } catch {
      /* the terminal is gone (closed window): nothing to restore */
    }
  };
  const onExit = () => {
    if (!done) write();
  };
  process.once('exit', onExit);
  return {
    restore: () => {
      if (done) return;
      done = true;
      process.off('exit', onExit);
      write();
    },
  };
}
