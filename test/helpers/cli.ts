/**
 * `zhujiu` as a child process, as a user runs it: `node bin/zhujiu.js …` (the compiled JavaScript, kept up to date
 * by the vitest global setup, see test/helpers/build.ts) with the project as working directory.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from './shared-data.ts';

/** The CLI entry users run (`npx zhujiu`, `npm start`). */
export const ZHUJIU_BIN = join(PROJECT_ROOT, 'bin', 'zhujiu.js');

/** Variables cleared for every child so the caller's shell (tokens, a DATABASE_URL) cannot leak in. */
export const CLEAN_ENV = {
  DATABASE_URL: '',
  DISCORD_TOKEN: '',
  SLACK_BOT_TOKEN: '',
  SLACK_APP_TOKEN: '',
  SLACK_SIGNING_SECRET: '',
  LOG_LEVEL: '',
};

/** A running `zhujiu` process with its output so far. */
export interface ZhujiuProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True while the process has not exited. */
  alive(): boolean;
  /**
   * Polls the output until `pattern` appears; rejects when the process exits first or after `timeoutMs` (an upper
   * bound for a slow machine, never a speed requirement).
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGKILL if still running (cleanup after a failed assertion). */
  kill(): void;
}

/** Starts `zhujiu ARGS…` with stdin closed (as under a service manager or in CI). */
export function startZhujiu(args: string[], env: Record<string, string> = {}): ZhujiuProcess {
  const child = spawn(process.execPath, [ZHUJIU_BIN, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...CLEAN_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    alive,
    waitFor: async (pattern, timeoutMs = 120_000) => {
      const until = performance.now() + timeoutMs;
      while (!pattern.test(`${out}\n${err}`)) {
        if (!alive())
          throw new Error(
            `zhujiu ${args.join(' ')} exited (code ${child.exitCode}) before printing ${pattern}:\n${err}`,
          );
        if (performance.now() > until)
          throw new Error(
            `zhujiu ${args.join(' ')} printed no ${pattern} in ${timeoutMs} ms:\n${err}`,
          );
        await sleep(200);
      }
    },
    kill: () => {
      if (alive()) child.kill('SIGKILL');
    },
  };
}
