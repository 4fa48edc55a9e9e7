/**
 * @module eval/run-item
 * Works one planned item of a run: builds its prompt, asks the model, and scores the answer with its dataset's
 * metric (docs/scoring.md §2) or, for a scoring dataset, has the judge grade it (docs/scoring.md §3). The result is
 * an outcome to store (storage/eval-runs `ItemOutcome`), or nothing when the run is stopping and the item is given
 * back with the other claims. Per-item faults are outcomes, never thrown; an error of the run's own bookkeeping (the
 * database refused the judge's grade) is thrown.
 */
import type { Kysely } from 'kysely';
import { isAppError } from '../core/errors.ts';
import { t } from '../i18n/index.ts';
import type { ChatMessage, CompletionResult, LlmClient } from '../llm/types.ts';
import type { ItemOutcome } from '../storage/eval-runs.ts';
import type { JudgeScoreRow } from '../storage/judge-scores.ts';
import type { Database } from '../storage/schema.ts';
import { judgeAnswers } from './judge/judge.ts';
import type { Rubric } from './judge/rubrics.ts';
import { batchedJudgeScoreStore, type JudgeScoreStore } from './judge/score-store.ts';
import type { PlannedEntry } from './run-plan.ts';
import type { MultiRequest, PreparedDataset } from './types.ts';

/** A model's answer. */
export type Answered = Extract<CompletionResult, { ok: true }>;

/** The score part of a done outcome. */
export type OutcomeScore = Extract<ItemOutcome, { kind: 'done' }>['score'];

/** The judge of a run's scoring datasets, as {@link workItem} uses it. */
export interface ItemJudge {
  /** Whether the items of `ds` are graded by the judge (instead of the dataset's own metric). */
  grades(ds: PreparedDataset): boolean;
  /** Grades `answer` to `entry`'s item: the outcome, or nothing when the run is stopping. */
  grade(itemId: number, entry: PlannedEntry, answer: Answered): Promise<ItemOutcome | undefined>;
}

/** What {@link workItem} works with. */
export interface ItemContext {
  readonly client: LlmClient;
  /** The run's stop signal: in-flight requests are aborted with it. */
  readonly signal: AbortSignal;
  /** Longest prompt, characters (UTF-16 code units) over all messages; a longer one is not sent. */
  readonly maxPromptChars: number;
  /** The run's suite (named when a planned item is no longer in it). */
  readonly suite: string;
  readonly judge?: ItemJudge | undefined;
}

/** A failed outcome. */
function failed(code: string, message: string, latencyMs: number): ItemOutcome {
  return { kind: 'failed', code, message, latencyMs };
}

/** The done outcome of an answered item: the answer's bookkeeping from `res`, the score as given. Pure. */
export function doneOutcome(res: Answered, score: OutcomeScore): ItemOutcome {
  return {
    kind: 'done',
    responseId: res.responseId ?? null,
    cached: res.cached,
    latencyMs: res.latencyMs,
    promptTokens: res.promptTokens,
    completionTokens: res.completionTokens,
    score,
  };
}

/** One request's answer, or the outcome that ends the item instead (undefined: aborted, the item is given back). */
type Asked = { readonly res: Answered } | { readonly outcome: ItemOutcome | undefined };

/**
 * Sends one request of item `itemId` (`messages`, with the dataset's template version) through the run's client:
 * its answer, or the item's failure (`prompt_too_long` without a call, the endpoint's code, `client_error`), or
 * an undefined outcome when the request was aborted.
 * @throws AppError `db_unavailable` from the client's response cache (the lane stops; the item is asked later).
 */
async function ask(
  ctx: ItemContext,
  itemId: number,
  ds: PreparedDataset,
  messages: readonly ChatMessage[],
): Promise<Asked> {
  const chars = messages.reduce((n, m) => n + m.content.length, 0);
  if (chars > ctx.maxPromptChars)
    return {
      outcome: failed(
        'prompt_too_long',
        // In English, as stored; eval/failure-cause.ts says it in the reader's language.
        t('en', 'evalSummary.cause.promptTooLong', { chars, max: ctx.maxPromptChars }),
        0,
      ),
    };
  let res: CompletionResult;
  try {
    res = await ctx.client.complete({
      messages,
      templateVersion: ds.templateVersion,
      itemId,
      signal: ctx.signal,
    });
  } catch (err) {
    // The database failing under the client (its response cache) is not this item's fault: the lane stops and
    // the run is taken up again (its job is retried, or the sweep queues it), so the item is asked later.
    if (isAppError(err, 'db_unavailable')) throw err;
    // The client reports endpoint faults as results; one it throws (a reply it could not read) is this item's
    // failure, with its cause, and the run goes on.
    const detail = errorText(err);
    return {
      outcome: failed('client_error', t('en', 'evalSummary.cause.clientThrew', { detail }), 0),
    };
  }
  if (!res.ok && res.code === 'aborted') return { outcome: undefined }; // given back with the other claims
  if (!res.ok) return { outcome: failed(res.code, res.message, res.latencyMs) };
  return { res };
}

/**
 * Works item `itemId` of the plan (`entry`; absent when the suite no longer has it: failure `not_in_suite`). An
 * item whose dataset gives several requests (`PreparedDataset.requests`) is worked by {@link workMultiRequest}.
 * @returns the outcome to store, or `undefined` when the request was aborted (the item is given back).
 */
export async function workItem(
  ctx: ItemContext,
  itemId: number,
  entry: PlannedEntry | undefined,
): Promise<ItemOutcome | undefined> {
  if (!entry)
    return failed('not_in_suite', t('en', 'evalSummary.cause.notInSuite', { suite: ctx.suite }), 0);
  const { ds, item } = entry;
  const multi = ds.requests?.(item);
  if (multi) return workMultiRequest(ctx, itemId, entry, multi);
  const asked = await ask(ctx, itemId, ds, ds.messages(item));
  if (!('res' in asked)) return asked.outcome;
  if (ctx.judge?.grades(ds)) return ctx.judge.grade(itemId, entry, asked.res);
  return metricOutcome(entry, asked.res);
}

/**
 * Works a multi-request item (eval/types `MultiRequest`): `follow_up` asks `messages(item)`, then each follow-up
 * after the conversation so far and the model's previous answer; `independent` asks each variant on its own. Every
 * request goes through the client (and its response cache) as a single one does. The first failed request (in
 * request order) fails the item with its cause; an aborted one gives the item back. The answers are scored
 * together by `scoreAnswers`; the outcome's detail keeps every answer (`answers`) and its stored response
 * (`response_ids`), its latency and tokens are the sums, `responseId` the last answer's, `cached` whether all were.
 */
export async function workMultiRequest(
  ctx: ItemContext,
  itemId: number,
  entry: PlannedEntry,
  multi: MultiRequest,
): Promise<ItemOutcome | undefined> {
  const { ds, item } = entry;
  const answers: Answered[] = [];
  const total = multi.kind === 'follow_up' ? multi.followUps.length + 1 : multi.variants.length;
  const failedAt = (i: number, o: ItemOutcome | undefined): ItemOutcome | undefined =>
    o?.kind === 'failed'
      ? {
          ...o,
          message: `request ${i + 1} of ${total}: ${o.message}`,
          latencyMs: o.latencyMs + sumLatency(answers),
        }
      : o;
  if (multi.kind === 'follow_up') {
    let history: ChatMessage[] = ds.messages(item);
    for (let i = 0; i < total; i++) {
      if (i > 0) {
        const prev = answers[i - 1] as Answered;
        history = [
          ...history,
          { role: 'assistant', content: prev.text },
          { role: 'user', content: multi.followUps[i - 1] as string },
        ];
      }
      const asked = await ask(ctx, itemId, ds, history);
      if (!('res' in asked)) return failedAt(i, asked.outcome);
      answers.push(asked.res);
    }
  } else {
    const all = await Promise.all(multi.variants.map((v) => ask(ctx, itemId, ds, v)));
    for (const a of all) if ('res' in a) answers.push(a.res);
    // Aborted first (the item is given back whole), then the first failure in request order.
    if (all.some((a) => !('res' in a) && a.outcome === undefined)) return undefined;
    const bad = all.findIndex((a) => !('res' in a));
    if (bad >= 0) return failedAt(bad, (all[bad] as { outcome: ItemOutcome }).outcome);
  }
  return multiOutcome(entry, answers);
}

function sumLatency(answers: readonly Answered[]): number {
  return answers.reduce((n, a) => n + a.latencyMs, 0);
}

function sumOf(
  answers: readonly Answered[],
  k: 'promptTokens' | 'completionTokens',
): number | undefined {
  if (answers.every((a) => a[k] === undefined)) return undefined;
  return answers.reduce((n, a) => n + (a[k] ?? 0), 0);
}

/** Scores the answers of a multi-request item with `scoreAnswers`; a missing or throwing scorer is `score_error`. */
function multiOutcome(entry: PlannedEntry, answers: readonly Answered[]): ItemOutcome {
  const { ds, item } = entry;
  const latencyMs = sumLatency(answers);
  if (!ds.scoreAnswers)
    return failed(
      'score_error',
      `dataset ${ds.name} asks several requests per item but has no scoreAnswers`,
      latencyMs,
    );
  let score: ReturnType<PreparedDataset['score']>;
  try {
    score = ds.scoreAnswers(
      item,
      answers.map((a) => a.text),
    );
  } catch (err) {
    return failed(
      'score_error',
      t('en', 'evalSummary.cause.scoringFailed', { detail: errorText(err) }),
      latencyMs,
    );
  }
  const last = answers[answers.length - 1] as Answered;
  const promptTokens = sumOf(answers, 'promptTokens');
  const completionTokens = sumOf(answers, 'completionTokens');
  return {
    kind: 'done',
    responseId: last.responseId ?? null,
    cached: answers.every((a) => a.cached),
    latencyMs,
    ...(promptTokens !== undefined ? { promptTokens } : {}),
    ...(completionTokens !== undefined ? { completionTokens } : {}),
    score: {
      method: ds.method,
      metric: score.metric,
      profile: score.profile,
      raw: score.raw,
      max: score.max,
      detail: {
        ...score.detail,
        answers: answers.map((a) => a.text),
        response_ids: answers.map((a) => a.responseId ?? null),
      },
    },
  };
}

/** Scores `res` with the dataset's own metric; a metric that throws is failure `score_error`. */
export function metricOutcome(entry: PlannedEntry, res: Answered): ItemOutcome {
  const { ds, item } = entry;
  let score: ReturnType<PreparedDataset['score']>;
  try {
    score = ds.score(item, res.text);
  } catch (err) {
    return failed(
      'score_error',
      t('en', 'evalSummary.cause.scoringFailed', { detail: errorText(err) }),
      res.latencyMs,
    );
  }
  return doneOutcome(res, {
    method: ds.method,
    metric: score.metric,
    profile: score.profile,
    raw: score.raw,
    max: score.max,
    detail: score.detail,
  });
}

function errorText(err: unknown): string {
  return (err as Error).message ?? String(err);
}

/** A scoring dataset's rubrics: the grading rubric, and the safety-violation rubric when the suite asks for it. */
export interface DatasetRubrics {
  readonly rubric: Rubric;
  readonly safety?: Rubric;
}

/** The fields of a stored grade that make a judged item's outcome. */
export type StoredGrade = Pick<JudgeScoreRow, 'status' | 'rawScore' | 'maxScore' | 'safetyFlag'>;

/**
 * The outcome of a judged item from its stored grade (docs/scoring.md §3): the grade capped at its maximum, 0 for
 * a safety violation; no stored grade is failure `judge_missing`. Pure.
 */
export function judgedOutcome(
  stored: StoredGrade | undefined,
  res: Answered,
  ds: PreparedDataset,
  rubric: Rubric,
  judgeName: string,
): ItemOutcome {
  if (stored?.status !== 'judged' || stored.rawScore === null || stored.maxScore === null)
    return failed(
      'judge_missing',
      t('en', 'evalSummary.cause.noStoredGrade', { judge: judgeName }),
      res.latencyMs,
    );
  const violation = stored.safetyFlag === true;
  return doneOutcome(res, {
    method: ds.method,
    metric: 'judge',
    profile: `${rubric.name}@${rubric.version}`,
    raw: violation ? 0 : Math.min(stored.rawScore, stored.maxScore),
    max: stored.maxScore,
    detail: {
      judge: judgeName,
      judge_score: stored.rawScore,
      safety_violation: stored.safetyFlag,
    },
  });
}

/** What {@link runJudge} needs. */
export interface RunJudgeOptions {
  readonly db: Kysely<Database>;
  readonly judge: LlmClient;
  /** Rubrics by dataset name; datasets not here are scored by their metric. */
  readonly rubrics: ReadonlyMap<string, DatasetRubrics>;
  readonly runId: number;
  /** The judged model. */
  readonly modelId: number;
  readonly signal: AbortSignal;
  readonly maxAttempts?: number | undefined;
}

/**
 * The judge of a run's scoring datasets: grades one answer through {@link judgeAnswers} (bounded retries, the grade
 * stored in `judge_scores`) and makes the item's outcome of the grade it stored, or, for an answer judged before
 * (a resumed run), of the grade read back; the look-ups and writes of concurrent items are grouped
 * (eval/judge/score-store `batchedJudgeScoreStore`). A judge failure is the item's failure (`judge_<code>`), never
 * a 0.
 */
export function runJudge(o: RunJudgeOptions): ItemJudge {
  const { db, judge } = o;
  // The lanes judge many items at once: their score look-ups and writes are grouped (eval/judge/score-store).
  const grouped = batchedJudgeScoreStore(db);
  // The grade each item's judging just stored, until its outcome is made (the row as written: no read back).
  const stored = new Map<number, StoredGrade>();
  const scores: JudgeScoreStore = {
    list: (f) => grouped.list(f),
    upsert: async (specs) => {
      await grouped.upsert(specs);
      for (const s of specs)
        stored.set(s.itemId, {
          status: s.status,
          rawScore: s.rawScore ?? null,
          maxScore: s.maxScore ?? null,
          safetyFlag: s.safetyFlag ?? null,
        });
    },
  };
  return {
    grades: (ds) => ds.method === 'scoring' && o.rubrics.has(ds.name),
    async grade(itemId, { ds, item }, res) {
      const rubrics = o.rubrics.get(ds.name) as DatasetRubrics;
      stored.delete(itemId);
      const r = await judgeAnswers({
        db,
        judge,
        rubric: rubrics.rubric,
        ...(rubrics.safety ? { safety: rubrics.safety } : {}),
        modelId: o.modelId,
        targets: [
          {
            itemId,
            question: item.prompt,
            reference: typeof item.reference === 'string' ? item.reference : null,
            answer: res.text,
            responseId: res.responseId ?? null,
          },
        ],
        runId: o.runId,
        signal: o.signal,
        scores,
        ...(o.maxAttempts !== undefined ? { maxAttempts: o.maxAttempts } : {}),
      });
      const written = stored.get(itemId);
      stored.delete(itemId);
      const failure = r.failures[0];
      if (failure)
        return failed(
          `judge_${failure.code}`,
          // In English, as stored; eval/failure-cause.ts says it in the reader's language.
          t('en', 'evalSummary.cause.judgeItem', {
            judge: judge.name,
            message: failure.message,
            n: failure.attempts,
          }),
          res.latencyMs,
        );
      const grade =
        written ??
        (
          await scores.list({
            modelId: o.modelId,
            judge: judge.name,
            rubric: rubrics.rubric.name,
            rubricVersion: rubrics.rubric.version,
            itemIds: [itemId],
          })
        )[0];
      const outcome = judgedOutcome(grade, res, ds, rubrics.rubric, judge.name);
      if (outcome.kind === 'failed' && o.signal.aborted) return undefined; // given back with the other claims
      return outcome;
    },
  };
}
