/**
 * @module cli/judge-export
 * `zhujiu judge export --judge NAME [--model NAME] [--dataset NAME] [--out FILE]`: a judge's own single-answer
 * grades as the labels `zhujiu judge agree` reads (JSON Lines, one `{"item","label"}` per graded item), so a judge
 * can be compared with people or with another judge (docs/scoring.md §3.6).
 */

import { AppError } from '../core/errors.ts';
import { checkOutputPath, writeFileAtomic } from '../core/out-file.ts';
import { listText, tc } from '../i18n/cli.ts';
import { judgeGradesOf, singleAnswerJudges } from '../storage/judge-scores.ts';
import { findModel } from '../storage/models.ts';
import { type CliDeps, cliLocale, withRuntime } from './deps.ts';
import type { CliIo } from './io.ts';
import { requireKnownName } from './known-names.ts';
import { checkOutputFormat } from './out-format.ts';

/** The file name `--out` is given in a folder named instead of a file: a JSON Lines file of labels. */
const LABELS_FILE = 'labels.jsonl';

/** Flags of `zhujiu judge export`. */
export interface JudgeExportFlags {
  readonly judge: string;
  readonly model?: string;
  readonly dataset?: string;
  readonly out?: string;
}

/**
 * The label line of one grade: `{"item":"<model> <dataset>/<key>","label":<points>}`. The item names the model
 * (a dataset name has no space, so the last space ends the model name) so that one file may hold several models'
 * grades and `judge agree` joins two exports, or an export and people's labels written the same way, item by item.
 */
export function labelLine(g: {
  model: string;
  dataset: string;
  itemKey: string;
  rawScore: number;
}): string {
  return JSON.stringify({ item: `${g.model} ${g.dataset}/${g.itemKey}`, label: g.rawScore });
}

/**
 * Runs `zhujiu judge export`: the lines go to FILE (written atomically) or stdout; a one-line summary (grades
 * written, judge failures left out) goes to stdout with `--out`, to stderr otherwise, so stdout holds only lines.
 * @throws AppError `input_invalid` (a `--judge`, `--model` or `--dataset` neither the config nor the stored data
 *   know: cli/known-names.ts), `not_found` (a configured `--model` not stored, or no grade of this judge matches: names the judges or the
 *   fix), `file_unwritable` (checked before the database is opened), `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runJudgeExport(io: CliIo, o: JudgeExportFlags, deps: CliDeps): Promise<void> {
  const locale = cliLocale(deps);
  if (o.out) {
    checkOutputFormat(
      { flag: '--out', path: o.out, format: 'jsonl', by: 'zhujiu judge export' },
      locale,
    );
    await checkOutputPath({ flag: '--out', path: o.out, fileName: LABELS_FILE });
  }
  await withRuntime(deps, {}, async (rt) => {
    await requireKnownName(rt, 'judge', '--judge', o.judge, locale);
    if (o.model !== undefined) await requireKnownName(rt, 'model', '--model', o.model, locale);
    if (o.dataset !== undefined)
      await requireKnownName(rt, 'dataset', '--dataset', o.dataset, locale);
    if (o.model !== undefined && !(await findModel(rt.db.db, o.model))) {
      throw new AppError('not_found', tc(locale, 'cli.judgeExport.noModel', { model: o.model }));
    }
    const r = await judgeGradesOf(rt.db.db, {
      judge: o.judge,
      ...(o.model !== undefined ? { model: o.model } : {}),
      ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
    });
    if (r.grades.length === 0) {
      const judges = await singleAnswerJudges(rt.db.db);
      const scope =
        (o.model ? tc(locale, 'cli.judgeExport.ofModel', { model: o.model }) : '') +
        (o.dataset ? tc(locale, 'cli.judgeExport.onDataset', { dataset: o.dataset }) : '');
      throw new AppError(
        'not_found',
        tc(locale, 'cli.judgeExport.noGrades', {
          judge: o.judge,
          scope,
          failures: r.failures > 0 ? tc(locale, 'cli.judgeExport.failures', { n: r.failures }) : '',
          judges: listText(locale, judges) || tc(locale, 'cli.eval.none'),
        }),
      );
    }
    const lines = r.grades.map(labelLine).join('\n');
    if (o.out)
      await writeFileAtomic({ flag: '--out', path: o.out, fileName: LABELS_FILE }, `${lines}\n`);
    else io.out(lines);
    const summary = tc(locale, o.out ? 'cli.judgeExport.doneTo' : 'cli.judgeExport.done', {
      n: r.grades.length,
      judge: o.judge,
      out: o.out ?? '',
      failures: r.failures > 0 ? tc(locale, 'cli.judgeExport.leftOut', { n: r.failures }) : '',
    });
    if (o.out) io.out(summary);
    else io.err(summary);
  });
}
