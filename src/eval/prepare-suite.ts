/**
 * @module eval/prepare-suite
 * A suite's datasets prepared for a run (eval/datasets/prepare: files read, parsed by their loaders, sampled), from
 * the configuration alone, or, for a recorded model, from the items already stored under a dataset's name where its
 * files are missing. Without stored items it needs no database, so `zhujiu eval` starts it while the database opens
 * (cli/eval, main.ts `RuntimeOptions.onConfig`); eval/service `prepareSuite` is the same function.
 */
import { folderState } from '../core/folder-state.ts';
import type { StoredItem } from '../storage/items.ts';
import { byCloseness } from '../text/edit-distance.ts';
import {
  type BaseCache,
  canUseStoredItems,
  missingDatasetFiles,
  prepareDataset,
  preparedFromStoredItems,
} from './datasets/prepare.ts';
import { EvalRefusalError } from './refusal.ts';
import type { EvalConfig } from './service.ts';
import type { PreparedDataset } from './types.ts';

/**
 * Prepares the datasets of suite `name` from their files. With `storedItems` (a recorded model's run), a zero-shot
 * dataset whose files are missing is prepared from its stored items instead when it has any (an imported
 * GAOKAO-Bench result folder stores the `gaokao-objective` items).
 * @throws AppError not_found (no such suite: an eval/refusal `EvalRefusalError`, `unknown_suite`) / dataset_invalid (missing files: an eval/refusal `EvalRefusalError`,
 *   `files_missing`, naming the files, the datasets folder and the fix) / config_invalid.
 */
export async function prepareSuiteDatasets(
  config: Pick<EvalConfig, 'suites' | 'datasetsDir' | 'datasetsCacheDir' | 'datasetRoots'>,
  name: string,
  storedItems?: (dataset: string) => Promise<StoredItem[]>,
): Promise<readonly PreparedDataset[]> {
  const suite = config.suites.get(name);
  if (!suite)
    throw new EvalRefusalError('not_found', {
      code: 'unknown_suite',
      suite: name,
      valid: byCloseness(name, [...config.suites.keys()]),
    });
  const loc = {
    datasetsDir: config.datasetsDir,
    cacheDir: config.datasetsCacheDir,
    roots: config.datasetRoots ?? [],
  };
  const missing: string[] = [];
  const stored = new Map<string, StoredItem[]>();
  for (const entry of suite.datasets) {
    if (entry.loader === undefined) continue;
    const gone = missingDatasetFiles(entry, loc);
    if (gone.length === 0) continue;
    if (storedItems && canUseStoredItems(entry)) {
      const items = await storedItems(entry.name);
      if (items.length > 0) {
        stored.set(entry.name, items);
        continue;
      }
    }
    for (const f of gone) if (!missing.includes(f)) missing.push(f);
  }
  // A datasets folder that is not one (missing, a file, under a file) is said once, not as each of its files.
  const folder = missing.length > 0 ? folderState(config.datasetsDir) : undefined;
  if (folder !== undefined && folder.kind !== 'folder' && folder.kind !== 'unreadable')
    throw new EvalRefusalError('dataset_invalid', {
      code: 'datasets_dir_missing',
      suite: name,
      dir: config.datasetsDir,
      ...(folder.kind === 'file' ? { file: config.datasetsDir } : {}),
      ...(folder.kind === 'underFile' ? { file: folder.file } : {}),
    });
  if (missing.length > 0)
    throw new EvalRefusalError('dataset_invalid', {
      code: 'files_missing',
      suite: name,
      dir: config.datasetsDir,
      files: missing,
    });
  const out: PreparedDataset[] = [];
  const bases: BaseCache = new Map(); // each robustness base prepared once per suite
  for (const entry of suite.datasets) {
    if (entry.loader === undefined) continue;
    const items = stored.get(entry.name);
    out.push(
      items
        ? preparedFromStoredItems(name, entry, items)
        : await prepareDataset(name, entry, loc, bases),
    );
  }
  return out;
}
