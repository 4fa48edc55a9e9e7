/**
 * @module import/gaokao-outputs
 * `zhujiu import outputs DIR --format gaokao --model NAME`: a GAOKAO-Bench result folder (one JSON file per
 * objective keyword, `example[]` with `model_output`) becomes stored responses of a recorded model, on the items
 * of the `gaokao-objective` suite (datasets `gaokao_<subject>`, keys `<keyword>/<index>`), so an eval of that suite
 * re-scores the raw `model_output` text with GAOKAO-Bench's own rules and calls nothing. One transaction: a bad row
 * in any file writes nothing; re-running adds nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { AppError } from '../core/errors.ts';
import { readUtf8File } from '../core/utf8.ts';
import { gaokaoItem } from '../eval/datasets/gaokao.ts';
import type { EvalItem } from '../eval/types.ts';
import { sayCli, tc } from '../i18n/cli.ts';
import { causeText } from '../i18n/error-cause.ts';
import type { Locale } from '../i18n/index.ts';
import { shown } from '../i18n/quote.ts';
import { upsertEvalDataset } from '../storage/eval-datasets.ts';
import { ensureModels, promoteToRecorded } from '../storage/models.ts';
import { insertResponses, storedOutputs } from '../storage/responses.ts';
import type { Database } from '../storage/schema.ts';
import { recordedKindWords } from './folder-hint.ts';
import { importCommandFor, recordedFileKind } from './formats/file-kind.ts';
import {
  type GaokaoFile,
  gaokaoAbility,
  gaokaoDatasetName,
  parseGaokaoFile,
} from './formats/gaokao.ts';
import { capProblems, modelFlagError } from './formats/sniff.ts';
import { RECORDED_REQUEST_HASH } from './outputs.ts';

/** Options of a GAOKAO-Bench import. */
export interface ImportGaokaoOptions {
  /** The result folder. */
  readonly dir: string;
  /** Aborts the import (before its commit: nothing is written; it throws the signal's reason). */
  readonly signal?: AbortSignal;
  readonly model: string;
  /** The language of the files' row problems and of the differing items' names (`differingItems`); default en. */
  readonly locale?: Locale;
}

/** What an import did. */
export interface ImportGaokaoResult {
  readonly model: string;
  readonly files: number;
  /** Dataset name → items in the files. */
  readonly datasets: Readonly<Record<string, number>>;
  readonly rows: number;
  readonly added: number;
  readonly skipped: number;
  /** Of the skipped rows, how many carry an output different from the stored one (the stored one is kept). */
  readonly differing: number;
  /** The differing items, named `dataset item "key"` (the key as in the file); every one of them. */
  readonly differingItems: readonly string[];
}

/** A kept item as the summary names it: `gaokao_math item "3"`, in `locale` (default en). */
function differingName(dataset: string, key: string, locale: Locale = 'en'): string {
  return tc(locale, 'cli.import.differItemOf', { dataset, key: shown(key) });
}

/**
 * Imports a GAOKAO-Bench objective result folder for one model.
 * @throws AppError `import_invalid` listing `file:line: reason` for every bad row (nothing is written), when the
 *   folder has no result files, when a file's `model_name` is another model, or when two files hold one keyword.
 */
export async function importGaokaoOutputs(
  db: Kysely<Database>,
  opts: ImportGaokaoOptions,
): Promise<ImportGaokaoResult> {
  const { model, locale = 'en' } = opts;
  const nameError = modelFlagError('--model', model);
  if (nameError !== undefined) throw nameError;
  let entries: string[];
  try {
    entries = (await readdir(opts.dir, { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith('.json') && e.name !== 'correction_score.json')
      .map((e) => e.name)
      .sort();
  } catch (err) {
    throw await folderRefusal(opts.dir, model, locale, err);
  }
  if (entries.length === 0)
    throw new AppError('import_invalid', tc(locale, 'cli.gaokao.noFiles', { dir: opts.dir }));
  const problems: string[] = [];
  const parsed: { file: string; value: GaokaoFile }[] = [];
  const byKeyword = new Map<string, string>();
  for (const f of entries) {
    const path = join(opts.dir, f);
    let text: string;
    try {
      text = await readUtf8File(path, { code: 'import_invalid' });
    } catch (err) {
      // A file that cannot be read or is not UTF-8: its refusal (catalogue data) in the list's language.
      if (!(err instanceof AppError)) throw err;
      problems.push(err.said ? sayCli(locale, err.said) : err.message);
      continue;
    }
    const r = parseGaokaoFile(text, path, true, opts.locale);
    if (!r.ok) {
      problems.push(...r.reason);
      continue;
    }
    const { keyword } = r.value;
    const other = byKeyword.get(keyword);
    if (other !== undefined) {
      problems.push(tc(locale, 'cli.rows.keywordTwice', { at: `${path}:1`, keyword, other }));
      continue;
    }
    byKeyword.set(r.value.keyword, path);
    if (r.value.modelName !== undefined && r.value.modelName !== opts.model) {
      const named = r.value.modelName;
      problems.push(tc(locale, 'cli.rows.modelDiffers', { at: `${path}:1`, named, model }));
      continue;
    }
    parsed.push({ file: path, value: r.value });
  }
  if (problems.length > 0) {
    throw new AppError('import_invalid', capProblems(problems, undefined, locale).join('\n'));
  }
  // Group the items by dataset (subject).
  const groups = new Map<string, { items: EvalItem[]; outputs: Map<string, string> }>();
  for (const { value } of parsed) {
    const ds = gaokaoDatasetName(value.subject);
    const g = groups.get(ds) ?? { items: [], outputs: new Map<string, string>() };
    for (const row of value.rows) {
      g.items.push(gaokaoItem(row, value.keyword, value.type));
      g.outputs.set(row.key, row.output as string);
    }
    groups.set(ds, g);
  }
  const rows = parsed.reduce((n, p) => n + p.value.rows.length, 0);
  opts.signal?.throwIfAborted();
  return db.transaction().execute(async (trx) => {
    const modelId = (await ensureModels(trx, [opts.model], 'recorded')).get(opts.model);
    if (modelId === undefined)
      throw new AppError('internal', `model ${opts.model} was not created`);
    await promoteToRecorded(trx, modelId);
    let added = 0;
    let differing = 0;
    const differingItems: string[] = [];
    const datasets: Record<string, number> = {};
    for (const [ds, g] of groups) {
      const { itemIds } = await upsertEvalDataset(
        trx,
        {
          name: ds,
          ability: gaokaoAbility(ds),
          method: 'metrics',
          metric: 'gaokao_objective',
          profile: 'gaokao',
          templateVersion: 'gaokao-obj-v1',
          items: g.items,
        },
        { updateDataset: false },
      );
      datasets[ds] = g.items.length;
      const ids = g.items.map((it) => itemIds.get(it.key) as number);
      const previous = await storedOutputs(trx, modelId, ids, RECORDED_REQUEST_HASH);
      for (const it of g.items) {
        const prev = previous.get(itemIds.get(it.key) as number);
        if (prev !== undefined && prev !== g.outputs.get(it.key)) {
          differing++;
          differingItems.push(differingName(ds, it.key, opts.locale));
        }
      }
      added += await insertResponses(
        trx,
        g.items.map((it) => ({
          modelId,
          itemId: itemIds.get(it.key) as number,
          requestHash: RECORDED_REQUEST_HASH,
          output: g.outputs.get(it.key) as string,
          source: 'import',
        })),
      );
    }
    opts.signal?.throwIfAborted(); // the last chance to roll back: after this the transaction commits
    return {
      model: opts.model,
      files: parsed.length,
      datasets,
      rows,
      added,
      skipped: rows - added,
      differing,
      differingItems,
    };
  });
}

/**
 * Why `dir` cannot be read as a GAOKAO-Bench result folder, in `locale`: a file (with the command that reads it, by
 * its contents), or a folder that cannot be listed.
 */
async function folderRefusal(
  dir: string,
  model: string,
  locale: Locale,
  err: unknown,
): Promise<AppError> {
  if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') {
    // Name the command that reads this file, by its contents (a result file of the folder: the folder).
    const kind = recordedFileKind(await readFile(dir, 'utf8').catch(() => ''));
    const cmd = importCommandFor(kind, dir, dirname(dir))?.replace(
      '--model NAME',
      `--model ${model}`,
    );
    const what = cmd
      ? tc(locale, 'cli.gaokao.fileIs', { words: recordedKindWords(kind, locale), cmd })
      : tc(locale, 'cli.gaokao.outputsFile');
    return new AppError('import_invalid', tc(locale, 'cli.gaokao.notFolder', { dir, what }), {
      cause: err,
    });
  }
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new AppError(
    'import_invalid',
    tc(locale, 'cli.gaokao.cannotRead', { dir, code: causeText(locale, code) }),
    {
      cause: err,
    },
  );
}
