/**
 * @module eval/datasets/prepare
 * Turns a suite's dataset entries into {@link PreparedDataset}s: reads the files (local or URL + checksum), parses
 * and validates the rows (every bad row reported as `file:line: reason`; a dataset with bad rows is refused),
 * takes the seeded sample, picks seeded in-context examples when `shots > 0`, and binds the prompt template and
 * scorer with the chosen profile.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetLoaderName, SuiteConfig, SuiteDatasetConfig } from '../../config/schema.ts';
import { AppError, type Said } from '../../core/errors.ts';
import { listSaid, said, saidError } from '../../i18n/cli.ts';
import type { RobustnessBuild } from '../robustness/derive.ts';
import type { EvalItem, PreparedDataset } from '../types.ts';
import { c3Loader, ccpmLoader, chidLoader, cluewscLoader, ocnliLoader } from './choice.ts';
import { gaokaoLoader } from './gaokao.ts';
import { knowledgeLoader } from './knowledge/loader.ts';
import { buildMessages, type DatasetLoader } from './loader.ts';
import { math23kLoader } from './math23k.ts';
import { seededSample } from './sample.ts';
import {
  alignbenchLoader,
  chisafetybenchLoader,
  cvaluesLoader,
  flamesLoader,
  gaokaoSubjectiveLoader,
  mtBenchLoader,
  safetybenchLoader,
  selfawareLoader,
} from './scoring-sets.ts';
import {
  cacheUnwritable,
  type DatasetLocation,
  describeFile,
  localFileOf,
  readDatasetFile,
} from './source.ts';
import { cmrc2018Loader, drcdLoader } from './span.ts';

export { seededSample } from './sample.ts';

/** The loader of a format (GAOKAO-Bench's depends on the dataset name, which picks the subject). */
export function datasetLoader(name: DatasetLoaderName, datasetName: string): DatasetLoader {
  switch (name) {
    case 'c3':
      return c3Loader;
    case 'cmrc2018':
      return cmrc2018Loader;
    case 'drcd':
      return drcdLoader;
    case 'ocnli':
      return ocnliLoader;
    case 'cluewsc2020':
      return cluewscLoader;
    case 'chid':
      return chidLoader;
    case 'ccpm':
      return ccpmLoader;
    case 'math23k':
      return math23kLoader;
    case 'gaokao':
      return gaokaoLoader(datasetName);
    case 'alignbench':
      return alignbenchLoader;
    case 'mt_bench':
      return mtBenchLoader;
    case 'gaokao_subjective':
      return gaokaoSubjectiveLoader;
    case 'safetybench_zh':
      return safetybenchLoader;
    case 'flames':
      return flamesLoader;
    case 'cvalues':
      return cvaluesLoader;
    case 'selfaware':
      return selfawareLoader;
    case 'chisafetybench':
      return chisafetybenchLoader;
    case 'robustness':
      throw new AppError(
        'config_invalid',
        `dataset ${datasetName}: a robustness dataset has no file format of its own; it is prepared from its base dataset (prepareDataset)`,
      );
    case 'knowledge':
      return knowledgeLoader;
  }
}

function where(suite: string, entry: SuiteDatasetConfig): Said {
  return said('cli.dataset.where', { suite, dataset: entry.name });
}

/**
 * The dataset's loader and its profile (the entry's, else the loader's first).
 * @throws AppError `config_invalid` for a profile the loader does not have.
 */
function loaderAndProfile(
  suite: string,
  entry: SuiteDatasetConfig,
  loaderName: Parameters<typeof datasetLoader>[0],
): { loader: ReturnType<typeof datasetLoader>; profile: string } {
  const loader = datasetLoader(loaderName, entry.name);
  const profile = entry.profile ?? (loader.profiles[0] as string);
  if (!loader.profiles.includes(profile)) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.profile', {
        where: where(suite, entry),
        profile,
        profiles: listSaid(loader.profiles),
        loader: loaderName,
      }),
    );
  }
  return { loader, profile };
}

/** Prepared base datasets of robustness entries, by their entry, so one suite reads each base's files once. */
export type BaseCache = Map<string, Promise<PreparedDataset>>;

/** The suite entry a robustness dataset's `base:` stands for (the robustness entry's ability and method). */
export function baseEntry(entry: SuiteDatasetConfig): SuiteDatasetConfig | undefined {
  if (entry.loader !== 'robustness' || entry.base === undefined) return undefined;
  return { ...entry.base, ability: entry.ability, method: entry.method, safety_check: false };
}

/** The multi-request methods of a loader that has them, bound to the profile. */
function multiRequest(
  loader: DatasetLoader,
  profile: string,
): Pick<PreparedDataset, 'requests' | 'scoreAnswers'> {
  const { requests, scoreAnswers } = loader;
  return {
    ...(requests !== undefined ? { requests: (item: EvalItem) => requests(item) } : {}),
    ...(scoreAnswers !== undefined
      ? {
          scoreAnswers: (item: EvalItem, outputs: readonly string[]) =>
            scoreAnswers(item, outputs, profile),
        }
      : {}),
  };
}

/**
 * Where a constructed dataset's files are read from: the datasets folder when they are there (a `zhujiu datasets
 * build` into it), else the datasets cache folder (`ZHUJIU_DATASETS_CACHE`), where they are built on first use from
 * the installed data packages (eval/datasets/build: deterministic, under a second; each file is written to a
 * temporary name and renamed, so a process reading beside a build never sees half of one). So a suite that names
 * them runs with no set-up step, and a read-only datasets folder is never written.
 * @throws what the build throws (a data package missing: reinstall with `npm ci`); AppError `file_unwritable`
 *   when the cache folder cannot be written (source.ts `cacheUnwritable`).
 */
async function constructedLocation(
  entry: SuiteDatasetConfig,
  loc: DatasetLocation,
): Promise<DatasetLocation> {
  if (absentFiles(entry, loc).length === 0) return loc;
  const cached: DatasetLocation = { ...loc, datasetsDir: loc.cacheDir, roots: [] };
  if (absentFiles(entry, cached).length > 0) {
    const { buildDatasets, BUILT_DIR } = await import('./build/write.ts');
    await buildDatasets(join(loc.cacheDir, BUILT_DIR)).catch((err: unknown) => {
      throw cacheUnwritable(loc.cacheDir, err);
    });
  }
  return cached;
}

/**
 * The robustness datasets of `suite` as builds of eval/robustness `buildRobustnessSets`: the distinct base entries
 * to prepare (by base name; two robustness datasets naming one base name must give the same entry) and one build
 * per robustness dataset. Pure.
 * @throws AppError `config_invalid` when one base name stands for two different entries.
 */
export function robustnessPlan(suite: SuiteConfig): {
  bases: SuiteDatasetConfig[];
  builds: RobustnessBuild[];
} {
  const bases = new Map<string, SuiteDatasetConfig>();
  const builds: RobustnessBuild[] = [];
  for (const entry of suite.datasets) {
    const be = baseEntry(entry);
    if (be === undefined || entry.task === undefined) continue;
    const known = bases.get(be.name);
    if (
      known &&
      JSON.stringify({ ...known, ability: 0, method: 0 }) !==
        JSON.stringify({ ...be, ability: 0, method: 0 })
    )
      throw saidError(
        'config_invalid',
        said('cli.dataset.baseDiffers', { where: where(suite.name, entry), base: be.name }),
      );
    bases.set(be.name, known ?? be);
    builds.push({
      spec: {
        name: entry.name,
        task: entry.task,
        sample: entry.sample,
        seed: entry.seed,
        ability: entry.ability,
        method: entry.method,
      },
      base: be.name,
    });
  }
  return { bases: [...bases.values()], builds };
}

/**
 * Prepares a robustness dataset (`loader: robustness`): its base prepared as any dataset (through `cache` when
 * given), then derived in memory (eval/robustness `robustnessDataset`).
 * @throws as {@link prepareDataset} for the base; AppError `config_invalid` for a task the base cannot take.
 */
async function prepareRobustness(
  suite: string,
  entry: SuiteDatasetConfig,
  loc: DatasetLocation,
  cache: BaseCache | undefined,
): Promise<PreparedDataset> {
  const be = baseEntry(entry);
  if (be === undefined || entry.task === undefined)
    throw saidError(
      'config_invalid',
      said('cli.dataset.robustNeeds', { where: where(suite, entry) }),
    );
  const key = JSON.stringify(be);
  let base = cache?.get(key);
  if (!base) {
    base = prepareDataset(suite, be, loc);
    cache?.set(key, base);
  }
  const spec = {
    name: entry.name,
    task: entry.task,
    sample: entry.sample,
    seed: entry.seed,
    ability: entry.ability,
    method: entry.method,
  };
  const prepared = await base;
  // Loaded only here: its Chinese tables (pinyin-pro, OpenCC) cost ~0.1 s to load, which a suite without robustness
  // datasets need not pay.
  const { robustnessDataset } = await import('../robustness/derive.ts');
  try {
    return robustnessDataset(spec, prepared);
  } catch (err) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.problem', { where: where(suite, entry), message: (err as Error).message }),
    );
  }
}

/**
 * The loader and profile of a metrics dataset entry.
 * @throws AppError `config_invalid` for an entry with no loader, a profile or metric the loader does not have.
 */
function metricsLoader(
  suite: string,
  entry: SuiteDatasetConfig,
): { loader: ReturnType<typeof datasetLoader>; profile: string; name: DatasetLoaderName } {
  if (entry.loader === undefined) {
    throw saidError('config_invalid', said('cli.dataset.noLoader', { where: where(suite, entry) }));
  }
  const { loader, profile } = loaderAndProfile(suite, entry, entry.loader);
  if (entry.metric !== undefined && entry.metric !== loader.metric) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.metric', {
        where: where(suite, entry),
        metric: entry.metric,
        loader: entry.loader,
        its: loader.metric,
      }),
    );
  }
  return { loader, profile, name: entry.loader };
}

/** The refusal of a dataset file with bad rows: the first 20 problems, then how many more. */
function badRows(suite: string, entry: SuiteDatasetConfig, problems: readonly Said[]): AppError {
  const shown = problems.slice(0, 20);
  const more = problems.length - shown.length;
  return saidError(
    'dataset_invalid',
    said('cli.dataset.badRows', {
      where: where(suite, entry),
      n: problems.length,
      rows: shown.reduce<Said | string>(
        (a, b) => (a === '' ? b : said('cli.rows.lines', { a, b })),
        '',
      ),
      more: more > 0 ? said('cli.dataset.moreRows', { n: more }) : '',
    }),
  );
}

/**
 * Prepares one dataset of a suite (a robustness dataset from its base, see {@link prepareRobustness}).
 * @param cache prepared bases of robustness datasets, shared over one suite's entries (optional).
 * @throws AppError `dataset_invalid` (bad rows, missing or non-UTF-8 files, checksum mismatch), `config_invalid`
 *   (a profile or metric the format does not have, too few rows for the shots).
 */
export async function prepareDataset(
  suite: string,
  entry: SuiteDatasetConfig,
  loc: DatasetLocation,
  cache?: BaseCache,
): Promise<PreparedDataset> {
  if (entry.loader === 'robustness') return prepareRobustness(suite, entry, loc, cache);
  const { loader, profile, name: loaderName } = metricsLoader(suite, entry);
  const specs = entry.files ?? (entry.path !== undefined ? [entry.path] : []);
  if (loader.builtBy !== undefined) loc = await constructedLocation(entry, loc);
  const files = [];
  for (const s of specs) files.push(await readDatasetFile(s, loc));
  const extra = entry.prompts !== undefined ? [await readDatasetFile(entry.prompts, loc)] : [];
  if (entry.loader === 'gaokao' && extra.length === 0) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.gaokaoPrompts', { where: where(suite, entry) }),
    );
  }
  const parsed = loader.parse(files, extra);
  if (parsed.problems.length > 0) throw badRows(suite, entry, parsed.problems);
  // An empty file would give a run of no items that "succeeds" with a score of nothing.
  if (parsed.items.length === 0)
    throw saidError(
      'dataset_invalid',
      said('cli.dataset.noItems', {
        where: where(suite, entry),
        files: listSaid(specs.map((s) => (typeof s === 'string' ? s : s.url))),
      }),
    );
  const all = parsed.items;
  const { chosen, rest } = seededSample(all.length, entry.sample ?? all.length, entry.seed);
  if (entry.shots > rest.length) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.shots', {
        where: where(suite, entry),
        shots: entry.shots,
        left: rest.length,
      }),
    );
  }
  const items: EvalItem[] = chosen.map((i) => all[i] as EvalItem);
  const shots: EvalItem[] = rest.slice(0, entry.shots).map((i) => all[i] as EvalItem);
  const context = parsed.context ?? {};
  const templateVersion =
    entry.shots > 0 ? `${loader.templateVersion}+${entry.shots}shot` : loader.templateVersion;
  return {
    name: entry.name,
    ability: entry.ability,
    method: entry.method,
    metric: loader.metric,
    profile,
    templateVersion,
    items,
    messages: (item) => buildMessages(loader, item, shots, context),
    score: (item, output) => loader.score(item, output, profile),
    ...multiRequest(loader, profile),
    provenance: {
      loader: loaderName,
      source: loader.source,
      files: specs.map(describeFile),
      rows: all.length,
      excluded: parsed.excluded,
      ...(entry.sample !== undefined ? { sample: entry.sample } : {}),
      seed: entry.seed,
      shots: entry.shots,
    },
  };
}

/**
 * Prepares every dataset of a suite that has a loader (datasets without one, e.g. arena prompts, are skipped).
 * @throws as {@link prepareDataset}, for the first dataset that fails.
 */
export async function prepareSuite(
  suite: SuiteConfig,
  loc: DatasetLocation,
): Promise<PreparedDataset[]> {
  const out: PreparedDataset[] = [];
  const cache: BaseCache = new Map();
  for (const entry of suite.datasets) {
    if (entry.loader === undefined) continue;
    out.push(await prepareDataset(suite.name, entry, loc, cache));
  }
  return out;
}

/**
 * The local files of a dataset entry (its `path` / `files` and `prompts`) that do not exist, as the suite names
 * them (relative to the datasets folder). Files given by URL are not checked here (they are downloaded when the
 * dataset is prepared).
 */
export function missingDatasetFiles(entry: SuiteDatasetConfig, loc: DatasetLocation): string[] {
  // Constructed datasets are built on first use (constructedLocation): never missing.
  if (entry.loader !== undefined && entry.loader !== 'robustness') {
    if (datasetLoader(entry.loader, entry.name).builtBy !== undefined) return [];
  }
  return absentFiles(entry, loc);
}

/** The local files of `entry` (its base's, for a robustness entry) that do not exist under `loc`. */
function absentFiles(entry: SuiteDatasetConfig, loc: DatasetLocation): string[] {
  const base = baseEntry(entry);
  if (base) return missingDatasetFiles(base, loc);
  const specs = [
    ...(entry.files ?? (entry.path !== undefined ? [entry.path] : [])),
    ...(entry.prompts !== undefined ? [entry.prompts] : []),
  ];
  const out: string[] = [];
  for (const s of specs) {
    const path = localFileOf(s, loc);
    if (path !== undefined && !existsSync(path)) out.push(describeFile(s));
  }
  return out;
}

/**
 * True when a dataset entry may be run over items already in the database instead of its files: every item,
 * zero-shot (`sample:` would pick from the files' rows, `shots:` from the rows outside the sample).
 */
export function canUseStoredItems(entry: SuiteDatasetConfig): boolean {
  return (
    entry.loader !== undefined &&
    entry.loader !== 'robustness' &&
    entry.sample === undefined &&
    entry.shots === 0
  );
}

/**
 * A dataset of a suite prepared from items already stored (e.g. by `zhujiu import outputs DIR --format gaokao`)
 * rather than from its files: the same loader's scorer and template, no files read. Only for a recorded model,
 * whose answers are stored with the items: the prompt template may need a file (GAOKAO-Bench's prefix prompts), so
 * the messages of a stored item are the template's without that context.
 * @throws AppError `config_invalid` as {@link prepareDataset} for a profile or metric the format does not have.
 */
export function preparedFromStoredItems(
  suite: string,
  entry: SuiteDatasetConfig,
  items: readonly EvalItem[],
): PreparedDataset {
  if (entry.loader === undefined || !canUseStoredItems(entry)) {
    throw saidError(
      'config_invalid',
      said('cli.dataset.storedOnly', { where: where(suite, entry) }),
    );
  }
  const { loader, profile } = loaderAndProfile(suite, entry, entry.loader);
  return {
    name: entry.name,
    ability: entry.ability,
    method: entry.method,
    metric: loader.metric,
    profile,
    templateVersion: loader.templateVersion,
    items,
    messages: (item) => buildMessages(loader, item, [], {}),
    score: (item, output) => loader.score(item, output, profile),
    ...multiRequest(loader, profile),
    provenance: {
      loader: entry.loader,
      source: loader.source,
      files: ['(stored items)'],
      rows: items.length,
      excluded: 0,
      seed: entry.seed,
      shots: 0,
    },
  };
}
