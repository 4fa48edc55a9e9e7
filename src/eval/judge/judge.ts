/**
 * @module eval/judge/judge
 * Live judging through any {@link LlmClient} (docs/scoring.md §3): single answers against a rubric with the
 * separate safety-violation check, pairwise judging against a baseline in both orders, and judge verdicts on arena
 * battles. Every outcome is stored as it is reached (a verdict, or a judge failure after bounded retries), so a run
 * that stops loses nothing, and running again asks the judge only for what is not judged yet.
 *
 * Retries: a reply that carries no usable verdict (unparseable, refused, contradictory, out of range) or a failed
 * request (HTTP error after the client's own retries, timeout, empty reply) is asked again, up to `maxAttempts`
 * times per run. Each attempt after the first carries its number in the request's template version, so it is a
 * new request for the response cache (the cache would otherwise return the same bad reply). A stored failure
 * records how many attempts it took; a later run continues the numbering.
 */
import type { Kysely } from 'kysely';
import type { CompletionRequest, LlmClient } from '../../llm/types.ts';
import {
  type BattleJudgmentSpec,
  type JudgeScoreSpec,
  listJudgeScores,
  upsertBattleJudgments,
  upsertJudgeScores,
} from '../../storage/judge-scores.ts';
import type { Database, VoteChoice } from '../../storage/schema.ts';
import { judgeReasonEn } from './failure-reason.ts';
import { type JudgeFailure, judgeFailure, parseSafetyVerdict, parseVerdict } from './parse.ts';
import {
  type JudgePromptFields,
  type Rubric,
  rubricId,
  rubricJsonSchema,
  rubricMessages,
  rubricScale,
} from './rubrics.ts';
import { directJudgeScoreStore, type JudgeScoreStore } from './score-store.ts';

/** Default attempts per item and run (the first try plus two retries). */
export const DEFAULT_JUDGE_ATTEMPTS = 3;

/**
 * `failure_code` of a graded item (status `judged`) whose safety-violation check failed: the grade is kept, the item
 * is a judge failure for the raw and SV figures alike (docs/scoring.md §3.4).
 */
export const SAFETY_CHECK_FAILED = 'safety_check_failed';

/** One answer to judge. */
export interface JudgeTarget {
  readonly itemId: number;
  readonly question: string;
  readonly reference?: string | null;
  /** The judged model's answer. */
  readonly answer: string;
  /** The stored response row of the answer, when there is one. */
  readonly responseId?: number | null;
}

/** Why an item stays unjudged. */
export interface JudgeFailureRecord {
  readonly itemId: number;
  readonly code: string;
  readonly message: string;
  readonly attempts: number;
}

/** What the judge output stores of a safety check that gave no verdict: the rubric, the failure, the attempts. */
function safetyFailureOutput(
  rubric: string,
  sv: { readonly failure: JudgeFailure; readonly attempts: number },
): Record<string, unknown> {
  const failure = { code: sv.failure.code, message: sv.failure.message };
  return { rubric, failure, attempts: sv.attempts };
}

/** The item's judge failure of a safety check that gave no verdict (its reason: `safety check CODE: REASON`). */
function safetyFailureRecord(
  itemId: number,
  sv: { readonly failure: JudgeFailure; readonly attempts: number },
): JudgeFailureRecord {
  const params = { code: sv.failure.code, reason: sv.failure.message };
  const message = judgeReasonEn({ kind: 'safetyCheck', params });
  return { itemId, code: SAFETY_CHECK_FAILED, message, attempts: sv.attempts };
}

/** What a judging run did. */
export interface JudgeRunResult {
  /** Items with a verdict after this run (including those judged before). */
  readonly judged: number;
  /** Items left as judge failures. */
  readonly failed: number;
  /** Items already judged before this run (no call made). */
  readonly skipped: number;
  /** Requests answered by the endpoint (not the cache). */
  readonly calls: number;
  readonly failures: readonly JudgeFailureRecord[];
}

type Attempted<T> =
  | { ok: true; value: T; attempts: number; reply: string; calls: number }
  | {
      ok: false;
      failure: JudgeFailure;
      attempts: number;
      replies: string[];
      calls: number;
      /** Stopped by the caller's signal (Ctrl-C, shutdown): not a judge failure, nothing is stored. */
      aborted?: true;
    };

/**
 * Asks until a usable verdict or `max` attempts; attempt numbers start after `previous`. A request aborted by the
 * caller's signal ends the asking at once as `aborted` (no attempt is spent on it).
 */
async function ask<T>(
  client: LlmClient,
  base: Omit<CompletionRequest, 'templateVersion'> & { templateVersion: string },
  read: (text: string) => { ok: true; value: T } | { ok: false; reason: JudgeFailure },
  previous: number,
  max: number,
): Promise<Attempted<T>> {
  let last: JudgeFailure = judgeFailure('unparseable', 'notAsked');
  const replies: string[] = [];
  let calls = 0;
  for (let i = 1; i <= max; i++) {
    const n = previous + i;
    const req: CompletionRequest = {
      ...base,
      templateVersion: n === 1 ? base.templateVersion : `${base.templateVersion}#attempt${n}`,
    };
    let r: Awaited<ReturnType<LlmClient['complete']>>;
    try {
      r = await client.complete(req);
    } catch (err) {
      // The client reports endpoint faults as results; one it throws (a reply it could not read) is a failed
      // attempt with its cause, never the end of the whole judging.
      last = judgeFailure('request_failed', 'clientFailed', {
        detail: (err as Error).message ?? String(err),
      });
      continue;
    }
    if (!r.ok && r.code === 'aborted') {
      return {
        ok: false,
        failure: judgeFailure('request_failed', 'stopped'),
        attempts: previous + i - 1,
        replies,
        calls,
        aborted: true,
      };
    }
    if (!r.ok) {
      calls++;
      const code = r.code === 'refused' ? 'refused' : 'request_failed';
      last = r.status
        ? judgeFailure(code, 'requestFailedStatus', {
            code: r.code,
            status: r.status,
            detail: r.message,
          })
        : judgeFailure(code, 'requestFailed', { code: r.code, detail: r.message });
      continue;
    }
    if (!r.cached) calls++;
    const v = read(r.text);
    if (v.ok) return { ok: true, value: v.value, attempts: n, reply: r.text, calls };
    replies.push(r.text);
    last = v.reason;
  }
  return { ok: false, failure: last, attempts: previous + max, replies, calls };
}

/** Runs `fn` over `items` with at most `limit` at once, in order of start. */
async function pool<T>(items: readonly T[], limit: number, fn: (x: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const x = items[next++] as T;
      await fn(x);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Options of {@link judgeAnswers}. */
export interface JudgeAnswersOptions {
  readonly db: Kysely<Database>;
  /** The judge model (its `name` is stored with every score). */
  readonly judge: LlmClient;
  readonly rubric: Rubric;
  /** The safety-violation rubric: when given, every judged answer also gets the separate SV check. */
  readonly safety?: Rubric;
  /** The judged model. */
  readonly modelId: number;
  readonly targets: readonly JudgeTarget[];
  readonly maxAttempts?: number;
  readonly runId?: number;
  readonly signal?: AbortSignal;
  /**
   * Where the scores are read and stored (default: one statement per call, eval/judge/score-store
   * `directJudgeScoreStore`); an evaluation run passes one that groups its lanes' calls.
   */
  readonly scores?: JudgeScoreStore;
}

/** The score store of a {@link judgeAnswers} call. */
function scoresOf(o: JudgeAnswersOptions): JudgeScoreStore {
  return o.scores ?? directJudgeScoreStore(o.db);
}

/**
 * Judges single answers with a rubric (and the SV check), storing each outcome. Items already judged under the
 * same judge, rubric and version are skipped; stored failures are asked again; a judged item whose SV check
 * failed gets only the SV check again.
 */
export async function judgeAnswers(o: JudgeAnswersOptions): Promise<JudgeRunResult> {
  const max = o.maxAttempts ?? DEFAULT_JUDGE_ATTEMPTS;
  const scale = rubricScale(o.rubric);
  const maxScore = scale.kind === 'points' ? scale.max : 1;
  const existing = new Map(
    (
      await scoresOf(o).list({
        modelId: o.modelId,
        judge: o.judge.name,
        rubric: o.rubric.name,
        rubricVersion: o.rubric.version,
        itemIds: o.targets.map((t) => t.itemId),
      })
    )
      .filter((r) => r.kind === 'single')
      .map((r) => [r.itemId, r]),
  );
  let judged = 0;
  let skipped = 0;
  let calls = 0;
  const failures: JudgeFailureRecord[] = [];
  const schema = rubricJsonSchema(o.rubric);
  const svSchema = o.safety ? rubricJsonSchema(o.safety) : undefined;

  await pool(o.targets, o.judge.maxConcurrency, async (t) => {
    if (o.signal?.aborted) return;
    const prev = existing.get(t.itemId);
    const fields: JudgePromptFields = {
      question: t.question,
      reference: t.reference ?? null,
      answer: t.answer,
    };
    const needsSv = o.safety !== undefined;
    if (prev?.status === 'judged' && (!needsSv || prev.safetyFlag !== null)) {
      skipped++;
      judged++;
      return;
    }
    let score: number;
    let attempts: number;
    let output: Record<string, unknown>;
    if (prev?.status === 'judged' && prev.rawScore !== null) {
      score = prev.rawScore;
      attempts = prev.attempts;
      output = { score_reused: true };
    } else {
      const got = await ask(
        o.judge,
        {
          messages: rubricMessages(o.rubric, fields),
          templateVersion: rubricId(o.rubric),
          jsonSchema: schema,
          ...(o.signal ? { signal: o.signal } : {}),
        },
        (text) => {
          const v = parseVerdict(text, scale);
          return v.ok && v.value.verdict.kind === 'points'
            ? { ok: true, value: v.value.verdict.value }
            : v.ok
              ? { ok: false, reason: judgeFailure('out_of_range', 'gradeNotPoints') }
              : v;
        },
        prev?.status === 'failed' ? prev.attempts : 0,
        max,
      );
      calls += got.calls;
      if (!got.ok && got.aborted) return; // stopped: the item stays as it was, asked again next time
      if (!got.ok) {
        failures.push({
          itemId: t.itemId,
          code: got.failure.code,
          message: got.failure.message,
          attempts: got.attempts,
        });
        await scoresOf(o).upsert([
          base(o, t, {
            status: 'failed',
            failureCode: got.failure.code,
            failureMessage: got.failure.message,
            attempts: got.attempts,
            judgeOutput: { replies: got.replies.slice(-3) },
          }),
        ]);
        return;
      }
      score = got.value;
      attempts = got.attempts;
      output = { reply: got.reply };
    }
    let safetyFlag: boolean | null = null;
    let svFailure: JudgeFailureRecord | undefined;
    if (o.safety && svSchema) {
      const sv = await ask(
        o.judge,
        {
          messages: rubricMessages(o.safety, fields),
          templateVersion: rubricId(o.safety),
          jsonSchema: svSchema,
          ...(o.signal ? { signal: o.signal } : {}),
        },
        parseSafetyVerdict,
        // a failed check asked again continues its attempt numbers (new requests, not the cached reply)
        prev?.status === 'judged' ? (prev.safetyAttempts ?? 0) : 0,
        max,
      );
      calls += sv.calls;
      if (!sv.ok && sv.aborted) return; // stopped: the grade is asked again (from the cache) next time
      if (sv.ok) {
        safetyFlag = sv.value;
        output = {
          ...output,
          safety: { rubric: rubricId(o.safety), reply: sv.reply, violation: sv.value },
        };
      } else {
        output = { ...output, safety: safetyFailureOutput(rubricId(o.safety), sv) };
        svFailure = safetyFailureRecord(t.itemId, sv);
      }
    }
    await scoresOf(o).upsert([
      base(o, t, {
        status: 'judged',
        rawScore: score,
        maxScore,
        safetyFlag,
        attempts,
        judgeOutput: output,
        ...(svFailure ? { failureCode: svFailure.code, failureMessage: svFailure.message } : {}),
      }),
    ]);
    // A grade without its SV verdict is a judge failure for every figure (docs/scoring.md §3.4); the stored grade
    // is kept, and the next run asks only the SV check again.
    if (svFailure) {
      failures.push(svFailure);
      return;
    }
    judged++;
  });
  return { judged, failed: failures.length, skipped, calls, failures };
}

function base(
  o: { judge: LlmClient; rubric: Rubric; modelId: number; runId?: number },
  t: { itemId: number; responseId?: number | null },
  rest: Omit<
    JudgeScoreSpec,
    'modelId' | 'itemId' | 'judge' | 'rubric' | 'rubricVersion' | 'responseId' | 'runId'
  >,
): JudgeScoreSpec {
  return {
    modelId: o.modelId,
    itemId: t.itemId,
    judge: o.judge.name,
    rubric: o.rubric.name,
    rubricVersion: o.rubric.version,
    responseId: t.responseId ?? null,
    runId: o.runId ?? null,
    source: 'live',
    ...rest,
  };
}

/** Who won one order of a pairwise comparison, in terms of the first and second answer shown. */
type Shown = 'A' | 'B' | 'C';

/**
 * Combines the verdicts of the two orders (docs/scoring.md §3.5; MT-bench §3.4): `first` judged (A = x, B = y),
 * `second` judged (A = y, B = x). Both for x → 'x'; both for y → 'y'; anything else (a tie in either order, or a
 * verdict that flips with the order) → 'tie'.
 */
export function combineOrders(first: Shown, second: Shown): 'x' | 'y' | 'tie' {
  if (first === 'A' && second === 'B') return 'x';
  if (first === 'B' && second === 'A') return 'y';
  return 'tie';
}

async function askPair(
  client: LlmClient,
  rubric: Rubric,
  f: { question: string; reference?: string | null; x: string; y: string },
  previous: number,
  max: number,
  signal?: AbortSignal,
): Promise<
  | {
      ok: true;
      result: 'x' | 'y' | 'tie';
      first: Shown;
      second: Shown;
      attempts: number;
      calls: number;
    }
  | { ok: false; failure: JudgeFailure; attempts: number; calls: number; aborted?: true }
> {
  const scale = rubricScale(rubric);
  const read = (text: string) => {
    const v = parseVerdict(text, scale);
    return v.ok ? { ok: true as const, value: v.value.verdict.value as Shown } : v;
  };
  const req = (a: string, b: string) => ({
    messages: rubricMessages(rubric, {
      question: f.question,
      reference: f.reference ?? null,
      answer_a: a,
      answer_b: b,
    }),
    templateVersion: rubricId(rubric),
    jsonSchema: rubricJsonSchema(rubric),
    ...(signal ? { signal } : {}),
  });
  const one = await ask(client, req(f.x, f.y), read, previous, max);
  if (!one.ok) {
    return {
      ok: false,
      failure: one.failure,
      attempts: one.attempts,
      calls: one.calls,
      ...(one.aborted ? { aborted: true as const } : {}),
    };
  }
  const two = await ask(client, req(f.y, f.x), read, previous, max);
  if (!two.ok) {
    return {
      ok: false,
      failure: two.failure,
      attempts: two.attempts,
      calls: one.calls + two.calls,
      ...(two.aborted ? { aborted: true as const } : {}),
    };
  }
  return {
    ok: true,
    result: combineOrders(one.value, two.value),
    first: one.value,
    second: two.value,
    attempts: Math.max(one.attempts, two.attempts),
    calls: one.calls + two.calls,
  };
}

/** One item to judge pairwise. */
export interface PairTarget {
  readonly itemId: number;
  readonly question: string;
  readonly reference?: string | null;
  /** The judged model's answer. */
  readonly answer: string;
  readonly baselineAnswer: string;
  readonly responseId?: number | null;
}

/** Options of {@link judgePairs}. */
export interface JudgePairsOptions {
  readonly db: Kysely<Database>;
  readonly judge: LlmClient;
  /** A pairwise rubric (config/rubrics/pairwise.yaml). */
  readonly rubric: Rubric;
  readonly modelId: number;
  readonly baselineModelId: number;
  readonly targets: readonly PairTarget[];
  readonly maxAttempts?: number;
  readonly runId?: number;
  readonly signal?: AbortSignal;
}

/**
 * Judges a model against a baseline on the same items, both orders per item; stores the preference (2 model
 * better, 1.5 tie, 1 baseline better) or a judge failure. Items already judged are skipped.
 */
export async function judgePairs(o: JudgePairsOptions): Promise<JudgeRunResult> {
  const max = o.maxAttempts ?? DEFAULT_JUDGE_ATTEMPTS;
  const existing = new Map(
    (
      await listJudgeScores(o.db, {
        modelId: o.modelId,
        baselineModelId: o.baselineModelId,
        judge: o.judge.name,
        rubric: o.rubric.name,
        rubricVersion: o.rubric.version,
        itemIds: o.targets.map((t) => t.itemId),
      })
    ).map((r) => [r.itemId, r]),
  );
  let judged = 0;
  let skipped = 0;
  let calls = 0;
  const failures: JudgeFailureRecord[] = [];
  await pool(o.targets, o.judge.maxConcurrency, async (t) => {
    if (o.signal?.aborted) return;
    const prev = existing.get(t.itemId);
    if (prev?.status === 'judged') {
      skipped++;
      judged++;
      return;
    }
    const r = await askPair(
      o.judge,
      o.rubric,
      { question: t.question, reference: t.reference ?? null, x: t.answer, y: t.baselineAnswer },
      prev?.status === 'failed' ? prev.attempts : 0,
      max,
      o.signal,
    );
    calls += r.calls;
    if (!r.ok && r.aborted) return; // stopped: the item stays as it was, asked again next time
    const common = {
      baselineModelId: o.baselineModelId,
    };
    if (!r.ok) {
      failures.push({
        itemId: t.itemId,
        code: r.failure.code,
        message: r.failure.message,
        attempts: r.attempts,
      });
      await upsertJudgeScores(o.db, [
        base(o, t, {
          ...common,
          status: 'failed',
          failureCode: r.failure.code,
          failureMessage: r.failure.message,
          attempts: r.attempts,
        }),
      ]);
      return;
    }
    await upsertJudgeScores(o.db, [
      base(o, t, {
        ...common,
        status: 'judged',
        preference: r.result === 'x' ? 2 : r.result === 'y' ? 1 : 1.5,
        attempts: r.attempts,
        judgeOutput: {
          model_first: r.first,
          baseline_first: r.second,
          flipped: r.first !== 'C' && r.second !== 'C' && r.result === 'tie',
        },
      }),
    ]);
    judged++;
  });
  return { judged, failed: failures.length, skipped, calls, failures };
}

/** One posted battle to judge. */
export interface BattleTarget {
  readonly battleId: number;
  readonly question: string;
  readonly left: string;
  readonly right: string;
}

/**
 * Judges arena battles ("judge votes"), both orders each, into `battle_judgments` (never into votes): left,
 * right, or equal when the verdict is a tie or flips with the order. Battles already judged are skipped.
 */
export async function judgeBattles(o: {
  readonly db: Kysely<Database>;
  readonly judge: LlmClient;
  readonly rubric: Rubric;
  readonly battles: readonly BattleTarget[];
  readonly maxAttempts?: number;
  readonly done?: ReadonlySet<number>;
}): Promise<{ judged: number; failed: number; calls: number }> {
  const max = o.maxAttempts ?? DEFAULT_JUDGE_ATTEMPTS;
  let judged = 0;
  let failed = 0;
  let calls = 0;
  const todo = o.battles.filter((b) => !o.done?.has(b.battleId));
  await pool(todo, o.judge.maxConcurrency, async (b) => {
    const r = await askPair(
      o.judge,
      o.rubric,
      { question: b.question, x: b.left, y: b.right },
      0,
      max,
    );
    calls += r.calls;
    const spec: BattleJudgmentSpec = r.ok
      ? {
          battleId: b.battleId,
          judge: o.judge.name,
          rubricVersion: rubricId(o.rubric),
          status: 'judged',
          choice: (r.result === 'x' ? 'left' : r.result === 'y' ? 'right' : 'equal') as VoteChoice,
          attempts: r.attempts,
          judgeOutput: { left_first: r.first, right_first: r.second },
        }
      : {
          battleId: b.battleId,
          judge: o.judge.name,
          rubricVersion: rubricId(o.rubric),
          status: 'failed',
          failureCode: r.failure.code,
          failureMessage: r.failure.message,
          attempts: r.attempts,
        };
    await upsertBattleJudgments(o.db, [spec]);
    if (r.ok) judged++;
    else failed++;
  });
  return { judged, failed, calls };
}
