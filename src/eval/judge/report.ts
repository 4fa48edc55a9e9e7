/**
 * @module eval/judge/report
 * `zhujiu judge report`: one model's judge scores, per dataset (single judging: points, raw and SV-adjusted
 * means, SV rate) and per baseline (pairwise judging: AlpacaEval's win rate, standard error and discrete win
 * rate). Reads storage; the figures come from the pure `eval/metrics/judged` and `eval/metrics/win-rate`.
 */
import type { Kysely } from 'kysely';
import { said, saidError } from '../../i18n/cli.ts';
import { listJudgeScores } from '../../storage/judge-scores.ts';
import { findModel } from '../../storage/models.ts';
import type { Database } from '../../storage/schema.ts';
import { type JudgedSummary, PASS_FRACTION, summarizeJudged } from '../metrics/judged.ts';
import { winRate } from '../metrics/win-rate.ts';
import { SAFETY_CHECK_FAILED } from './judge.ts';

/** One pairwise row of the report (win rates in percent). */
export interface PairwiseReportRow {
  readonly baseline: string;
  readonly judge: string;
  /** Preferences counted (judge failures excluded). */
  readonly n: number;
  readonly win_rate: number;
  readonly standard_error: number;
  readonly discrete_win_rate: number;
}

/** One dataset row of the report. */
export interface DatasetReportRow {
  readonly dataset: string;
  readonly ability: string;
  /** `name@version` of the rubric. */
  readonly rubric: string;
  readonly judge: string;
  /** Items with a judge record. */
  readonly n: number;
  /** Items with a verdict (n − judged are judge failures). */
  readonly judged: number;
  /** Σ points given, in the items' own points. */
  readonly earned: number;
  /** Σ points possible of the judged items. */
  readonly possible: number;
  /** Mean score on the ten-point scale (null when nothing was judged). */
  readonly raw_mean: number | null;
  /** Mean SV-adjusted score on the ten-point scale (null when no SV check ran). */
  readonly sv_mean: number | null;
  /** Share of SV-checked answers flagged, 0–1 (null when no SV check ran). */
  readonly sv_rate: number | null;
  /**
   * The judge failures (n − judged items), by item key: `grade` (no grade) or `safety_check` (graded, but the SV
   * check failed, so in neither mean, docs/scoring.md §3.4).
   */
  readonly failures: readonly {
    readonly item: string;
    readonly reason: 'grade' | 'safety_check';
  }[];
}

/** The `--json` output of `zhujiu judge report`. */
export interface JudgeReport {
  readonly pairwise: readonly PairwiseReportRow[];
  readonly datasets: readonly DatasetReportRow[];
}

/** The report with the figures the JSON leaves out (Δ, perfect and pass rates, failure counts), for text output. */
export interface JudgeReportDetail {
  readonly report: JudgeReport;
  readonly summaries: readonly (JudgedSummary & { readonly key: string })[];
  /** Pairwise judge failures per `baseline/judge`. */
  readonly pairwiseFailed: ReadonlyMap<string, number>;
}

const round = (x: number, d = 6) => Number(x.toFixed(d));

/**
 * Builds the judge report of one model.
 * @throws AppError `not_found` when the model or the baseline is not stored.
 */
export async function judgeReport(
  db: Kysely<Database>,
  opts: { readonly model: string; readonly baseline?: string; readonly judge?: string },
): Promise<JudgeReportDetail> {
  const model = await findModel(db, opts.model);
  if (!model) {
    throw saidError('not_found', said('cli.judge.noModel', { model: opts.model }));
  }
  let baselineId: number | undefined;
  if (opts.baseline !== undefined) {
    const b = await findModel(db, opts.baseline);
    if (!b) throw saidError('not_found', said('cli.judge.noBaseline', { model: opts.baseline }));
    baselineId = b.id;
  }
  const rows = await listJudgeScores(db, {
    modelId: model.id,
    ...(opts.judge !== undefined ? { judge: opts.judge } : {}),
  });

  const pairGroups = new Map<
    string,
    { baseline: string; judge: string; prefs: (number | null)[] }
  >();
  const failedPairs = new Map<string, number>();
  const singleGroups = new Map<
    string,
    { dataset: string; ability: string; rubric: string; judge: string; rows: typeof rows }
  >();
  for (const r of rows) {
    if (r.kind === 'pairwise') {
      if (r.baseline === null) continue;
      if (baselineId !== undefined && r.baseline !== opts.baseline) continue;
      const k = `${r.baseline}/${r.judge}`;
      const g = pairGroups.get(k) ?? { baseline: r.baseline, judge: r.judge, prefs: [] };
      if (r.status === 'judged') g.prefs.push(r.preference);
      else failedPairs.set(k, (failedPairs.get(k) ?? 0) + 1);
      pairGroups.set(k, g);
    } else {
      const rubric = `${r.rubric}@${r.rubricVersion}`;
      const k = `${r.dataset}\u0000${rubric}\u0000${r.judge}`;
      const g = singleGroups.get(k) ?? {
        dataset: r.dataset,
        ability: r.ability,
        rubric,
        judge: r.judge,
        rows: [],
      };
      g.rows.push(r);
      singleGroups.set(k, g);
    }
  }
  const pairwise: PairwiseReportRow[] = [];
  for (const g of pairGroups.values()) {
    const w = winRate(g.prefs);
    pairwise.push({
      baseline: g.baseline,
      judge: g.judge,
      n: w?.n ?? 0,
      win_rate: w ? round(w.win_rate) : 0,
      standard_error: w ? round(w.standard_error) : 0,
      discrete_win_rate: w ? round(w.discrete_win_rate) : 0,
    });
  }
  const datasets: DatasetReportRow[] = [];
  const summaries: (JudgedSummary & { key: string })[] = [];
  for (const [k, g] of singleGroups) {
    const rubricName = g.rubric.split('@')[0] as string;
    const pass =
      rubricName in PASS_FRACTION
        ? PASS_FRACTION[rubricName as keyof typeof PASS_FRACTION]
        : PASS_FRACTION.ten_point;
    const s = summarizeJudged(
      g.rows.map((r) =>
        r.status === 'judged' && r.rawScore !== null && r.maxScore !== null
          ? {
              status: 'judged',
              raw: r.rawScore,
              max: r.maxScore,
              safetyFlag: r.safetyFlag,
              safetyFailed: r.failureCode === SAFETY_CHECK_FAILED || r.safetyAttempts !== null,
            }
          : { status: 'failed' },
      ),
      pass,
    );
    summaries.push({ ...s, key: k });
    datasets.push({
      dataset: g.dataset,
      ability: g.ability,
      rubric: g.rubric,
      judge: g.judge,
      n: s.n,
      judged: s.judged,
      earned: round(s.earned),
      possible: round(s.possible),
      raw_mean: s.rawMean === null ? null : round(s.rawMean),
      sv_mean: s.svMean === null ? null : round(s.svMean),
      sv_rate: s.svRate === null ? null : round(s.svRate),
      failures: s.failedAt.map((f) => ({ item: g.rows[f.index]!.itemKey, reason: f.reason })),
    });
  }
  pairwise.sort((a, b) => a.baseline.localeCompare(b.baseline) || a.judge.localeCompare(b.judge));
  return { report: { pairwise, datasets }, summaries, pairwiseFailed: failedPairs };
}
