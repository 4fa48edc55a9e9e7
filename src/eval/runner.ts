/**
 * @module eval/runner
 * Executes an evaluation run: plans its items, asks the model for every item not yet finished (a cache hit makes no
 * call), scores each answer with its dataset's metric and writes the result as soon as it finishes. Resumable and
 * shareable: items are claimed with leases in the database (storage/eval-runs), so any number of workers can run
 * the same run, a duplicate or late worker writes nothing, and a killed worker's items are taken over when their
 * lease runs out. Memory holds the prepared datasets and an item-id index, never the answers or the results.
 *
 * Scores: a dataset's score on the ten-point scale is 10 × Σ earned / Σ possible over its scored items
 * (docs/scoring.md §2); items that failed (no answer: endpoint errors after retries, no recorded answer) are not
 * scored and are reported as failures.
 *
 * Scoring datasets (`method: scoring`, docs/scoring.md §3): after the answer is stored, the configured judge
 * (`judge.model`) grades it with the dataset's rubric, plus the separate safety-violation check where the suite asks
 * for it, through {@link judgeAnswers} (bounded retries; the grade is stored in `judge_scores`, as `zhujiu judge run`
 * stores it). The item's run score is the adjusted grade (0 for a safety violation); a judge failure is an item
 * failure (`judge_<code>`), never a 0.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Kysely } from 'kysely';
import { levelOf } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { AppMetrics } from '../core/metrics.ts';
import { packageVersion } from '../core/version.ts';
import type { OpenedClient } from '../llm/factory.ts';
import { REQUEST_HASH_VERSION } from '../llm/request-hash.ts';
import type { CompletionRequest, LlmClient } from '../llm/types.ts';
import {
  finishRun,
  finishRunItems,
  getRun,
  leaveRun,
  type RunCounts,
  type RunRow,
  releaseClaims,
  runCounts,
  startRun,
  storeProgress,
} from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';
import type { Rubric } from './judge/rubrics.ts';
import { runLanes } from './lane-pool.ts';
import { EvalRefusalError } from './refusal.ts';
import { allFailedError } from './run-error.ts';
import { type DatasetRubrics, type ItemContext, runJudge, workItem } from './run-item.ts';
import { afterPlan, RunLease, runLeaseStore } from './run-lease.ts';
import {
  limited,
  type PlannedEntry,
  type RunIndex,
  type StagedPlan,
  startPlan,
} from './run-plan.ts';
import { ResultWriter } from './run-results.ts';
import { startErrorTexts } from './start-error.ts';
import type { PreparedDataset } from './types.ts';

/** The judge of scoring datasets (docs/scoring.md §3). */
export interface RunJudge {
  /** Opens the judge model's client (called once per execution that has scoring items). */
  open(): Promise<LlmClient>;
  /** The rubric of a scoring dataset of a suite, and the safety-violation rubric when it asks for the check. */
  rubrics(suite: string, dataset: string): { rubric: Rubric; safety?: Rubric };
  /** Attempts per item before a judge failure (default 3). */
  readonly maxAttempts?: number;
}

/** Default of {@link RunnerDeps.maxPromptChars} (config `eval.max_prompt_chars`). */
export const DEFAULT_MAX_PROMPT_CHARS = 100_000;

/** What the runner needs. */
export interface RunnerDeps {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  /** Opens the client of a model by name (configured, or recorded in the database). */
  openModel(name: string): Promise<OpenedClient>;
  /** Prepares the datasets of a suite by name. */
  /** `recorded`: the run's model is a recorded one (its datasets may come from stored items, eval/service). */
  prepareSuite(
    name: string,
    o?: { readonly recorded?: boolean },
  ): Promise<readonly PreparedDataset[]>;
  /** Lease of a claimed item, ms (default 60,000); renewed every third of it while the worker lives. */
  readonly leaseMs?: number;
  /**
   * Longest prompt built from a dataset item, in characters (UTF-16 code units) over all its messages
   * (`eval.max_prompt_chars`, default {@link DEFAULT_MAX_PROMPT_CHARS}): a longer one is that item's failure
   * `prompt_too_long` and is not sent.
   */
  readonly maxPromptChars?: number;
  /** The judge of scoring datasets; absent: a run with scoring datasets fails at start (naming `judge.model`). */
  readonly judge?: RunJudge;
  /** Where each finished item's outcome is counted (default nowhere). */
  readonly metrics?: AppMetrics;
}

/** Options of one execution. */
export interface ExecuteOptions {
  /**
   * Stops the execution (Ctrl-C, worker shutdown): in-flight requests are aborted, their items given back and the
   * run left as nobody's (storage/eval-runs `leaveRun`). A signal already aborted at the call plans the run and
   * leaves it at once.
   */
  readonly signal?: AbortSignal;
  /**
   * Called with the run's counts once when this execution starts working on it (before any item), then after each
   * written batch of finished items, each time with the counts at that start too (a resumed run's earlier items are
   * in both: the difference is this execution's items).
   */
  readonly onProgress?: (counts: RunCounts, atStart: RunCounts) => void;
  /**
   * Called as each phase of this execution ends, with its wall time in ms (benches): `prepare` (the model and
   * judge clients opened, the suite prepared, the run started), `plan` (items stored and planned, counts read),
   * `requests` (the lanes, from the first claim until the last item is worked), `finish` (the last results
   * written, the claims given back where stopping, the run concluded).
   */
  readonly onPhase?: (phase: RunPhase, ms: number) => void;
}

/** A phase of one execution ({@link ExecuteOptions.onPhase}). */
export type RunPhase = 'prepare' | 'plan' | 'requests' | 'finish';

/** How an execution ended. */
export type ExecuteOutcome =
  /** This worker ended the run (status succeeded, or failed when no item could be answered). */
  | 'finished'
  /** Nothing left to claim, but other workers still hold claims: whoever finishes last ends the run. */
  | 'shared'
  /** The run was cancelled, already finished, or does not exist. */
  | 'inactive'
  /**
   * Stopped by the signal; the run stays active, its claims given back and its heartbeat cleared (unless another
   * worker holds live claims), so the next worker or the same command resumes it at once.
   */
  | 'stopped';

/**
 * Results written per transaction, and the longest an answer waits in memory before it is stored. On PGlite a
 * write statement's fixed cost (~1.5–3 ms of the event loop, its commit included) is that of dozens of rows: every
 * 250 ms rather than 100 the batches are fuller and fewer (bench/first-start's 2,000 items on a busy machine: 44
 * statements instead of 55; up to half as many when items finish at ~300 a second).
 * An answer not yet written is still in the response cache: a killed run scores it again without a call.
 */
const WRITE_BATCH = 64;
const WRITE_EVERY_MS = 250;
/** Lanes (items worked on at once) per request the endpoint takes at once; see executeRun. */
const LANES_PER_SLOT = 4;
/**
 * Items of a plan's first stage per lane (eval/run-plan `startPlan`): the lanes start on these while the rest of the
 * plan is stored, two claims' worth (the rest of 2,000 items takes ~0.3 s to store, about three rounds of requests).
 */
const PLAN_HEAD_PER_LANE = 2;

/**
 * The config snapshot stored with a run: everything needed to trace and reproduce its figures; `judge` (the judge
 * client's model name) is recorded on each scoring dataset, so that every scoring figure names its judge.
 */
export function runSnapshot(
  suite: string,
  model: OpenedClient,
  datasets: readonly PreparedDataset[],
  limit: number | null,
  judge?: string,
): Record<string, unknown> {
  return {
    suite,
    model: { name: model.client.name, ...model.snapshot },
    item_limit: limit,
    datasets: datasets.map((d) => ({
      name: d.name,
      ability: d.ability,
      method: d.method,
      metric: d.metric,
      profile: d.profile,
      template_version: d.templateVersion,
      items: limited(d, limit).length,
      ...(d.method === 'scoring' && judge !== undefined ? { judge } : {}),
      ...(d.provenance ? { provenance: d.provenance, seed: d.provenance.seed } : {}),
    })),
    versions: {
      zhujiu: packageVersion(),
      node: process.version,
      request_hash: REQUEST_HASH_VERSION,
    },
  };
}

/**
 * Executes (or resumes, or joins) run `runId`. Never throws for per-item faults (they become item failures, a
 * model client that throws included: code `client_error`); a fault of the whole run (suite or model cannot be
 * prepared) ends the run as `failed` with the error stored. An error of the run's own bookkeeping (the database
 * refused the plan, a claim, a result or a judge's grade) stops every lane at once, gives this worker's claims back
 * and clears the run's heartbeat (storage/eval-runs `leaveRun`, retried), logs it, and is thrown: the run stays
 * active and nobody's, so a retried job or the same command continues it at once.
 */
export async function executeRun(
  deps: RunnerDeps,
  runId: number,
  opts: ExecuteOptions = {},
): Promise<ExecuteOutcome> {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? 60_000;
  const owner = randomUUID();
  const log = deps.logger.child({ component: 'eval', runId, owner: owner.slice(0, 8) });
  const phaseStart = performance.now();
  const run = await getRun(db, runId);
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return 'inactive';

  let model: OpenedClient;
  let datasets: readonly PreparedDataset[];
  let judge: LlmClient | undefined;
  const judgeRubrics = new Map<string, { rubric: Rubric; safety?: Rubric }>();
  try {
    model = await deps.openModel(run.model);
    datasets = await deps.prepareSuite(run.suite, {
      recorded: model.snapshot.provider === 'recorded',
    });
    const scoring = datasets.filter((d) => d.method === 'scoring');
    if (scoring.length > 0) {
      if (!deps.judge)
        throw new EvalRefusalError('config_invalid', { code: 'judge_missing', suite: run.suite });
      for (const d of scoring) judgeRubrics.set(d.name, deps.judge.rubrics(run.suite, d.name));
      judge = await deps.judge.open();
    }
  } catch (err) {
    log.error({ err }, 'run cannot start');
    // Stored in every language it can be said in: the report and `zhujiu eval` show it in their reader's.
    const texts = startErrorTexts(err);
    await finishRun(db, runId, 'failed', texts.en, texts.others);
    return 'finished';
  }
  const snapshot = runSnapshot(run.suite, model, datasets, run.itemLimit, judge?.name);
  if (!(await startRun(db, runId, snapshot))) return 'inactive';
  opts.onPhase?.('prepare', performance.now() - phaseStart);
  try {
    return await executeStarted({
      deps,
      run,
      owner,
      log,
      leaseMs,
      model,
      datasets,
      judge,
      judgeRubrics,
      opts,
    });
  } catch (err) {
    // An error of the run itself (the database refused a claim, a result or the plan): the run ends here
    // cleanly, its claims given back and its heartbeat cleared, so a retried job or the same command continues
    // it at once instead of after the lease.
    await leaveAfterError(db, runId, owner, log);
    log[levelOf(err)]({ err }, 'run stopped on an error: its claims given back, left to resume');
    throw err;
  }
}

/** Attempts (and the waits between them, ms) at giving a run's claims back after an error. */
const LEAVE_RETRY_MS = [250, 1_000] as const;

/**
 * Leaves run `runId` after an error ({@link leaveRun}: `owner`'s claims given back, heartbeat cleared), retried
 * over {@link LEAVE_RETRY_MS} since the error may be the database's own (a dropped connection is reopened on the
 * next query). When every attempt fails the claims stay until their lease runs out, and that is logged.
 */
async function leaveAfterError(
  db: Kysely<Database>,
  runId: number,
  owner: string,
  log: Logger,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await leaveRun(db, runId, owner);
      return;
    } catch (err) {
      const wait = LEAVE_RETRY_MS[attempt];
      if (wait === undefined) {
        log[levelOf(err)]({ err }, 'giving the claims back failed: they wait for their lease');
        return;
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** What {@link executeStarted} works with: the run as {@link executeRun} prepared and started it. */
interface StartedRun {
  readonly deps: RunnerDeps;
  readonly run: RunRow;
  readonly owner: string;
  readonly log: Logger;
  readonly leaseMs: number;
  readonly model: OpenedClient;
  readonly datasets: readonly PreparedDataset[];
  readonly judge: LlmClient | undefined;
  readonly judgeRubrics: ReadonlyMap<string, DatasetRubrics>;
  readonly opts: ExecuteOptions;
}

/**
 * Plans and works a started run (see {@link executeRun}): the plan (eval/run-plan), this worker's claims and
 * heartbeat (eval/run-lease), results written in batches (eval/run-results), and {@link LANES_PER_SLOT} lanes per
 * request the endpoint takes at once (eval/lane-pool), each working one item at a time (eval/run-item). Throws on
 * an error of the run itself (database), after stopping every lane and giving the claims back where the database
 * still answers.
 */
async function executeStarted(x: StartedRun): Promise<ExecuteOutcome> {
  const { deps, run, owner, log, model, opts } = x;
  const { db } = deps;
  let phaseStart = performance.now();
  const phase = (p: RunPhase) => {
    const now = performance.now();
    opts.onPhase?.(p, now - phaseStart);
    phaseStart = now;
  };
  const client = model.client;
  // Lanes: LANES_PER_SLOT per request the endpoint takes at once. The client keeps its calls to `maxConcurrency` by
  // itself (llm/types), so the extra lanes only wait there, and take a freed slot at once while the lane that held
  // it stores its answer, claims and looks up its next item: the database time of an item (a few round trips,
  // tens of ms each on a busy server) overlaps the calls of the others instead of leaving a slot idle.
  const concurrency = Math.max(1, client.maxConcurrency);
  const laneCount = LANES_PER_SLOT * concurrency;
  const { plan, forgets } = await planWithLookUps(x, laneCount);
  const index = plan.index;
  const stop = new AbortController();
  // One abort listener per request in flight (the client links each request to this signal).
  setMaxListeners(Math.max(10, laneCount + concurrency + 10), stop.signal);
  const onOuterAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted) stop.abort(); // stopped while preparing: plan nothing more, leave at once
  const { writer, lease, ctx } = await workParts(x, stop, laneCount, concurrency, plan);
  log.info(
    {
      model: run.model,
      suite: run.suite,
      total: writer.counts.total,
      concurrency: client.maxConcurrency,
    },
    'run executing',
  );
  phase('plan');
  opts.onProgress?.(writer.counts, writer.counts);
  let error: unknown;
  try {
    // An error a lane cannot turn into its item's failure (the database refused a claim or the judge's grade)
    // stops every lane at once: nothing more is asked, and the claims are given back below.
    const laneError = await runLanes(
      laneCount,
      {
        next: nextDraining(lease, client),
        work: async (itemId) => {
          const outcome = await workItem(ctx, itemId, await entryOf(plan, itemId));
          if (outcome) {
            writer.record(itemId, outcome);
            deps.metrics?.evalItem(outcome.kind);
          }
        },
      },
      stop,
    );
    error = writer.error ?? laneError;
    phase('requests');
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
    // The rest of the plan is stored before the run is left (a stopped run still has every item planned).
    const planError = await plan.rest.then(
      () => undefined,
      (err: unknown) => err,
    );
    error = planError ?? error;
    for (const forget of forgets) forget();
    await lease.close(); // a claim ahead of need is given back below if the run stops
    await writer.flush();
    if (stop.signal.aborted) await leaveStopped(x, index);
  }
  error ??= writer.error;
  if (error) throw error;
  const outcome = await concludeRun(db, run.id, owner, log, {
    cancelled: lease.cancelled,
    stopped: stop.signal.aborted,
  });
  phase('finish');
  return outcome;
}

/**
 * The plan's entry of item `itemId` (undefined: the suite no longer has it). A resumed run whose earlier plan
 * stopped part-way (its process was killed, or its disk filled, while the plan was stored) has items planned
 * before their stage of this execution's plan is stored again: such an item, claimed early, waits for the rest of
 * the plan instead of being failed as not in the suite.
 */
async function entryOf(plan: StagedPlan, itemId: number): Promise<PlannedEntry | undefined> {
  const entry = plan.index.get(itemId);
  if (entry !== undefined) return entry;
  await plan.rest.catch(() => undefined); // its error is the run's (executeStarted)
  return plan.index.get(itemId);
}

/**
 * The lanes' next item from `lease`; the first time nothing is left to claim, `client` is told (LlmClient.drain)
 * so that the last items' answers are stored as they come.
 */
function nextDraining(lease: RunLease, client: LlmClient): () => Promise<number | undefined> {
  let drained = false;
  return async () => {
    const id = await lease.next();
    if (id === undefined && !drained) {
      drained = true;
      client.drain?.();
    }
    return id;
  };
}

/**
 * Starts storing the plan of a started run (eval/run-plan `startPlan`: its first {@link PLAN_HEAD_PER_LANE} items per
 * lane at once, the rest behind them), each stage looked up in the response cache in one query before its items can
 * be claimed (LlmClient.prefetch), instead of one grouped look-up per few items.
 * @returns the plan and the functions that forget each look-up's absent answers (call them when the run is left).
 */
async function planWithLookUps(
  x: StartedRun,
  laneCount: number,
): Promise<{ plan: StagedPlan; forgets: (() => void)[] }> {
  const client = x.model.client;
  const forgets: (() => void)[] = [];
  const plan = await startPlan(x.deps.db, x.run, x.datasets, {
    headItems: PLAN_HEAD_PER_LANE * laneCount,
    beforeClaimable: async (stage) => {
      const forget = await client.prefetch?.([...singleRequests(stage)]);
      if (forget) forgets.push(forget);
    },
  });
  return { plan, forgets };
}

/**
 * The model requests of a run's single-request items (eval/run-item `workItem` sends them as built here), for the
 * client's look-up of the whole run at once (LlmClient.prefetch) and for keeping the answers sent ahead
 * ({@link leaveStopped}); multi-request items are looked up as they go. Lazy: each is built when it is read.
 */
function* singleRequests(index: RunIndex): Generator<CompletionRequest> {
  for (const [itemId, { ds, item }] of index) {
    if (ds.requests?.(item)) continue;
    yield { messages: ds.messages(item), templateVersion: ds.templateVersion, itemId };
  }
}

/**
 * What a stopped run leaves behind it: the answers that came ahead of it (eval/requests-ahead) and that it never
 * asked for, stored with their items (LlmClient.keepAhead), so that resuming it asks none of them again (a failure
 * to store them is logged, and those items are asked again); then this worker's claims, given back.
 */
async function leaveStopped(x: StartedRun, index: RunIndex): Promise<void> {
  try {
    const kept = (await x.model.client.keepAhead?.(singleRequests(index))) ?? 0;
    if (kept > 0) x.log.info({ kept }, 'answers that came ahead of the stopped run stored');
  } catch (err) {
    x.log.warn({ err }, 'answers that came ahead of the stopped run could not be stored');
  }
  await releaseClaims(x.deps.db, x.run.id, x.owner).catch(() => undefined);
}

/**
 * The parts a started run is worked with: its result writer, this worker's lease and the items' context. While
 * `plan` stores its rest, the counts include the items still to be planned (as pending), and a claim that finds
 * nothing left waits for the rest and claims again.
 */
async function workParts(
  x: StartedRun,
  stop: AbortController,
  laneCount: number,
  concurrency: number,
  plan: StagedPlan,
): Promise<{ writer: ResultWriter; lease: RunLease; ctx: ItemContext }> {
  const { deps, run, owner, log, leaseMs, opts } = x;
  const { db } = deps;
  const counts = await runCounts(db, run.id);
  const unplanned = Math.max(0, plan.total - counts.total);
  const writer = new ResultWriter({
    write: (batch) => finishRunItems(db, run.id, owner, batch),
    counts: { ...counts, total: counts.total + unplanned, pending: counts.pending + unplanned },
    batchSize: WRITE_BATCH,
    everyMs: WRITE_EVERY_MS,
    onProgress: opts.onProgress,
    onError: () => stop.abort(),
    log,
  });
  // Claims ahead of need: one query for up to one item per lane, the next as soon as fewer than `concurrency` wait.
  const lease = new RunLease(afterPlan(runLeaseStore(db, run.id, owner, leaseMs), plan.rest), {
    batch: laneCount,
    refillBelow: concurrency,
    beatEveryMs: Math.max(200, Math.floor(leaseMs / 3)),
    signal: stop.signal,
    onCancel: () => stop.abort(),
    log,
  });
  const ctx: ItemContext = {
    client: x.model.client,
    signal: stop.signal,
    maxPromptChars: deps.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS,
    suite: run.suite,
    judge:
      x.judge &&
      runJudge({
        db,
        judge: x.judge,
        rubrics: x.judgeRubrics,
        runId: run.id,
        modelId: run.modelId,
        signal: stop.signal,
        maxAttempts: deps.judge?.maxAttempts,
      }),
  };
  return { writer, lease, ctx };
}

/**
 * How a worker's part of a run ends once its lanes are done: `inactive` when the run was cancelled; `stopped`
 * (the run left at once, nobody's) when this worker was stopped; otherwise the run's progress stored and, when no
 * item is left pending or claimed, the run finished (failed when every item failed), else `shared`.
 */
async function concludeRun(
  db: Kysely<Database>,
  runId: number,
  owner: string,
  log: Logger,
  end: { readonly cancelled: boolean; readonly stopped: boolean },
): Promise<ExecuteOutcome> {
  if (end.cancelled) {
    log.info('run cancelled');
    return 'inactive';
  }
  if (end.stopped) {
    await storeProgress(db, runId, await runCounts(db, runId));
    await leaveRun(db, runId, owner); // nobody's at once: the same command resumes it without waiting
    log.info('worker stopping: run left to resume');
    return 'stopped';
  }
  const final = await runCounts(db, runId);
  await storeProgress(db, runId, final);
  if (final.pending + final.claimed > 0) return 'shared';
  const allFailed = final.done === 0 && final.failed > 0;
  const ended = await finishRun(
    db,
    runId,
    allFailed ? 'failed' : 'succeeded',
    allFailed ? allFailedError(final.failed) : null,
  );
  if (ended) log.info({ done: final.done, failed: final.failed }, 'run finished');
  return ended ? 'finished' : 'inactive';
}
