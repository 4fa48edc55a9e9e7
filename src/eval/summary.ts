/**
 * @module eval/summary
 * The summary of a run, per dataset: ability, method, metric, scorer profile, score on the ten-point scale
 * (10 × Σ earned / Σ possible, docs/scoring.md §2), n (scored items), Σ earned, Σ possible, failures; plus tokens
 * and wall time. The JSON shape of `zhujiu eval --json` is {@link summaryJson}.
 */
import type { Kysely } from 'kysely';
import { type Locale, runStatusText, t } from '../i18n/index.ts';
import { type ItemLabel, itemLabelText } from '../i18n/quote.ts';
import {
  getRun,
  type RunRow,
  runDatasetTotals,
  runFailureReasons,
  runItemTimings,
} from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';
import { failureCauseText } from './failure-cause.ts';
import { allFailedCount } from './run-error.ts';

/** One dataset's line of a summary. */
export interface DatasetSummary {
  readonly dataset: string;
  readonly ability: string;
  readonly method: string;
  readonly metric: string;
  readonly profile: string;
  /** 10 × earned / possible, rounded to 4 decimals; null when nothing was scored. */
  readonly score: number | null;
  readonly n: number;
  readonly earned: number;
  readonly possible: number;
  readonly failures: number;
  /** Of `failures`, the judge's (the answer was stored, the judge gave no usable grade: codes `judge_*`). */
  readonly judgeFailures: number;
  /** Scoring datasets (method `scoring`): "n of m judged" (m = judged + failed items); absent otherwise. */
  readonly judged?: string;
  /** Scoring datasets: the judge whose grades these are (as recorded with the run); absent otherwise. */
  readonly judge?: string;
  /** Span datasets (metric `char_f1`): {@link SpanFigures} over the scored items; absent otherwise. */
  readonly span?: SpanFigures;
}

/**
 * A span dataset's figures as CMRC 2018's official script prints them (`baseline/cmrc2018_evaluate.py`,
 * docs/scoring.md §2): `em` = 100 × mean exact match, `f1` = 100 × mean F1, `average` = (em + f1) / 2, each in
 * 0–100 rounded to 3 decimals, over the `n` scored items (the script counts an unanswered question as 0; failed
 * items are left out here and counted in `failures`).
 */
export interface SpanFigures {
  readonly em: number;
  readonly f1: number;
  readonly average: number;
}

/** A run's summary. */
export interface RunSummary {
  readonly run: RunRow;
  readonly datasets: readonly DatasetSummary[];
  /** Most frequent failure causes, each with a few of its items named by dataset and key (`items`). */
  readonly failureReasons: readonly {
    code: string;
    message: string;
    n: number;
    /** A few of its items, as a user knows them (dataset, key, start of the prompt), or by id when not stored. */
    items: readonly (ItemLabel | { readonly id: number })[];
  }[];
  /** Tokens of the calls made (cached answers cost none). */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /**
   * Time the run was worked on, ms ({@link workingMs}): from the first start to the end (or to now while
   * running) less the idle gaps (stopped, then resumed later); null before it started.
   */
  readonly wallMs: number | null;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** A gap longer than this with no answer call in flight and no item finishing is idle time, ms. */
export const IDLE_GAP_MS = 60_000;

/**
 * The time a run was worked on, ms: the sum of its working spans. Each finished item was worked on during
 * [finishedAt − latencyMs, finishedAt]; these intervals, the start and the end (points) are joined into spans
 * wherever the gap between them is at most `idleGapMs`; longer gaps (a run stopped with Ctrl-C and resumed
 * minutes later, or left queued) are not counted. A run worked on without a pause gets end − start.
 * @param items finished items (any order); latencyMs ≥ 0.
 */
export function workingMs(
  start: Date,
  end: Date,
  items: readonly { readonly finishedAt: Date; readonly latencyMs: number }[],
  idleGapMs: number = IDLE_GAP_MS,
): number {
  const s0 = start.getTime();
  const e0 = Math.max(s0, end.getTime());
  const spans: [number, number][] = [
    [s0, s0],
    [e0, e0],
  ];
  for (const it of items) {
    const f = Math.min(e0, Math.max(s0, it.finishedAt.getTime()));
    spans.push([Math.max(s0, f - Math.max(0, it.latencyMs)), f]);
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let total = 0;
  let [lo, hi] = spans[0]!;
  for (const [a, b] of spans.slice(1)) {
    if (a - hi <= idleGapMs) {
      hi = Math.max(hi, b);
    } else {
      total += hi - lo;
      lo = a;
      hi = b;
    }
  }
  return total + (hi - lo);
}

/** Builds the summary of run `runId` (undefined when there is no such run). */
export async function runSummary(
  db: Kysely<Database>,
  runId: number,
  now: Date = new Date(),
): Promise<RunSummary | undefined> {
  const run = await getRun(db, runId);
  if (!run) return undefined;
  const totals = new Map((await runDatasetTotals(db, runId)).map((t) => [t.dataset, t]));
  const planned = (run.config.datasets ?? []) as {
    name: string;
    ability: string;
    method: string;
    metric: string;
    profile: string;
    judge?: string;
  }[];
  const datasets: DatasetSummary[] = planned.map((d) => {
    const t = totals.get(d.name);
    const earned = round(t?.earned ?? 0, 6);
    const possible = round(t?.possible ?? 0, 6);
    return {
      dataset: d.name,
      ability: d.ability,
      method: d.method,
      metric: d.metric,
      profile: d.profile,
      score: possible > 0 ? round((10 * earned) / possible, 4) : null,
      n: t?.n ?? 0,
      earned,
      possible,
      failures: t?.failures ?? 0,
      judgeFailures: t?.judgeFailures ?? 0,
      ...(d.method === 'scoring'
        ? { judged: `${t?.n ?? 0} of ${(t?.n ?? 0) + (t?.failures ?? 0)} judged` }
        : {}),
      ...(d.method === 'scoring' && typeof d.judge === 'string' ? { judge: d.judge } : {}),
      ...(d.metric === 'char_f1' && t !== undefined && t.n > 0 && t.exactMatchN === t.n
        ? { span: spanFigures(t.exactMatchSum, t.earned, t.possible, t.n) }
        : {}),
    };
  });
  const end = run.finishedAt ?? now;
  return {
    run,
    datasets,
    failureReasons: await runFailureReasons(db, runId),
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    wallMs: run.startedAt ? workingMs(run.startedAt, end, await runItemTimings(db, runId)) : null,
  };
}

/**
 * {@link SpanFigures} from Σ exact match over `n` items and Σ F1 earned of `possible` (each item's F1 is out of 1).
 * @example spanFigures(3, 4.5, 6, 6) // { em: 50, f1: 75, average: 62.5 }
 */
export function spanFigures(
  emSum: number,
  earned: number,
  possible: number,
  n: number,
): SpanFigures {
  const em = (100 * emSum) / n;
  const f1 = possible > 0 ? (100 * earned) / possible : 0;
  return { em: round(em, 3), f1: round(f1, 3), average: round((em + f1) / 2, 3) };
}

/**
 * The span datasets' official figures as lines, e.g. `cmrc2018: EM 50.000, F1 75.000, AVERAGE 62.500 (CMRC 2018
 * official script, 0–100, 6 scored items)`; none for a run with no span dataset. In `locale` (default English, as
 * the command line prints them).
 */
export function spanFigureLines(s: RunSummary, locale: Locale = 'en'): string[] {
  return s.datasets.flatMap((d) =>
    d.span === undefined
      ? []
      : [
          t(locale, 'evalSummary.span', {
            dataset: d.dataset,
            em: d.span.em.toFixed(3),
            f1: d.span.f1.toFixed(3),
            average: d.span.average.toFixed(3),
            source:
              d.profile === 'cmrc2018'
                ? t(locale, 'evalSummary.span.cmrc')
                : t(locale, 'evalSummary.span.profile', { profile: d.profile }),
            n: d.n,
          }),
        ],
  );
}

/**
 * One failure cause as a line: `20 items × no_recorded_answer: …; e.g. alpaca_eval "3" ("…"), …`, or for one item
 * `1 item × http_error: …; item alpaca_eval "3" ("…")`. The cause's message is recorded in English and said in
 * `locale` when its wording is known (eval/failure-cause.ts); the words around it in `locale` (default English).
 */
export function failureLine(
  f: RunSummary['failureReasons'][number],
  locale: Locale = 'en',
): string {
  const list = f.items.map((i) => itemLabelText(locale, i)).join(t(locale, 'board.list.sep'));
  const items =
    f.items.length === 0
      ? ''
      : f.n > f.items.length
        ? t(locale, 'evalSummary.failure.examples', { items: list })
        : t(locale, 'evalSummary.failure.items', { n: f.n, items: list });
  const message = failureCauseText(f.message, locale);
  return t(locale, 'evalSummary.failure', { n: f.n, code: f.code, message, items });
}

/** The `zhujiu eval --json` document, exactly as the interface specifies it. */
export function summaryJson(s: RunSummary): {
  run: number;
  model: string;
  suite: string;
  datasets: {
    dataset: string;
    ability: string;
    method: string;
    metric: string;
    profile: string;
    score: number | null;
    n: number;
    earned: number;
    possible: number;
    failures: number;
    judged?: string;
    judge?: string;
    em?: number;
    f1?: number;
    average?: number;
  }[];
} {
  return {
    run: s.run.id,
    model: s.run.model,
    suite: s.run.suite,
    datasets: s.datasets.map((d) => ({
      dataset: d.dataset,
      ability: d.ability,
      method: d.method,
      metric: d.metric,
      profile: d.profile,
      score: d.score,
      n: d.n,
      earned: d.earned,
      possible: d.possible,
      failures: d.failures,
      ...(d.judged !== undefined ? { judged: d.judged } : {}),
      ...(d.judge !== undefined ? { judge: d.judge } : {}),
      ...(d.span !== undefined ? { em: d.span.em, f1: d.span.f1, average: d.span.average } : {}),
    })),
  };
}

/**
 * How a run's items ended: `failed` items not scored (any cause, the rate's numerator), of which `judge` are judge
 * failures and `answer` the others (no answer, an HTTP error, a scorer error); `total` = scored + failed; `rate` =
 * failed / total, 0–1 (0 for an empty run). This is the rate `eval.max_failure_rate` bounds.
 */
export function failureTally(s: RunSummary): {
  failed: number;
  judge: number;
  answer: number;
  total: number;
  rate: number;
} {
  const failed = s.datasets.reduce((a, d) => a + d.failures, 0);
  const judge = s.datasets.reduce((a, d) => a + d.judgeFailures, 0);
  const total = failed + s.datasets.reduce((a, d) => a + d.n, 0);
  return { failed, judge, answer: failed - judge, total, rate: total === 0 ? 0 : failed / total };
}

/**
 * How a run ended, in words: "succeeded" (every item scored), "finished with 28 judge failures", "finished with 3
 * answer failures and 2 judge failures", "failed", "cancelled". A run with failures is never called "succeeded"
 * (its stored status is, since its scores count on the board). In `locale` (default English).
 */
export function endedText(s: RunSummary, locale: Locale = 'en'): string {
  if (s.run.status !== 'succeeded') return runStatusText(s.run.status, locale);
  const tally = failureTally(s);
  if (tally.failed === 0) return t(locale, 'runs.status.succeeded');
  const parts = [
    ...(tally.answer > 0 ? [t(locale, 'evalSummary.answerFailures', { n: tally.answer })] : []),
    ...(tally.judge > 0 ? [t(locale, 'evalSummary.judgeFailures', { n: tally.judge })] : []),
  ];
  return t(locale, 'evalSummary.finishedWith', {
    failures: parts.join(t(locale, 'evalSummary.and')),
  });
}

/**
 * A failed run's recorded error in `locale`: as the runner stored it in that language (`texts`, the run's
 * `errorTexts`: why it could not start, eval/start-error.ts); the runner's own "every item failed (N)"
 * (eval/run-error.ts) said from the catalogue; an LLM client's known wording said again (eval/failure-cause.ts); any
 * other error (a dataset file's) as recorded.
 */
export function runErrorText(
  error: string,
  locale: Locale = 'en',
  texts?: Readonly<Record<string, string>> | null,
): string {
  const said = locale === 'en' ? undefined : texts?.[locale];
  if (said !== undefined) return said;
  const n = allFailedCount(error);
  return n === undefined
    ? failureCauseText(error, locale)
    : t(locale, 'evalSummary.allFailed', { n });
}

/**
 * The line for a run whose failure rate is above `max` (config `eval.max_failure_rate`), or undefined: "28 of 32
 * items failed (87.5 %), above eval.max_failure_rate 0.1". In `locale` (default English).
 */
export function failureRateProblem(
  s: RunSummary,
  max: number,
  locale: Locale = 'en',
): string | undefined {
  const tally = failureTally(s);
  if (tally.rate <= max) return undefined;
  return t(locale, 'evalSummary.failureRate', {
    failed: tally.failed,
    total: tally.total,
    percent: (100 * tally.rate).toFixed(1),
    max,
  });
}

/**
 * The n cell of a dataset line: "3 of 4 judged by judge-x" for scoring datasets, else the scored items. In
 * `locale` (default English; the JSON's `judged` stays English).
 */
export function itemsCell(d: DatasetSummary, locale: Locale = 'en'): string {
  if (d.judged === undefined) return String(d.n);
  const judged = t(locale, 'evalSummary.judged', { n: d.n, total: d.n + d.failures });
  return d.judge === undefined
    ? judged
    : t(locale, 'evalSummary.judgedBy', { judged, judge: d.judge });
}

/** "1 h 02 min", "3 min 05 s", "12.3 s" (in `locale`, default English: "1 小时 02 分" in Chinese). */
export function formatDuration(ms: number, locale: Locale = 'en'): string {
  const s = ms / 1000;
  if (s < 60) return t(locale, 'evalSummary.seconds', { s: s.toFixed(1) });
  const m = Math.floor(s / 60);
  if (m < 60)
    return t(locale, 'evalSummary.minutes', { m, s: String(Math.floor(s % 60)).padStart(2, '0') });
  return t(locale, 'evalSummary.hours', {
    h: Math.floor(m / 60),
    m: String(m % 60).padStart(2, '0'),
  });
}
