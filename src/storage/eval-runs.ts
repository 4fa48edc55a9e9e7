/**
 * @module storage/eval-runs
 * Evaluation runs and their items (migration 0003). The per-item work protocol, safe with any number of workers:
 * - {@link planRunItems} inserts one `pending` row per (run, item) (idempotent);
 * - {@link claimRunItems} takes pending rows, or rows whose lease ran out (their worker died), with
 *   `FOR UPDATE SKIP LOCKED`, setting an owner and a lease (database time, so clocks of machines don't matter);
 * - {@link renewLeases} extends the leases of an owner's claims while it works;
 * - {@link finishRunItem} marks one claimed row done (and writes its score) or failed, only if the caller still
 *   owns the claim: a duplicate or late worker writes nothing. Scores are also unique per (run, item, metric).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { ItemLabel } from '../i18n/quote.ts';
import { itemLabels } from './items.ts';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A run's lifecycle state. */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A run as callers see it. */
export interface RunRow {
  readonly id: number;
  readonly modelId: number;
  readonly model: string;
  readonly suite: string;
  readonly status: RunStatus;
  readonly requestedBy: string | null;
  readonly reportPlatform: string | null;
  readonly reportChannel: string | null;
  readonly reportMessage: string | null;
  readonly done: number;
  readonly total: number;
  readonly failed: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly itemLimit: number | null;
  readonly seed: number;
  readonly config: Record<string, unknown>;
  readonly error: string | null;
  /** {@link error} in each other language it was said in (`{"zh-CN": "…"}`), or null: shown as recorded. */
  readonly errorTexts: Readonly<Record<string, string>> | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly heartbeatAt: Date | null;
  readonly summaryPostedAt: Date | null;
}

const RUN_COLUMNS = [
  'r.id',
  'r.model_id',
  'm.name as model',
  'r.suite',
  'r.status',
  'r.requested_by',
  'r.report_platform',
  'r.report_channel',
  'r.report_message',
  'r.prompt_tokens',
  'r.completion_tokens',
  'r.item_limit',
  'r.seed',
  'r.config',
  'r.error',
  'r.error_texts',
  'r.created_at',
  'r.started_at',
  'r.finished_at',
  'r.heartbeat_at',
  'r.summary_posted_at',
] as const;

/**
 * Runs (`r`) with their models (`m`) and their progress (`progress_done` finished items, `progress_failed`,
 * `progress_total`) as their items hold it: the run row's copy of it is refreshed only at its workers' heartbeats,
 * so it lags behind a live run, stays behind for good when a worker is killed (`kill -9`) or a run is cancelled
 * between two heartbeats, and would disagree with the run's results ({@link runCounts}, `zhujiu results --run`).
 * A run that ended by {@link finishRun} has it stored from its items at the end; every other run's is counted (an
 * index range of its own items). Every read of a run's progress goes through here: the run list of `zhujiu
 * results` and `/runs` (storage/run-results.ts), `/eval status`, a run's page, the resumed and cancelled texts.
 */
export function runsWithProgress(db: Conn) {
  return db
    .selectFrom('eval_runs as r')
    .innerJoin('models as m', 'm.id', 'r.model_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('eval_run_items as ri')
          .select([
            sql<number>`count(*)::int`.as('total'),
            sql<number>`(count(*) FILTER (WHERE ri.status IN ('done', 'failed')))::int`.as(
              'finished',
            ),
            sql<number>`(count(*) FILTER (WHERE ri.status = 'failed'))::int`.as('failed'),
          ])
          .whereRef('ri.run_id', '=', 'r.id')
          .where(sql<boolean>`r.status NOT IN ('succeeded', 'failed')`)
          .as('live'),
      (join) => join.onTrue(),
    )
    .select([
      sql<number>`CASE WHEN r.status IN ('succeeded', 'failed') THEN r.progress_done ELSE live.finished END`.as(
        'progress_done',
      ),
      sql<number>`CASE WHEN r.status IN ('succeeded', 'failed') THEN r.progress_failed ELSE live.failed END`.as(
        'progress_failed',
      ),
      // Planned in stages (eval/run-plan.ts): the row knows the whole plan's size before every item is stored.
      sql<number>`CASE WHEN r.status IN ('succeeded', 'failed') THEN r.progress_total ELSE greatest(r.progress_total, live.total) END`.as(
        'progress_total',
      ),
    ]);
}

function runQuery(db: Conn) {
  return runsWithProgress(db).select(RUN_COLUMNS);
}

type RawRun = Awaited<ReturnType<ReturnType<typeof runQuery>['executeTakeFirstOrThrow']>>;

function toRun(r: RawRun): RunRow {
  return {
    id: r.id,
    modelId: r.model_id,
    model: r.model,
    suite: r.suite,
    status: r.status,
    requestedBy: r.requested_by,
    reportPlatform: r.report_platform,
    reportChannel: r.report_channel,
    reportMessage: r.report_message,
    done: r.progress_done,
    total: r.progress_total,
    failed: r.progress_failed,
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    itemLimit: r.item_limit,
    seed: Number(r.seed),
    config: r.config,
    error: r.error,
    errorTexts: r.error_texts ?? null,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    heartbeatAt: r.heartbeat_at,
    summaryPostedAt: r.summary_posted_at,
  };
}

/** A run to create. */
export interface NewRun {
  readonly modelId: number;
  readonly suite: string;
  readonly itemLimit?: number | undefined;
  readonly seed?: number;
  readonly requestedBy?: string | undefined;
  readonly reportPlatform?: string | undefined;
  readonly reportChannel?: string | undefined;
  readonly config?: Record<string, unknown>;
}

/**
 * Creates a queued run, unless the model already has an active (queued or running) run of the suite.
 *
 * Run numbers (`eval_runs.id`) are what users type (`zhujiu eval --cancel N`), so they stay consecutive: the
 * insert takes the largest id plus one under an advisory lock (migration 0019), so a crash, a failed insert or
 * one that does nothing uses no number. The active run is looked up first (a resume writes nothing); the insert
 * keeps ON CONFLICT for two creators racing.
 * @returns `{ created: true, run }` or `{ created: false, active }` (the run that blocks it).
 */
export async function createRun(
  db: Kysely<Database>,
  spec: NewRun,
): Promise<{ created: true; run: RunRow } | { created: false; active: RunRow }> {
  const activeFirst = await activeRunOf(db, spec);
  if (activeFirst) return { created: false, active: activeFirst };
  const inserted = await db
    .insertInto('eval_runs')
    .values({
      model_id: spec.modelId,
      suite: spec.suite,
      item_limit: spec.itemLimit ?? null,
      seed: spec.seed ?? 0,
      requested_by: spec.requestedBy ?? null,
      report_platform: spec.reportPlatform ?? null,
      report_channel: spec.reportChannel ?? null,
      config: JSON.stringify(spec.config ?? {}),
    })
    .onConflict((oc) =>
      oc.columns(['model_id', 'suite']).where('status', 'in', ['queued', 'running']).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    return { created: true, run: (await getRun(db, inserted.id)) as RunRow };
  }
  const active = await activeRunOf(db, spec);
  if (!active) return createRun(db, spec); // it finished meanwhile
  return { created: false, active };
}

/**
 * True when the model named `model` (its configured name) has an active (queued or running) run of `suite`. One
 * look-up of the runs' active index, without their progress.
 */
export async function hasActiveRun(db: Conn, model: string, suite: string): Promise<boolean> {
  const row = await db
    .selectFrom('eval_runs as r')
    .innerJoin('models as m', 'm.id', 'r.model_id')
    .select('r.id')
    .where('m.name', '=', model)
    .where('r.suite', '=', suite)
    .where('r.status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row !== undefined;
}

/** The model's active (queued or running) run of the suite, or undefined. */
async function activeRunOf(
  db: Conn,
  spec: Pick<NewRun, 'modelId' | 'suite'>,
): Promise<RunRow | undefined> {
  const active = await runQuery(db)
    .where('r.model_id', '=', spec.modelId)
    .where('r.suite', '=', spec.suite)
    .where('r.status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return active ? toRun(active) : undefined;
}

/** One run, or undefined. */
export async function getRun(db: Conn, id: number): Promise<RunRow | undefined> {
  const r = await runQuery(db).where('r.id', '=', id).executeTakeFirst();
  return r ? toRun(r) : undefined;
}

/** Runs, newest first: the active ones and the latest finished ones. */
export async function listRuns(db: Conn, opts: { limit?: number } = {}): Promise<RunRow[]> {
  const rows = await runQuery(db)
    .orderBy(sql`case when r.status in ('queued','running') then 0 else 1 end`)
    .orderBy('r.id', 'desc')
    .limit(opts.limit ?? 10)
    .execute();
  return rows.map(toRun);
}

/**
 * The condition "nobody works on this active run": its last worker left it cleanly (started, heartbeat cleared by
 * {@link leaveRun}), or its heartbeat is older than `staleMs` (its worker was killed), or it never started and was
 * created more than `staleMs` ago (its job was lost). Database time throughout.
 */
function unattended(staleMs: number) {
  const age = sql<Date>`now() - ${`${Math.ceil(staleMs)} milliseconds`}::interval`;
  return sql<boolean>`(heartbeat_at < ${age}
    OR (heartbeat_at IS NULL AND (started_at IS NOT NULL OR created_at < ${age})))`;
}

/** Active runs (queued or running) nobody works on (see {@link isRunUnattended}), by id. */
export async function staleActiveRuns(db: Conn, staleMs: number): Promise<number[]> {
  const rows = await db
    .selectFrom('eval_runs')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .where(unattended(staleMs))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Running runs with at least one item nobody holds (pending, or claimed with its lease run out), oldest first, up
 * to `limit`: those another worker can join (eval/service `joinRuns`).
 */
export async function joinableRuns(db: Conn, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('eval_runs as r')
    .select('r.id')
    .where('r.status', '=', 'running')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('eval_run_items as i')
          .select('i.item_id')
          .whereRef('i.run_id', '=', 'r.id')
          .where((eb) =>
            eb.or([
              eb('i.status', '=', 'pending'),
              eb.and([eb('i.status', '=', 'claimed'), eb('i.lease_until', '<', sql<Date>`now()`)]),
            ]),
          ),
      ),
    )
    .orderBy('r.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * True when run `runId` is active and nobody works on it: its last worker left it cleanly (Ctrl-C, SIGTERM: see
 * {@link leaveRun}), its heartbeat is older than `staleMs` ms (a killed worker), or it never started and was
 * created more than `staleMs` ago. False for a finished run or one a worker beat for within `staleMs`.
 */
export async function isRunUnattended(db: Conn, runId: number, staleMs: number): Promise<boolean> {
  const r = await db
    .selectFrom('eval_runs')
    .select('id')
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .where(unattended(staleMs))
    .executeTakeFirst();
  return r !== undefined;
}

/** Active runs a chat platform reports on, and finished ones whose summary is not posted yet. */
export async function runsToReport(db: Conn, platform: string): Promise<RunRow[]> {
  const rows = await runQuery(db)
    .where('r.report_platform', '=', platform)
    .where('r.report_channel', 'is not', null)
    .where('r.summary_posted_at', 'is', null)
    .orderBy('r.id')
    .execute();
  return rows.map(toRun);
}

/** Sets the progress message of a run. */
export async function setReportMessage(db: Conn, runId: number, messageId: string): Promise<void> {
  await db
    .updateTable('eval_runs')
    .set({ report_message: messageId })
    .where('id', '=', runId)
    .execute();
}

/** Marks the summary of a finished run posted; true only for the one caller that marks it first. */
export async function claimSummary(db: Conn, runId: number): Promise<boolean> {
  const r = await db
    .updateTable('eval_runs')
    .set({ summary_posted_at: sql`now()` })
    .where('id', '=', runId)
    .where('summary_posted_at', 'is', null)
    .where('status', 'in', ['succeeded', 'failed', 'cancelled'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Gives back the summary mark {@link claimSummary} set, after the summary could not be posted (the chat platform
 * refused it), so that the next report (this process or another) posts it instead of no one ever doing so.
 */
export async function unclaimSummary(db: Conn, runId: number): Promise<void> {
  await db
    .updateTable('eval_runs')
    .set({ summary_posted_at: null })
    .where('id', '=', runId)
    .execute();
}

/**
 * Moves a queued or running run to `running` (first start) and stores the config snapshot when it has none yet.
 * @returns false when the run is not active any more (finished or cancelled).
 */
export async function startRun(
  db: Conn,
  runId: number,
  snapshot: Record<string, unknown>,
): Promise<boolean> {
  const r = await db
    .updateTable('eval_runs')
    .set({
      status: 'running',
      started_at: sql`coalesce(started_at, now())`,
      heartbeat_at: sql`now()`,
      config: sql`case when config = '{}'::jsonb then ${JSON.stringify(snapshot)}::jsonb else config || jsonb_build_object('resumed', true) end`,
    })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** One planned item of a run. */
export interface PlannedItem {
  readonly itemId: number;
  readonly dataset: string;
  readonly seq: number;
}

/**
 * Inserts the run's items (those already planned are kept) and sets the run's total to its planned items, or to
 * `total` when that is more (a plan stored in stages, eval/run-plan `startPlan`, states its whole size from the
 * first stage on), in two statements whatever the number of items (the rows go as three arrays).
 */
export async function planRunItems(
  db: Conn,
  runId: number,
  items: readonly PlannedItem[],
  total = 0,
): Promise<void> {
  if (items.length > 0)
    await sql`
      INSERT INTO eval_run_items (run_id, item_id, dataset, seq)
      SELECT ${runId}, p.item_id, p.dataset, p.seq
        FROM unnest(${items.map((it) => String(it.itemId))}::bigint[], ${items.map((it) => it.dataset)}::text[],
                    ${items.map((it) => it.seq)}::int[]) AS p(item_id, dataset, seq)
      ON CONFLICT (run_id, item_id) DO NOTHING`.execute(db);
  await db
    .updateTable('eval_runs')
    .set({
      progress_total: sql`greatest((select count(*) from eval_run_items where run_id = ${runId})::int, ${total}::int)`,
    })
    .where('id', '=', runId)
    .execute();
}

/**
 * The items already planned for run `runId`, as dataset name → item key → stored item id (empty when none is):
 * a worker joining or resuming a planned run reads its plan back in one query instead of storing it again.
 */
export async function plannedItemIds(
  db: Conn,
  runId: number,
): Promise<Map<string, Map<string, number>>> {
  const rows = await db
    .selectFrom('eval_run_items as ri')
    .innerJoin('items as i', 'i.id', 'ri.item_id')
    .select(['ri.dataset', 'i.key', 'ri.item_id'])
    .where('ri.run_id', '=', runId)
    .execute();
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const keys = out.get(r.dataset) ?? new Map<string, number>();
    keys.set(r.key, Number(r.item_id));
    out.set(r.dataset, keys);
  }
  return out;
}

/**
 * Claims up to `n` items of a run for `owner` for `leaseMs`: pending ones first (in plan order), then claims whose
 * lease ran out. Rows locked by another claimer are skipped, so concurrent claimers never get the same row.
 */
export async function claimRunItems(
  db: Conn,
  runId: number,
  owner: string,
  n: number,
  leaseMs: number,
): Promise<number[]> {
  const lease = `${Math.ceil(leaseMs)} milliseconds`;
  const r = await sql<{ item_id: number }>`
    UPDATE eval_run_items AS t SET status = 'claimed', owner = ${owner}, lease_until = now() + ${lease}::interval
     WHERE (t.run_id, t.item_id) IN (
       SELECT run_id, item_id FROM eval_run_items
        WHERE run_id = ${runId}
          AND (status = 'pending' OR (status = 'claimed' AND lease_until < now()))
        ORDER BY seq
        LIMIT ${n}
        FOR UPDATE SKIP LOCKED)
    RETURNING t.item_id`.execute(db);
  return r.rows.map((x) => Number(x.item_id));
}

/**
 * Releases every item claim of every run (back to pending). Only for a database that one process holds alone
 * (the locked PGlite folder), at its start, when every claim belongs to a process that is gone.
 * @returns how many claims were released.
 */
export async function releaseAllClaims(db: Conn): Promise<number> {
  const r = await db
    .updateTable('eval_run_items')
    .set({ status: 'pending', owner: null, lease_until: null })
    .where('status', '=', 'claimed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * Takes back every evaluation run left active on a database this process has just opened alone (the embedded
 * PGlite folder, which storage/data-dir-lock.ts locks to one live process): whoever held a claim or beat a heartbeat
 * there is a process that is gone, so, in one transaction, every item claim goes back to pending and every active
 * run reads as nobody's at once (heartbeat cleared, a start time set when it had none, as {@link abandonRun}
 * does): the same `zhujiu eval` resumes it, and a worker's sweep re-sends it, without waiting for a lease. Must run
 * before this process executes any run (storage/db.ts callers: once, right after opening and migrating).
 * @returns the ids of the runs taken back (ascending) and how many item claims were given back.
 */
export async function takeBackLeftRuns(
  db: Kysely<Database>,
): Promise<{ readonly runs: number[]; readonly claims: number }> {
  return db.transaction().execute(async (trx) => {
    const claims = await releaseAllClaims(trx);
    const r = await sql<{ id: number }>`
      UPDATE eval_runs SET heartbeat_at = NULL, started_at = coalesce(started_at, now())
       WHERE status IN ('queued', 'running')
      RETURNING id`.execute(trx);
    return { runs: r.rows.map((x) => Number(x.id)).sort((a, b) => a - b), claims };
  });
}

/** Extends the leases of `owner`'s claims on a run and beats the run's heartbeat. */
export async function renewLeases(
  db: Conn,
  runId: number,
  owner: string,
  leaseMs: number,
): Promise<void> {
  const lease = `${Math.ceil(leaseMs)} milliseconds`;
  await sql`UPDATE eval_run_items SET lease_until = now() + ${lease}::interval
             WHERE run_id = ${runId} AND owner = ${owner} AND status = 'claimed'`.execute(db);
  await db
    .updateTable('eval_runs')
    .set({ heartbeat_at: sql`now()` })
    .where('id', '=', runId)
    .execute();
}

/**
 * A worker stopping cleanly (Ctrl-C, SIGTERM) leaves a run it did not finish: gives `owner`'s claims back and,
 * unless another worker still holds a live claim of the run, clears the run's heartbeat, so that the run reads at
 * once as nobody's ({@link isRunUnattended}): the same command resumes it, and a sweep re-sends it, without
 * waiting for a lease to run out. A worker that is killed never gets here: its run waits for the lease.
 */
export async function leaveRun(db: Kysely<Database>, runId: number, owner: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await releaseClaims(trx, runId, owner);
    await sql`UPDATE eval_runs SET heartbeat_at = NULL
               WHERE id = ${runId} AND status IN ('queued', 'running')
                 AND NOT EXISTS (SELECT 1 FROM eval_run_items
                                  WHERE run_id = ${runId} AND status = 'claimed' AND lease_until >= now())`.execute(
      trx,
    );
  });
}

/**
 * Marks active run `runId` as nobody's after the process that took it for itself (the foreground run of `zhujiu
 * eval`) stopped on an unexpected error, before or while working on it: unless a worker holds live claims, its
 * heartbeat is cleared, and a run that never started gets its start time (now), since "created less than a lease
 * ago and never started" otherwise reads as a run whose job is still on its way ({@link isRunUnattended}). The
 * same command then resumes it at once. Finished and cancelled runs are left as they are.
 */
export async function abandonRun(db: Conn, runId: number): Promise<void> {
  await sql`UPDATE eval_runs SET heartbeat_at = NULL, started_at = coalesce(started_at, now())
             WHERE id = ${runId} AND status IN ('queued', 'running')
               AND NOT EXISTS (SELECT 1 FROM eval_run_items
                                WHERE run_id = ${runId} AND status = 'claimed' AND lease_until >= now())`.execute(
    db,
  );
}

/** Gives `owner`'s unfinished claims back (a worker stopping cleanly), so others take them at once. */
export async function releaseClaims(db: Conn, runId: number, owner: string): Promise<void> {
  await db
    .updateTable('eval_run_items')
    .set({ status: 'pending', owner: null, lease_until: null })
    .where('run_id', '=', runId)
    .where('owner', '=', owner)
    .where('status', '=', 'claimed')
    .execute();
}

/** The outcome of one item. */
export type ItemOutcome =
  | {
      readonly kind: 'done';
      readonly responseId: number | null;
      readonly cached: boolean;
      readonly latencyMs: number;
      readonly promptTokens?: number | undefined;
      readonly completionTokens?: number | undefined;
      readonly score: {
        readonly method: string;
        readonly metric: string;
        readonly profile: string;
        readonly raw: number;
        readonly max: number;
        readonly detail?: Readonly<Record<string, unknown>> | undefined;
      };
    }
  | {
      readonly kind: 'failed';
      readonly code: string;
      readonly message: string;
      readonly latencyMs: number;
    };

/**
 * Records the outcome of an item `owner` holds, in one transaction. Writes nothing (returns false) when the claim
 * is not `owner`'s any more (its lease ran out and another worker took it) or the item is already finished.
 */
export async function finishRunItem(
  db: Kysely<Database>,
  runId: number,
  itemId: number,
  owner: string,
  outcome: ItemOutcome,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const base = {
      owner: null,
      lease_until: null,
      latency_ms: Math.max(0, Math.round(outcome.latencyMs)),
      finished_at: sql<Date>`now()`,
    };
    const updated = await trx
      .updateTable('eval_run_items')
      .set(
        outcome.kind === 'done'
          ? {
              ...base,
              status: 'done',
              response_id: outcome.responseId,
              cached: outcome.cached,
              prompt_tokens: outcome.promptTokens ?? null,
              completion_tokens: outcome.completionTokens ?? null,
            }
          : {
              ...base,
              status: 'failed',
              failure_code: outcome.code,
              failure_message: outcome.message.slice(0, 2000),
            },
      )
      .where('run_id', '=', runId)
      .where('item_id', '=', itemId)
      .where('owner', '=', owner)
      .where('status', '=', 'claimed')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (outcome.kind === 'done') {
      const s = outcome.score;
      await trx
        .insertInto('item_scores')
        .values({
          run_id: runId,
          item_id: itemId,
          response_id: outcome.responseId,
          method: s.method,
          metric: s.metric,
          profile: s.profile,
          raw_score: s.raw,
          max_score: s.max,
          detail: s.detail ? JSON.stringify(s.detail) : null,
        })
        .onConflict((oc) => oc.columns(['run_id', 'item_id', 'metric']).doNothing())
        .execute();
    }
    return true;
  });
}

/** Counts of a run's items by state, and the tokens of the answers it called for. */
export interface RunCounts {
  readonly total: number;
  readonly pending: number;
  readonly claimed: number;
  readonly done: number;
  readonly failed: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Counts a run's items. */
export async function runCounts(db: Conn, runId: number): Promise<RunCounts> {
  const r = await sql<Record<keyof RunCounts, string | number | null>>`
    SELECT count(*) AS total,
           count(*) FILTER (WHERE status = 'pending') AS pending,
           count(*) FILTER (WHERE status = 'claimed') AS claimed,
           count(*) FILTER (WHERE status = 'done') AS done,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           coalesce(sum(prompt_tokens) FILTER (WHERE cached IS NOT TRUE), 0) AS "promptTokens",
           coalesce(sum(completion_tokens) FILTER (WHERE cached IS NOT TRUE), 0) AS "completionTokens"
      FROM eval_run_items WHERE run_id = ${runId}`.execute(db);
  const x = r.rows[0];
  const n = (v: string | number | null | undefined) => Number(v ?? 0);
  return {
    total: n(x?.total),
    pending: n(x?.pending),
    claimed: n(x?.claimed),
    done: n(x?.done),
    failed: n(x?.failed),
    promptTokens: n(x?.promptTokens),
    completionTokens: n(x?.completionTokens),
  };
}

/** Copies the counts onto the run row (progress for status and chat). */
export async function storeProgress(db: Conn, runId: number, c: RunCounts): Promise<void> {
  await db
    .updateTable('eval_runs')
    .set({
      progress_total: c.total,
      progress_done: c.done + c.failed,
      progress_failed: c.failed,
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
      heartbeat_at: sql`now()`,
    })
    .where('id', '=', runId)
    .execute();
}

/**
 * Ends a run (running → succeeded/failed) with its final counts and, when it failed, its `error` in English and the
 * same error in other languages (`errorTexts`, `{"zh-CN": "…"}`); a cancelled or already finished run is left as
 * it is. @returns true when this call ended it.
 */
export async function finishRun(
  db: Conn,
  runId: number,
  status: 'succeeded' | 'failed',
  error: string | null = null,
  errorTexts: Readonly<Record<string, string>> | null = null,
): Promise<boolean> {
  const c = await runCounts(db, runId);
  const r = await db
    .updateTable('eval_runs')
    .set({
      status,
      error,
      error_texts: errorTexts === null ? null : JSON.stringify(errorTexts),
      finished_at: sql`now()`,
      progress_total: c.total,
      progress_done: c.done + c.failed,
      progress_failed: c.failed,
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
    })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Cancels an active run. @returns false when it was not active. */
export async function cancelRun(db: Conn, runId: number): Promise<boolean> {
  const r = await db
    .updateTable('eval_runs')
    .set({ status: 'cancelled', finished_at: sql`now()` })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Per-dataset totals of a run. */
export interface DatasetTotals {
  readonly dataset: string;
  readonly n: number;
  readonly failures: number;
  /** Of `failures`, those of the judge (codes `judge_*`: the answer was stored but not graded). */
  readonly judgeFailures: number;
  readonly earned: number;
  readonly possible: number;
  /** Scored items whose detail carries an `exact_match` (0 or 1; span datasets), and the sum of those. */
  readonly exactMatchN: number;
  readonly exactMatchSum: number;
}

/**
 * Per-dataset totals (scored items, failures, judge failures, Σ raw, Σ max, and for span scores Σ exact match), in
 * plan order.
 */
export async function runDatasetTotals(db: Conn, runId: number): Promise<DatasetTotals[]> {
  const r = await sql<{
    dataset: string;
    n: string | number;
    failures: string | number;
    judge_failures: string | number;
    earned: string | number | null;
    possible: string | number | null;
    em_n: string | number;
    em_sum: string | number | null;
  }>`
    SELECT ri.dataset,
           count(s.id) AS n,
           count(*) FILTER (WHERE ri.status = 'failed') AS failures,
           count(*) FILTER (WHERE ri.status = 'failed' AND ri.failure_code LIKE 'judge\_%') AS judge_failures,
           coalesce(sum(s.raw_score), 0) AS earned,
           coalesce(sum(s.max_score), 0) AS possible,
           count(s.id) FILTER (WHERE jsonb_typeof(s.detail -> 'exact_match') = 'number') AS em_n,
           coalesce(sum((s.detail ->> 'exact_match')::float8)
                    FILTER (WHERE jsonb_typeof(s.detail -> 'exact_match') = 'number'), 0) AS em_sum
      FROM eval_run_items ri
      LEFT JOIN item_scores s ON s.run_id = ri.run_id AND s.item_id = ri.item_id
     WHERE ri.run_id = ${runId}
     GROUP BY ri.dataset
     ORDER BY min(ri.seq)`.execute(db);
  return r.rows.map((x) => ({
    dataset: x.dataset,
    n: Number(x.n),
    failures: Number(x.failures),
    judgeFailures: Number(x.judge_failures),
    earned: Number(x.earned ?? 0),
    possible: Number(x.possible ?? 0),
    exactMatchN: Number(x.em_n),
    exactMatchSum: Number(x.em_sum ?? 0),
  }));
}

/**
 * The most frequent failure reasons of a run (code, message, count), for the summary, each with up to `examples`
 * of its items named as the user knows them ({@link itemLabels}: dataset, key, start of the instruction).
 */
export async function runFailureReasons(
  db: Conn,
  runId: number,
  limit = 3,
  examples = 2,
): Promise<{ code: string; message: string; n: number; items: (ItemLabel | { id: number })[] }[]> {
  const r = await sql<{ code: string; message: string; n: string | number }>`
    SELECT failure_code AS code, min(failure_message) AS message, count(*) AS n
      FROM eval_run_items WHERE run_id = ${runId} AND status = 'failed'
     GROUP BY failure_code ORDER BY count(*) DESC LIMIT ${limit}`.execute(db);
  const out: { code: string; message: string; n: number; items: (ItemLabel | { id: number })[] }[] =
    [];
  for (const x of r.rows) {
    const ids = await db
      .selectFrom('eval_run_items')
      .select('item_id')
      .where('run_id', '=', runId)
      .where('status', '=', 'failed')
      .where('failure_code', '=', x.code)
      .orderBy('seq')
      .limit(examples)
      .execute();
    const labels = await itemLabels(
      db,
      ids.map((i) => i.item_id),
    );
    out.push({
      code: x.code,
      message: x.message,
      n: Number(x.n),
      items: ids.map((i) => labels.get(i.item_id) ?? { id: i.item_id }),
    });
  }
  return out;
}

/**
 * When each finished item of a run was worked on: its finish time and its answer call's latency (ms; 0 for a
 * cached or recorded answer), by finish time. For the run's working time ({@link workingMs} in eval/summary).
 */
export async function runItemTimings(
  db: Conn,
  runId: number,
): Promise<{ finishedAt: Date; latencyMs: number }[]> {
  const rows = await db
    .selectFrom('eval_run_items')
    .select(['finished_at', 'latency_ms'])
    .where('run_id', '=', runId)
    .where('finished_at', 'is not', null)
    .orderBy('finished_at')
    .execute();
  return rows.map((r) => ({ finishedAt: r.finished_at as Date, latencyMs: r.latency_ms ?? 0 }));
}

/** Gives one claimed item back (its request was aborted). */
export async function releaseItem(
  db: Conn,
  runId: number,
  itemId: number,
  owner: string,
): Promise<void> {
  await db
    .updateTable('eval_run_items')
    .set({ status: 'pending', owner: null, lease_until: null })
    .where('run_id', '=', runId)
    .where('item_id', '=', itemId)
    .where('owner', '=', owner)
    .where('status', '=', 'claimed')
    .execute();
}

/**
 * Records the outcomes of several items `owner` holds, in one statement (a batch of {@link finishRunItem}: the
 * rows' update and the scores' insert are one atomic statement, one round trip). Rows not held by `owner` any more,
 * or already finished, are left alone and get no score.
 * @returns the ids of the items written.
 */
export async function finishRunItems(
  db: Kysely<Database>,
  runId: number,
  owner: string,
  batch: readonly { readonly itemId: number; readonly outcome: ItemOutcome }[],
): Promise<Set<number>> {
  if (batch.length === 0) return new Set();
  const rows = batch.map(({ itemId, outcome: o }) => ({
    item_id: itemId,
    status: o.kind,
    response_id: o.kind === 'done' ? o.responseId : null,
    cached: o.kind === 'done' ? o.cached : null,
    latency_ms: Math.max(0, Math.round(o.latencyMs)),
    prompt_tokens: o.kind === 'done' ? (o.promptTokens ?? null) : null,
    completion_tokens: o.kind === 'done' ? (o.completionTokens ?? null) : null,
    failure_code: o.kind === 'failed' ? o.code : null,
    failure_message: o.kind === 'failed' ? o.message.slice(0, 2000) : null,
    method: o.kind === 'done' ? o.score.method : null,
    metric: o.kind === 'done' ? o.score.metric : null,
    profile: o.kind === 'done' ? o.score.profile : null,
    raw_score: o.kind === 'done' ? o.score.raw : null,
    max_score: o.kind === 'done' ? o.score.max : null,
    detail: o.kind === 'done' ? (o.score.detail ?? null) : null,
  }));
  const updated = await sql<{ item_id: number }>`
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(
        item_id bigint, status text, response_id bigint, cached boolean, latency_ms integer,
        prompt_tokens integer, completion_tokens integer, failure_code text, failure_message text,
        method text, metric text, profile text, raw_score double precision, max_score double precision,
        detail jsonb)),
    written AS (
      UPDATE eval_run_items AS t
         SET status = v.status, response_id = v.response_id, cached = v.cached, latency_ms = v.latency_ms,
             prompt_tokens = v.prompt_tokens, completion_tokens = v.completion_tokens,
             failure_code = v.failure_code, failure_message = v.failure_message,
             owner = NULL, lease_until = NULL, finished_at = now()
        FROM v
       WHERE t.run_id = ${runId} AND t.item_id = v.item_id AND t.owner = ${owner} AND t.status = 'claimed'
      RETURNING t.item_id),
    scored AS (
      INSERT INTO item_scores (run_id, item_id, response_id, method, metric, profile, raw_score, max_score, detail)
      SELECT ${runId}, v.item_id, v.response_id, v.method, v.metric, v.profile, v.raw_score, v.max_score, v.detail
        FROM v JOIN written w ON w.item_id = v.item_id
       WHERE v.status = 'done'
      ON CONFLICT (run_id, item_id, metric) DO NOTHING)
    SELECT item_id FROM written`.execute(db);
  return new Set(updated.rows.map((r) => Number(r.item_id)));
}

/**
 * The evaluation queue as the run tables hold it, in one query (the `/metrics` gauges, http/metrics.ts): active
 * runs by status, items of active runs not finished (pending or claimed), and the oldest active run's age, s
 * (0 when none).
 */
export async function evalQueueState(db: Conn): Promise<{
  queued: number;
  running: number;
  waitingItems: number;
  oldestSeconds: number;
}> {
  const r = await sql<{ queued: number; running: number; waiting: number; oldest: number }>`
    SELECT count(*) FILTER (WHERE r.status = 'queued')::int AS queued,
           count(*) FILTER (WHERE r.status = 'running')::int AS running,
           coalesce((SELECT count(*) FROM eval_run_items i JOIN eval_runs a ON a.id = i.run_id
                      WHERE a.status IN ('queued','running') AND i.status IN ('pending','claimed')), 0)::int AS waiting,
           coalesce(extract(epoch FROM now() - min(r.created_at)), 0)::float8 AS oldest
      FROM eval_runs r WHERE r.status IN ('queued','running')`.execute(db);
  const row = r.rows[0];
  return {
    queued: Number(row?.queued ?? 0),
    running: Number(row?.running ?? 0),
    waitingItems: Number(row?.waiting ?? 0),
    oldestSeconds: Number(row?.oldest ?? 0),
  };
}
