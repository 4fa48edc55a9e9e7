/**
 * @module storage/judge-scores
 * Judge scores (migration 0005): verdicts and judge failures per judged model × item × judge × rubric version
 * (× baseline for pairwise judging), and judge verdicts on arena battles, which live in their own table and are
 * never read as votes.
 */
import type {
  ExpressionBuilder,
  Kysely,
  OnConflictTables,
  OnConflictUpdateDatabase,
  Transaction,
} from 'kysely';

import { sql } from 'kysely';
import { inKeyOrder, type KeyPart } from './key-order.ts';
import type { Database, VoteChoice } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** One judge score to store (a verdict or a failure). */
export interface JudgeScoreSpec {
  readonly modelId: number;
  readonly itemId: number;
  /** Set for pairwise judging (the model against this baseline). */
  readonly baselineModelId?: number | null;
  readonly judge: string;
  readonly rubric: string;
  readonly rubricVersion: string;
  readonly responseId?: number | null;
  readonly runId?: number | null;
  readonly status: 'judged' | 'failed';
  /** Single judging: points given (item points). */
  readonly rawScore?: number | null;
  readonly maxScore?: number | null;
  /** Pairwise judging: 1 = baseline better, 1.5 = tie, 2 = model better (AlpacaEval's preference). */
  readonly preference?: number | null;
  /** Safety violation: true flagged, false clean, null not checked. */
  readonly safetyFlag?: boolean | null;
  readonly failureCode?: string | null;
  readonly failureMessage?: string | null;
  readonly attempts?: number;
  /** Replies and parsed verdicts, for audit (JSON-serialisable). */
  readonly judgeOutput?: unknown;
  readonly source?: 'live' | 'import';
}

function row(s: JudgeScoreSpec) {
  return {
    model_id: s.modelId,
    item_id: s.itemId,
    kind: s.baselineModelId != null ? ('pairwise' as const) : ('single' as const),
    baseline_model_id: s.baselineModelId ?? null,
    judge: s.judge,
    rubric: s.rubric,
    rubric_version: s.rubricVersion,
    response_id: s.responseId ?? null,
    run_id: s.runId ?? null,
    status: s.status,
    raw_score: s.rawScore ?? null,
    max_score: s.maxScore ?? null,
    preference: s.preference ?? null,
    safety_flag: s.safetyFlag ?? null,
    failure_code: s.failureCode ?? null,
    failure_message: s.failureMessage ?? null,
    attempts: s.attempts ?? 1,
    judge_output: s.judgeOutput === undefined ? null : JSON.stringify(s.judgeOutput),
    source: s.source ?? 'live',
  };
}

/** The columns a re-judged or re-imported score replaces (both conflict targets: single and pairwise). */
function replaceWithExcluded(
  eb: ExpressionBuilder<
    OnConflictUpdateDatabase<Database, 'judge_scores'>,
    OnConflictTables<'judge_scores'>
  >,
) {
  return {
    response_id: eb.ref('excluded.response_id'),
    run_id: eb.ref('excluded.run_id'),
    status: eb.ref('excluded.status'),
    raw_score: eb.ref('excluded.raw_score'),
    max_score: eb.ref('excluded.max_score'),
    preference: eb.ref('excluded.preference'),
    safety_flag: eb.ref('excluded.safety_flag'),
    failure_code: eb.ref('excluded.failure_code'),
    failure_message: eb.ref('excluded.failure_message'),
    attempts: eb.ref('excluded.attempts'),
    judge_output: eb.ref('excluded.judge_output'),
    source: eb.ref('excluded.source'),
    updated_at: new Date(),
  };
}

/** The unique key of a stored judge score: model, item, baseline (null when single), judge, rubric, version. */
export function judgeScoreKey(s: JudgeScoreSpec): KeyPart[] {
  return [s.modelId, s.itemId, s.baselineModelId ?? null, s.judge, s.rubric, s.rubricVersion];
}

/**
 * Stores judge scores; a row with the same key (model, item, [baseline,] judge, rubric, version) is replaced, so
 * re-judging a failed item overwrites its failure, and re-importing changes nothing.
 * @returns how many rows were written.
 */
export async function upsertJudgeScores(
  db: Conn,
  specs: readonly JudgeScoreSpec[],
): Promise<number> {
  let written = 0;
  // In key order, so concurrent imports of the same judgments cannot deadlock (storage/key-order).
  const rows = inKeyOrder(specs, judgeScoreKey).map(row);
  const single = rows.filter((r) => r.baseline_model_id === null);
  const pairwise = rows.filter((r) => r.baseline_model_id !== null);
  for (let i = 0; i < single.length; i += 500) {
    const r = await db
      .insertInto('judge_scores')
      .values(single.slice(i, i + 500))
      .onConflict((oc) =>
        oc
          .columns(['model_id', 'item_id', 'judge', 'rubric', 'rubric_version'])
          .where('baseline_model_id', 'is', null)
          .doUpdateSet(replaceWithExcluded),
      )
      .executeTakeFirst();
    written += Number(r.numInsertedOrUpdatedRows ?? 0n);
  }
  for (let i = 0; i < pairwise.length; i += 500) {
    const r = await db
      .insertInto('judge_scores')
      .values(pairwise.slice(i, i + 500))
      .onConflict((oc) =>
        oc
          .columns([
            'model_id',
            'item_id',
            'baseline_model_id',
            'judge',
            'rubric',
            'rubric_version',
          ])
          .where('baseline_model_id', 'is not', null)
          .doUpdateSet(replaceWithExcluded),
      )
      .executeTakeFirst();
    written += Number(r.numInsertedOrUpdatedRows ?? 0n);
  }
  return written;
}

/** A stored judge score with its item's dataset, for reports. */
export interface JudgeScoreRow {
  readonly itemId: number;
  readonly itemKey: string;
  readonly dataset: string;
  readonly ability: string;
  readonly kind: 'single' | 'pairwise';
  readonly baseline: string | null;
  readonly judge: string;
  readonly rubric: string;
  readonly rubricVersion: string;
  readonly status: 'judged' | 'failed';
  readonly rawScore: number | null;
  readonly maxScore: number | null;
  readonly preference: number | null;
  readonly safetyFlag: boolean | null;
  readonly failureCode: string | null;
  readonly failureMessage: string | null;
  readonly attempts: number;
  /** Attempts spent on a failed safety-violation check (`judge_output.safety.attempts`); null otherwise. */
  readonly safetyAttempts: number | null;
}

/** Filters of {@link listJudgeScores}. */
export interface JudgeScoreFilter {
  readonly modelId: number;
  readonly judge?: string;
  readonly baselineModelId?: number;
  readonly rubric?: string;
  readonly rubricVersion?: string;
  readonly status?: 'judged' | 'failed';
  readonly itemIds?: readonly number[];
}

/** `judge_scores` (as `s`) rows matching `f`, before any join or column (for {@link listJudgeScores} and {@link listJudgeScoreStates}). */
function scoresMatching(db: Conn, f: JudgeScoreFilter) {
  let q = db.selectFrom('judge_scores as s').where('s.model_id', '=', f.modelId);
  if (f.judge !== undefined) q = q.where('s.judge', '=', f.judge);
  if (f.baselineModelId !== undefined) q = q.where('s.baseline_model_id', '=', f.baselineModelId);
  if (f.rubric !== undefined) q = q.where('s.rubric', '=', f.rubric);
  if (f.rubricVersion !== undefined) q = q.where('s.rubric_version', '=', f.rubricVersion);
  if (f.status !== undefined) q = q.where('s.status', '=', f.status);
  if (f.itemIds !== undefined) q = q.where('s.item_id', 'in', [...f.itemIds]);
  return q;
}

/** The columns of a stored grade both listings give (see {@link JudgeScoreState}). */
const STATE_COLUMNS = [
  's.item_id as itemId',
  's.kind as kind',
  's.judge as judge',
  's.rubric as rubric',
  's.rubric_version as rubricVersion',
  's.status as status',
  's.raw_score as rawScore',
  's.max_score as maxScore',
  's.preference as preference',
  's.safety_flag as safetyFlag',
  's.failure_code as failureCode',
  's.failure_message as failureMessage',
  's.attempts as attempts',
] as const;

/** The safety check's attempts when it failed (kept in the judge's output), else null. */
const safetyAttempts = () =>
  sql<
    number | null
  >`CASE WHEN s.judge_output->'safety' ? 'failure' THEN (s.judge_output->'safety'->>'attempts')::int END`.as(
    'safetyAttempts',
  );

/** A row's numeric columns (returned as text by the driver) as numbers. */
function numbersOf<R extends { rawScore: unknown; maxScore: unknown; preference: unknown }>(r: R) {
  return {
    ...r,
    rawScore: r.rawScore === null ? null : Number(r.rawScore),
    maxScore: r.maxScore === null ? null : Number(r.maxScore),
    preference: r.preference === null ? null : Number(r.preference),
  };
}

/** The judge scores of one model (optionally one judge / baseline / rubric), ordered by dataset and item key. */
export async function listJudgeScores(db: Conn, f: JudgeScoreFilter): Promise<JudgeScoreRow[]> {
  if (f.itemIds !== undefined && f.itemIds.length === 0) return [];
  const rows = await scoresMatching(db, f)
    .innerJoin('items as i', 'i.id', 's.item_id')
    .innerJoin('datasets as d', 'd.id', 'i.dataset_id')
    .leftJoin('models as b', 'b.id', 's.baseline_model_id')
    .select([
      ...STATE_COLUMNS,
      'i.key as itemKey',
      'd.name as dataset',
      'i.ability as ability',
      'b.name as baseline',
      safetyAttempts(),
    ])
    .orderBy('d.name')
    .orderBy('i.key')
    .orderBy('s.judge')
    .execute();
  return rows.map(numbersOf);
}

/** A stored judge score as the judge reads it back: a {@link JudgeScoreRow} without the item's and baseline's names. */
export type JudgeScoreState = Omit<JudgeScoreRow, 'itemKey' | 'dataset' | 'ability' | 'baseline'>;

/**
 * The judge scores matching `f`, as {@link listJudgeScores} gives them but without the names of the item and the
 * baseline: one index read of `judge_scores`, no join (the judge checks an item's stored grade before and after
 * judging it, once per item of an evaluation run). In no particular order.
 */
export async function listJudgeScoreStates(
  db: Conn,
  f: JudgeScoreFilter,
): Promise<JudgeScoreState[]> {
  if (f.itemIds !== undefined && f.itemIds.length === 0) return [];
  const rows = await scoresMatching(db, f)
    .select([...STATE_COLUMNS, safetyAttempts()])
    .execute();
  return rows.map(numbersOf);
}

/** A judge verdict on an arena battle to store. */
export interface BattleJudgmentSpec {
  readonly battleId: number;
  readonly judge: string;
  readonly rubricVersion: string;
  readonly status: 'judged' | 'failed';
  readonly choice?: VoteChoice | null;
  readonly failureCode?: string | null;
  readonly failureMessage?: string | null;
  readonly attempts?: number;
  readonly judgeOutput?: unknown;
}

/** Stores judge verdicts on battles (replacing an earlier one of the same judge and version). */
export async function upsertBattleJudgments(
  db: Conn,
  specs: readonly BattleJudgmentSpec[],
): Promise<void> {
  if (specs.length === 0) return;
  await db
    .insertInto('battle_judgments')
    .values(
      // In key order, so concurrent writers of the same verdicts cannot deadlock (storage/key-order).
      inKeyOrder(specs, (s) => [s.battleId, s.judge, s.rubricVersion]).map((s) => ({
        battle_id: s.battleId,
        judge: s.judge,
        rubric_version: s.rubricVersion,
        status: s.status,
        choice: s.choice ?? null,
        failure_code: s.failureCode ?? null,
        failure_message: s.failureMessage ?? null,
        attempts: s.attempts ?? 1,
        judge_output: s.judgeOutput === undefined ? null : JSON.stringify(s.judgeOutput),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['battle_id', 'judge', 'rubric_version']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        choice: eb.ref('excluded.choice'),
        failure_code: eb.ref('excluded.failure_code'),
        failure_message: eb.ref('excluded.failure_message'),
        attempts: eb.ref('excluded.attempts'),
        judge_output: eb.ref('excluded.judge_output'),
        updated_at: new Date(),
      })),
    )
    .execute();
}

/** One battle with the judge's verdict and the crowd's live votes, for judge-vs-crowd agreement. */
export interface JudgedBattleRow {
  readonly battleId: number;
  readonly judge: string;
  readonly status: 'judged' | 'failed';
  readonly judgeChoice: VoteChoice | null;
  /** The crowd's live (not retracted) votes on the battle, one per voter. */
  readonly votes: readonly VoteChoice[];
}

/**
 * Judge verdicts on battles of one source (default `arena`), each with the crowd's live votes. Reads both tables
 * side by side and never writes either into the other.
 */
export async function listBattleJudgments(
  db: Conn,
  opts: { readonly judge?: string; readonly source?: string } = {},
): Promise<JudgedBattleRow[]> {
  let q = db
    .selectFrom('battle_judgments as j')
    .innerJoin('battles as b', 'b.id', 'j.battle_id')
    .select(['j.battle_id as battleId', 'j.judge as judge', 'j.status as status', 'j.choice'])
    .where('b.source', '=', opts.source ?? 'arena');
  if (opts.judge !== undefined) q = q.where('j.judge', '=', opts.judge);
  const judged = await q.orderBy('j.battle_id').orderBy('j.judge').execute();
  if (judged.length === 0) return [];
  const ids = [...new Set(judged.map((r) => r.battleId))];
  const votes = new Map<number, VoteChoice[]>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('votes')
      .select(['battle_id', 'choice'])
      .where('battle_id', 'in', ids.slice(i, i + 1000))
      .where('retracted_at', 'is', null)
      .execute();
    for (const r of rows) {
      const list = votes.get(r.battle_id) ?? [];
      list.push(r.choice);
      votes.set(r.battle_id, list);
    }
  }
  return judged.map((r) => ({
    battleId: r.battleId,
    judge: r.judge,
    status: r.status,
    judgeChoice: r.choice,
    votes: votes.get(r.battleId) ?? [],
  }));
}

/** A model's stored answer to one item of a dataset. */
export interface StoredAnswer {
  readonly itemId: number;
  readonly key: string;
  readonly responseId: number;
  readonly output: string;
}

/**
 * The latest stored answer of a model to each item of a dataset (by item key), whatever request produced it (an
 * evaluation run, or recorded outputs). Items the model has not answered are absent.
 */
export async function latestAnswers(
  db: Conn,
  modelId: number,
  dataset: string,
): Promise<Map<string, StoredAnswer>> {
  const rows = await db
    .selectFrom('responses as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .innerJoin('datasets as d', 'd.id', 'i.dataset_id')
    .select(['r.item_id as itemId', 'i.key as key', 'r.id as responseId', 'r.output as output'])
    .where('r.model_id', '=', modelId)
    .where('d.name', '=', dataset)
    .orderBy('r.id')
    .execute();
  const out = new Map<string, StoredAnswer>();
  for (const r of rows) {
    if (r.itemId !== null) out.set(r.key, { ...r, itemId: r.itemId });
  }
  return out;
}

/** One judge grade as `zhujiu judge export` writes it. */
export interface ExportedGrade {
  readonly model: string;
  readonly dataset: string;
  readonly itemKey: string;
  /** The judge's grade in the rubric's points (before any safety-violation adjustment). */
  readonly rawScore: number;
}

/**
 * The single-answer grades of one judge, latest per model and item (any rubric version, as the board reads them),
 * ordered by model, dataset and item key; optionally one model and one dataset. Also how many (model, item) pairs
 * that judge failed on and never graded (they have no label).
 */
export async function judgeGradesOf(
  db: Conn,
  f: { readonly judge: string; readonly model?: string; readonly dataset?: string },
): Promise<{ grades: ExportedGrade[]; failures: number }> {
  let q = db
    .selectFrom('judge_scores as s')
    .innerJoin('models as m', 'm.id', 's.model_id')
    .innerJoin('items as i', 'i.id', 's.item_id')
    .innerJoin('datasets as d', 'd.id', 'i.dataset_id')
    .where('s.kind', '=', 'single')
    .where('s.judge', '=', f.judge);
  if (f.model !== undefined) q = q.where('m.name', '=', f.model);
  if (f.dataset !== undefined) q = q.where('d.name', '=', f.dataset);
  const rows = await q
    .where('s.status', '=', 'judged')
    .where('s.raw_score', 'is not', null)
    .distinctOn(['m.name', 'd.name', 'i.key'])
    .select(['m.name as model', 'd.name as dataset', 'i.key as itemKey', 's.raw_score as rawScore'])
    .orderBy('m.name')
    .orderBy('d.name')
    .orderBy('i.key')
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  const failed = await q
    .where('s.status', '=', 'failed')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('judge_scores as k')
            .select('k.id')
            .whereRef('k.model_id', '=', 's.model_id')
            .whereRef('k.item_id', '=', 's.item_id')
            .whereRef('k.judge', '=', 's.judge')
            .where('k.kind', '=', 'single')
            .where('k.status', '=', 'judged'),
        ),
      ),
    )
    .select(sql<string>`count(DISTINCT (s.model_id, s.item_id))`.as('n'))
    .executeTakeFirst();
  return {
    grades: rows.map((r) => ({ ...r, rawScore: Number(r.rawScore) })),
    failures: Number(failed?.n ?? 0),
  };
}

/** The names of every judge with single-answer grades stored, sorted (for an error that lists them). */
export async function singleAnswerJudges(db: Conn): Promise<string[]> {
  const rows = await db
    .selectFrom('judge_scores')
    .select('judge')
    .distinct()
    .where('kind', '=', 'single')
    .orderBy('judge')
    .execute();
  return rows.map((r) => r.judge);
}
