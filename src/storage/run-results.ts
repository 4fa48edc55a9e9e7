/**
 * @module storage/run-results
 * Item-level results of an evaluation run, read a page at a time: each finished item (`eval_run_items` done or
 * failed) with its prompt (`items`), its answer and reasoning (`responses`), its score and what the scorer
 * extracted (`item_scores`), and, for judged items, the judge's grade, safety verdict and reply (`judge_scores`).
 *
 * Pages are keyset pages on the run's primary key `(run_id, item_id)`: a page is an index range scan that starts
 * after the last item id of the previous page, so reading a run of any size holds one page in memory and every
 * page costs the same. The page view may also ask for an offset (a page number typed in the address), which
 * walks the same index. Every joined row is found by an index: the score by `item_scores (run_id, item_id, metric)`,
 * the answer by its id (a failed item's latest answer by `responses (item_id)`), the grade by
 * `judge_scores_single_key`.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { runsWithProgress } from './eval-runs.ts';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** Which finished items of a run to read. All given filters must hold. */
export interface RunItemFilter {
  /** The dataset's name as the run planned it (`eval_run_items.dataset`). */
  readonly dataset?: string | undefined;
  /** The item's ability (`items.ability`). */
  readonly ability?: string | undefined;
  /** true: only failed items; false: only scored ones; omitted: both. */
  readonly failed?: boolean | undefined;
  /**
   * Scored items by score: `correct` (full marks), `wrong` (less than full marks), or a closed range of the
   * fraction raw ÷ max in [0, 1]. Failed items never match a score filter.
   */
  readonly score?: ScoreFilter | undefined;
}

/** See {@link RunItemFilter.score}. */
export type ScoreFilter =
  | { readonly kind: 'correct' }
  | { readonly kind: 'wrong' }
  | { readonly kind: 'range'; readonly min: number; readonly max: number };

/** One finished item of a run, as stored. */
export interface RunItemRow {
  /** `items.id`: the page key. */
  readonly itemId: number;
  /** The item's own id in its dataset (`items.key`). */
  readonly itemKey: string;
  readonly dataset: string;
  readonly ability: string;
  readonly status: 'done' | 'failed';
  readonly prompt: string;
  /** The model's answer (the last one, for an item of several requests), or null when none was stored. */
  readonly answer: string | null;
  /** The model's reasoning, kept apart from the answer; null when it gave none. */
  readonly reasoning: string | null;
  readonly metric: string | null;
  readonly profile: string | null;
  readonly rawScore: number | null;
  readonly maxScore: number | null;
  /** What the scorer extracted or compared (`item_scores.detail`). */
  readonly detail: Record<string, unknown> | null;
  readonly failureCode: string | null;
  readonly failureMessage: string | null;
  readonly latencyMs: number | null;
  readonly cached: boolean | null;
  /** The judge's stored grade for this answer, when the item was judged (or its judging failed). */
  readonly judge: {
    readonly name: string;
    readonly status: 'judged' | 'failed';
    readonly rawScore: number | null;
    readonly maxScore: number | null;
    readonly safetyViolation: boolean | null;
    readonly output: unknown;
    readonly failureCode: string | null;
    readonly failureMessage: string | null;
  } | null;
}

type RawRow = {
  item_id: number | string;
  item_key: string;
  dataset: string;
  ability: string;
  status: 'done' | 'failed';
  prompt: string;
  answer: string | null;
  reasoning: string | null;
  metric: string | null;
  profile: string | null;
  raw_score: number | string | null;
  max_score: number | string | null;
  detail: unknown;
  failure_code: string | null;
  failure_message: string | null;
  latency_ms: number | null;
  cached: boolean | null;
  judge: string | null;
  judge_status: 'judged' | 'failed' | null;
  judge_score: number | string | null;
  judge_max: number | string | null;
  judge_safety: boolean | null;
  judge_output: unknown;
  judge_failure_code: string | null;
  judge_failure_message: string | null;
};

function num(v: number | string | null): number | null {
  return v === null ? null : Number(v);
}

function json(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}

function toRow(x: RawRow): RunItemRow {
  const detail = json(x.detail);
  return {
    itemId: Number(x.item_id),
    itemKey: x.item_key,
    dataset: x.dataset,
    ability: x.ability,
    status: x.status,
    prompt: x.prompt,
    answer: x.answer,
    reasoning: x.reasoning,
    metric: x.metric,
    profile: x.profile,
    rawScore: num(x.raw_score),
    maxScore: num(x.max_score),
    detail: detail && typeof detail === 'object' ? (detail as Record<string, unknown>) : null,
    failureCode: x.failure_code,
    failureMessage: x.failure_message,
    latencyMs: x.latency_ms,
    cached: x.cached,
    judge:
      x.judge === null || x.judge_status === null
        ? null
        : {
            name: x.judge,
            status: x.judge_status,
            rawScore: num(x.judge_score),
            maxScore: num(x.judge_max),
            safetyViolation: x.judge_safety,
            output: json(x.judge_output),
            failureCode: x.judge_failure_code,
            failureMessage: x.judge_failure_message,
          },
  };
}

function filterSql(f: RunItemFilter) {
  const parts = [];
  if (f.dataset !== undefined) parts.push(sql`AND ri.dataset = ${f.dataset}`);
  if (f.ability !== undefined) parts.push(sql`AND i.ability = ${f.ability}`);
  if (f.failed === true) parts.push(sql`AND ri.status = 'failed'`);
  if (f.failed === false) parts.push(sql`AND ri.status = 'done'`);
  const s = f.score;
  if (s?.kind === 'correct') parts.push(sql`AND s.raw_score >= s.max_score`);
  if (s?.kind === 'wrong') parts.push(sql`AND s.raw_score < s.max_score`);
  if (s?.kind === 'range')
    parts.push(sql`AND s.raw_score / s.max_score BETWEEN ${s.min} AND ${s.max}`);
  return parts.length === 0 ? sql`` : sql.join(parts, sql` `);
}

/**
 * One page of a run's finished items (done or failed), in item-id order.
 * @param runId the run (`eval_runs.id`); its model is read from the run.
 * @param page `after`: the last item id of the previous page (keyset; 0 or omitted for the first page); `offset`:
 *   rows to skip after that (a page number typed in the address; 0 by default); `limit`: rows, 1–10,000.
 * @returns up to `limit` rows; fewer means the last page.
 */
export async function runItemsPage(
  db: Conn,
  runId: number,
  filter: RunItemFilter,
  page: { readonly after?: number; readonly offset?: number; readonly limit: number },
): Promise<RunItemRow[]> {
  const limit = Math.min(10_000, Math.max(1, Math.floor(page.limit)));
  const offset = Math.max(0, Math.floor(page.offset ?? 0));
  const r = await sql<RawRow>`
    SELECT ri.item_id, i.key AS item_key, ri.dataset, i.ability, ri.status, i.prompt,
           coalesce(kept.output, latest.output) AS answer,
           CASE WHEN kept.id IS NOT NULL THEN kept.reasoning ELSE latest.reasoning END AS reasoning,
           s.metric, s.profile, s.raw_score, s.max_score, s.detail,
           ri.failure_code, ri.failure_message, ri.latency_ms, ri.cached,
           j.judge, j.status AS judge_status, j.raw_score AS judge_score, j.max_score AS judge_max,
           j.safety_flag AS judge_safety, j.judge_output, j.failure_code AS judge_failure_code,
           j.failure_message AS judge_failure_message
      FROM eval_run_items ri
      JOIN eval_runs run ON run.id = ri.run_id
      JOIN items i ON i.id = ri.item_id
      LEFT JOIN LATERAL (
        SELECT sc.response_id, sc.metric, sc.profile, sc.raw_score, sc.max_score, sc.detail
          FROM item_scores sc
         WHERE sc.run_id = ri.run_id AND sc.item_id = ri.item_id
         ORDER BY sc.id LIMIT 1) s ON true
      LEFT JOIN responses kept ON kept.id = coalesce(s.response_id, ri.response_id)
      LEFT JOIN LATERAL (
        SELECT r.output, r.reasoning FROM responses r
         WHERE kept.id IS NULL AND r.model_id = run.model_id AND r.item_id = ri.item_id
         ORDER BY r.id DESC LIMIT 1) latest ON true
      LEFT JOIN LATERAL (
        SELECT js.judge, js.status, js.raw_score, js.max_score, js.safety_flag, js.judge_output,
               js.failure_code, js.failure_message
          FROM judge_scores js
         WHERE js.model_id = run.model_id AND js.item_id = ri.item_id AND js.kind = 'single'
           AND (s.metric = 'judge' OR ri.failure_code LIKE 'judge%' OR ri.failure_code = 'safety_check_failed')
           AND (s.detail ->> 'judge' IS NULL OR js.judge = s.detail ->> 'judge')
         ORDER BY (js.run_id = ri.run_id) DESC NULLS LAST, js.updated_at DESC
         LIMIT 1) j ON true
     WHERE ri.run_id = ${runId} AND ri.item_id > ${page.after ?? 0}
       AND ri.status IN ('done', 'failed')
       ${filterSql(filter)}
     ORDER BY ri.item_id
     LIMIT ${limit} OFFSET ${offset}`.execute(db);
  return r.rows.map(toRow);
}

/** The datasets a run planned, in plan order. */
export async function runDatasetNames(db: Conn, runId: number): Promise<string[]> {
  const r = await sql<{ dataset: string }>`
    SELECT dataset FROM eval_run_items WHERE run_id = ${runId} GROUP BY dataset ORDER BY min(seq)`.execute(
    db,
  );
  return r.rows.map((x) => x.dataset);
}

/** The abilities of a run's items, sorted. */
export async function runAbilities(db: Conn, runId: number): Promise<string[]> {
  const r = await sql<{ ability: string }>`
    SELECT DISTINCT i.ability FROM eval_run_items ri JOIN items i ON i.id = ri.item_id
     WHERE ri.run_id = ${runId} ORDER BY i.ability`.execute(db);
  return r.rows.map((x) => x.ability);
}

/** A run as the results views list it. */
export interface RunListRow {
  readonly id: number;
  readonly model: string;
  readonly suite: string;
  readonly status: string;
  readonly done: number;
  readonly failed: number;
  readonly total: number;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

/**
 * Runs, newest first, a page at a time: up to `limit` runs with an id below `before` (keyset on the primary key;
 * omitted: from the newest).
 */
export async function listRunsPage(
  db: Conn,
  page: { readonly before?: number; readonly limit: number },
): Promise<RunListRow[]> {
  // The progress as the runs' items hold it, as `zhujiu results --run` reads them (storage/eval-runs.ts).
  let q = runsWithProgress(db)
    .select(['r.id', 'm.name as model', 'r.suite', 'r.status', 'r.created_at', 'r.finished_at'])
    .orderBy('r.id', 'desc')
    .limit(Math.max(1, Math.floor(page.limit)));
  if (page.before !== undefined) q = q.where('r.id', '<', page.before);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: Number(r.id),
    model: r.model,
    suite: r.suite,
    status: r.status,
    done: r.progress_done,
    failed: r.progress_failed,
    total: r.progress_total,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  }));
}
