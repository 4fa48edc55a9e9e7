/**
 * @module cli/deps
 * What every command runs with: the environment, the folder its configuration resolves against, the clock and,
 * when the caller already holds one, an open runtime (configuration, logger, database). `bin/zhujiu.js` passes
 * `process.env` and nothing else, so each command opens its own runtime and closes it; a test or an embedding
 * passes an open runtime, which the command uses and leaves open (one database for many commands).
 *
 * Light on purpose (`cli/index.ts` imports its types): main.ts is loaded only when a runtime is opened.
 */
import type { LoadOptions } from '../config/loader.ts';
import type { Clock } from '../core/clock.ts';
import { localeFromPosixEnv, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { Runtime, RuntimeOptions } from '../main.ts';
import type { DbTarget } from '../storage/db.ts';
import { redactUrl } from '../storage/redact-url.ts';

/** The environment variables as {@link LoadOptions} takes them. */
export type CliEnv = LoadOptions['env'];

/**
 * A command's surroundings; see the module comment. Either an open runtime (`rt`, used and left open) or the
 * environment to open one from (`env`; `process.env` for the `zhujiu` process, read nowhere else).
 */
export type CliDeps = CliSurroundings &
  (
    | { readonly rt: Runtime; readonly env?: CliEnv }
    | { readonly rt?: undefined; readonly env: CliEnv }
  );

/** What every {@link CliDeps} may carry besides the runtime or the environment. */
export interface CliSurroundings {
  /**
   * The folder the configuration's folders resolve against (`./config`, `./data/pg`, `./datasets` and relative
   * `ZHUJIU_*` paths; default: the working directory). File arguments resolve against the working directory.
   */
  readonly cwd?: string;
  /** The current time (default: the wall clock). */
  readonly clock?: Clock;
  /** Whether stderr is a terminal, for progress bars (default: `process.stderr.isTTY`). */
  readonly tty?: boolean;
}

/** How a command opens its runtime when none is given (everything but the environment and the folder). */
export type OpenOptions = Omit<RuntimeOptions, 'env' | 'cwd'>;

/**
 * The runtime of a command: `deps.rt` when given (left open), else one opened from `deps.env` with `opts`
 * (`quiet` by default) and closed when `fn` ends, however it ends.
 * @throws what `openRuntime` throws (config_invalid, env_invalid, db_unavailable, db_migration_failed) and
 *   whatever `fn` throws.
 */
export async function withRuntime<T>(
  deps: CliDeps,
  opts: OpenOptions,
  fn: (rt: Runtime) => Promise<T>,
): Promise<T> {
  if (deps.rt) return fn(deps.rt);
  const rt = await openCommandRuntime(deps, opts);
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

/**
 * Opens a runtime from `deps.env` (and `deps.cwd`) with `opts`, `quiet` unless `opts` says otherwise; the caller
 * closes it. For commands that open the database only after a first step (an import checks its file first).
 */
export async function openCommandRuntime(deps: CliDeps, opts: OpenOptions): Promise<Runtime> {
  const { openRuntime } = await import('../main.ts');
  return openRuntime({
    quiet: true,
    locale: cliLocale(deps),
    ...opts,
    env: envOf(deps),
    ...(deps.cwd !== undefined ? { cwd: deps.cwd } : {}),
  });
}

/** The configuration of a command that needs no database: the runtime's when given, else loaded from `deps.env`. */
export async function configOf(deps: CliDeps): Promise<Runtime['config']> {
  if (deps.rt) return deps.rt.config;
  const { loadConfig } = await import('../config/loader.ts');
  return loadConfig({
    env: envOf(deps),
    locale: cliLocale(deps),
    ...(deps.cwd !== undefined ? { cwd: deps.cwd } : {}),
  });
}

/**
 * The environment of `deps`, for opening a runtime.
 * @throws Error when `deps` holds only a runtime (its parsed `config.env` lacks the models' key variables): a
 *   programming error, since only commands given no runtime open one.
 */
export function envOf(deps: CliDeps): CliEnv {
  if (deps.env) return deps.env;
  throw new Error('this command opens its own runtime: pass the environment (deps.env)');
}

/**
 * The command line's language: from the POSIX locale variables of `deps.env` (i18n `localeFromPosixEnv`:
 * `LC_ALL`, `LC_MESSAGES`, `LANG`), `en` when only a runtime is given. Chat and site texts follow config `locale`.
 */
export function cliLocale(deps: CliDeps): Locale {
  return localeFromPosixEnv(deps.env ?? {});
}

/**
 * The database as the command line's sentences name it, in `locale`: `PGlite at ./data/pg` or
 * `Postgres at host:port/db` (never the URL's password), `嵌入式数据库（PGlite）./data/pg` in Chinese.
 */
export function dbText(target: DbTarget, locale: Locale): string {
  return target.kind === 'pglite'
    ? tc(locale, 'cli.db.pglite', { dir: target.dataDir })
    : tc(locale, 'cli.db.postgres', { where: redactUrl(target.url) });
}
