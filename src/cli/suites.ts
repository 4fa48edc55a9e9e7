/**
 * @module cli/suites
 * `zhujiu suites [--json]`: every suite of `config/suites/*.yaml` with its datasets and how many items each asks
 * (after sampling), read from the datasets folder (`ZHUJIU_DATASETS_DIR`). A suite whose files are missing is
 * listed with the reason instead of failing the whole listing.
 */
import { isAppError } from '../core/errors.ts';
import { prepareSuite } from '../eval/datasets/prepare.ts';
import { type CliDeps, configOf } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu suites`. */
export interface SuitesOptions {
  readonly json?: boolean;
}

interface SuiteRow {
  readonly suite: string;
  readonly description: string;
  readonly datasets: {
    readonly dataset: string;
    readonly ability: string;
    readonly method: string;
    readonly metric: string | null;
    readonly profile: string | null;
    readonly items: number | null;
    readonly rows: number | null;
  }[];
  readonly items: number | null;
  readonly error?: string;
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
  for (const suite of c.suites.values()) {
    const stored = suite.datasets.filter((d) => d.loader === undefined);
    try {
      const ds = await prepareSuite(suite, loc);
      rows.push({
        suite: suite.name,
        description: suite.description,
        datasets: [
          ...ds.map((d) => ({
            dataset: d.name,
            ability: d.ability,
            method: d.method,
            metric: d.metric,
            profile: d.profile,
            items: d.items.length,
            rows: d.provenance?.rows ?? d.items.length,
          })),
          ...stored.map((d) => ({
            dataset: d.name,
            ability: d.ability,
            method: d.method,
            metric: d.metric ?? null,
            profile: d.profile ?? null,
            items: null,
            rows: null,
          })),
        ],
        items:
          stored.length === suite.datasets.length
            ? null
            : ds.reduce((n, d) => n + d.items.length, 0),
      });
    } catch (err) {
      if (!isAppError(err)) throw err;
      rows.push({
        suite: suite.name,
        description: suite.description,
        datasets: suite.datasets.map((d) => ({
          dataset: d.name,
          ability: d.ability,
          method: d.method,
          metric: d.metric ?? null,
          profile: d.profile ?? null,
          items: null,
          rows: null,
        })),
        items: null,
        error: err.message.split('\n')[0] as string,
      });
    }
  }
  if (o.json) {
    io.out(JSON.stringify({ datasets_dir: c.datasetsDir, suites: rows }));
    return;
  }
  io.out(`datasets folder: ${c.datasetsDir} (set ZHUJIU_DATASETS_DIR to change it)`);
  for (const r of rows) {
    const size = r.error
      ? 'unavailable (see below)'
      : `${r.datasets.length} ${r.datasets.length === 1 ? 'dataset' : 'datasets'}, ${
          r.items === null ? 'items from imports' : `${r.items} items`
        }`;
    io.out(`${r.suite}  ${size}${r.description ? `  — ${r.description}` : ''}`);
    if (r.error) {
      io.out(`  ${r.error}`);
      continue;
    }
    for (const d of r.datasets) {
      const n =
        d.items === null
          ? 'stored items'
          : d.rows !== null && d.rows !== d.items
            ? `${d.items} of ${d.rows} items`
            : `${d.items} items`;
      io.out(
        `  ${d.dataset.padEnd(16)} ${d.ability.padEnd(16)} ${d.method.padEnd(11)} ${`${d.metric ?? '-'}/${d.profile ?? '-'}`.padEnd(26)} ${n}`,
      );
    }
  }
}
