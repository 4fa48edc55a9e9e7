/**
 * @module cli/serve
 * Long-lived processes (`bot`, `worker`): open the runtime, start services, stay up until SIGINT/SIGTERM (or the
 * terminal user types `quit`), then shut down cleanly (stop intake, finish the running loop tick, close the
 * database).
 * - `bot`: chat platforms (Discord / Slack / the terminal when no token is set) + commands + arena + loop
 *   (closing, revealing and, unless `--no-worker`, scheduled posts).
 * - `worker`: just the loop, without chat platforms: it closes due battles; the bot reveals them and posts the
 *   scheduled battles (both need the chat connection).
 */
import { fstatSync } from 'node:fs';
import { BotService } from '../bot/service.ts';
import { type ModelConfig, modelInfos } from '../config/schema.ts';
import { disabledModels } from '../config/start-checks.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import { silentLogger } from '../core/logger.ts';
import { retryWithBackoff } from '../core/retry.ts';
import { tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { LeaderboardService } from '../leaderboard/service.ts';
import {
  type ChatPlatformOverrides,
  createChatPlatforms,
  createEvalRuntime,
  type EvalRuntime,
  type HttpBoard,
  openLiveArena,
  openRuntime,
  prepareRuntime,
  type Running,
  type Runtime,
  type RuntimeOptions,
  resolveVoterSecret,
  startHttpFor,
} from '../main.ts';
import { type CliDeps, cliLocale, dbText, envOf } from './deps.ts';
import {
  describeRejection,
  exitFatal,
  fatalOnUncaughtException,
  isConnectionLoss,
  keepRunningOnUnhandledRejection,
} from './unhandled.ts';

/** Options of {@link startService} (tests pass data/config folders, fakes' URLs and terminal streams). */
export interface ServiceOptions extends RuntimeOptions {
  readonly worker: boolean;
  readonly platforms?: ChatPlatformOverrides;
  readonly loopIntervalMs?: number;
  readonly clock?: Clock;
  readonly seedSource?: () => number;
  readonly leaderboardRounds?: number;
  /** HTTP port override (tests: 0 for any free port). */
  readonly httpPort?: number;
  /**
   * Called with one line saying where the data, logs and health endpoint are, before any chat starts, when the
   * logs go to a file (otherwise the logs on stderr say it).
   */
  readonly announce?: (line: string) => void;
}

/** A started bot or worker. */
export interface StartedService {
  readonly rt: Runtime;
  readonly bot: BotService;
  readonly http: Running;
  stop(): Promise<void>;
}

/** The results page's access to the board service (main.ts `HttpBoard`), with the models' card details. */
function httpBoard(
  leaderboard: LeaderboardService,
  clock: Clock,
  models: readonly ModelConfig[],
): HttpBoard {
  return {
    latest: () => leaderboard.latest(),
    now: () => clock.now(),
    checkStale: (s, locale) => leaderboard.checkStale(s, locale),
    startFirstBuild: () => leaderboard.startFirstBuild(),
    firstBuild: async () =>
      (await leaderboard.startFirstBuild()) ? leaderboard.refreshIfChanged() : undefined,
    models: modelInfos(models),
    history: (model) => leaderboard.history(model),
  };
}

/**
 * Opens the runtime and starts the bot (with platforms) or the worker loop (without). A start whose database
 * connection is lost on the way (PostgreSQL restarting, or its connections terminated, while the migrations, the
 * job queue or the chat set-up run) is undone and begun again, with the backoff and within the
 * `database.start_retry_seconds` that opening the database has (main.ts `openDbRetrying`, docs/architecture.md
 * "Faults"), each attempt logged; any other failure, or a stop asked for meanwhile (`opts.signal`), ends it.
 * @throws what the last attempt failed with.
 */
export async function startService(
  kind: 'bot' | 'worker',
  opts: ServiceOptions,
): Promise<StartedService> {
  const prepared = await prepareRuntime({ ...opts, checkStart: true, longLived: true });
  return retryWithBackoff(
    async () => startOn(kind, await openRuntime({ ...opts, prepared, longLived: true }), opts),
    {
      budgetMs: prepared.config.env.DATABASE_URL
        ? prepared.config.app.database.start_retry_seconds * 1000
        : 0,
      retryable: isConnectionLoss,
      logger: prepared.logger,
      message: 'database connection lost while starting; starting again',
      describe: (err) => describeRejection(err),
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
}

/** Starts the bot or the worker on an opened runtime; on failure stops what it started and closes `rt`. */
async function startOn(
  kind: 'bot' | 'worker',
  rt: Runtime,
  opts: ServiceOptions,
): Promise<StartedService> {
  let http: Running | undefined;
  let evalRt: EvalRuntime | undefined;
  try {
    // Everything that can fail on bad configuration comes before anything starts listening, so a bad start
    // exits at once instead of leaving a half-started process that answers health checks.
    const secret = resolveVoterSecret(rt.config, rt.logger);
    const platforms =
      kind === 'bot' ? await createChatPlatforms(rt.config, rt.logger, opts.platforms) : [];
    const clock = opts.clock ?? systemClock;
    const { registry, metrics, shared, leaderboard } = await sharedParts(rt, clock, opts);
    const live = kind === 'bot' ? await openLiveArena(rt, metrics) : undefined;
    http = await startHttpFor(
      rt,
      opts.httpPort,
      httpBoard(leaderboard, clock, rt.config.models),
      registry,
    );
    const started = http;
    // Evaluation runs: queued from chat, executed by workers (this process too unless `bot --no-worker`).
    evalRt = await createEvalRuntime(rt, {
      queue: true,
      worker: kind === 'worker' || opts.worker,
      metrics,
    });
    const evr = evalRt;
    // Said before the chat starts, so the terminal's greeting and prompt come after it.
    if (rt.logFile) opts.announce?.(startedLine(kind, rt, http.httpPort, opts.locale ?? 'en'));
    const bot = new BotService({
      leaderboard,
      db: rt.db.db,
      config: rt.config.app,
      platforms,
      logger: rt.logger,
      clock,
      voterSecret: secret,
      evals: evr.evals,
      ...(live ? { live } : {}),
      disabledModels: disabledModels(rt.config),
      // Logs in a file do not share the screen with the terminal chat: keep them at the configured level.
      ...(rt.logFile ? { quietLogs: false } : {}),
      schedule: kind === 'worker' || opts.worker,
      shared,
      metrics,
      ...(opts.loopIntervalMs !== undefined ? { loopIntervalMs: opts.loopIntervalMs } : {}),
      ...(opts.seedSource ? { seedSource: opts.seedSource } : {}),
      ...(opts.leaderboardRounds !== undefined
        ? { leaderboardRounds: opts.leaderboardRounds }
        : {}),
    });
    try {
      await bot.start();
    } catch (err) {
      await bot.stop().catch(() => undefined);
      throw err;
    }
    rt.logger.info(
      {
        kind,
        database: rt.db.describe,
        platforms: platforms.map((p) => p.name),
        worker: opts.worker,
      },
      `zhujiu ${kind} started; press Ctrl-C to stop`,
    );
    return {
      rt,
      bot,
      http: started,
      stop: async () => {
        const log = rt.logger;
        await stopStep('the evaluation worker', () => evr.stop(), log);
        await stopStep('the chat platforms and loops', () => bot.stop(), log);
        await stopStep('the board thread', () => leaderboard.close(), log);
        await stopStep('the HTTP server', () => started.stop(), log);
        await stopStep('the database', () => rt.close(), log);
        log.info('stopped');
      },
    };
  } catch (err) {
    await evalRt?.stop().catch(() => undefined);
    await http?.stop();
    await rt.close();
    throw err;
  }
}

/** `zhujiu bot: data in …; logs in …; health on …`, said when a long-lived process has started, in `locale`. */
function startedLine(
  kind: 'bot' | 'worker',
  rt: Runtime,
  httpPort: number | undefined,
  locale: Locale,
): string {
  return tc(locale, 'cli.serve.started', {
    kind,
    db: dbText(rt.db.target, locale),
    logs: rt.logFile ? tc(locale, 'cli.serve.logs', { file: rt.logFile }) : '',
    health: httpPort
      ? tc(locale, 'cli.serve.health', {
          url: `http://${rt.config.app.http.host}:${httpPort}/healthz`,
        })
      : '',
  });
}

/** The longest one step of a long-lived process's shutdown is waited for before the next step (ms). */
const STOP_STEP_MS = 20_000;

/**
 * Runs one step of a long-lived process's shutdown, waiting for it at most `ms`: a step still unfinished then is
 * logged (an error naming the step) and left behind, so that a process asked to stop stops (what it stored is
 * committed or rolled back by the database; its leases expire). bin/zhujiu.js ends a process that something left
 * behind keeps alive.
 * @returns whether the step ended (resolved or rejected; a rejection is logged) within `ms`.
 */
export async function stopStep(
  name: string,
  step: () => Promise<unknown>,
  log: { error(obj: object, msg: string): void },
  ms = STOP_STEP_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ended = step().then(
    () => true,
    (err: unknown) => {
      log.error({ err }, `shutdown: stopping ${name} failed`);
      return true;
    },
  );
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  const inTime = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (!inTime)
    log.error(
      { step: name, waitedMs: ms },
      `shutdown: ${name} did not stop in ${ms / 1000} s; going on`,
    );
  return inTime;
}

/**
 * The parts of a long-lived process that its services share: the application metrics behind `/metrics`
 * (http/metrics.ts, on `registry`), the claims of shared periodic work (jobs/shared-work.ts: one board build per
 * change, one close and one scheduled battle per tick, whatever number of bots and workers share the database),
 * and the board service.
 */
async function sharedParts(rt: Runtime, clock: Clock, opts: ServiceOptions) {
  const [{ Registry }, { createPromMetrics }, { SharedWork }, { LeaderboardService }] =
    await Promise.all([
      import('prom-client'),
      import('../http/metrics.ts'),
      import('../jobs/shared-work.ts'),
      import('../leaderboard/service.ts'),
    ]);
  const registry = new Registry();
  const metrics = createPromMetrics(registry, rt.db.db);
  const shared = new SharedWork({ db: rt.db.db, clock, metrics });
  const leaderboard = new LeaderboardService({
    db: rt.db.db,
    clock,
    logger: rt.logger,
    includeSources: rt.config.app.ratings.include_sources,
    judge: rt.config.app.judge.model,
    keep: rt.config.app.leaderboard.keep,
    chartRows: rt.config.app.leaderboard.chart_rows,
    locale: rt.config.app.locale,
    aggregation: {
      ...rt.config.app.aggregation,
      ...(opts.leaderboardRounds !== undefined ? { bootstrap: opts.leaderboardRounds } : {}),
    },
    // Postgres runs queries off this thread: one query for the inputs is cheaper there; PGlite reads in chunks.
    ...(rt.db.target.kind === 'postgres' ? { inputChunkVotes: 0 } : {}),
    shared,
    metrics,
  });
  return { registry, metrics, shared, leaderboard };
}

/**
 * True when someone types or pipes lines into this process: stdin is a terminal, a pipe, a socket (a parent
 * process's pipe) or a file. False for /dev/null or a closed stdin (a container, a service manager, CI), where the
 * bot runs headless and its logs belong on stderr.
 */
function stdinIsChat(): boolean {
  if (process.stdin.isTTY) return true;
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket() || st.isFile();
  } catch {
    return false;
  }
}

/**
 * Runs a long-lived process until a signal arrives (or the terminal user quits). It always opens its own runtime
 * (the embedded database in a worker thread, the start-up checks) from the environment of `deps`.
 * @param deps its `env` (required here) and optionally `cwd` and `clock`.
 * @throws Error when `deps` has no `env`.
 */
export async function runLongLived(
  kind: 'bot' | 'worker',
  opts: { worker: boolean },
  deps: CliDeps,
): Promise<void> {
  const env = envOf(deps);
  // The signal handlers come first: the terminal chat takes input while the service is still starting, and a
  // Ctrl-C then would otherwise kill the process without its shutdown (the data folder's lock, the queue).
  let signalled: string | undefined;
  let onStop: ((signal: string) => void) | undefined;
  // A signal while the database is still being tried again at start ends the start (main.ts openDbRetrying).
  const starting = new AbortController();
  // A signal after the first is ignored while the process shuts down: `npm start` passes the terminal's Ctrl-C
  // on to this process although it got it from the terminal already, and a second SIGINT left to Node's default
  // would kill the process halfway through its shutdown (the data folder's lock left behind).
  const stop = (signal: string) => {
    if (signalled !== undefined) return;
    signalled = signal;
    starting.abort();
    onStop?.(signal);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const removeSignalHandlers = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  // From here an uncaught exception is one line and exit 1 (a lost database connection is only logged):
  // cli/unhandled.ts. Until the logger exists, the error goes to stderr.
  let restoreUncaught = fatalOnUncaughtException(silentLogger);
  const svc = await startService(kind, {
    ...opts,
    env,
    locale: cliLocale(deps),
    signal: starting.signal,
    // The embedded database's thread died: every query would fail from now on.
    onDbLost: (err) =>
      exitFatal(tc(cliLocale(deps), 'cli.unhandled.dbStopped', { message: err.message })),
    ...(deps.cwd !== undefined ? { cwd: deps.cwd } : {}),
    ...(deps.clock !== undefined ? { clock: deps.clock } : {}),
    terminalChat: kind === 'bot' && stdinIsChat(),
    announce: (line) => process.stderr.write(`${line}\n`),
  }).catch((err: unknown) => {
    restoreUncaught();
    removeSignalHandlers();
    throw err;
  });
  // Stay up until a signal even when nothing else holds the event loop open: with PORT=0 there is no HTTP
  // server, the service loop's timer is unref'd and idle database connections close after 10 s, so without this
  // handle Node would end the process with exit code 13 (a top-level await that never settles) and no message.
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1);
  // A promise rejection nobody handled is logged and the process goes on (cli/unhandled.ts says why).
  const restoreRejections = keepRunningOnUnhandledRejection(svc.rt.logger);
  restoreUncaught();
  restoreUncaught = fatalOnUncaughtException(svc.rt.logger);
  await new Promise<void>((resolve) => {
    onStop = (signal) => {
      svc.rt.logger.info({ signal }, 'shutting down');
      resolve();
    };
    if (signalled) onStop(signalled); // arrived while starting
    void svc.bot.done.then(() => resolve());
  });
  clearInterval(keepAlive);
  try {
    await svc.stop();
  } finally {
    restoreRejections();
    restoreUncaught();
    removeSignalHandlers();
  }
}
