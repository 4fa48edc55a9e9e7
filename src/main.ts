/**
 * @module main
 * The composition root: config → logger → db → migrate → (chat, jobs, http). The only place that constructs
 * concrete adapters; nothing else holds module-level singletons.
 *
 * Heavy modules (the chat SDKs, hono, prom-client; PGlite and pg in storage/db.ts) are imported dynamically where
 * they are constructed, so a one-shot command such as `zhujiu import` loads only what it uses.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DestinationStream } from 'pino';
import type { LiveModel } from './arena/ask.ts';
import type { DiscordAdapterOptions } from './chat/discord/adapter.ts';
import type { ChatPlatform } from './chat/port.ts';
import type { ShellAdapterOptions } from './chat/shell/adapter.ts';
import type { SlackAdapterOptions } from './chat/slack/adapter.ts';
import { filesOf } from './config/files.ts';
import { type LoadedConfig, type LoadOptions, loadConfig } from './config/loader.ts';
import type { ModelInfo } from './config/schema.ts';
import { assertStartable, disabledModels, namedModelProblem } from './config/start-checks.ts';
import { systemClock } from './core/clock.ts';
import { AppError } from './core/errors.ts';
import {
  createLogger,
  type Logger,
  type LogOutput,
  openLogDestination,
  saidLogLines,
} from './core/logger.ts';
import { makeDirsSync } from './core/make-dirs.ts';
import { retryWithBackoff } from './core/retry.ts';
import { said, saidError, sayCli } from './i18n/cli.ts';
import type { Locale } from './i18n/index.ts';
import { EVAL_RUN_QUEUE } from './jobs/queue.ts';
import type { Snapshot } from './leaderboard/service.ts';
import type { LlmClient } from './llm/types.ts';
import {
  type Db,
  type DbTarget,
  migrateToLatest,
  openDb,
  pingDb,
  withStartupLock,
} from './storage/db.ts';
import type { BoardHistoryPoint } from './storage/leaderboard.ts';

/** An opened configuration + database, shared by every command. */
export interface Runtime {
  readonly config: LoadedConfig;
  readonly logger: Logger;
  readonly db: Db;
  /** The file the logs go to; undefined when they go to stderr. */
  readonly logFile: string | undefined;
  close(): Promise<void>;
}

/** Options for {@link openRuntime}. */
export interface RuntimeOptions extends LoadOptions {
  /** Log here instead of opening the configured destination. */
  readonly logger?: Logger;
  /** The configuration and logger, already prepared from these options ({@link prepareRuntime}). */
  readonly prepared?: PreparedRuntime;
  /** Run migrations after opening (default true). */
  readonly migrate?: boolean;
  /** One-shot CLI commands log only warnings unless LOG_LEVEL is set, so their stdout/stderr stay readable. */
  readonly quiet?: boolean;
  /** Run the start-up checks of `bot` / `worker` ({@link assertStartable}) before opening the database. */
  readonly checkStart?: boolean;
  /**
   * A long-lived process (`bot`, `worker`): the embedded database runs in a worker thread so that no query holds
   * the event loop (storage/pglite-thread.ts). No effect with DATABASE_URL.
   */
  readonly longLived?: boolean;
  /**
   * The embedded database runs in a worker thread (storage/pglite-thread.ts); default: when {@link longLived}.
   * `zhujiu eval` asks for it too: its event loop sends and reads the model's requests while the database works
   * (docs/architecture.md, "A first eval"). No effect with DATABASE_URL.
   */
  readonly pgliteThread?: boolean;
  /**
   * Called once if the embedded database's thread dies (long-lived processes on PGlite): every later query
   * would fail, so `bot` / `worker` exit non-zero for a supervisor to restart them.
   */
  readonly onDbLost?: (err: Error) => void;
  /**
   * Called once the embedded database's folder is locked for this process (storage/db `OpenDbOptions.onLocked`),
   * with true when the database in it will be new (the folder is empty or missing). Not called with DATABASE_URL.
   */
  readonly onDataFolder?: (isNew: boolean) => void;
  /**
   * Aborted when the process is asked to stop while it starts (SIGINT / SIGTERM): a database that is still being
   * tried again ({@link openDbRetrying}) is given up at once, with the last connection error.
   */
  readonly signal?: AbortSignal;
  /**
   * The bot will chat in this terminal if no chat token is set (its input is typed or piped in): then the logs go
   * to a file (`zhujiu.log` beside the data folder) so that the terminal reads like a chat, unless LOG_FILE says
   * otherwise.
   */
  readonly terminalChat?: boolean;
  /**
   * Wraps the log destination (e.g. `zhujiu eval` clears its progress bar before a log line and keeps the
   * per-request failures it summarises at the end off the terminal). `toTerminal`: the logs go to stderr, not a file.
   */
  readonly wrapLogs?: (dest: DestinationStream, toTerminal: boolean) => DestinationStream;
  /**
   * Called once the configuration is loaded, before the database is opened: work that needs only the configuration
   * starts here and goes on while the database opens (`zhujiu eval` prepares its suite's datasets: on a first start
   * the database waits for the thread pool and the disk, storage/tar-unpack). Must not throw.
   */
  readonly onConfig?: (config: LoadedConfig, logger: Logger) => void;
}

/**
 * Where logs go: LOG_FILE (`-` or `stderr`: stderr); else a file beside the data folder when the terminal is the
 * chat; else stderr. Format: LOG_FORMAT, default `pretty` (human lines).
 */
function logOutput(config: LoadedConfig, terminalChat: boolean): LogOutput {
  const format = config.env.LOG_FORMAT ?? 'pretty';
  const asked = config.env.LOG_FILE;
  if (asked === '-' || asked === 'stderr') return { format };
  if (asked) return { format, file: resolve(asked) };
  if (terminalChat) return { format, file: join(dirname(config.dataDir), 'zhujiu.log') };
  return { format };
}

/** A runtime's configuration and logger, before its database is opened. */
export type PreparedRuntime = Pick<Runtime, 'config' | 'logger' | 'logFile'>;

/**
 * Loads config and opens the log destination; with `opts.checkStart`, refuses a configuration that cannot start
 * and warns of each disabled model.
 * @throws AppError config_invalid / env_invalid.
 */
export async function prepareRuntime(opts: RuntimeOptions): Promise<PreparedRuntime> {
  const config = loadConfig(opts);
  // `bot` and `worker` refuse a configuration that cannot work before opening anything: the same checks as
  // `zhujiu config check` (config/start-checks.ts).
  if (opts.checkStart === true) assertStartable(config, opts.locale);
  const terminalChat =
    opts.terminalChat === true && !config.env.DISCORD_TOKEN && !config.env.SLACK_BOT_TOKEN;
  const level = opts.quiet && !config.env.LOG_LEVEL ? 'warn' : config.app.log.level;
  const output = logOutput(config, terminalChat);
  const toTerminal = output.file === undefined;
  const opened = opts.logger ? undefined : await openLogDestination(output);
  // A warning a person reads on the terminal is in their language (its `said`); the log files stay English.
  const dest = opened
    ? saidLogLines(opened, opts.locale ?? 'en', toTerminal && output.format === 'pretty')
    : undefined;
  const logger =
    opts.logger ??
    createLogger(level, opts.wrapLogs && dest ? opts.wrapLogs(dest, toTerminal) : dest);
  const logFile = opts.logger ? undefined : output.file;
  // A model that cannot be called here does not stop `bot` / `worker`: it is disabled, with a warning.
  if (opts.checkStart === true) warnDisabled(config, logger);
  return { config, logger, logFile };
}

/** The warning of each model disabled for a missing key, in English and in Chinese for the terminal (`said`). */
function warnDisabled(config: LoadedConfig, logger: Logger): void {
  const zh = disabledModels(config, 'zh-CN');
  disabledModels(config).forEach((d, i) => {
    const warning = { texts: { en: d.warning, 'zh-CN': zh[i]?.warning ?? d.warning } };
    const message = said('cli.start.modelDisabledLog', { warning });
    logger.warn({ model: d.name, variable: d.variable, said: message }, sayCli('en', message));
  });
}

/**
 * Loads config (unless `opts.prepared` holds it), opens the database (Postgres with DATABASE_URL, else PGlite in
 * the data folder) and migrates.
 * @throws AppError config_invalid / env_invalid / db_unavailable / db_migration_failed.
 */
export async function openRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const { config, logger, logFile } = opts.prepared ?? (await prepareRuntime(opts));
  opts.onConfig?.(config, logger);
  const db = await openDbRetrying(config, logger, opts);
  try {
    if (opts.migrate !== false) {
      // Processes started together on one server migrate one after another (storage/db.ts withStartupLock).
      const res = await withStartupLock(db, () => migrateToLatest(db.db));
      const applied =
        res.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
      // The embedded folder is locked to this process (storage/data-dir-lock.ts), so a run still active in it
      // was left by a process that is gone (killed, or its machine stopped): it is taken back now, before this
      // process runs anything, rather than after its heartbeat and leases run out.
      if (db.target.kind === 'pglite') {
        const { takeBackLeftRuns } = await import('./storage/eval-runs.ts');
        const back = await takeBackLeftRuns(db.db);
        if (back.runs.length > 0 || back.claims > 0)
          logger.info(
            { runs: back.runs, claims: back.claims },
            'evaluation runs of a stopped process taken back',
          );
      }
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  logger.info({ database: db.describe }, 'database ready');
  return { config, logger, db, logFile, close: () => db.close() };
}

/**
 * Opens the configured database. A long-lived process on PostgreSQL whose server cannot be reached yet (it is
 * starting, or restarting) tries again with backoff (1 s doubling to 15 s) for `database.start_retry_seconds`,
 * logging each failure, then gives up with the last error, so a supervisor restarts it; a one-shot command fails
 * at once, as it does when `opts.signal` is aborted (the process is stopping). The embedded database's thread
 * (long-lived, PGlite) reports its death to `opts.onDbLost`.
 * @throws AppError `db_unavailable` (see {@link openDb}).
 */
async function openDbRetrying(
  config: LoadedConfig,
  logger: Logger,
  opts: RuntimeOptions,
): Promise<Db> {
  const url = config.env.DATABASE_URL;
  const target: DbTarget = url
    ? { kind: 'postgres', url }
    : { kind: 'pglite', dataDir: config.dataDir };
  // A first start fills the empty data folder from the database prepared at install time.
  const template =
    target.kind === 'pglite'
      ? (await import('./storage/pglite-template.ts')).defaultTemplateDir()
      : undefined;
  const o = {
    logger,
    pgliteThread: opts.pgliteThread ?? opts.longLived === true,
    ...(template === undefined ? {} : { template }),
    ...(opts.onDbLost ? { onLost: opts.onDbLost } : {}),
    ...(opts.onDataFolder ? { onLocked: opts.onDataFolder } : {}),
  };
  const retryMs =
    opts.longLived === true && target.kind === 'postgres'
      ? config.app.database.start_retry_seconds * 1000
      : 0;
  return retryWithBackoff(() => openDb(target, o), {
    budgetMs: retryMs,
    retryable: (err) => err instanceof AppError && err.code === 'db_unavailable',
    logger,
    message: 'database not reachable; trying again',
    describe: (err) => (err as Error).message,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/**
 * Where the generated voter secret is kept: beside the PGlite data folder, not inside it (`./data/pg` →
 * `./data/zhujiu-voter-secret`), like `zhujiu.log` and the terminal's charts; the folder holds only the database.
 */
export function voterSecretFile(dataDir: string): string {
  return join(dirname(dataDir), 'zhujiu-voter-secret');
}

/** Where the terminal writes `/leaderboard` charts: beside the PGlite data folder (`./data/charts`). */
export function chartsDir(dataDir: string): string {
  return join(dirname(dataDir), 'charts');
}

/**
 * The server secret that turns platform user ids into voter ids. From `ZHUJIU_VOTER_SECRET`; in zero-setup mode
 * (PGlite, no variable) one is generated once and kept beside the data folder ({@link voterSecretFile}; one written
 * inside the data folder by an earlier version is still read from there).
 * @throws AppError env_invalid when a shared Postgres is used without the variable (processes must agree).
 */
export function resolveVoterSecret(config: LoadedConfig, logger: Logger): string {
  const fromEnv = config.env.ZHUJIU_VOTER_SECRET;
  if (fromEnv) return fromEnv;
  if (config.env.DATABASE_URL) {
    throw saidError('env_invalid', said('cli.start.voterSecret'));
  }
  const file = voterSecretFile(config.dataDir);
  // Earlier versions kept it inside the PGlite folder: read it there when present (voter ids must not change).
  const old = join(config.dataDir, 'zhujiu-voter-secret');
  if (!existsSync(file) && existsSync(old)) return readFileSync(old, 'utf8').trim();
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  makeDirsSync(dirname(file));
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  const generated = said('cli.start.voterSecretGenerated');
  logger.warn({ file, said: generated }, sayCli('en', generated));
  return secret;
}

/**
 * The live arena's models (`arena: true` in config/models.yaml, OpenAI-compatible endpoints) with their clients,
 * and the classifier model (`arena.ask.classifier_model`), for the bot's `/ask`. Clients load lazily (the openai
 * package is imported only when a live model is configured).
 * A live model or classifier whose API key variable is unset is left out (config/start-checks `disabledModels`).
 * @throws AppError `config_invalid` when `arena.ask.classifier_model` is not a configured OpenAI-compatible model.
 */
export async function openLiveArena(
  rt: Pick<Runtime, 'config' | 'logger' | 'db'>,
  metrics?: import('./core/metrics.ts').AppMetrics,
): Promise<{ models: LiveModel[]; classifier?: LlmClient } | undefined> {
  const configured = rt.config.models;
  const live = configured.filter((m) => m.provider === 'openai' && m.arena);
  const classifierName = rt.config.app.arena.ask.classifier_model;
  const classifierCfg =
    classifierName === null ? undefined : configured.find((m) => m.name === classifierName);
  const notCallable = namedModelProblem(rt.config, 'arena.ask.classifier_model');
  if (notCallable) throw saidError('config_invalid', notCallable);
  if (live.length === 0 && !classifierCfg) return undefined;
  const { openLlmClient } = await import('./llm/factory.ts');
  const deps = {
    db: rt.db.db,
    logger: rt.logger,
    apiKeyFor: rt.config.apiKeyFor,
    apiKeyEmpty: rt.config.apiKeyEmpty,
    metrics,
    entryIn: filesOf(rt.config).models,
  };
  // Models without their key are left out (logged at start by openRuntime): the rest of the arena works.
  const disabled = new Set(disabledModels(rt.config).map((d) => d.name));
  const models: LiveModel[] = [];
  for (const m of live) {
    if (disabled.has(m.name)) continue;
    const opened = await openLlmClient(m, deps);
    models.push({
      name: m.name,
      weight: m.provider === 'openai' ? m.arena_weight : 1,
      client: opened.client,
    });
  }
  if (classifierCfg && disabled.has(classifierCfg.name)) {
    const off = said('cli.start.classifierDisabled', { name: classifierCfg.name });
    rt.logger.warn({ model: classifierCfg.name, said: off }, sayCli('en', off));
  }
  const classifier =
    classifierCfg && !disabled.has(classifierCfg.name)
      ? (await openLlmClient(classifierCfg, deps)).client
      : undefined;
  rt.logger.info(
    { models: models.map((m) => m.name), classifier: classifier?.name ?? null },
    'live arena models',
  );
  return { models, ...(classifier ? { classifier } : {}) };
}

/** A running long-lived process (bot or worker). */
export interface Running {
  readonly httpPort: number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the health/metrics HTTP server when configured (port 0 in config disables it). `metricsRegistry`: the
 * registry the application metrics are on (http/metrics.ts), served with the process's default metrics.
 */
export async function startHttpFor(
  rt: Runtime,
  portOverride?: number,
  board?: HttpBoard,
  metricsRegistry?: import('prom-client').Registry,
): Promise<Running> {
  const port = portOverride ?? rt.config.app.http.port;
  if (port === 0 && portOverride === undefined)
    return { httpPort: undefined, stop: async () => {} };
  const [{ collectDefaultMetrics, Registry }, { createHttpApp, startHttp }] = await Promise.all([
    import('prom-client'),
    import('./http/server.ts'),
  ]);
  const registry = metricsRegistry ?? new Registry();
  collectDefaultMetrics({ register: registry });
  const app = createHttpApp({
    registry,
    checkDb: () => pingDb(rt.db.db),
    results: { db: rt.db.db },
    locale: rt.config.app.locale,
    ...(board ? { board } : {}),
  });
  const { server, port: bound } = await startHttp(app, port, rt.config.app.http.host);
  rt.logger.info(
    { url: `http://${rt.config.app.http.host}:${bound}/healthz` },
    'http server listening',
  );
  return {
    httpPort: bound,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The results page's access to the board (see http/server.ts). */
export interface HttpBoard {
  readonly latest: () => Promise<Snapshot | undefined>;
  readonly now: () => Date;
  readonly checkStale?: (s: Snapshot, locale: Locale) => Promise<string | undefined>;
  readonly startFirstBuild?: () => Promise<boolean>;
  readonly firstBuild?: () => Promise<Snapshot | undefined>;
  readonly models?: ReadonlyMap<string, ModelInfo>;
  readonly history?: (model: string) => Promise<readonly BoardHistoryPoint[]>;
}

/** Test and embedding overrides for {@link createChatPlatforms} (e.g. a fake's URL, injected terminal streams). */
export interface ChatPlatformOverrides {
  readonly discord?: Partial<DiscordAdapterOptions>;
  readonly slack?: Partial<SlackAdapterOptions>;
  readonly shell?: Partial<ShellAdapterOptions>;
  /** Force the terminal adapter even when tokens are set (false: never the terminal). */
  readonly shellEnabled?: boolean;
}

/**
 * Constructs the chat adapters the configuration asks for: Discord when `DISCORD_TOKEN` is set, Slack when
 * `SLACK_BOT_TOKEN` is set (Socket Mode with `SLACK_APP_TOKEN`, else the HTTP receiver with
 * `SLACK_SIGNING_SECRET` on `platforms.slack.port`), and the terminal when neither is (the zero-setup default).
 * Not started: the bot service starts them. Each adapter's module (and its SDK) is loaded only when it is used.
 */
export async function createChatPlatforms(
  config: LoadedConfig,
  logger: Logger,
  overrides: ChatPlatformOverrides = {},
): Promise<ChatPlatform[]> {
  const { env, app } = config;
  const out: ChatPlatform[] = [];
  if (env.DISCORD_TOKEN || overrides.discord?.token) {
    const { DiscordAdapter } = await import('./chat/discord/adapter.ts');
    out.push(
      new DiscordAdapter({
        token: env.DISCORD_TOKEN ?? '',
        ...(env.DISCORD_APPLICATION_ID ? { applicationId: env.DISCORD_APPLICATION_ID } : {}),
        ...(app.platforms.discord.guild_ids.length > 0
          ? { guildIds: app.platforms.discord.guild_ids }
          : {}),
        maintainerRoleIds: app.platforms.discord.maintainer_role_ids,
        locale: app.locale,
        voting: app.arena.voting.discord,
        ...(app.platforms.discord.api_url ? { restApi: app.platforms.discord.api_url } : {}),
        ...(app.platforms.discord.gateway_url
          ? { gatewayUrl: app.platforms.discord.gateway_url }
          : {}),
        logger,
        ...overrides.discord,
      }),
    );
  }
  if (env.SLACK_BOT_TOKEN || overrides.slack?.botToken) {
    const { SlackAdapter } = await import('./chat/slack/adapter.ts');
    const socket = app.platforms.slack.mode === 'socket' && env.SLACK_APP_TOKEN;
    out.push(
      new SlackAdapter({
        botToken: env.SLACK_BOT_TOKEN ?? '',
        ...(socket ? { appToken: env.SLACK_APP_TOKEN } : {}),
        ...(env.SLACK_SIGNING_SECRET ? { signingSecret: env.SLACK_SIGNING_SECRET } : {}),
        port: app.platforms.slack.port,
        host: app.platforms.slack.host,
        roleGroupIds: app.platforms.slack.maintainer_usergroup_ids,
        voting: app.arena.voting.slack,
        locale: app.locale,
        ...(app.platforms.slack.api_url ? { slackApiUrl: app.platforms.slack.api_url } : {}),
        logger,
        ...overrides.slack,
      }),
    );
  }
  const shell = overrides.shellEnabled ?? out.length === 0;
  if (shell) {
    const { ShellAdapter } = await import('./chat/shell/adapter.ts');
    const s = app.platforms.shell;
    out.push(
      new ShellAdapter({
        input: process.stdin,
        output: process.stdout,
        user: { id: s.user_id, name: s.user_name, maintainer: s.maintainer },
        voteEmoji: app.arena.emoji.shell,
        locale: app.locale,
        logger,
        sessionTag: systemClock.now().getTime().toString(36),
        prompt: process.stdin.isTTY === true,
        // `/leaderboard` charts are written here and the terminal prints the path.
        imageDir: chartsDir(config.dataDir),
        ...overrides.shell,
      }),
    );
  }
  return out;
}

/** The evaluation service of a process and its queue (`undefined` queue: foreground runs only). */
export interface EvalRuntime {
  readonly evals: import('./eval/service.ts').EvalService;
  readonly queue: import('./jobs/queue.ts').JobQueue | undefined;
  /** Stops the worker part and the queue. */
  stop(): Promise<void>;
}

/**
 * Builds the evaluation service: with a queue (pg-boss on `DATABASE_URL`, else the in-process queue) when this
 * process takes part in queued work (`bot`, `worker`), and makes it a worker when `worker` is true. openai and
 * pg-boss are loaded here, only by the commands that need them.
 */
export async function createEvalRuntime(
  rt: Runtime,
  o: {
    readonly queue: boolean;
    readonly worker: boolean;
    readonly metrics?: import('./core/metrics.ts').AppMetrics;
    /** A model's client made before the database opened (eval/requests-ahead; `zhujiu eval`). */
    readonly ahead?: import('./llm/factory.ts').ClientAhead | undefined;
  },
): Promise<EvalRuntime> {
  const { EvalService } = await import('./eval/service.ts');
  const ev = rt.config.app.eval;
  let queue: import('./jobs/queue.ts').JobQueue | undefined;
  if (o.queue) {
    const url = rt.config.env.DATABASE_URL;
    if (url) {
      const { PgBossQueue } = await import('./jobs/pg-boss.ts');
      queue = new PgBossQueue({
        connectionString: url,
        logger: rt.logger,
        expireInSeconds: ev.job_expire_seconds,
        maintenanceIntervalSeconds: ev.maintenance_seconds,
        pollingIntervalSeconds: 1,
        queues: [EVAL_RUN_QUEUE],
      });
    } else {
      const { InProcessQueue } = await import('./jobs/in-process.ts');
      queue = new InProcessQueue({ logger: rt.logger });
    }
    try {
      await queue.start();
    } catch (err) {
      // Whatever it opened before failing (pg-boss's pool) is closed, so a start tried again leaks nothing.
      await queue.stop().catch(() => undefined);
      throw err;
    }
  }
  const evals = new EvalService({
    db: rt.db.db,
    logger: rt.logger,
    config: rt.config,
    judge: { model: rt.config.app.judge.model, configDir: rt.config.configDir },
    ...(queue ? { queue } : {}),
    leaseMs: ev.lease_seconds * 1000,
    maxPromptChars: ev.max_prompt_chars,
    jobExpireInSeconds: ev.job_expire_seconds,
    exclusiveDb: queue?.kind === 'in-process',
    ...(o.metrics ? { metrics: o.metrics } : {}),
    ...(o.ahead ? { ahead: o.ahead } : {}),
  });
  if (o.worker)
    await evals.startWorker().catch(async (err: unknown) => {
      await queue?.stop().catch(() => undefined);
      throw err;
    });
  return {
    evals,
    queue,
    stop: async () => {
      await evals.stopWorker();
      await queue?.stop();
    },
  };
}
