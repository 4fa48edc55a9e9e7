/**
 * `zhujiu ARGS…` in this process through `runCli` (src/cli/index.ts), as the command-line tests run it: the exit
 * code and everything written to stdout and stderr, a line per write. `process.exitCode` is reset after, so one
 * command's exit status never becomes the test worker's.
 */
import { runCli } from '../../src/cli/index.ts';

/** What an in-process command printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `zhujiu ARGS…` in-process; see the module comment. */
export async function zhujiuInProcess(...args: string[]): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'zhujiu', ...args], {
    out: (s) => {
      out += `${s}\n`;
    },
    err: (s) => {
      err += `${s}\n`;
    },
  });
  process.exitCode = 0;
  return { code, out, err };
}
