/**
 * @module eval/summary
 * The summary of a run, per dataset: ability, method, metric, scorer profile, score on the ten-point scale
 * (10 × Σ earned / Σ possible, docs/scoring.md §2), n (scored items), Σ earned, Σ possible, failures; plus tokens
 * and wall time. The JSON shape of `zhujiu eval --json` is {@link summaryJson}.
 */
import type { Kysely } from 'kysely';
import { getRun, type RunRow, runDatasetTotals, runFailureReasons } from '../storage/eval-runs.ts';
import type { Database } from '../storage/schema.ts';

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
  /** Scoring datasets (method `scoring`): "n of m judged" (m = judged + failed items); absent otherwise. */
  readonly judged?: string;
  /** Scoring datasets: the judge whose grades these are (as recorded with the run); absent otherwise. */
  readonly judge?: string;
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
    items: readonly string[];
  }[];
  /** Tokens of the calls made (cached answers cost none). */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** From the first start to the end (or to now while running), ms. */
  readonly wallMs: number | null;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

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
      ...(d.method === 'scoring'
        ? { judged: `${t?.n ?? 0} of ${(t?.n ?? 0) + (t?.failures ?? 0)} judged` }
        : {}),
      ...(d.method === 'scoring' && typeof d.judge === 'string' ? { judge: d.judge } : {}),
    };
  });
  const end = run.finishedAt ?? now;
  return {
    run,
    datasets,
    failureReasons: await runFailureReasons(db, runId),
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    wallMs: run.startedAt ? Math.max(0, end.getTime() - run.startedAt.getTime()) : null,
  };
}

/**
 * One failure cause as a line: `20 items × no_recorded_answer: …; e.g. alpaca_eval "3" ("…"), …`, or for one item
 * `1 item × http_error: …; item alpaca_eval "3" ("…")`.
 */
export function failureLine(f: RunSummary['failureReasons'][number]): string {
  const items =
    f.items.length === 0
      ? ''
      : `; ${f.n > f.items.length ? 'e.g. ' : f.n === 1 ? 'item ' : 'items '}${f.items.join(', ')}`;
  return `${f.n} ${f.n === 1 ? 'item' : 'items'} × ${f.code}: ${f.message}${items}`;
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
    })),
  };
}

/** The n cell of a dataset line: "3 of 4 judged by judge-x" for scoring datasets, else the scored items. */
export function itemsCell(d: DatasetSummary): string {
  if (d.judged === undefined) return String(d.n);
  return d.judge === undefined ? d.judged : `${d.judged} by ${d.judge}`;
}

/** "1 h 02 min", "3 min 05 s", "12.3 s". */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
