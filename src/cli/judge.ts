/**
 * @module cli/judge
 * `zhujiu judge report --model NAME` and
 * `zhujiu import judgments DIR|FILE --format gaokao|gaokao-human|alpaca_eval --judge NAME` (docs/scoring.md §3).
 */

import { BOARD_ABILITIES, type Board, type BoardAbility } from '../aggregate/index.ts';
import { failureCauseText } from '../eval/failure-cause.ts';
import type { JudgeRunResult } from '../eval/judge/judge.ts';
import type { DatasetJudgeResult } from '../eval/judge/judge-suite.ts';
import { judgeReport } from '../eval/judge/report.ts';
import { listText, tc } from '../i18n/cli.ts';
import { abilityText, type Locale } from '../i18n/index.ts';
import { type ItemLabel, itemLabelText } from '../i18n/quote.ts';
import { importJudgments, type JudgmentsFormat } from '../import/judgments.ts';
import type { Runtime } from '../main.ts';
import { itemLabels } from '../storage/items.ts';
import { type CliDeps, cliLocale, openCommandRuntime } from './deps.ts';
import { runInterruptible } from './interrupt.ts';
import { type CliIo, requestExit } from './io.ts';
import { requireKnownName } from './known-names.ts';

const fmt = (x: number | null, d = 4) => (x === null ? 'n/a' : x.toFixed(d));

/** Flags of `zhujiu judge report`. */
export interface JudgeReportOptions {
  readonly model: string;
  readonly baseline?: string;
  readonly judge?: string;
  readonly json?: boolean;
}

/**
 * A model's Scoring figures on a board built with one judge (`board_scoring` of `judge report --json`): the
 * method score and its min–max normalised value (both on the ten-point scale, null when empty) and the Scoring
 * cell of each ability that has one. `stored` is true for the community's board (judge `judge.model`), false for
 * a trial board of another judge (built, not stored: `zhujiu leaderboard --judge NAME`).
 */
export interface BoardScoringFigures {
  readonly judge: string | null;
  readonly stored: boolean;
  readonly scoring: number | null;
  readonly normalized: number | null;
  readonly abilities: Partial<Record<BoardAbility, number>>;
}

function scoringFigures(board: Board, model: string, stored: boolean): BoardScoringFigures {
  const r = board.rows.find((x) => x.model === model);
  const abilities: Partial<Record<BoardAbility, number>> = {};
  for (const a of BOARD_ABILITIES) {
    const v = r?.cells.scoring[a];
    if (v !== null && v !== undefined) abilities[a] = v;
  }
  return {
    judge: board.scoringJudge ?? null,
    stored,
    scoring: r?.methods.scoring ?? null,
    normalized: r?.normalized.scoring ?? null,
    abilities,
  };
}

/**
 * The board's Scoring figures of `model`: on the community's board (judge `judge.model`, rebuilt when its inputs
 * changed, as `zhujiu leaderboard` does) and, when `judge` names another judge, on a trial board of that judge's
 * grades (not stored).
 */
async function boardScoring(
  rt: Runtime,
  model: string,
  judge: string | undefined,
): Promise<BoardScoringFigures[]> {
  const { oneShotBoardService } = await import('../leaderboard/service.ts');
  const svc = oneShotBoardService(rt.db.db, rt.logger, rt.config.app, { inlineChart: false });
  try {
    const community = await svc.refresh();
    const out = [scoringFigures(community.board, model, true)];
    if (judge !== undefined && judge !== community.board.scoringJudge) {
      out.push(scoringFigures((await svc.withJudge(judge)).board, model, false));
    }
    return out;
  } finally {
    await svc.close();
  }
}

function scoringLine(locale: Locale, model: string, f: BoardScoringFigures): string {
  const fig = (x: number | null) => (x === null ? '—' : x.toFixed(2));
  const where = f.stored
    ? tc(locale, 'cli.judge.board', { judge: f.judge ?? tc(locale, 'cli.judge.noneChosen') })
    : tc(locale, 'cli.judge.trialBoard', { judge: f.judge ?? '' });
  const abilities = Object.entries(f.abilities).map(
    ([a, v]) => `${abilityText(a, locale)} ${v.toFixed(2)}`,
  );
  return tc(locale, 'cli.judge.scoringLine', {
    where,
    model,
    scoring: fig(f.scoring),
    normalised: fig(f.normalized),
    abilities: abilities.length > 0 ? `; ${listText(locale, abilities)}` : '',
  });
}

/** One pairwise line of `judge report`: win rate against a baseline, its standard error, how many judged. */
function pairwiseLine(
  locale: Locale,
  model: string,
  p: Awaited<ReturnType<typeof judgeReport>>['report']['pairwise'][number],
  failed: number,
): string {
  return tc(locale, 'cli.judge.pairwise', {
    model,
    baseline: p.baseline,
    judge: p.judge,
    rate: p.win_rate.toFixed(4),
    se: p.standard_error.toFixed(4),
    discrete: p.discrete_win_rate.toFixed(4),
    n: p.n,
    of: p.n + failed,
  });
}

/** One dataset's lines of `judge report`: its judged score and figures, then its judge failures. */
function datasetLines(
  locale: Locale,
  row: Awaited<ReturnType<typeof judgeReport>>['report']['datasets'][number],
  s: Awaited<ReturnType<typeof judgeReport>>['summaries'][number] | undefined,
): string[] {
  const na = tc(locale, 'cli.agree.na');
  const pct = (x: number | null | undefined) => (x == null ? na : `${(100 * x).toFixed(1)} %`);
  const lines = [
    tc(locale, 'cli.judge.dataset', {
      dataset: row.dataset,
      ability: abilityText(row.ability, locale),
      rubric: row.rubric,
      judge: row.judge,
      label: s?.label ?? '',
      earned: row.earned,
      possible: row.possible,
      ratio: row.possible > 0 ? (row.earned / row.possible).toFixed(4) : na,
      raw: fmt(row.raw_mean, 2),
      sv: fmt(row.sv_mean, 2),
      delta: fmt(s?.delta ?? null, 2),
      svRate: pct(row.sv_rate),
      perfect: pct(s?.perfectRate),
      pass: pct(s?.passRate),
    }),
  ];
  if (row.failures.length > 0) {
    const why = (r: string) =>
      tc(locale, r === 'grade' ? 'cli.judge.noGrade' : 'cli.judge.safetyFailed');
    const list = listText(
      locale,
      row.failures
        .slice(0, 20)
        .map((f) => tc(locale, 'cli.judge.failedItem', { item: f.item, why: why(f.reason) })),
    );
    const more =
      row.failures.length > 20 ? tc(locale, 'cli.judge.more', { n: row.failures.length - 20 }) : '';
    lines.push(tc(locale, 'cli.judge.failuresOf', { list, more }));
  }
  return lines;
}

/**
 * Runs `zhujiu judge report --model NAME`: pairwise win rates, per-dataset judged scores, and the model's Scoring
 * figures on the board (whose judge is `judge.model`; with `--judge NAME` also on a trial board of that judge).
 * @throws AppError `input_invalid` for a model, baseline or judge neither the config nor the stored data know
 *   (cli/known-names.ts), `not_found` for a configured one not stored.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runJudgeReport(
  io: CliIo,
  o: JudgeReportOptions,
  deps: CliDeps,
): Promise<void> {
  const locale = cliLocale(deps);
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  try {
    // A name neither the config nor the stored data know is a usage mistake (exit 2); a known one not stored
    // is judgeReport's `not_found`.
    await requireKnownName(rt, 'model', '--model', o.model, locale);
    if (o.baseline !== undefined)
      await requireKnownName(rt, 'model', '--baseline', o.baseline, locale);
    if (o.judge !== undefined) await requireKnownName(rt, 'judge', '--judge', o.judge, locale);
    const d = await judgeReport(rt.db.db, {
      model: o.model,
      ...(o.baseline !== undefined ? { baseline: o.baseline } : {}),
      ...(o.judge !== undefined ? { judge: o.judge } : {}),
    });
    const { pairwise, datasets } = d.report;
    // Only single-answer grades feed the board's Scoring method.
    const board = datasets.length > 0 ? await boardScoring(rt, o.model, o.judge) : [];
    if (o.json) {
      io.out(JSON.stringify({ ...d.report, board_scoring: board }));
      return;
    }
    if (pairwise.length === 0 && datasets.length === 0) {
      io.out(
        o.judge
          ? tc(locale, 'cli.judge.noScoresBy', { model: o.model, judge: o.judge })
          : tc(locale, 'cli.judge.noScores', { model: o.model }),
      );
      return;
    }
    for (const p of pairwise) {
      const failed = d.pairwiseFailed.get(`${p.baseline}/${p.judge}`) ?? 0;
      io.out(pairwiseLine(locale, o.model, p, failed));
    }
    datasets.forEach((row, i) => {
      for (const line of datasetLines(locale, row, d.summaries[i])) io.out(line);
    });
    for (const f of board) io.out(scoringLine(locale, o.model, f));
  } finally {
    if (!deps.rt) await rt.close();
  }
}

/** Flags of `zhujiu import judgments`. */
export interface ImportJudgmentsFlags {
  readonly format: JudgmentsFormat;
  readonly judge: string;
}

/**
 * Runs `zhujiu import judgments PATH`: one transaction; prints what was stored.
 * @throws AppError `import_invalid` naming the file and row; `input_invalid` for a bad --judge.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runImportJudgments(
  io: CliIo,
  path: string,
  o: ImportJudgmentsFlags,
  deps: CliDeps,
): Promise<void> {
  const locale = cliLocale(deps);
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  try {
    const t0 = performance.now();
    const r = await runInterruptible(
      io,
      'imported',
      (signal) =>
        importJudgments(rt.db.db, { path, format: o.format, judge: o.judge, signal, locale }),
      locale,
    );
    if (!r) return;
    io.out(
      tc(locale, 'cli.judge.imported', {
        rows: r.rows,
        judge: o.judge,
        models: listText(locale, r.models),
        files: r.files,
        judged: r.judged,
        failed: r.failed,
        written: r.written,
        secs: ((performance.now() - t0) / 1000).toFixed(2),
      }),
    );
    if (r.overMax.length > 0)
      io.out(
        tc(locale, 'cli.judge.overMax', {
          n: r.overMax.length,
          items: listText(
            locale,
            r.overMax.map((x) => tc(locale, 'cli.judge.overMaxItem', x)),
          ),
        }),
      );
  } finally {
    if (!deps.rt) await rt.close();
  }
}

/** Flags of `zhujiu judge run`. */
export interface JudgeRunFlags {
  readonly model: string;
  readonly suite: string;
  readonly judge: string;
  readonly attempts?: number;
}

type JudgeFailure = JudgeRunResult['failures'][number];

/** Judge failures grouped by cause (code, message, attempts), the largest group first. */
function judgeFailureGroups(failures: readonly JudgeFailure[]): JudgeFailure[][] {
  const causes = new Map<string, JudgeFailure[]>();
  for (const f of failures) {
    const k = `${f.code}\u0000${f.message}\u0000${f.attempts}`;
    causes.set(k, [...(causes.get(k) ?? []), f]);
  }
  return [...causes.values()].sort((a, b) => b.length - a.length);
}

/**
 * The judge failures of one dataset as lines, one per cause (at most 5): `108 items × http_error after 3 attempts:
 * …; e.g. DATASET "KEY" ("…"), …`. Items are named by `labels` ({@link itemLabels}: dataset, key, instruction),
 * never by internal id unless a label is missing.
 */
export function judgeFailureLines(
  failures: readonly JudgeFailure[],
  labels: ReadonlyMap<number, ItemLabel>,
  locale: Locale = 'en',
): string[] {
  return judgeFailureGroups(failures)
    .slice(0, 5)
    .map((fs) => {
      const f = fs[0]!;
      const named = fs
        .slice(0, 2)
        .map((x) => itemLabelText(locale, labels.get(x.itemId) ?? { id: x.itemId }));
      const which =
        fs.length > named.length
          ? 'cli.judge.which.eg'
          : fs.length === 1
            ? 'cli.judge.which.item'
            : 'cli.judge.which.items';
      return tc(locale, 'cli.judge.failureLine', {
        n: fs.length,
        code: f.code,
        attempts: f.attempts,
        message: failureCauseText(f.message, locale),
        which: tc(locale, which),
        items: listText(locale, named),
      });
    });
}

/** One dataset's line of `zhujiu judge run`: judged, failed, skipped, calls, unanswered. */
function runLine(locale: Locale, r: DatasetJudgeResult, o: JudgeRunFlags): string {
  return tc(locale, 'cli.judge.runLine', {
    dataset: r.dataset,
    rubric: r.rubric,
    judge: o.judge,
    judged: r.judged,
    of: r.judged + r.failed,
    failed: r.failed,
    skipped: r.skipped,
    calls: r.calls,
    unanswered:
      r.unanswered > 0
        ? tc(locale, 'cli.judge.unanswered', { n: r.unanswered, model: o.model })
        : '',
  });
}

/**
 * Runs `zhujiu judge run`: judges the model's stored answers to the suite's scoring datasets; prints per dataset
 * "n of m judged", the failures (retryable by running again) and the unanswered items. Exit status (through
 * `process.exitCode`): 130 after Ctrl-C, 1 when every item failed to be judged or more than `eval.max_failure_rate`
 * of the suite's answers are left without a grade (the last line says so), else 0.
 * @throws AppError `not_found` for an unknown suite, model or judge.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runJudgeRun(io: CliIo, o: JudgeRunFlags, deps: CliDeps): Promise<void> {
  const { judgeSuite } = await import('../eval/judge/judge-suite.ts');
  const locale = cliLocale(deps);
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  // Ctrl-C stops asking: what is judged stays stored, the rest is judged by the same command later. The database
  // is closed cleanly (and the embedded folder's lock given back), so that command can start at once.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const results = await judgeSuite(
      { db: rt.db.db, logger: rt.logger, config: rt.config },
      {
        model: o.model,
        suite: o.suite,
        judge: o.judge,
        ...(o.attempts !== undefined ? { maxAttempts: o.attempts } : {}),
        signal: stop.signal,
      },
    );
    for (const r of results) {
      io.out(runLine(locale, r, o));
      const shown = judgeFailureGroups(r.failures).flatMap((g) =>
        g.slice(0, 2).map((f) => f.itemId),
      );
      const labels = await itemLabels(rt.db.db, shown);
      for (const line of judgeFailureLines(r.failures, labels, locale)) io.out(`  ${line}`);
    }
    if (stop.signal.aborted) {
      io.err(tc(locale, 'cli.judge.stopped'));
      requestExit(130);
      return;
    }
    if (results.some((r) => r.failed > 0)) {
      io.out(tc(locale, 'cli.judge.retry'));
    }
    // Nothing judged and every item a judge failure: an error for scripts (exit 1), said on the last line.
    const judged = results.reduce((a, r) => a + r.judged, 0);
    const failed = results.reduce((a, r) => a + r.failed, 0);
    if (judged === 0 && failed > 0) {
      io.err(tc(locale, 'cli.judge.allFailed', { n: failed, judge: o.judge }));
      requestExit(1);
      return;
    }
    // Above eval.max_failure_rate of the answers left without a grade: an error for scripts too (as `zhujiu eval`).
    const total = results.reduce((a, r) => a + r.judged + r.failed, 0); // judged counts the skipped too
    const max = rt.config.app.eval.max_failure_rate;
    if (total > 0 && failed / total > max) {
      io.err(
        tc(locale, 'cli.judge.tooMany', {
          failed,
          total,
          judge: o.judge,
          percent: ((100 * failed) / total).toFixed(1),
          max,
        }),
      );
      requestExit(1);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!deps.rt) await rt.close();
  }
}
