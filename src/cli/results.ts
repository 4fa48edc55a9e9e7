/**
 * @module cli/results
 * `zhujiu results --run N [--dataset D] [--ability A] [--failed] [--format jsonl|csv] [--out FILE]`: a run's
 * item-level results (eval/item-results.ts), streamed a page at a time to stdout or, atomically, to FILE.
 * `zhujiu results` without `--run` lists the latest runs.
 */

import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { AppError } from '../core/errors.ts';
import { checkOutputPath, type OutputFile, streamFileAtomic } from '../core/out-file.ts';
import { checkRunFilter, type ResultFormat, writeRunResults } from '../eval/item-results.ts';
import { tc } from '../i18n/cli.ts';
import { type Locale, runStatusText } from '../i18n/index.ts';
import { getRun } from '../storage/eval-runs.ts';
import { listRunsPage } from '../storage/run-results.ts';
import { type CliDeps, cliLocale, withRuntime } from './deps.ts';
import { type CliIo, OutputClosedError, tableLines } from './io.ts';
import { requireKnownName } from './known-names.ts';
import { checkOutputFormat } from './out-format.ts';

/** Flags of `zhujiu results`. */
export interface ResultsFlags {
  readonly run?: number;
  readonly dataset?: string;
  readonly ability?: string;
  readonly failed?: boolean;
  readonly format: ResultFormat;
  readonly out?: string;
  /** CSV only: start with a UTF-8 byte-order mark (README "`results`"), for spreadsheets that need one. */
  readonly bom?: boolean;
}

/**
 * The UTF-8 byte-order mark (U+FEFF, bytes EF BB BF): Excel reads a CSV file as UTF-8 only when it starts with one
 * (without it, as the system's legacy code page, which shows Chinese as mojibake); other readers skip it or not, so
 * it is written only when asked (`--bom`).
 */
const UTF8_BOM = '\uFEFF';

/** `--out PATH` of results written in `format`; a folder is answered with `results.jsonl` / `results.csv` in it. */
function outFile(path: string, format: ResultFormat): OutputFile {
  return { flag: '--out', path, fileName: `results.${format}` };
}

/** Writes `s` to `out`, waiting for `drain`; a failed stream (EPIPE) throws so no further page is read. */
async function write(out: Writable, s: string): Promise<void> {
  if (out.destroyed || out.errored) {
    const e = out.errored as NodeJS.ErrnoException | null;
    throw e?.code === 'EPIPE' || !e ? new OutputClosedError() : e;
  }
  if (!out.write(s)) await once(out, 'drain');
}

/**
 * The latest runs as a table, columns sized by terminal columns (cli/io.ts `tableLines`: a Chinese character
 * takes two), the status in `locale`.
 */
function printRuns(
  io: CliIo,
  runs: Awaited<ReturnType<typeof listRunsPage>>,
  locale: Locale,
): void {
  const head = (['run', 'model', 'suite', 'status', 'items'] as const).map((c) =>
    tc(locale, `cli.results.col.${c}`),
  );
  const rows = runs.map((r) => [
    String(r.id),
    r.model,
    r.suite,
    runStatusText(r.status, locale),
    `${r.done} / ${r.failed} / ${r.total}`,
  ]);
  for (const l of tableLines(head, rows, [true, false, false, false, false])) io.out(l);
}

/**
 * Runs `zhujiu results`. Records go to stdout (or FILE with `--out`); a one-line count goes to stderr (stdout with
 * `--out`), so stdout holds only the records. Without `--run`, prints the latest 20 runs (id, model, suite,
 * status, finished / failed / planned items).
 * @throws AppError `input_invalid` (a `--dataset` neither the suites nor the stored data know: cli/known-names.ts), `not_found` (no run N: says how to list them; a dataset or ability
 *   the run lacks: lists the run's), `file_unwritable` (`--out`, checked before the database is opened), `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runResults(io: CliIo, o: ResultsFlags, deps: CliDeps): Promise<void> {
  const locale = cliLocale(deps);
  if (o.out) {
    checkOutputFormat(
      {
        flag: '--out',
        path: o.out,
        format: o.format,
        by: `--format ${o.format}`,
        others: { csv: '--format csv', jsonl: '--format jsonl' },
      },
      locale,
    );
    await checkOutputPath(outFile(o.out, o.format));
  }
  await withRuntime(deps, {}, async (rt) => {
    const db = rt.db.db;
    if (o.run === undefined) {
      const runs = await listRunsPage(db, { limit: 20 });
      if (runs.length === 0) {
        io.out(tc(locale, 'cli.results.noRuns'));
        return;
      }
      printRuns(io, runs, locale);
      return;
    }
    const run = await getRun(db, o.run);
    if (!run) throw new AppError('not_found', tc(locale, 'cli.results.noSuchRun', { run: o.run }));
    const filter = {
      ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      ...(o.ability !== undefined ? { ability: o.ability } : {}),
      ...(o.failed ? { failed: true } : {}),
    };
    // A dataset neither the suites nor the stored data know is a usage mistake (exit 2); one this run lacks, exit 1.
    if (o.dataset !== undefined)
      await requireKnownName(rt, 'dataset', '--dataset', o.dataset, locale);
    await checkRunFilter(db, run.id, filter);
    const target = { id: run.id, model: run.model, suite: run.suite };
    let n: number;
    const records = async (out: Writable) => {
      if (o.bom) await write(out, UTF8_BOM);
      return writeRunResults(db, target, filter, o.format, (s) => write(out, s));
    };
    if (o.out) n = await streamFileAtomic(outFile(o.out, o.format), records);
    else n = await records(io.stdout ?? process.stdout);
    const summary = tc(locale, o.out ? 'cli.results.writtenTo' : 'cli.results.written', {
      n,
      run: run.id,
      model: run.model,
      suite: run.suite,
      out: o.out ?? '',
      format: o.format,
    });

    if (o.out) io.out(summary);
    else io.err(summary);
  });
}
