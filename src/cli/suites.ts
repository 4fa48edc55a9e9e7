/**
 * @module cli/suites
 * `zhujiu suites [--json]`: every suite of `config/suites/*.yaml` with its datasets and how many items each asks
 * (after sampling), read from the datasets folder (`ZHUJIU_DATASETS_DIR`). A suite whose files are missing is
 * listed with the reason instead of failing the whole listing.
 */
import { BOARD_ABILITIES } from '../aggregate/types.ts';
import { type SuiteConfig, suiteDescription } from '../config/schema.ts';
import { isAppError } from '../core/errors.ts';
import { folderState } from '../core/folder-state.ts';
import { prepareSuite } from '../eval/datasets/prepare.ts';
import { listText, sayCli, tc } from '../i18n/cli.ts';
import { abilityText, type Locale, methodText } from '../i18n/index.ts';
import { type CliDeps, cliLocale, configOf } from './deps.ts';
import { type CliIo, padColumns } from './io.ts';

/** Flags of `zhujiu suites`. */
export interface SuitesOptions {
  readonly json?: boolean;
}

/** One dataset of `zhujiu suites --json` (README "`suites`"). */
interface DatasetRow {
  readonly dataset: string;
  readonly ability: string;
  readonly method: string;
  readonly metric: string | null;
  readonly profile: string | null;
  readonly items: number | null;
  readonly rows: number | null;
  /** The suite whose file defines the dataset (this suite, or one it includes). */
  readonly from: string;
}

interface SuiteRow {
  readonly suite: string;
  readonly description: string;
  /** The suites it includes, with their overrides (null: none). */
  readonly includes: { suite: string; sample: number | null; seed: number | null }[];
  /** The abilities its datasets cover, in board column order. */
  readonly abilities: string[];
  readonly datasets: DatasetRow[];
  readonly items: number | null;
  readonly error?: string;
}

type Location = Parameters<typeof prepareSuite>[1];

/** A dataset of the suite's config as a row without item counts. */
function entryRow(suite: SuiteConfig, d: SuiteConfig['datasets'][number]): DatasetRow {
  return {
    dataset: d.name,
    ability: d.ability,
    method: d.method,
    metric: d.metric ?? null,
    profile: d.profile ?? null,
    items: null,
    rows: null,
    from: suite.from?.[d.name] ?? suite.name,
  };
}

/**
 * Why the datasets folder `dir` is not one, said once above the listing (in `locale`): it does not exist, is a
 * file, or lies under a file (core/folder-state.ts); undefined when it is a folder (or cannot be looked at, which
 * each suite's own reason then says).
 */
function folderNote(dir: string, locale: Locale): string | undefined {
  const state = folderState(dir);
  switch (state.kind) {
    case 'missing':
      return tc(locale, 'cli.suites.noFolder', { dir });
    case 'file':
      return tc(locale, 'cli.suites.folderIsFile', { dir });
    case 'underFile':
      return tc(locale, 'cli.suites.folderUnderFile', { dir, file: state.file });
    default:
      return undefined;
  }
}

/**
 * One suite's row: its datasets with the items each asks after sampling (prepared from the datasets folder), or,
 * when they cannot be prepared, the config's datasets with the first line of the reason (`noFolder`, the note of
 * a datasets folder that is not one, when there is one: said once above the listing).
 */
async function suiteRow(
  suite: SuiteConfig,
  loc: Location,
  locale: Locale,
  noFolder: string | undefined,
): Promise<SuiteRow> {
  const head = {
    suite: suite.name,
    description: suiteDescription(suite.description, locale),
    includes: suite.include.map((i) => ({
      suite: i.suite,
      sample: i.sample ?? null,
      seed: i.seed ?? null,
    })),
    abilities: BOARD_ABILITIES.filter((a) => suite.datasets.some((d) => d.ability === a)),
  };
  const stored = suite.datasets.filter((d) => d.loader === undefined);
  try {
    const ds = await prepareSuite(suite, loc);
    const prepared = ds.map((d) => ({
      ...entryRow(suite, suite.datasets.find((e) => e.name === d.name)!),
      metric: d.metric,
      profile: d.profile,
      items: d.items.length,
      rows: d.provenance?.rows ?? d.items.length,
    }));
    return {
      ...head,
      datasets: [...prepared, ...stored.map((d) => entryRow(suite, d))],
      items:
        stored.length === suite.datasets.length ? null : ds.reduce((n, d) => n + d.items.length, 0),
    };
  } catch (err) {
    if (!isAppError(err)) throw err;
    // A datasets folder that is not one is said once (runSuites), not as the first missing file of each suite.
    const unread = ['cli.dataset.noFile', 'cli.file.cannotRead'].includes(err.said?.key ?? '');
    return {
      ...head,
      datasets: suite.datasets.map((d) => entryRow(suite, d)),
      items: null,
      error:
        noFolder !== undefined && unread
          ? noFolder
          : err.said && locale !== 'en'
            ? sayCli(locale, err.said)
            : err.message,
    };
  }
}

/** The text listing: one line per suite, then one per dataset. */
function printSuites(
  io: CliIo,
  locale: Locale,
  datasetsDir: string,
  rows: readonly SuiteRow[],
  noFolder: string | undefined,
): void {
  io.out(tc(locale, 'cli.suites.folder', { dir: datasetsDir }));
  if (noFolder !== undefined && rows.some((r) => r.error === noFolder)) io.out(noFolder);
  const width = Math.max(16, ...rows.flatMap((r) => r.datasets.map((d) => d.dataset.length)));
  for (const r of rows) {
    const size = r.error
      ? tc(
          locale,
          r.error === noFolder ? 'cli.suites.unavailableNoFolder' : 'cli.suites.unavailable',
        )
      : tc(locale, 'cli.suites.size', {
          n: r.datasets.length,
          items:
            r.items === null
              ? tc(locale, 'cli.suites.fromImports')
              : tc(locale, 'cli.suites.items', { n: r.items }),
        });
    const inc =
      r.includes.length > 0
        ? tc(locale, 'cli.suites.includes', {
            list: listText(
              locale,
              r.includes.map((i) => i.suite),
            ),
          })
        : '';
    io.out(`${r.suite}  ${size}${inc}${r.description ? `  — ${r.description}` : ''}`);
    if (r.error) {
      // Every line of the refusal (bad rows list their `file:line: reason` lines after the first), indented.
      if (r.error !== noFolder) io.out(r.error.replace(/^/gmu, '  '));
      continue;
    }
    for (const d of r.datasets) {
      const n =
        d.items === null
          ? tc(locale, 'cli.suites.stored')
          : d.rows !== null && d.rows !== d.items
            ? tc(locale, 'cli.suites.itemsOf', { n: d.items, rows: d.rows })
            : tc(locale, 'cli.suites.items', { n: d.items });
      io.out(
        `  ${d.dataset.padEnd(width)} ${padColumns(abilityText(d.ability, locale), 16)} ${padColumns(methodText(d.method, locale), 11)} ${`${d.metric ?? '-'}/${d.profile ?? '-'}`.padEnd(26)} ${n}`,
      );
    }
  }
}

/**
 * Runs `zhujiu suites`.
 * @throws AppError `config_invalid` when a suite file is invalid.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runSuites(io: CliIo, o: SuitesOptions, deps: CliDeps): Promise<void> {
  const c = await configOf(deps);
  const loc = {
    datasetsDir: c.datasetsDir,
    cacheDir: c.datasetsCacheDir,
    roots: c.datasetRoots ?? [],
  };
  const locale = cliLocale(deps);
  const noFolder = folderNote(c.datasetsDir, locale);
  const rows: SuiteRow[] = [];
  for (const suite of c.suites.values()) rows.push(await suiteRow(suite, loc, locale, noFolder));
  if (o.json) {
    io.out(JSON.stringify({ datasets_dir: c.datasetsDir, suites: rows }));
    return;
  }
  printSuites(io, locale, c.datasetsDir, rows, noFolder);
}
