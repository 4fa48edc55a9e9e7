/**
 * @module cli/export-command
 * Registers `zhujiu export battles [--source NAME] [--since DATE] [--format fastchat|jsonl] [--out FILE]`
 * (the work is in import/export-battles.ts).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { EXPORT_FORMATS, type ExportFormat } from '../import/formats/arena-export.ts';

function dateArg(v: string): Date {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : new Date(v);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v))
    throw new InvalidArgumentError(
      `--since must be a date like 2026-11-30 or 2026-11-30T12:00:00Z (UTC unless an offset is given), got "${v}"`,
    );
  return d;
}

function sourceArg(v: string): string {
  if (!/^[\w.:@-]{1,64}$/.test(v))
    throw new InvalidArgumentError(`--source "${v}": use 1–64 letters, digits and . _ : @ -`);
  return v;
}

/** Adds the `export` command group to `program`. */
export function registerExport(
  program: Command,
  io: { err(s: string): void; out(s: string): void },
): void {
  const exp = program.command('export').description('export stored data in public formats');
  exp
    .command('battles')
    .description(
      'write the live votes of a source as Chatbot Arena battles (one JSON line per vote): model_a, model_b, winner, anonymised judge, turn, timestamps',
    )
    .option(
      '--source <name>',
      "the battles' source (default: arena, the community's own)",
      sourceArg,
    )
    .option('--since <date>', 'only votes made at or after this date (UTC)', dateArg)
    .addOption(
      new Option('--format <format>', 'line format').choices(EXPORT_FORMATS).default('fastchat'),
    )
    .option('--out <file>', 'write to FILE (atomically) instead of standard output')
    .action(async (o: { source?: string; since?: Date; format: ExportFormat; out?: string }) => {
      const { openRuntime } = await import('../main.ts');
      const { exportBattles, exportBattlesToFile } = await import('../import/export-battles.ts');
      const rt = await openRuntime({ quiet: true });
      try {
        const opts = {
          format: o.format,
          ...(o.source ? { source: o.source } : {}),
          ...(o.since ? { since: o.since } : {}),
        };
        const r = o.out
          ? await exportBattlesToFile(rt.db.db, o.out, opts)
          : await exportBattles(rt.db.db, process.stdout, opts);
        const summary = `exported ${r.votes} ${r.votes === 1 ? 'vote' : 'votes'} of ${r.battles} ${r.battles === 1 ? 'battle' : 'battles'} from source ${r.source}${o.out ? ` to ${o.out}` : ''} (${o.format})`;
        // The lines go to stdout without --out, so the summary goes to stderr there.
        if (o.out) io.out(summary);
        else io.err(summary);
      } finally {
        await rt.close();
      }
    });
}
