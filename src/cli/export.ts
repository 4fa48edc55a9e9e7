/**
 * @module cli/export
 * `zhujiu export battles [--source NAME] [--since DATE] [--format fastchat|jsonl] [--out FILE]` (the work is in
 * import/export-battles.ts).
 */
import { checkOutputPath } from '../core/out-file.ts';
import { tc } from '../i18n/cli.ts';
import { exportBattles, exportBattlesToFile } from '../import/export-battles.ts';
import type { ExportFormat } from '../import/formats/arena-export.ts';
import { type CliDeps, cliLocale, dbText, withRuntime } from './deps.ts';
import { runInterruptible } from './interrupt.ts';
import type { CliIo } from './io.ts';
import { checkOutputFormat } from './out-format.ts';
import { requireRequestedSources, votesElsewhereNote } from './sources.ts';

/** Flags of `zhujiu export battles`. */
export interface ExportBattlesFlags {
  readonly source?: string;
  readonly since?: Date;
  readonly format: ExportFormat;
  readonly out?: string;
}

/**
 * Runs `zhujiu export battles`: the lines go to FILE (atomically) or stdout; a one-line summary goes to stdout
 * with `--out`, to stderr otherwise (so stdout holds only the lines).
 * @throws AppError `input_invalid` (no battle carries the source: the stored sources are listed),
 *   `file_unwritable` (FILE is a folder or its folder is missing or not writable: checked before the database is
 *   opened), `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runExportBattles(
  io: CliIo,
  o: ExportBattlesFlags,
  deps: CliDeps,
): Promise<void> {
  const locale = cliLocale(deps);
  if (o.out) {
    checkOutputFormat(
      { flag: '--out', path: o.out, format: 'jsonl', by: `--format ${o.format}` },
      locale,
    );
    await checkOutputPath({ flag: '--out', path: o.out, fileName: 'battles.jsonl' });
  }
  await withRuntime(deps, {}, async (rt) => {
    // A source with no stored battles is refused as `ratings` and `leaderboard` refuse it, listing the stored ones.
    if (o.source !== undefined)
      await requireRequestedSources(rt.db.db, dbText(rt.db.target, locale), [o.source], locale);
    const opts = {
      format: o.format,
      ...(o.source ? { source: o.source } : {}),
      ...(o.since ? { since: o.since } : {}),
    };
    const out = o.out;
    const r = out
      ? await runInterruptible(
          io,
          'written',
          (signal) => exportBattlesToFile(rt.db.db, out, opts, signal),
          locale,
        )
      : await exportBattles(rt.db.db, io.stdout ?? process.stdout, opts);
    if (!r) return;
    const summary = tc(locale, o.out ? 'cli.export.doneTo' : 'cli.export.done', {
      votes: r.votes,
      battles: r.battles,
      source: r.source,
      out: o.out ?? '',
      format: o.format,
    });
    if (o.out) io.out(summary);
    else io.err(summary);
    if (r.votes === 0 && o.source === undefined) {
      // Nothing of the community's own while imported sources hold votes: say so (stderr; stdout is the data).
      const note = await votesElsewhereNote(rt.db.db, [r.source], 'export', locale);
      if (note) io.err(note);
    }
  });
}
