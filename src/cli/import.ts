/**
 * @module cli/import
 * `zhujiu import outputs FILE --model NAME …` and `zhujiu import battles FILE …`.
 */

import type { Ability } from '../config/abilities.ts';
import { AppError } from '../core/errors.ts';
import { shellWord } from '../core/shell-word.ts';
import { importBattles, readBattlesFile } from '../import/battles.ts';
import { importOutputs, readOutputsFile } from '../import/outputs.ts';
import type { Runtime } from '../main.ts';
import { type CliDeps, openCommandRuntime, withRuntime } from './deps.ts';
import { runInterruptible } from './interrupt.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu import outputs`. */
export interface ImportOutputsOptions {
  readonly model: string;
  readonly format: 'alpaca_eval' | 'jsonl' | 'gaokao';
  readonly dataset?: string;
  readonly ability: Ability;
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
        signal,
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
        ...(o.dataset !== undefined ? { dataset: o.dataset } : {}),
      }),
  );
  if (!r) return;
  io.out(
    `imported ${r.added} ${r.added === 1 ? 'response' : 'responses'} for ${r.model} into dataset ` +
      `${r.dataset} (${r.rows} rows, ${r.skipped} already present` +
      `${r.differing > 0 ? `; ${r.differing} of them differ from the file and were kept as stored: ${nameSome(r.differingItems)}` : ''}) ` +
      `in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
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
    return await runInterruptible(io, 'imported', async (signal) => {
      const parsed = await read(signal);
      signal.throwIfAborted();
      if (!deps.rt) opened = await openCommandRuntime(deps, {});
      return store(deps.rt ?? (opened as Runtime), parsed, signal);
    });
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
  if (o.dataset !== undefined) {
    throw new AppError(
      'input_invalid',
      '--dataset does not apply to --format gaokao: items go to the datasets gaokao_<subject> of the gaokao-objective suite',
    );
  }
  const { importGaokaoOutputs } = await import('../import/gaokao-outputs.ts');
  await withRuntime(deps, {}, async (rt) => {
    const t0 = performance.now();
    const r = await runInterruptible(io, 'imported', (signal) =>
      importGaokaoOutputs(rt.db.db, { dir, model: o.model, signal }),
    );
    if (!r) return;
    io.out(
      `imported ${r.added} ${r.added === 1 ? 'response' : 'responses'} for ${r.model} from ${r.files} GAOKAO-Bench files into ` +
        `${Object.keys(r.datasets).length} datasets (${Object.entries(r.datasets)
          .map(([d, n]) => `${d} ${n}`)
          .join(', ')}; ${r.rows} items, ${r.skipped} already present` +
        `${r.differing > 0 ? `; ${r.differing} of them differ from the files and were kept as stored: ${nameSome(r.differingItems)}` : ''}) ` +
        `in ${((performance.now() - t0) / 1000).toFixed(2)} s; score them with \`zhujiu eval --model ${shellWord(r.model)} --suite gaokao-objective\``,
    );
  });
}

/** The first three names, then `and N more`. */
export function nameSome(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
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
    (signal) => readBattlesFile({ file, signal, ...(o.source ? { source: o.source } : {}) }),
    (rt, parsed, signal) =>
      importBattles(rt.db.db, {
        file,
        parsed,
        signal,
        ...(o.ability ? { ability: o.ability } : {}),
        exclusiveDb: rt.db.target.kind === 'pglite',
      }),
  );
  if (!r) return;
  io.out(
    `imported ${r.added} battle${r.added === 1 ? '' : 's'} (${r.added} vote${r.added === 1 ? '' : 's'}) from source ${r.source} (${r.rows} rows, ${r.skipped} already present, ${r.models} models) in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
  );
}
