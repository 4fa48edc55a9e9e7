/**
 * @module cli/import
 * `zhujiu import outputs FILE --model NAME …` and `zhujiu import battles FILE …`.
 */

import type { Ability } from '../config/abilities.ts';
import { AppError } from '../core/errors.ts';
import { shellWord } from '../core/shell-word.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { importBattles, readBattlesFile } from '../import/battles.ts';
import { importOutputs, readOutputsFile } from '../import/outputs.ts';
import type { Runtime } from '../main.ts';
import { type CliDeps, cliLocale, openCommandRuntime, withRuntime } from './deps.ts';
import { runInterruptible } from './interrupt.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu import outputs`. */
export interface ImportOutputsOptions {
  readonly model: string;
  readonly format: 'alpaca_eval' | 'jsonl' | 'gaokao';
  readonly dataset?: string;
  readonly ability: Ability;
  /** True when `--format` was not given (commander's default): see import/outputs.ts `formatDefaulted`. */
  readonly formatDefaulted?: boolean;
}

/**
 * Runs `zhujiu import outputs FILE`: one transaction; prints what was added.
 * @throws AppError `import_invalid` naming file:line and the fix; `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runImportOutputs(
  io: CliIo,
  file: string,
  o: ImportOutputsOptions,
  deps: CliDeps,
): Promise<void> {
  if (o.format === 'gaokao') {
    await runImportGaokao(io, file, o, deps);
    return;
  }
  const format = o.format; // alpaca_eval | jsonl here
  const t0 = performance.now();
  const r = await checkThenImport(
    io,
    deps,
    (signal) =>
      readOutputsFile({
        file,
        model: o.model,
        format,
        formatDefaulted: o.formatDefaulted === true,
        signal,
        locale: cliLocale(deps),
        ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      }),
    (rt, parsed, signal) =>
      importOutputs(rt.db.db, {
        file,
        model: o.model,
        format,
        ability: o.ability,
        signal,
        parsed,
        locale: cliLocale(deps),
        ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      }),
  );
  if (!r) return;
  const locale = cliLocale(deps);
  io.out(
    tc(locale, 'cli.import.outputs.done', {
      n: r.added,
      model: r.model,
      dataset: r.dataset,
      rows: r.rows,
      skipped: r.skipped,
      differing: differingNote(locale, r.differing, r.differingItems, 'cli.import.differFile'),
      secs: ((performance.now() - t0) / 1000).toFixed(2),
    }),
  );
}

/** "; N of them differ from the file(s) and were kept as stored: a, b, c", or '' when none differ. */
function differingNote(
  locale: Locale,
  n: number,
  items: readonly string[],
  key: 'cli.import.differFile' | 'cli.import.differFiles',
): string {
  return n > 0 ? tc(locale, key, { n, items: nameSome(items, 3, locale) }) : '';
}

/**
 * An import in two steps: `read` reads and checks the file (no database), then the database opens and `store`
 * writes it in one transaction. A bad file is so refused in a fraction of a second, without starting the embedded
 * database or creating its folder. Ctrl-C aborts either step (see cli/interrupt.ts).
 * @returns what `store` returned, or undefined when interrupted before the commit.
 */
async function checkThenImport<F, R>(
  io: CliIo,
  deps: CliDeps,
  read: (signal: AbortSignal) => Promise<F>,
  store: (rt: Runtime, parsed: F, signal: AbortSignal) => Promise<R>,
): Promise<R | undefined> {
  let opened: Runtime | undefined;
  try {
    return await runInterruptible(
      io,
      'imported',
      async (signal) => {
        const parsed = await read(signal);
        signal.throwIfAborted();
        if (!deps.rt) opened = await openCommandRuntime(deps, {});
        return store(deps.rt ?? (opened as Runtime), parsed, signal);
      },
      cliLocale(deps),
    );
  } finally {
    await opened?.close();
  }
}

/** `zhujiu import outputs DIR --format gaokao --model NAME`: a GAOKAO-Bench result folder. */
async function runImportGaokao(
  io: CliIo,
  dir: string,
  o: ImportOutputsOptions,
  deps: CliDeps,
): Promise<void> {
  const locale = cliLocale(deps);
  if (o.dataset !== undefined)
    throw new AppError('input_invalid', tc(locale, 'cli.import.gaokaoDataset'));
  const { importGaokaoOutputs } = await import('../import/gaokao-outputs.ts');
  await withRuntime(deps, {}, async (rt) => {
    const t0 = performance.now();
    const r = await runInterruptible(
      io,
      'imported',
      (signal) => importGaokaoOutputs(rt.db.db, { dir, model: o.model, signal, locale }),
      locale,
    );
    if (!r) return;
    io.out(
      tc(locale, 'cli.import.gaokao.done', {
        n: r.added,
        model: r.model,
        files: r.files,
        datasets: Object.keys(r.datasets).length,
        counts: listText(
          locale,
          Object.entries(r.datasets).map(([d, n]) => `${d} ${n}`),
        ),
        rows: r.rows,
        skipped: r.skipped,
        differing: differingNote(locale, r.differing, r.differingItems, 'cli.import.differFiles'),
        secs: ((performance.now() - t0) / 1000).toFixed(2),
        word: shellWord(r.model),
      }),
    );
  });
}

/** The first three names, then `and N more`. */
export function nameSome(names: readonly string[], max = 3, locale: Locale = 'en'): string {
  const shown = listText(locale, names.slice(0, max));
  return names.length > max
    ? tc(locale, 'cli.import.andMore', { shown, n: names.length - max })
    : shown;
}

/** Flags of `zhujiu import battles`. */
export interface ImportBattlesOptions {
  readonly source?: string;
  readonly ability?: Ability;
}

/**
 * Runs `zhujiu import battles FILE`: one transaction; prints what was added.
 * @throws AppError `import_invalid` naming file:line and the fix; `db_unavailable`.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runImportBattles(
  io: CliIo,
  file: string,
  o: ImportBattlesOptions,
  deps: CliDeps,
): Promise<void> {
  const t0 = performance.now();
  const r = await checkThenImport(
    io,
    deps,
    (signal) =>
      readBattlesFile({
        file,
        signal,
        locale: cliLocale(deps),
        ...(o.source ? { source: o.source } : {}),
      }),
    (rt, parsed, signal) =>
      importBattles(rt.db.db, {
        file,
        parsed,
        signal,
        ...(o.ability ? { ability: o.ability } : {}),
        exclusiveDb: rt.db.target.kind === 'pglite',
        locale: cliLocale(deps),
      }),
  );
  if (!r) return;
  io.out(
    tc(cliLocale(deps), 'cli.import.battles.done', {
      n: r.added,
      source: r.source,
      rows: r.rows,
      skipped: r.skipped,
      duplicates:
        r.duplicates > 0
          ? tc(cliLocale(deps), 'cli.import.battles.duplicates', { n: r.duplicates })
          : '',
      models: r.models,
      secs: ((performance.now() - t0) / 1000).toFixed(2),
    }),
  );
}
