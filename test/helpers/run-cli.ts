/**
 * `zhujiu ARGS…` as the tests run it, one shape for both ways: {@link inProcess} through `runCli`
 * (src/cli/index.ts) in this process, on an open runtime the test file holds ({@link openTestRuntime}) or on one
 * the command opens from the given environment; {@link asProcess} as a child process (`node bin/zhujiu.js`, the
 * compiled JavaScript), for what only a process shows (exit codes of the real binary, signals, stdout closing,
 * locks, the start from dist/). Both return the exit code and everything written to stdout and stderr;
 * {@link startZhujiu} starts a long-running one (`bot`, `worker`, an `eval` to interrupt) and hands it over.
 *
 * No test changes `process.env`: the environment of a command is an argument. In-process commands see only the
 * variables given (with `LOG_LEVEL=silent` unless given, so that logs written straight to stderr stay out of the
 * test output); a child process gets this process's environment with the chat tokens, `DATABASE_URL` and
 * `LOG_LEVEL` cleared, then the given variables. A command (either way, and the runtimes opened here) reads a
 * config folder of the test's own unless the test names one (`ZHUJIU_CONFIG_DIR`, or a `cwd` of its own):
 * test/helpers/config-dir.ts, never the checkout's `config/`, which holds the user's own settings.
 */
import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { LoadOptions } from '../../src/config/loader.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { Runtime, RuntimeOptions } from '../../src/main.ts';
import type { Db } from '../../src/storage/db.ts';
import { withOwnConfig } from './config-dir.ts';
import { PROJECT_ROOT } from './shared-data.ts';

/** What a command printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment variables of one command. */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** How {@link inProcess} runs a command. */
export interface InProcessOptions {
  /** An open runtime: the command runs on it and leaves it open (no database is opened). */
  readonly rt?: Runtime;
  /** The environment when no `rt` is given (the command opens and closes its own runtime). */
  readonly env?: CliEnv;
  readonly cwd?: string;
  readonly clock?: Clock;
  /** Where `export battles` without `--out` streams its lines (default: collected into `stdout`). */
  readonly stdout?: Writable;
  /**
   * Called with each line before it is written to stdout; one that throws (e.g. `OutputClosedError`, as a closed
   * stdout does) refuses the line.
   */
  readonly onOut?: (line: string) => void;
}

/**
 * Runs `zhujiu ARGS…` in this process; see the module comment. `process.exitCode` is reset after, so one
 * command's exit status never becomes the test worker's.
 */
export async function inProcess(
  args: readonly string[],
  o: InProcessOptions = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    out: (s: string) => {
      o.onOut?.(s); // first: a line it refuses (by throwing) is not written
      stdout += `${s}\n`;
    },
    err: (s: string) => {
      stderr += `${s}\n`;
    },
    stdout:
      o.stdout ??
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          stdout += chunk.toString();
          cb();
        },
      }),
  };
  const common = {
    tty: false, // no progress bar drawn on the test runner's terminal
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
  };
  const deps = o.rt
    ? { ...common, rt: o.rt, ...(o.env ? { env: o.env } : {}) }
    : { ...common, env: { LOG_LEVEL: 'silent', ...withOwnConfig(o.env ?? {}, o.cwd) } };
  // Loaded here, not at the top: a file that only starts processes does not load the application.
  const { runCli } = await import('../../src/cli/index.ts');
  const code = await runCli(['node', 'zhujiu', ...args], io, deps);
  process.exitCode = 0;
  return { code, stdout, stderr };
}

/** The CLI entry users run (`npx zhujiu`, `npm start`). */
export const ZHUJIU_BIN = join(PROJECT_ROOT, 'bin', 'zhujiu.js');

/**
 * Variables cleared for every child so the caller's shell (tokens, a DATABASE_URL, a Chinese locale: the command
 * line speaks the language of LC_ALL / LC_MESSAGES / LANG) cannot leak in; a test wanting Chinese sets LANG.
 */
export const CLEAN_ENV = {
  DATABASE_URL: '',
  DISCORD_TOKEN: '',
  SLACK_BOT_TOKEN: '',
  SLACK_APP_TOKEN: '',
  SLACK_SIGNING_SECRET: '',
  LOG_LEVEL: '',
  LC_ALL: '',
  LC_MESSAGES: '',
  LANG: 'C.UTF-8',
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
    env: { ...process.env, ...CLEAN_ENV, ...withOwnConfig(env) },
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

/** How {@link asProcess} runs a command. */
export interface AsProcessOptions {
  /** Variables over this process's environment (with tokens, `DATABASE_URL` and `LOG_LEVEL` cleared). */
  readonly env?: CliEnv;
  /** Working directory (default: the project). */
  readonly cwd?: string;
}

const execFileP = promisify(execFile);

/** Runs `zhujiu ARGS…` as a child process (`node bin/zhujiu.js`) to its end; see the module comment. */
export async function asProcess(
  args: readonly string[],
  o: AsProcessOptions = {},
): Promise<CliResult> {
  try {
    const r = await execFileP(process.execPath, [ZHUJIU_BIN, ...args], {
      cwd: o.cwd ?? PROJECT_ROOT,
      env: { ...process.env, ...CLEAN_ENV, ...withOwnConfig(o.env ?? {}, o.cwd) },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** An open runtime on a fresh copy of the migrated template folder, for many in-process commands of one file. */
export interface TestRuntime {
  readonly rt: Runtime;
  /** The environment it was opened with (data folder, config folder…), for commands that open their own. */
  readonly env: CliEnv;
  /** The embedded database's folder. */
  readonly dataDir: string;
  /** Closes the runtime and deletes its folder. */
  close(): Promise<void>;
}

/**
 * Opens a runtime as a command would (config from `env` and `opts`, migrations) on a fresh embedded database
 * copied from the template, with silent logs. One per test file: opening costs seconds, a command on it tenths.
 */
export async function openTestRuntime(
  env: CliEnv = {},
  opts: Omit<RuntimeOptions, 'env'> = {},
): Promise<TestRuntime> {
  const [{ openRuntime }, { createLogger }, { pgliteDataDir }] = await Promise.all([
    import('../../src/main.ts'),
    import('../../src/core/logger.ts'),
    import('./db.ts'),
  ]);
  const d = pgliteDataDir();
  const full = withOwnConfig({ DATABASE_URL: '', ZHUJIU_DATA_DIR: d.dataDir, ...env });
  try {
    const rt = await openRuntime({ logger: createLogger('silent'), ...opts, env: full });
    return {
      rt,
      env: full,
      dataDir: d.dataDir,
      close: async () => {
        await rt.close();
        d.remove();
      },
    };
  } catch (err) {
    d.remove();
    throw err;
  }
}

/**
 * A runtime on a database the test already holds (e.g. `freshDb(backend)`, either backend): the configuration
 * loaded from `env` (and `opts`), silent logs. Commands run on it leave it open; closing it is the test's.
 */
export async function runtimeOn(
  db: Db,
  env: CliEnv = {},
  opts: Omit<LoadOptions, 'env'> = {},
): Promise<Runtime> {
  const [{ loadConfig }, { createLogger }] = await Promise.all([
    import('../../src/config/loader.ts'),
    import('../../src/core/logger.ts'),
  ]);
  return {
    config: loadConfig({
      ...opts,
      env: opts.configDir === undefined ? withOwnConfig(env, opts.cwd) : env,
    }),
    logger: createLogger('silent'),
    db,
    logFile: undefined,
    close: async () => {},
  };
}
