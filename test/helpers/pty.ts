/**
 * `zhujiu` in a real pseudo-terminal, as a person runs it: util-linux `script -qfec CMD /dev/null` gives the
 * command a pty (stdin, stdout and stderr are the terminal, `isTTY` is true, Ctrl-C typed as byte 0x03 becomes
 * SIGINT through the line discipline) and copies every byte the command writes to the terminal, escape sequences
 * included, to its own stdout, which is captured here raw. Nothing native is needed (`script` is part of
 * util-linux, on every Linux CI image). The command runs `bin/zhujiu.js` (the compiled dist/, kept up to date by
 * the global setup, test/helpers/build.ts) from the project folder, with `exec`, so the pid printed first is
 * zhujiu's own (for SIGTERM and checks that it exited).
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { withOwnConfig } from './config-dir.ts';
import { ZHUJIU_BIN } from './run-cli.ts';
import { PROJECT_ROOT } from './shared-data.ts';

/** Hides the cursor / turns line wrap off; shows the cursor / turns line wrap on. */
export const ESC = {
  hideCursor: '\u001b[?25l',
  showCursor: '\u001b[?25h',
  wrapOff: '\u001b[?7l',
  wrapOn: '\u001b[?7h',
} as const;

/** A `zhujiu` process in a pseudo-terminal. */
export interface PtyProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Everything written to the terminal so far (stdout and stderr as the terminal got them), raw. */
  output(): string;
  /** The output without escape sequences and carriage returns, for reading. */
  text(): string;
  /** zhujiu's pid (not the pid of `script`). */
  pid(): Promise<number>;
  /** Types `s` at the terminal (`\u0003` is Ctrl-C, `\u0004` Ctrl-D). */
  type(s: string): void;
  /** Resolves with the exit code of the command (`script -e` passes it on; 128+N after signal N). */
  readonly exited: Promise<number | null>;
  /**
   * Polls the output until `pattern` matches its text; rejects when the process exits first or after `timeoutMs`
   * (an upper bound for a busy machine, never a speed requirement).
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Waits for the exit (rejects after `timeoutMs`, a guard against a hang) and returns the code. */
  exit(timeoutMs?: number): Promise<number | null>;
  /** SIGKILL to the whole group (cleanup after a failed assertion). */
  kill(): void;
}

/** CSI, OSC, charset and save/restore escape sequences. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is the point
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[78=>]/gu;

/** Removes escape sequences and carriage returns. */
export function stripTerminal(s: string): string {
  return s.replace(ESCAPES, '').replace(/\r/gu, '');
}

/** True when process `pid` is still a zhujiu process (not a later process given the same pid). */
function isZhujiu(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(ZHUJIU_BIN);
  } catch {
    return false;
  }
}

/** Quotes one word for sh. */
const sh = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;

/**
 * Starts `zhujiu ARGS…` in a pseudo-terminal of 120 × 40 with `env` added to a clean environment (no tokens, no
 * DATABASE_URL unless given, TERM=xterm; a config folder of the test's own unless given: test/helpers/config-dir.ts).
 * @param opts.after a shell command run in the same terminal after zhujiu ends (e.g. `stty -a` to read the
 *   modes it left); the exit code stays zhujiu's.
 * @param opts.node runs `node ARGS…` instead (a script of the test's own).
 * @param opts.stdoutFile redirects the command's stdout to this file (as `zhujiu eval --json > out.json` in a
 *   terminal): stderr stays the terminal.
 */
export function startInPty(
  args: readonly string[],
  env: Record<string, string>,
  opts: { stdoutFile?: string; node?: boolean; after?: string } = {},
): PtyProcess {
  const cmd = [
    'stty cols 120 rows 40;',
    'echo "zhujiu-pid=$$";',
    // With a command to run after it, zhujiu is not exec'd (the pid printed is then the shell's), and the shell
    // traps SIGINT so that a Ctrl-C meant for zhujiu does not end the shell before the command after it runs
    // (dash, /bin/sh on Debian, dies on SIGINT while it waits; bash waits for the child). A trap with a command
    // is reset to the default in the child, so zhujiu gets SIGINT as usual.
    opts.after ? 'trap : INT;' : 'exec',
    sh(process.execPath),
    ...(opts.node ? [] : [sh(ZHUJIU_BIN)]),
    ...args.map(sh),
    ...(opts.stdoutFile ? ['>', sh(opts.stdoutFile)] : []),
    ...(opts.after ? [`; code=$?; ${opts.after}; exit $code`] : []),
  ].join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DISCORD_TOKEN: '',
      SLACK_BOT_TOKEN: '',
      SLACK_APP_TOKEN: '',
      SLACK_SIGNING_SECRET: '',
      LOG_LEVEL: '',
      LOG_FORMAT: '',
      LOG_FILE: '',
      TERM: 'xterm',
      // `script -c` runs the command with $SHELL: the same shell on every machine.
      SHELL: '/bin/sh',
      ...withOwnConfig(env),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString('utf8');
  });
  let err = '';
  child.stderr.on('data', (b: Buffer) => {
    err += b.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const text = () => stripTerminal(out);
  const waitFor = async (pattern: RegExp, timeoutMs = 120_000) => {
    const until = performance.now() + timeoutMs;
    while (!pattern.test(text())) {
      if (done) {
        await sleep(50); // the last bytes may still be on their way
        if (pattern.test(text())) return;
        throw new Error(
          `zhujiu ${args.join(' ')} exited before printing ${pattern}:\n${text()}${err}`,
        );
      }
      if (performance.now() > until)
        throw new Error(
          `zhujiu ${args.join(' ')} printed no ${pattern} in ${timeoutMs} ms:\n${text()}`,
        );
      await sleep(100);
    }
  };
  return {
    child,
    output: () => out,
    text,
    pid: async () => {
      await waitFor(/zhujiu-pid=\d+/);
      return Number(/zhujiu-pid=(\d+)/.exec(text())?.[1]);
    },
    type: (s) => {
      child.stdin.write(s);
    },
    exited,
    waitFor,
    exit: async (timeoutMs = 120_000) => {
      const r = await Promise.race([exited, sleep(timeoutMs).then(() => 'hung' as const)]);
      if (r === 'hung') throw new Error(`zhujiu ${args.join(' ')} did not exit:\n${text()}`);
      // The pty's last bytes reach script's stdout before it exits; the pipe may still hold them.
      await new Promise<void>((resolve) =>
        child.stdout.readableEnded ? resolve() : child.stdout.once('end', () => resolve()),
      );
      return r;
    },
    kill: () => {
      // zhujiu runs in a session of its own (script's), so it is killed by its pid, script by its group.
      const pid = /zhujiu-pid=(\d+)/.exec(text())?.[1];
      const ours = pid && isZhujiu(Number(pid)) ? Number(pid) : undefined;
      for (const target of [ours, done ? undefined : -(child.pid ?? 0)]) {
        if (!target) continue;
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    },
  };
}

/**
 * True when every mode `output` turned off (cursor hidden, line wrap off) was turned on again later in the byte
 * stream.
 */
export function terminalRestored(output: string): boolean {
  const pairs = [
    [ESC.hideCursor, ESC.showCursor],
    [ESC.wrapOff, ESC.wrapOn],
  ] as const;
  return pairs.every(([off, on]) => {
    const lastOff = output.lastIndexOf(off);
    return lastOff === -1 || output.lastIndexOf(on) > lastOff;
  });
}
