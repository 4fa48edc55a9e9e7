/**
 * @module import/outputs
 * `zhujiu import outputs`: recorded model outputs become stored responses (the cache an eval run and the arena
 * read). One transaction: a bad row fails the whole import and writes nothing; re-running adds nothing.
 */

import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Kysely } from 'kysely';
import { type Ability, datasetNameProblem, type Method } from '../config/schema.ts';
import { schemaSaidOf } from '../config/schema-messages.ts';
import { AppError } from '../core/errors.ts';
import { shellWord } from '../core/shell-word.ts';
import { readUtf8File } from '../core/utf8.ts';
import { said, saidError, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { shown } from '../i18n/quote.ts';
import { ensureDataset, ensureItems, itemPrompts } from '../storage/items.ts';
import { ensureModels, promoteToRecorded } from '../storage/models.ts';
import { insertResponses, storedOutputs } from '../storage/responses.ts';
import type { Database } from '../storage/schema.ts';
import { folderKindHints } from './folder-hint.ts';
import {
  type OutputsFormat,
  parseRecordedOutputs,
  type RecordedOutput,
} from './formats/recorded-outputs.ts';
import { modelFlagError, nameShown, shortShown } from './formats/sniff.ts';

/** The request hash of an imported (recorded) response: one recorded answer per model and item. */
export const RECORDED_REQUEST_HASH = 'recorded';

/** Options of an outputs import. */
export interface ImportOutputsOptions {
  readonly file: string;
  readonly model: string;
  readonly format?: OutputsFormat;
  /**
   * True when `format` is the command's default rather than a flag the user gave (as when it is absent): an empty
   * `.jsonl` file is then refused with the hint of `--format jsonl`.
   */
  readonly formatDefaulted?: boolean;
  /** Dataset to file the items under; default `alpaca_eval` for that format, else the file's base name. */
  readonly dataset?: string;
  readonly ability?: Ability;
  readonly method?: Method;
  /** Aborts the import (before its commit: nothing is written; it throws the signal's reason). */
  readonly signal?: AbortSignal;
  /** The file as {@link readOutputsFile} already read it (then it is not read again). */
  readonly parsed?: OutputsFile;
  /** The language of the file's problems (the command line's; default English). */
  readonly locale?: Locale;
}

/** An outputs file, read and checked against the flags, not yet stored. */
export interface OutputsFile {
  readonly dataset: string;
  readonly rows: readonly RecordedOutput[];
}

/** What an import did. */
export interface ImportOutputsResult {
  readonly model: string;
  readonly dataset: string;
  readonly rows: number;
  readonly added: number;
  readonly skipped: number;
  /** Of the skipped rows, how many carry an output different from the stored one (the stored one is kept). */
  readonly differing: number;
  /**
   * The differing rows named by what the file holds: `instruction "text…" (line N)` for AlpacaEval files,
   * `item "key" (line N)` for JSONL; every one of them (the CLI shows the first few).
   */
  readonly differingItems: readonly string[];
}

/**
 * Imports one file of recorded outputs for one model.
 * @throws AppError `import_invalid` listing `file:line: reason` for every bad row (nothing is written), or when
 *   the file's `generator` names another model.
 */
export async function importOutputs(
  db: Kysely<Database>,
  opts: ImportOutputsOptions,
): Promise<ImportOutputsResult> {
  const { dataset, rows } = opts.parsed ?? (await readOutputsFile(opts));
  return storeOutputs(db, dataset, rows, opts);
}

/**
 * Reads and checks an outputs file against the flags (`--model`, `--format`, `--dataset`), without touching the
 * database: `zhujiu import outputs` calls it before it opens the database, so a bad file is refused in a fraction
 * of a second.
 * @throws AppError as {@link importOutputs} does for the file and the flags.
 */
export async function readOutputsFile(opts: ImportOutputsOptions): Promise<OutputsFile> {
  const format = opts.format ?? 'alpaca_eval';
  const nameError = modelFlagError('--model', opts.model);
  if (nameError !== undefined) throw nameError;
  // A folder: say what its files are (by their contents) and the command that reads them, e.g. `--format gaokao`
  // for a GAOKAO-Bench result folder, the file itself for AlpacaEval's model_outputs.json.
  if ((await stat(opts.file).catch(() => undefined))?.isDirectory()) {
    const locale = opts.locale ?? 'en';
    const hints = (await folderKindHints(opts.file, [], locale)).map((h) =>
      h.replaceAll('--model NAME', `--model ${shellWord(opts.model)}`),
    );
    throw new AppError(
      'import_invalid',
      hints.length > 0
        ? tc(locale, 'cli.outputs.folder', {
            file: opts.file,
            hints: hints.join(tc(locale, 'cli.outputs.sep')),
          })
        : tc(locale, 'cli.outputs.folderNoHint', { file: opts.file }),
    );
  }
  const dataset =
    opts.dataset ??
    (format === 'alpaca_eval' ? 'alpaca_eval' : basename(opts.file).replace(/\.[^.]+$/, ''));
  // One rule for dataset names (config/schema.ts datasetNameSchema), also for the one taken from the file name.
  const datasetProblem = datasetNameProblem(dataset);
  if (datasetProblem !== undefined) {
    const problem = schemaSaidOf(datasetProblem) ?? datasetProblem;
    throw saidError(
      'input_invalid',
      opts.dataset === undefined
        ? said('cli.import.datasetFromFile', { name: nameShown(dataset), problem })
        : said('cli.modelName.flag', { flag: '--dataset', name: nameShown(dataset), problem }),
    );
  }
  const text = await readUtf8File(opts.file, { code: 'import_invalid' });
  const parsed = parseRecordedOutputs(
    text,
    opts.file,
    format,
    opts.locale,
    opts.format === undefined || opts.formatDefaulted === true,
  );
  if (!parsed.ok) throw new AppError('import_invalid', parsed.reason.join('\n'));
  const rows = parsed.value;
  const other = rows.find((r) => r.generator !== undefined && r.generator !== opts.model);
  if (other) {
    throw saidError(
      'import_invalid',
      said('cli.import.generatorMismatch', {
        at: `${opts.file}:${other.line}`,
        generator: String(other.generator),
        model: opts.model,
        word: shellWord(String(other.generator)),
      }),
    );
  }
  return { dataset, rows };
}

/**
 * A row whose answer differs from the stored one, named by what the file holds: `instruction "text…" (line N)`
 * for AlpacaEval files, `item "key" (line N)` otherwise; in `locale` (default en).
 */
function differingName(
  r: { readonly key: string; readonly prompt: string; readonly line: number },
  format: string,
  locale: Locale = 'en',
): string {
  return format === 'alpaca_eval'
    ? tc(locale, 'cli.import.differInstruction', {
        text: shortShown(r.prompt, 50),
        line: String(r.line),
      })
    : tc(locale, 'cli.import.differItem', { key: shown(r.key), line: String(r.line) });
}

/** Stores checked outputs in one transaction (see {@link importOutputs}). */
async function storeOutputs(
  db: Kysely<Database>,
  dataset: string,
  rows: readonly RecordedOutput[],
  opts: ImportOutputsOptions,
): Promise<ImportOutputsResult> {
  const format = opts.format ?? 'alpaca_eval';
  opts.signal?.throwIfAborted();
  return db.transaction().execute(async (trx) => {
    const modelId = (await ensureModels(trx, [opts.model], 'recorded')).get(opts.model);
    if (modelId === undefined)
      throw new AppError('internal', `model ${opts.model} was not created`);
    const datasetId = await ensureDataset(trx, {
      name: dataset,
      ability: opts.ability ?? 'language',
      method: opts.method ?? 'comparative',
      language: format === 'alpaca_eval' ? 'en' : 'zh',
      source: opts.file,
    });
    // An item key that already exists with another prompt would pair this answer with the wrong question.
    const stored = await itemPrompts(
      trx,
      datasetId,
      rows.map((r) => r.key),
    );
    const clashes = rows.filter((r) => {
      const p = stored.get(r.key);
      return p !== undefined && p !== r.prompt;
    });
    if (clashes.length > 0) {
      throw new AppError(
        'import_invalid',
        clashes
          .slice(0, 20)
          .map((r) => promptDiffers(opts, r, dataset))
          .join('\n'),
      );
    }
    const ids = await ensureItems(
      trx,
      datasetId,
      rows.map((r) => ({
        key: r.key,
        prompt: r.prompt,
        metadata: r.subset ? { subset: r.subset } : {},
      })),
    );
    await promoteToRecorded(trx, modelId);
    const previous = await storedOutputs(trx, modelId, [...ids.values()], RECORDED_REQUEST_HASH);
    const changedRows = rows.filter((r) => {
      const prev = previous.get(ids.get(r.key) as number);
      return prev !== undefined && prev !== r.output;
    });
    const changed = changedRows.length;
    const differingItems = changedRows.map((r) => differingName(r, format, opts.locale));
    opts.signal?.throwIfAborted();
    const added = await insertResponses(
      trx,
      rows.map((r) => {
        const itemId = ids.get(r.key);
        if (itemId === undefined) throw new AppError('internal', `item ${r.key} was not created`);
        return {
          modelId,
          itemId,
          requestHash: RECORDED_REQUEST_HASH,
          output: r.output,
          source: 'import',
        };
      }),
    );
    opts.signal?.throwIfAborted(); // the last chance to roll back: after this the transaction commits
    return {
      model: opts.model,
      dataset,
      rows: rows.length,
      added,
      skipped: rows.length - added,
      differing: changed,
      differingItems,
    };
  });
}

/** `FILE:LINE: item "KEY" is already in dataset "D" with a different prompt; …`, in the import's language. */
function promptDiffers(
  opts: Pick<ImportOutputsOptions, 'file' | 'locale'>,
  r: { line: number; key: string },
  dataset: string,
): string {
  const at = `${opts.file}:${r.line}`;
  return tc(opts.locale ?? 'en', 'cli.rows.promptDiffers', { at, key: r.key, dataset });
}
