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
import { isAppError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { packageVersion } from '../core/version.ts';
import type { OpenedClient } from '../llm/factory.ts';
import { REQUEST_HASH_VERSION } from '../llm/request-hash.ts';
import type { LlmClient } from '../llm/types.ts';
import {
  claimRunItems,
  finishRun,
  finishRunItems,
  getRun,
  type ItemOutcome,
  leaveRun,
  planRunItems,
  type RunCounts,
  type RunRow,
  releaseClaims,
  renewLeases,
  runCounts,
  startRun,
  storeProgress,
} from '../storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../storage/items.ts';
import { listJudgeScores } from '../storage/judge-scores.ts';
import type { Database } from '../storage/schema.ts';
import { judgeAnswers } from './judge/judge.ts';
import type { Rubric } from './judge/rubrics.ts';
import type { EvalItem, PreparedDataset } from './types.ts';

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
}

/** Options of one execution. */
export interface ExecuteOptions {
  /**
   * Stops the execution (Ctrl-C, worker shutdown): in-flight requests are aborted, their items given back and the
   * run left as nobody's (storage/eval-runs `leaveRun`). A signal already aborted at the call plans the run and
   * leaves it at once.
   */
  readonly signal?: AbortSignal;
  /** Called after each finished item with the run's counts (starting from those at start). */
  readonly onProgress?: (counts: RunCounts) => void;
}

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

/** Results written per transaction, and the longest an answer waits in memory before it is stored. */
const WRITE_BATCH = 64;
const WRITE_EVERY_MS = 100;
/** Lanes (items worked on at once) per request the endpoint takes at once; see executeRun. */
const LANES_PER_SLOT = 4;

/**
 * Why a run with scoring datasets cannot run without a judge, naming the config key and how to try again on the
 * surface that asked: `chat` (`/eval`), `cli` (`zhujiu eval`) or `any` (a worker's log).
 */
export const JUDGE_MODEL_MISSING = (
  suite: string,
  surface: 'chat' | 'cli' | 'any' = 'any',
): string =>
  `Suite "${suite}" has scoring datasets (method: scoring), which need an LLM judge: set \`judge.model\` in config/default.yaml to a model of config/models.yaml, then ${surface === 'chat' ? 'run /eval again' : surface === 'cli' ? 'run `zhujiu eval` again' : 'start the run again'}.`;

/** At most `limit` items of each dataset (the first ones, in the dataset's own order). */
function limited(ds: PreparedDataset, limit: number | null): readonly EvalItem[] {
  return limit === null ? ds.items : ds.items.slice(0, limit);
}

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
      if (!deps.judge) throw new Error(JUDGE_MODEL_MISSING(run.suite));
      for (const d of scoring) judgeRubrics.set(d.name, deps.judge.rubrics(run.suite, d.name));
      judge = await deps.judge.open();
    }
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    log.error({ err }, 'run cannot start');
    await finishRun(db, runId, 'failed', message);
    return 'finished';
  }
  const snapshot = runSnapshot(run.suite, model, datasets, run.itemLimit, judge?.name);
  if (!(await startRun(db, runId, snapshot))) return 'inactive';
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
    log.error({ err }, 'run stopped on an error: its claims given back, left to resume');
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
        log.error({ err }, 'giving the claims back failed: they wait for their lease');
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
  readonly judgeRubrics: ReadonlyMap<string, { rubric: Rubric; safety?: Rubric }>;
  readonly opts: ExecuteOptions;
}

/**
 * Plans and works a started run (see {@link executeRun}). Throws on an error of the run itself (database), after
 * stopping every lane and giving the claims back where the database still answers.
 */
async function executeStarted(x: StartedRun): Promise<ExecuteOutcome> {
  const { deps, run, owner, log, leaseMs, model, datasets, judge, judgeRubrics, opts } = x;
  const { db } = deps;
  const runId = run.id;

  // Store the items and plan the run (idempotent: a resumed run plans nothing new).
  const index = new Map<number, { ds: PreparedDataset; item: EvalItem }>();
  let seq = 0;
  for (const ds of datasets) {
    const items = limited(ds, run.itemLimit);
    const datasetId = await ensureDataset(db, {
      name: ds.name,
      ability: ds.ability,
      method: ds.method,
      ...(ds.provenance ? { source: ds.provenance.source } : {}),
    });
    const ids = await ensureItems(
      db,
      datasetId,
      items.map((it) => ({
        key: it.key,
        prompt: it.prompt,
        reference: it.reference,
        metadata: { ...it.metadata },
      })),
    );
    const planned = [];
    for (const it of items) {
      const id = ids.get(it.key);
      if (id === undefined) continue;
      index.set(id, { ds, item: it });
      planned.push({ itemId: id, dataset: ds.name, seq: seq++ });
    }
    await planRunItems(db, runId, planned);
  }

  const client = model.client;
  // Lanes: LANES_PER_SLOT per request the endpoint takes at once. The client keeps its calls to `maxConcurrency` by
  // itself (llm/types), so the extra lanes only wait there, and take a freed slot at once while the lane that held
  // it stores its answer, claims and looks up its next item: the database time of an item (a few round trips,
  // tens of ms each on a busy server) overlaps the calls of the others instead of leaving a slot idle.
  const concurrency = Math.max(1, client.maxConcurrency);
  const laneCount = LANES_PER_SLOT * concurrency;
  const stop = new AbortController();
  // One abort listener per request in flight (the client links each request to this signal).
  setMaxListeners(Math.max(10, laneCount + concurrency + 10), stop.signal);
  const onOuterAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted) stop.abort(); // stopped while preparing: plan nothing more, leave at once
  let counts = await runCounts(db, runId);
  let cancelled = false;

  const beat = async () => {
    try {
      await renewLeases(db, runId, owner, leaseMs);
      const now = await getRun(db, runId);
      if (now?.status === 'cancelled') {
        cancelled = true;
        stop.abort();
      }
      await storeProgress(db, runId, await runCounts(db, runId));
    } catch (err) {
      log.warn({ err }, 'heartbeat failed');
    }
  };
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      beating = beat();
    },
    Math.max(200, Math.floor(leaseMs / 3)),
  );
  timer.unref?.();

  // Claims are taken in batches (one query for up to one item per lane) ahead of need: the next batch is claimed
  // as soon as fewer than `concurrency` wait, so a lane seldom waits for a claim even when a claim takes as long as
  // a call. Results are written in batches (one statement per `WRITE_BATCH` items or `WRITE_EVERY_MS`), so the
  // database is not the bottleneck of a fast endpoint. An answer waits at most WRITE_EVERY_MS in memory before it
  // is stored.
  const claimBatch = laneCount;
  const refillBelow = concurrency;
  const claimed: number[] = [];
  let claiming: Promise<void> | undefined;
  let exhausted = false;
  const claimMore = (): Promise<void> => {
    claiming ??= claimRunItems(db, runId, owner, claimBatch, leaseMs)
      .then((ids) => {
        if (ids.length === 0) exhausted = true;
        claimed.push(...ids);
      })
      .finally(() => {
        claiming = undefined;
      });
    return claiming;
  };
  const nextItem = async (): Promise<number | undefined> => {
    for (;;) {
      if (stop.signal.aborted) return undefined;
      const id = claimed.shift();
      if (id !== undefined) {
        if (claimed.length < refillBelow && !exhausted && !stop.signal.aborted) {
          // Failures surface to the lane that awaits the next claim.
          claimMore().catch(() => undefined);
        }
        return id;
      }
      if (exhausted) return undefined;
      await claimMore();
    }
  };

  let buffer: { itemId: number; outcome: ItemOutcome }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = (): Promise<void> => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = buffer;
    buffer = [];
    if (batch.length === 0) return writing;
    writing = writing.then(async () => {
      try {
        const written = await finishRunItems(db, runId, owner, batch);
        for (const { itemId, outcome } of batch) {
          if (!written.has(itemId)) {
            log.info({ itemId }, 'item already finished by another worker: nothing written');
            continue;
          }
          counts =
            outcome.kind === 'done'
              ? {
                  ...counts,
                  done: counts.done + 1,
                  promptTokens:
                    counts.promptTokens + (outcome.cached ? 0 : (outcome.promptTokens ?? 0)),
                  completionTokens:
                    counts.completionTokens +
                    (outcome.cached ? 0 : (outcome.completionTokens ?? 0)),
                }
              : { ...counts, failed: counts.failed + 1 };
        }
        if (written.size > 0) {
          // Committed: a process killed after this line loses none of these results (tests wait for it).
          log.debug(
            { written: written.size, done: counts.done, failed: counts.failed },
            'results stored',
          );
          opts.onProgress?.(counts);
        }
      } catch (err) {
        writeError ??= err;
        stop.abort();
      }
    });
    return writing;
  };
  const record = (itemId: number, outcome: ItemOutcome) => {
    buffer.push({ itemId, outcome });
    if (buffer.length >= WRITE_BATCH) void flush();
    else flushTimer ??= setTimeout(() => void flush(), WRITE_EVERY_MS);
  };
  /** Records an answered and scored item: the answer's bookkeeping from `res`, the score as given. */
  const recordDone = (
    itemId: number,
    res: {
      readonly responseId?: number | undefined;
      readonly cached: boolean;
      readonly latencyMs: number;
      readonly promptTokens?: number | undefined;
      readonly completionTokens?: number | undefined;
    },
    score: Extract<ItemOutcome, { kind: 'done' }>['score'],
  ) =>
    record(itemId, {
      kind: 'done',
      responseId: res.responseId ?? null,
      cached: res.cached,
      latencyMs: res.latencyMs,
      promptTokens: res.promptTokens,
      completionTokens: res.completionTokens,
      score,
    });

  const processItem = async (itemId: number, c: LlmClient): Promise<void> => {
    const entry = index.get(itemId);
    if (!entry) {
      record(itemId, {
        kind: 'failed',
        code: 'not_in_suite',
        message: `planned in the run but no longer in suite ${run.suite} (the suite changed)`,
        latencyMs: 0,
      });
      return;
    }
    const { ds, item } = entry;
    const messages = ds.messages(item);
    const chars = messages.reduce((n, m) => n + m.content.length, 0);
    const maxChars = deps.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS;
    if (chars > maxChars) {
      record(itemId, {
        kind: 'failed',
        code: 'prompt_too_long',
        message: `the prompt built from this item has ${chars} characters, more than eval.max_prompt_chars (${maxChars}); not sent`,
        latencyMs: 0,
      });
      return;
    }
    let res: Awaited<ReturnType<LlmClient['complete']>>;
    try {
      res = await c.complete({
        messages,
        templateVersion: ds.templateVersion,
        itemId,
        signal: stop.signal,
      });
    } catch (err) {
      // The database failing under the client (its response cache) is not this item's fault: the lane stops and
      // the run is taken up again (its job is retried, or the sweep queues it), so the item is asked later.
      if (isAppError(err, 'db_unavailable')) throw err;
      // The client reports endpoint faults as results; one it throws (a reply it could not read) is this item's
      // failure, with its cause, and the run goes on.
      record(itemId, {
        kind: 'failed',
        code: 'client_error',
        message: `the model client failed: ${(err as Error).message ?? String(err)}`,
        latencyMs: 0,
      });
      return;
    }
    if (!res.ok && res.code === 'aborted') return; // given back with the other claims when the run stops
    if (!res.ok) {
      record(itemId, {
        kind: 'failed',
        code: res.code,
        message: res.message,
        latencyMs: res.latencyMs,
      });
      return;
    }
    const rubrics = judgeRubrics.get(ds.name);
    if (ds.method === 'scoring' && rubrics && judge) {
      const r = await judgeAnswers({
        db,
        judge,
        rubric: rubrics.rubric,
        ...(rubrics.safety ? { safety: rubrics.safety } : {}),
        modelId: run.modelId,
        targets: [
          {
            itemId,
            question: item.prompt,
            reference: typeof item.reference === 'string' ? item.reference : null,
            answer: res.text,
            responseId: res.responseId ?? null,
          },
        ],
        runId,
        signal: stop.signal,
        ...(deps.judge?.maxAttempts !== undefined ? { maxAttempts: deps.judge.maxAttempts } : {}),
      });
      const failure = r.failures[0];
      if (failure) {
        record(itemId, {
          kind: 'failed',
          code: `judge_${failure.code}`,
          message: `judge ${judge.name}: ${failure.message} (after ${failure.attempts} attempts; retry with zhujiu judge run)`,
          latencyMs: res.latencyMs,
        });
        return;
      }
      const [stored] = await listJudgeScores(db, {
        modelId: run.modelId,
        judge: judge.name,
        rubric: rubrics.rubric.name,
        rubricVersion: rubrics.rubric.version,
        itemIds: [itemId],
      });
      if (stored?.status !== 'judged' || stored.rawScore === null || stored.maxScore === null) {
        if (stop.signal.aborted) return; // given back with the other claims
        record(itemId, {
          kind: 'failed',
          code: 'judge_missing',
          message: `judge ${judge.name} stored no grade for this item`,
          latencyMs: res.latencyMs,
        });
        return;
      }
      const violation = stored.safetyFlag === true;
      recordDone(itemId, res, {
        method: ds.method,
        metric: 'judge',
        profile: `${rubrics.rubric.name}@${rubrics.rubric.version}`,
        raw: violation ? 0 : Math.min(stored.rawScore, stored.maxScore),
        max: stored.maxScore,
        detail: {
          judge: judge.name,
          judge_score: stored.rawScore,
          safety_violation: stored.safetyFlag,
        },
      });
      return;
    }
    let score: ReturnType<PreparedDataset['score']>;
    try {
      score = ds.score(item, res.text);
    } catch (err) {
      record(itemId, {
        kind: 'failed',
        code: 'score_error',
        message: `scoring failed: ${(err as Error).message ?? String(err)}`,
        latencyMs: res.latencyMs,
      });
      return;
    }
    recordDone(itemId, res, {
      method: ds.method,
      metric: score.metric,
      profile: score.profile,
      raw: score.raw,
      max: score.max,
      detail: score.detail,
    });
  };

  // An error a lane cannot turn into its item's failure (the database refused a claim or the judge's grade) stops
  // every lane at once: nothing more is asked, and the claims are given back below.
  let laneError: unknown;
  const lane = async () => {
    try {
      for (;;) {
        const itemId = await nextItem();
        if (itemId === undefined) return;
        await processItem(itemId, client);
      }
    } catch (err) {
      laneError ??= err;
      stop.abort();
    }
  };

  log.info(
    { model: run.model, suite: run.suite, total: counts.total, concurrency: client.maxConcurrency },
    'run executing',
  );
  try {
    await Promise.all(Array.from({ length: laneCount }, () => lane()));
    if (laneError !== undefined) writeError ??= laneError;
  } finally {
    clearInterval(timer);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    await beating; // a heartbeat in flight must not land after the run is left
    await claiming?.catch(() => undefined); // a claim ahead of need, given back below if the run stops
    await flush();
    if (stop.signal.aborted) await releaseClaims(db, runId, owner).catch(() => undefined);
  }
  if (writeError) throw writeError;
  if (cancelled) {
    log.info('run cancelled');
    return 'inactive';
  }
  if (stop.signal.aborted) {
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
    allFailed ? `every item failed (${final.failed})` : null,
  );
  if (ended) log.info({ done: final.done, failed: final.failed }, 'run finished');
  return ended ? 'finished' : 'inactive';
}
