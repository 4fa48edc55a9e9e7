/**
 * @module cli/suites
 * `zhujiu suites [--json]`: every suite of `config/suites/*.yaml` with its datasets and how many items each asks
 * (after sampling), read from the datasets folder (`ZHUJIU_DATASETS_DIR`). A suite whose files are missing is
 * listed with the reason instead of failing the whole listing.
 */
import { existsSync } from 'node:fs';
import { BOARD_ABILITIES } from '../aggregate/types.ts';
import { type SuiteConfig, suiteDescription } from '../config/schema.ts';
import { isAppError } from '../core/errors.ts';
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
 * One suite's row: its datasets with the items each asks after sampling (prepared from the datasets folder), or,
 * when they cannot be prepared, the config's datasets with the first line of the reason.
 */
async function suiteRow(suite: SuiteConfig, loc: Location, locale: Locale): Promise<SuiteRow> {
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
    // A missing datasets folder is said once (runSuites), not as the first missing file of each suite.
    const noFolder = err.said?.key === 'cli.dataset.noFile' && !existsSync(loc.datasetsDir);
    return {
      ...head,
      datasets: suite.datasets.map((d) => entryRow(suite, d)),
      items: null,
      error: noFolder
        ? tc(locale, 'cli.suites.noFolder', { dir: loc.datasetsDir })
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
): void {
  io.out(tc(locale, 'cli.suites.folder', { dir: datasetsDir }));
  const noFolder = tc(locale, 'cli.suites.noFolder', { dir: datasetsDir });
  if (rows.some((r) => r.error === noFolder)) io.out(noFolder);
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
  const rows: SuiteRow[] = [];
  for (const suite of c.suites.values()) rows.push(await suiteRow(suite, loc, cliLocale(deps)));
  if (o.json) {
    io.out(JSON.stringify({ datasets_dir: c.datasetsDir, suites: rows }));
    return;
  }
  printSuites(io, cliLocale(deps), c.datasetsDir, rows);
}
