/**
 * @module config/suite-include
 * Resolves the `include:` lists of the suites of `config/suites/*.yaml` (README "Datasets and suites"): a suite
 * runs its included suites' datasets (included suites' own includes too, depth first, in the order listed) and
 * then its own. An include's `sample: n` caps each included dataset at n items (the smaller of n and the
 * dataset's own `sample:`), its `seed` replaces the datasets' seeds; without `seed` each dataset keeps its own, so
 * the capped sample is a subset of the included suite's (the same seeded shuffle, docs/scoring.md §2.1). Nested
 * caps compose (the smallest wins). Pure: parsed suites in, resolved suites or problems out.
 */
import { dirname } from 'node:path';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { SuiteConfig, SuiteDatasetConfig, SuiteInclude } from './schema.ts';

/** One parsed suite file. */
export interface ParsedSuite {
  /** The file as messages show it (its full path). */
  readonly file: string;
  readonly suite: SuiteConfig;
  /** `file:line:col` of a key path in the file (or the file alone when the path is not there). */
  readonly at: (path: readonly (string | number)[]) => string;
}

interface Resolved {
  readonly datasets: readonly SuiteDatasetConfig[];
  /** Per dataset (same order): the suite whose file defines it. */
  readonly from: readonly string[];
}

/** A dataset as an include with overrides hands it on. */
function capped(d: SuiteDatasetConfig, inc: SuiteInclude): SuiteDatasetConfig {
  const sample =
    inc.sample === undefined || d.loader === undefined
      ? d.sample
      : Math.min(d.sample ?? Number.POSITIVE_INFINITY, inc.sample);
  return {
    ...d,
    ...(sample !== undefined ? { sample } : {}),
    ...(inc.seed !== undefined && d.loader !== undefined ? { seed: inc.seed } : {}),
  };
}

/**
 * Resolves every suite's includes.
 * @param parsed the suites by name (names are already unique).
 * @returns each suite with `datasets` flattened (included first, then its own) and `from` (dataset → defining
 *   suite), and the problems, one line each naming the file, the include and the fix: an unknown suite (with the
 *   names there are), a cycle (the chain), a dataset name that two parts of one suite define; in `locale`.
 */
export function resolveSuiteIncludes(
  parsed: ReadonlyMap<string, ParsedSuite>,
  locale: Locale = 'en',
): {
  suites: Map<string, SuiteConfig>;
  problems: string[];
} {
  const problems: string[] = [];
  const done = new Map<string, Resolved>();
  const names = [...parsed.keys()].sort();
  const resolve = (name: string, chain: readonly string[]): Resolved => {
    const known = done.get(name);
    if (known) return known;
    const p = parsed.get(name) as ParsedSuite;
    const datasets: SuiteDatasetConfig[] = [];
    const from: string[] = [];
    const seen = new Map<string, string>();
    const add = (d: SuiteDatasetConfig, origin: string, via: string) => {
      const before = seen.get(d.name);
      if (before !== undefined) {
        problems.push(
          tc(locale, 'cli.configFile.datasetTwice', {
            file: p.file,
            dataset: d.name,
            suite: name,
            before,
            via,
          }),
        );
        return;
      }
      seen.set(d.name, via);
      datasets.push(d);
      from.push(origin);
    };
    p.suite.include.forEach((inc, i) => {
      const where = `${p.at(['include', i])} include[${i + 1}]`;
      if (!parsed.has(inc.suite)) {
        problems.push(
          tc(locale, 'cli.configFile.unknownInclude', {
            where,
            suite: inc.suite,
            dir: dirname(p.file),
            names: listText(locale, names),
          }),
        );
        return;
      }
      if (inc.suite === name || chain.includes(inc.suite)) {
        const start = inc.suite === name ? [] : chain.slice(chain.indexOf(inc.suite));
        const loop = [...start, name, inc.suite].join(' → ');
        problems.push(tc(locale, 'cli.configFile.includeCycle', { where, suite: inc.suite, loop }));
        return;
      }
      const sub = resolve(inc.suite, [...chain, name]);
      sub.datasets.forEach((d, k) => {
        add(
          capped(d, inc),
          sub.from[k] as string,
          tc(locale, 'cli.configFile.viaInclude', { suite: inc.suite }),
        );
      });
    });
    for (const d of p.suite.datasets) add(d, name, tc(locale, 'cli.configFile.viaOwn'));
    const out = { datasets, from };
    done.set(name, out);
    return out;
  };
  const suites = new Map<string, SuiteConfig>();
  for (const name of names) {
    const r = resolve(name, []);
    const suite = (parsed.get(name) as ParsedSuite).suite;
    suites.set(name, {
      ...suite,
      datasets: [...r.datasets],
      from: Object.fromEntries(r.datasets.map((d, k) => [d.name, r.from[k] as string])),
    });
  }
  return { suites, problems };
}
