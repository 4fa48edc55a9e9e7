/**
 * bench/robustness-build: how long building the six derived robustness datasets of config/suites/zhujiu-robustness
 * takes from the shipped datasets in ../shared/data/datasets (target: under 10 s), and the peak memory: the base
 * datasets read and parsed (each once), then every derived set built (eval/robustness `buildRobustnessSets`),
 * OpenCC's dictionaries and the pinyin index included. Builds twice to show the derivation is deterministic.
 * Skips with a message when the datasets are absent.
 *
 *   npx tsx bench/robustness-build.ts [--datasets ../shared/data/datasets]
 */
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { suiteSchema } from '../src/config/schema.ts';
import { prepareDataset, robustnessPlan } from '../src/eval/datasets/prepare.ts';
import { buildRobustnessSets } from '../src/eval/robustness/index.ts';
import type { PreparedDataset } from '../src/eval/types.ts';

const { values } = parseArgs({
  options: { datasets: { type: 'string', default: join('..', 'shared', 'data', 'datasets') } },
});
const dir = values.datasets as string;
const TARGET_MS = 10_000;
if (!existsSync(dir)) {
  console.log(
    `skipped: no datasets folder at ${dir} (give --datasets DIR with the shipped datasets)`,
  );
  process.exit(0);
}
const suite = suiteSchema.parse(
  parse(readFileSync(join('config', 'suites', 'zhujiu-robustness.yaml'), 'utf8')),
);
const loc = { datasetsDir: dir, cacheDir: join(tmpdir(), 'zhujiu-bench-cache'), roots: [] };

const t0 = performance.now();
const plan = robustnessPlan(suite);
const bases = new Map<string, PreparedDataset>();
for (const be of plan.bases) bases.set(be.name, await prepareDataset(suite.name, be, loc));
const builds = plan.builds;
const t1 = performance.now();
const sets = buildRobustnessSets(builds, bases);
const t2 = performance.now();
const again = buildRobustnessSets(builds, bases);
const same = JSON.stringify(sets.map((s) => s.items)) === JSON.stringify(again.map((s) => s.items));
const total = t2 - t0;
const rssMb = process.resourceUsage().maxRSS / 1024;
for (const s of sets)
  console.log(`${s.name.padEnd(40)} ${String(s.items.length).padStart(4)} items`);
console.log(
  `bases read and parsed: ${(t1 - t0).toFixed(0)} ms (${[...bases.keys()].join(', ')}); derived: ${(t2 - t1).toFixed(0)} ms; total ${total.toFixed(0)} ms (target < ${TARGET_MS} ms) ${total < TARGET_MS ? 'OK' : 'OVER'}`,
);
console.log(`peak memory (max RSS): ${rssMb.toFixed(0)} MB; second build identical: ${same}`);
