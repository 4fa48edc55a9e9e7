/**
 * @module eval/service
 * Evaluation runs as a service for the bot, the CLI and workers: validates model and suite names (listing the
 * valid ones), creates a run (one active run per model + suite), queues it, executes queued runs in workers, and
 * re-sends runs nobody works on (a worker was killed, a job was lost): every `leaseMs` each worker sweeps for
 * active runs whose heartbeat is stale and queues them again. Duplicated jobs are harmless (items are claimed).
 */
import type { Kysely } from 'kysely';
import { type ConfigFiles, filesOf } from '../config/files.ts';
import type { LoadedConfig } from '../config/loader.ts';
import type { ModelConfig, SuiteConfig } from '../config/schema.ts';
import { type DisabledModel, disabledModels } from '../config/start-checks.ts';
import { isAppError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { AppMetrics } from '../core/metrics.ts';
import { said, saidError } from '../i18n/cli.ts';
import { t } from '../i18n/index.ts';
import { EVAL_RUN_QUEUE, type JobQueue } from '../jobs/queue.ts';
import { type ClientAhead, type OpenedClient, openLlmClient } from '../llm/factory.ts';
import type { LlmClient } from '../llm/types.ts';
import {
  abandonRun,
  cancelRun,
  createRun,
  getRun,
  hasActiveRun,
  isRunUnattended,
  joinableRuns,
  listRuns,
  type RunRow,
  staleActiveRuns,
} from '../storage/eval-runs.ts';
import { storedItemsOf } from '../storage/items.ts';
import { ensureModels, listModels } from '../storage/models.ts';
import type { Database } from '../storage/schema.ts';
import { approvedSubmission, approvedSubmissions } from '../storage/submissions.ts';
import { byCloseness } from '../text/edit-distance.ts';
import { loadRubric } from './judge/rubrics.ts';
import { prepareSuiteDatasets } from './prepare-suite.ts';
import {
  cancelledText,
  type EvalRefusal,
  EvalRefusalError,
  type EvalSurface,
  evalRefusalsText,
  evalRefusalText,
} from './refusal.ts';
import {
  type ExecuteOptions,
  type ExecuteOutcome,
  executeRun,
  type RunJudge,
  type RunnerDeps,
} from './runner.ts';
import { submissionModelConfig } from './submissions.ts';
import type { PreparedDataset } from './types.ts';

/** The part of the configuration the service reads. */
export type EvalConfig = Pick<
  LoadedConfig,
  | 'models'
  | 'suites'
  | 'datasetsDir'
  | 'datasetsCacheDir'
  | 'datasetRoots'
  | 'apiKeyFor'
  | 'apiKeyEmpty'
  | 'keyVariable'
  | 'files'
>;

/**
 * Default of {@link EvalServiceOptions.joinEveryMs}: a worker with room finds a run another worker started within a
 * quarter of a second on average (every 2 s before: a second, while the run's first worker worked alone;
 * bench/workers.ts). One query per tick, on the partial index of unfinished run items (migration 0003).
 */
export const JOIN_EVERY_MS = 500;

/** Options of {@link EvalService}. */
export interface EvalServiceOptions {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  readonly config: EvalConfig;
  /** The queue runs go to (absent: runs are only executed in the foreground, e.g. `zhujiu eval`). */
  readonly queue?: JobQueue;
  /** Item lease, ms (default 60,000); also the staleness after which a run is re-sent. */
  readonly leaseMs?: number;
  /** Longest prompt sent for a dataset item, characters (`eval.max_prompt_chars`; eval/runner). */
  readonly maxPromptChars?: number;
  /** Overrides for tests and benches. */
  readonly openModel?: (name: string) => Promise<OpenedClient>;
  readonly prepareSuite?: (name: string) => Promise<readonly PreparedDataset[]>;
  /** Expiry of a run's job, s (pg-boss; default the queue's). */
  readonly jobExpireInSeconds?: number;
  /**
   * True when this process holds the database alone (the embedded PGlite folder, locked to one process). The runs
   * and claims a stopped process left there are taken back when the runtime opens the folder (main.ts
   * `openRuntime`, storage/eval-runs `takeBackLeftRuns`), before anything runs, not by the service.
   */
  readonly exclusiveDb?: boolean;
  /**
   * The judge of scoring datasets: `model` is `judge.model` of config/default.yaml (null: runs of suites with
   * scoring datasets are refused), `configDir` holds `rubrics/`.
   */
  readonly judge?: {
    readonly model: string | null;
    readonly configDir: string;
    readonly maxAttempts?: number;
  };
  /** Overrides the judge's client (tests). */
  readonly openJudge?: () => Promise<LlmClient>;
  /** Where items by outcome and model calls are counted (default nowhere). */
  readonly metrics?: AppMetrics;
  /**
   * How often a worker looks for active runs with items nobody has claimed, to join them, ms (default
   * {@link JOIN_EVERY_MS}; 0: never). Only on a shared database (not {@link exclusiveDb}): there other workers may be
   * working a large run alone.
   */
  readonly joinEveryMs?: number;
  /** The most runs a worker works at once, its queued job's included (default 2). */
  readonly maxRunsAtOnce?: number;
  /**
   * A model's client made before the database opened, with its run's first requests sent ahead
   * (eval/requests-ahead): {@link EvalService.openModel} uses it for that model's configuration entry.
   */
  readonly ahead?: ClientAhead | undefined;
}

/** A request to start a run. */
export interface StartRequest {
  readonly model: string;
  readonly suite: string;
  readonly limit?: number | undefined;
  readonly requestedBy?: string | undefined;
  readonly report?: { readonly platform: string; readonly channelId: string } | undefined;
  /** Where the request came from, so the English `reason` of a refusal gives that surface's fix (default `chat`). */
  readonly surface?: EvalSurface | undefined;
  /**
   * The suite's datasets as the caller started preparing them from the files ({@link prepareSuiteDatasets} without
   * stored items, e.g. while the database opened: cli/eval), used in place of preparing them again unless the model
   * is a recorded one (whose datasets may come from stored items) or the service has a `prepareSuite` override.
   * Its rejection is what the preparation here would have thrown.
   */
  readonly prepared?: Promise<readonly PreparedDataset[]> | undefined;
}

/**
 * The refusal of a configured suite with no dataset that eval can load (only stored items: comparative prompts such
 * as AlpacaEval's, answered by imported outputs), which is run in the arena instead (docs/scoring.md: comparative
 * datasets are scored by arena votes, not by metrics).
 */
function notEvaluable(suite: SuiteConfig, runnable: readonly string[]): EvalRefusal {
  return {
    code: 'suite_not_evaluable',
    suite: suite.name,
    datasets: suite.datasets.map((d) => ({ name: d.name, method: d.method })),
    description: suite.description,
    runnable,
  };
}

/** A refused request: its refusals, and their English text with the fix in the form of `surface`. */
type Refused = { ok: false; refusals: readonly EvalRefusal[]; reason: string };

/** {@link Refused} of `refusals`. */
function refused(
  refusals: readonly EvalRefusal[],
  surface: EvalSurface,
  files?: ConfigFiles,
): Refused {
  const named = files ? refusals.map((r) => ({ ...r, configFiles: files })) : refusals;
  return { ok: false, refusals: named, reason: evalRefusalsText(named, 'en', surface) };
}

/**
 * Why a run of `suite` cannot start for its judge under `config`, or undefined (also when the suite has no scoring
 * dataset): no `judge.model` (`judge_missing`); unless the judge is given otherwise (`judgeGiven`, tests), a
 * `judge.model` that names no configured OpenAI-compatible model (`judge_not_openai`) or one whose key variable is
 * unset or empty (`judge_disabled`). Pure: the configuration alone answers it.
 */
export function judgeRefusal(
  config: EvalConfig,
  suite: string,
  judgeName: string | null | undefined,
  judgeGiven: boolean,
): EvalRefusal | undefined {
  const scoring = config.suites.get(suite)?.datasets.some((d) => d.method === 'scoring') ?? false;
  if (!scoring) return undefined;
  if (!judgeName) return { code: 'judge_missing', suite };
  if (judgeGiven) return undefined;
  // A judge.model that names no configured model would fail the run at its start: refuse before creating it.
  if (!config.models.some((m) => m.name === judgeName && m.provider === 'openai'))
    return { code: 'judge_not_openai', suite, judge: judgeName };
  const off = disabledModels(config).find((d) => d.name === judgeName);
  return off
    ? { code: 'judge_disabled', suite, judge: off.name, variable: off.variable, empty: off.empty }
    : undefined;
}

/** The refusal of a run whose model is disabled (its key variable is unset or empty). */
function disabledRefusal(d: DisabledModel): EvalRefusal {
  return { code: 'model_disabled', model: d.name, variable: d.variable, empty: d.empty };
}

/** The result of {@link EvalService.start}. */
export type StartResult =
  | {
      readonly ok: true;
      readonly run: RunRow;
      /** True when `run` is an unfinished run nobody worked on (its process stopped), resumed instead of a new one. */
      readonly resumed?: boolean;
    }
  | {
      readonly ok: false;
      /** Why (one or more: an unknown model and an unknown suite), for eval/refusal.ts to say in a language. */
      readonly refusals: readonly EvalRefusal[];
      /** The refusals in English, with the fix in the form of the request's surface (logs, the command line). */
      readonly reason: string;
      readonly active?: RunRow;
    };

/** The evaluation service. */
export class EvalService {
  readonly #o: EvalServiceOptions;
  readonly #log: Logger;
  #sweepTimer: NodeJS.Timeout | undefined;
  #joinTimer: NodeJS.Timeout | undefined;
  #joinStop: AbortController | undefined;
  /** Runs this process works now (queued jobs and joined runs). */
  readonly #runs = new Set<number>();
  /** Joined runs in progress. */
  readonly #joined = new Set<Promise<void>>();
  #working = false;
  /** The datasets {@link start} prepared for the latest run it created, until executed here ({@link #hold}). */
  #held:
    | {
        readonly runId: number;
        readonly datasets: readonly PreparedDataset[];
        readonly timer: NodeJS.Timeout;
      }
    | undefined;

  constructor(o: EvalServiceOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'eval' });
  }

  /** Item lease, ms. */
  get leaseMs(): number {
    return this.#o.leaseMs ?? 60_000;
  }

  /** The names of config/models.yaml. */
  configuredModelNames(): string[] {
    return this.#o.config.models.map((m) => m.name);
  }

  /** LoadedConfig.keyVariable: the key an environment variable holds here (undefined: unset or empty). */
  keyVariable(variable: string): { readonly value: string | undefined; readonly empty: boolean } {
    return this.#o.config.keyVariable?.(variable) ?? { value: undefined, empty: false };
  }

  /** Suites that have at least one dataset with a loader (metrics datasets), by name. */
  suiteNames(): string[] {
    return [...this.#o.config.suites.values()]
      .filter((s) => s.datasets.some((d) => d.loader !== undefined))
      .map((s) => s.name)
      .sort();
  }

  /**
   * Models that can be evaluated: configured ones, approved submissions (eval/submissions.ts), and models with
   * recorded (imported) answers.
   */
  async modelNames(): Promise<string[]> {
    const names = new Set(this.#o.config.models.map((m) => m.name));
    for (const s of await approvedSubmissions(this.#o.db)) names.add(s.name);
    for (const m of await listModels(this.#o.db)) if (m.provider === 'recorded') names.add(m.name);
    return [...names].sort();
  }

  /**
   * The configuration of a model: configured (config/models.yaml wins), an approved submission's endpoint from the
   * database (`submitted`), or recorded when the database has its imported answers.
   */
  async #modelConfig(name: string): Promise<(ModelConfig & { submitted?: true }) | undefined> {
    const configured = this.#o.config.models.find((m) => m.name === name);
    if (configured) return configured;
    const submitted = await approvedSubmission(this.#o.db, name);
    if (submitted) return { ...submissionModelConfig(submitted), submitted: true };
    const stored = await listModels(this.#o.db);
    return stored.some((m) => m.name === name && m.provider === 'recorded')
      ? { name, provider: 'recorded' }
      : undefined;
  }

  /** Checks a model and a suite name; the refusals list the valid names (closest first). */
  async validate(model: string, suite: string): Promise<{ ok: true } | Refused> {
    const problems: EvalRefusal[] = [];
    const stored = this.#o.config.suites.get(suite);
    if (stored && !this.suiteNames().includes(suite)) {
      problems.push(notEvaluable(stored, this.suiteNames()));
    } else if (!stored) {
      // Every suite of config/suites/ (the ones `zhujiu config check` counts), not only those a run can ask: a name
      // close to `alpaca-eval` is suggested as it, whose own refusal then says how its answers come in.
      problems.push({
        code: 'unknown_suite',
        suite,
        valid: byCloseness(suite, [...this.#o.config.suites.keys()].sort()),
      });
    }
    if ((await this.#modelConfig(model)) === undefined)
      problems.push({
        code: 'unknown_model',
        model,
        valid: byCloseness(model, await this.modelNames()),
      });
    return problems.length === 0
      ? { ok: true }
      : refused(problems, 'chat', filesOf(this.#o.config));
  }

  /** Opens a model's client (throws AppError not_found / config_invalid). */
  async openModel(name: string): Promise<OpenedClient> {
    if (this.#o.openModel) return this.#o.openModel(name);
    const cfg = await this.#modelConfig(name);
    if (!cfg) {
      const names = await this.modelNames();
      throw new EvalRefusalError('not_found', {
        code: 'unknown_model',
        model: name,
        valid: byCloseness(name, names),
        configFiles: filesOf(this.#o.config),
      });
    }
    const { apiKeyFor, apiKeyEmpty } = this.#keysOf(cfg);
    return openLlmClient(cfg, {
      db: this.#o.db,
      logger: this.#o.logger,
      apiKeyFor,
      apiKeyEmpty,
      metrics: this.#o.metrics,
      ahead: this.#o.ahead,
      // An approved submission's endpoint is kept in the database, not in models.yaml.
      entryIn: cfg.submitted ? t('en', 'modelKey.submission') : filesOf(this.#o.config).models,
    });
  }

  /**
   * Where a model's key comes from: config/models.yaml's `api_key_env` (LoadedConfig.apiKeyFor), or for an approved
   * submission the variable named at approval (LoadedConfig.keyVariable).
   */
  #keysOf(cfg: ModelConfig & { submitted?: true }): {
    apiKeyFor: (name: string) => string | undefined;
    apiKeyEmpty: (name: string) => boolean;
  } {
    const c = this.#o.config;
    const variable = cfg.provider === 'openai' && cfg.submitted ? cfg.api_key_env : undefined;
    if (variable === undefined)
      return { apiKeyFor: c.apiKeyFor, apiKeyEmpty: (n) => c.apiKeyEmpty?.(n) ?? false };
    const k = c.keyVariable?.(variable) ?? { value: undefined, empty: false };
    return { apiKeyFor: () => k.value, apiKeyEmpty: () => k.empty };
  }

  /** Why an approved submission's key cannot be read here (its `api_key_env` is unset or empty), or undefined. */
  #submittedKeyProblem(cfg: ModelConfig & { submitted?: true }): EvalRefusal | undefined {
    if (!cfg.submitted || cfg.provider !== 'openai' || !cfg.api_key_env) return undefined;
    if (this.#keysOf(cfg).apiKeyFor(cfg.name) !== undefined) return undefined;
    return { code: 'submission_key_unset', model: cfg.name, variable: cfg.api_key_env };
  }

  /**
   * Prepares a suite's datasets from their files. For a recorded model (`o.recorded`), a zero-shot dataset of every
   * item whose files are missing is prepared from the items already stored under its name (an imported GAOKAO-Bench
   * result folder stores the `gaokao-objective` items): such a run needs no dataset files.
   * @throws AppError not_found / dataset_invalid (missing files: an eval/refusal `EvalRefusalError`, `files_missing`) /
   *   config_invalid.
   */
  async prepareSuite(
    name: string,
    o: { readonly recorded?: boolean } = {},
  ): Promise<readonly PreparedDataset[]> {
    if (this.#o.prepareSuite) return this.#o.prepareSuite(name);
    const db = this.#o.db;
    return prepareSuiteDatasets(
      this.#o.config,
      name,
      o.recorded === true ? (dataset) => storedItemsOf(db, dataset) : undefined,
    );
  }

  /** The judge of scoring datasets, when `judge.model` is set. */
  #runJudge(): RunJudge | undefined {
    const j = this.#o.judge;
    if (!j?.model) return undefined;
    const judgeModel = j.model;
    const config = this.#o.config;
    return {
      open: async () => {
        if (this.#o.openJudge) return this.#o.openJudge();
        const cfg = config.models.find((m) => m.name === judgeModel);
        if (!cfg) {
          throw saidError(
            'config_invalid',
            said('cli.eval.judgeNotConfigured', {
              judge: judgeModel,
              default: filesOf(config).default,
              models: filesOf(config).models,
            }),
          );
        }
        return (
          await openLlmClient(cfg, {
            db: this.#o.db,
            logger: this.#o.logger,
            apiKeyFor: config.apiKeyFor,
            apiKeyEmpty: config.apiKeyEmpty,
            metrics: this.#o.metrics,
            entryIn: filesOf(config).models,
          })
        ).client;
      },
      rubrics: (suite, dataset) => {
        const entry = config.suites.get(suite)?.datasets.find((d) => d.name === dataset);
        return {
          rubric: loadRubric(j.configDir, entry?.rubric ?? 'ten_point'),
          ...(entry?.safety_check ? { safety: loadRubric(j.configDir, 'safety_violation') } : {}),
        };
      },
      ...(j.maxAttempts !== undefined ? { maxAttempts: j.maxAttempts } : {}),
    };
  }

  /** The runner's dependencies. */
  runnerDeps(): RunnerDeps {
    const judge = this.#runJudge();
    return {
      db: this.#o.db,
      logger: this.#o.logger,
      openModel: (n) => this.openModel(n),
      prepareSuite: (n, o) => this.prepareSuite(n, o),
      leaseMs: this.leaseMs,
      ...(this.#o.maxPromptChars !== undefined ? { maxPromptChars: this.#o.maxPromptChars } : {}),
      ...(judge ? { judge } : {}),
      ...(this.#o.metrics ? { metrics: this.#o.metrics } : {}),
    };
  }

  /**
   * Why a run of `req` cannot start for its names or its model: an unknown model or suite ({@link validate}), or a
   * model whose API key variable is unset (config/models.yaml's, or an approved submission's); undefined when none.
   */
  async #modelRefusal(req: StartRequest, surface: EvalSurface): Promise<Refused | undefined> {
    const valid = await this.validate(req.model, req.suite);
    if (!valid.ok) return refused(valid.refusals, surface, filesOf(this.#o.config));
    // A model (or the judge) whose API key variable is unset cannot be called: refuse before creating a run.
    const off = disabledModels(this.#o.config).find((d) => d.name === req.model);
    if (off) return refused([disabledRefusal(off)], surface, filesOf(this.#o.config));
    const cfg = await this.#modelConfig(req.model);
    const keyProblem = cfg ? this.#submittedKeyProblem(cfg) : undefined;
    return keyProblem ? refused([keyProblem], surface, filesOf(this.#o.config)) : undefined;
  }

  /**
   * Creates a run (after validating the names) and queues it when a queue is configured. When the model already
   * has an active run of the suite: resumes it (queues it again, `resumed: true`) if nobody works on it
   * ({@link isUnattended}), else refuses, naming it.
   */
  async start(req: StartRequest): Promise<StartResult> {
    // Awaited only where used (#prepareForStart); a refusal before that leaves its failure nobody's concern.
    req.prepared?.catch(() => undefined);
    const surface = req.surface ?? 'chat';
    const refusal = await this.#modelRefusal(req, surface);
    if (refusal) return refusal;
    const judging = judgeRefusal(
      this.#o.config,
      req.suite,
      this.#o.judge?.model,
      this.#o.openJudge !== undefined,
    );
    if (judging) return refused([judging], surface, filesOf(this.#o.config));
    const cfg = (await this.#modelConfig(req.model)) as ModelConfig;
    const pre = await this.#prepareForStart(req, cfg);
    if (!pre.ok) return refused(pre.refusals, surface, filesOf(this.#o.config));
    const ids = await ensureModels(this.#o.db, [cfg.name], cfg.provider);
    const created = await createRun(this.#o.db, {
      modelId: ids.get(cfg.name) as number,
      suite: req.suite,
      itemLimit: req.limit,
      requestedBy: req.requestedBy,
      reportPlatform: req.report?.platform,
      reportChannel: req.report?.channelId,
    });
    if (!created.created) {
      const a = created.active;
      if (await this.isUnattended(a.id)) {
        // Left by a process that stopped (Ctrl-C, SIGTERM, or killed a lease ago): resume it rather than refuse.
        // It is a run of the same suite, so the datasets just prepared serve it as they would a new one.
        if (pre.prepared) this.#hold(a.id, pre.prepared);
        await this.enqueue(a.id);
        this.#log.info(
          { runId: a.id, model: req.model, suite: req.suite },
          'evaluation run resumed',
        );
        return { ok: true, run: a, resumed: true };
      }
      return {
        ...refused([{ code: 'run_active', run: a }], surface, filesOf(this.#o.config)),
        active: a,
      };
    }
    if (pre.prepared) this.#hold(created.run.id, pre.prepared);
    await this.enqueue(created.run.id);
    this.#log.info(
      { runId: created.run.id, model: req.model, suite: req.suite },
      'evaluation run created',
    );
    return { ok: true, run: created.run };
  }

  /**
   * A suite that cannot be prepared (missing files, bad rows, a checksum mismatch) would fail a new run at its
   * start: it is prepared here, and the run refused before it is created, with the preparation's message (missing
   * files: the files, the datasets folder and the fix). Not when the model already has an active run of the suite
   * (start answers that as usual: already running, or resumed; datasets the caller prepared early are still handed
   * back for a resume when their preparation succeeded), nor with a `prepareSuite` override.
   * @returns the prepared datasets (none when not prepared), or the refusal.
   */
  async #prepareForStart(
    req: StartRequest,
    cfg: ModelConfig,
  ): Promise<
    | { ok: true; prepared?: readonly PreparedDataset[] }
    | { ok: false; refusals: readonly EvalRefusal[] }
  > {
    if (this.#o.prepareSuite) return { ok: true };
    const active = await hasActiveRun(this.#o.db, req.model, req.suite);
    if (active) {
      // A resume is not refused for its files; datasets the caller prepared early serve it when they succeeded.
      const early =
        req.prepared && cfg.provider !== 'recorded'
          ? await req.prepared.catch(() => undefined)
          : undefined;
      return early ? { ok: true, prepared: early } : { ok: true };
    }
    try {
      return {
        ok: true,
        prepared: await (req.prepared && cfg.provider !== 'recorded'
          ? req.prepared
          : this.prepareSuite(req.suite, { recorded: cfg.provider === 'recorded' })),
      };
    } catch (err) {
      if (err instanceof EvalRefusalError) return { ok: false, refusals: [err.refusal] };
      if (!isAppError(err)) throw err;
      return {
        ok: false,
        refusals: [
          {
            code: 'suite_unprepared',
            message: err.message,
            ...(err.said ? { said: err.said } : {}),
          },
        ],
      };
    }
  }

  /**
   * Keeps the datasets {@link start} prepared for run `runId`, so that executing it in this process does not
   * prepare the suite a second time (reading and parsing every file, deriving the robustness sets again). Kept only
   * when the run may be executed here (no queue: the caller executes it, as `zhujiu eval` does; or this process
   * works the queue), for at most one run (the latest started) and at most a lease: a run executed elsewhere, later,
   * or again prepares its suite itself.
   */
  #hold(runId: number, datasets: readonly PreparedDataset[]): void {
    if (this.#o.queue && !this.#working) return;
    clearTimeout(this.#held?.timer);
    const timer = setTimeout(() => {
      if (this.#held?.runId === runId) this.#held = undefined;
    }, this.leaseMs);
    timer.unref?.();
    this.#held = { runId, datasets, timer };
  }

  /** The datasets held for run `runId` by {@link start}, handed out once; undefined when none are held. */
  #takeHeld(runId: number): readonly PreparedDataset[] | undefined {
    const held = this.#held;
    if (held?.runId !== runId) return undefined;
    clearTimeout(held.timer);
    this.#held = undefined;
    return held.datasets;
  }

  /** Queues a run (no-op without a queue). */
  async enqueue(runId: number): Promise<void> {
    await this.#o.queue?.send(
      EVAL_RUN_QUEUE,
      { runId },
      this.#o.jobExpireInSeconds !== undefined
        ? { expireInSeconds: this.#o.jobExpireInSeconds }
        : {},
    );
  }

  /**
   * Executes a run in this process (the CLI's foreground run; workers do the same per job), with the datasets
   * {@link start} prepared for it when it holds them ({@link #hold}), else preparing its suite.
   */
  execute(runId: number, opts: ExecuteOptions = {}): Promise<ExecuteOutcome> {
    const deps = this.runnerDeps();
    const held = this.#takeHeld(runId);
    return executeRun(held ? { ...deps, prepareSuite: async () => held } : deps, runId, opts);
  }

  /**
   * True when active run `runId` is nobody's: its last worker left it cleanly (Ctrl-C, SIGTERM), or was killed and
   * its heartbeat is older than a lease, or it never started within a lease. Such a run may be resumed at once.
   */
  isUnattended(runId: number): Promise<boolean> {
    return isRunUnattended(this.#o.db, runId, this.leaseMs);
  }

  /**
   * Gives run `runId` up after an unexpected error in the process that took it for itself (`zhujiu eval`, or a
   * worker's job whose execution threw): it becomes nobody's at once (storage/eval-runs `abandonRun`), as after
   * Ctrl-C, so a retried job or the same command resumes it instead of refusing it as "running in another
   * process" for a lease.
   */
  async release(runId: number): Promise<void> {
    await abandonRun(this.#o.db, runId);
    this.#log.info({ runId }, 'evaluation run given up after an error: left to resume');
  }

  /** Active runs and the latest finished ones. */
  status(limit = 10): Promise<RunRow[]> {
    return listRuns(this.#o.db, { limit });
  }

  /** One run. */
  get(runId: number): Promise<RunRow | undefined> {
    return getRun(this.#o.db, runId);
  }

  /**
   * Cancels an active run; workers notice at their next heartbeat and stop asking.
   * @returns the run as it was when cancelled, or why not (no such run, no longer active).
   */
  async cancel(
    runId: number,
  ): Promise<
    { ok: true; run: RunRow; reason: string } | { ok: false; refusal: EvalRefusal; reason: string }
  > {
    const run = await getRun(this.#o.db, runId);
    const no = (refusal: EvalRefusal) =>
      ({ ok: false, refusal, reason: evalRefusalText(refusal, 'en', 'chat') }) as const;
    if (!run) return no({ code: 'no_run', run: runId });
    if (!(await cancelRun(this.#o.db, runId)))
      return no({ code: 'run_finished', run: runId, status: run.status });
    this.#log.info({ runId }, 'evaluation run cancelled');
    return { ok: true, run, reason: cancelledText(run, 'en') };
  }

  /** Re-queues active runs nobody works on. @returns their ids. */
  async sweep(): Promise<number[]> {
    const stale = await staleActiveRuns(this.#o.db, this.leaseMs);
    for (const id of stale) await this.enqueue(id);
    if (stale.length > 0) this.#log.info({ runs: stale }, 're-queued runs nobody works on');
    return stale;
  }

  /**
   * Makes this process a worker of evaluation runs: takes jobs from the queue, sweeps every `leaseMs`, and on a
   * shared database joins active runs that have items nobody has claimed whenever it works fewer than
   * `maxRunsAtOnce` runs (every `joinEveryMs`): a run's items are claimed under leases (storage/eval-runs
   * `claimRunItems`), so a large run is spread over every worker with room, not worked by the one that took its job.
   */
  async startWorker(): Promise<void> {
    const queue = this.#o.queue;
    if (!queue || this.#working) return;
    this.#working = true;
    this.#joinStop = new AbortController();
    await queue.work(EVAL_RUN_QUEUE, async (data, signal) => {
      const runId = Number(data.runId);
      if (!Number.isInteger(runId)) return;
      // Already worked here (joined, or a duplicate job): this process claims its items there.
      if (this.#runs.has(runId)) return;
      let outcome: ExecuteOutcome;
      this.#runs.add(runId);
      try {
        outcome = await this.execute(runId, { signal });
      } catch (err) {
        // The run becomes nobody's at once (as after Ctrl-C), so a retried job, the next sweep or the same
        // `zhujiu eval` continues it without waiting for a lease; the queue logs the failed attempt with its cause.
        await this.release(runId).catch((e: unknown) =>
          this.#log.error({ err: e, runId }, 'releasing the run failed'),
        );
        throw err;
      } finally {
        this.#runs.delete(runId);
      }
      this.#log.info({ runId, outcome }, 'run job done');
    });
    // On the embedded database the runs a stopped process left are already nobody's (main.ts takes them back when
    // it opens the folder), so this first sweep re-sends them at once.
    await this.sweep().catch((err) => this.#log.error({ err }, 'sweep failed'));
    this.#sweepTimer = setInterval(() => {
      void this.sweep().catch((err) => this.#log.error({ err }, 'sweep failed'));
    }, this.leaseMs);
    this.#sweepTimer.unref?.();
    const joinEvery = this.#o.joinEveryMs ?? JOIN_EVERY_MS;
    if (this.#o.exclusiveDb !== true && joinEvery > 0) {
      this.#joinTimer = setInterval(() => void this.joinRuns(), joinEvery);
      this.#joinTimer.unref?.();
    }
  }

  /**
   * Joins active runs with items nobody has claimed, while this worker works fewer than `maxRunsAtOnce` runs; each
   * is worked here beside the workers already on it until no item is left to claim. Errors are logged.
   * @returns the ids of the runs joined by this call.
   */
  async joinRuns(): Promise<number[]> {
    this.#joinStop ??= new AbortController();
    const stop = this.#joinStop;
    if (stop.signal.aborted) return [];
    const room = () => (this.#o.maxRunsAtOnce ?? 2) - this.#runs.size;
    if (room() <= 0) return [];
    let ids: number[];
    try {
      ids = (await joinableRuns(this.#o.db, 10)).filter((id) => !this.#runs.has(id));
    } catch (err) {
      this.#log.error({ err }, 'looking for runs to join failed');
      return [];
    }
    // Counted again: a job, or an earlier call whose look-up answered first, may have taken a run meanwhile.
    const joined = ids.slice(0, Math.max(0, room()));
    for (const runId of joined) {
      this.#runs.add(runId);
      const p = this.execute(runId, { signal: stop.signal })
        .then((outcome) => this.#log.info({ runId, outcome }, 'joined run: no item left to claim'))
        .catch((err: unknown) => this.#log.error({ err, runId }, 'working a joined run failed'))
        .finally(() => {
          this.#runs.delete(runId);
          this.#joined.delete(p);
        });
      this.#joined.add(p);
      this.#log.info({ runId }, 'joined an active run with unclaimed items');
    }
    return joined;
  }

  /** Stops sweeping and joining; resolves when the joined runs are left (the queue is stopped by its owner). */
  async stopWorker(): Promise<void> {
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    if (this.#joinTimer) clearInterval(this.#joinTimer);
    this.#sweepTimer = undefined;
    this.#joinTimer = undefined;
    this.#joinStop?.abort();
    this.#working = false;
    await Promise.allSettled([...this.#joined]);
  }
}
