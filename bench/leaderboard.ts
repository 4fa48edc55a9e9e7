/**
 * Benchmark of the board: `computeBoard` (docs/scoring.md §4–5) on 1,000,000 arena votes and 100,000 item scores,
 * and the PNG chart render. Synthetic, seeded data of a realistic shape: 20 models, 7 abilities, 1 M single-vote
 * battles spread over every pair and ability (they fold into ~4 k battle types, as the storage query returns
 * them), 10 metrics/scoring datasets of 500 items answered by every model (20 × 5,000 = 100 k item scores).
 *
 * Run: npx tsx bench/leaderboard.ts [rounds…] (default: the product's `aggregation.bootstrap` from
 * config/default.yaml, then 1,000).
 * `--real [--runs 3] [--only pglite|postgres] [--noise]`: instead, the board on the 200,000 real public votes
 * (129 models, long-tailed) as a whole `zhujiu leaderboard` process and inside, with the agreement of its
 * intervals with exact resampling (bench/leaderboard-real.ts).
 * Targets: the board ≤ 1 s at the product's round count (the first figure), the PNG ≤ 200 ms (median after the
 * first, which loads vega and the font). Wall-clock figures, with the process's CPU time beside them: on a
 * shared machine the difference is time spent waiting for a core.
 */

import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type BattleType,
  BOARD_ABILITIES,
  computeBoard,
  type DatasetScores,
} from '../src/aggregate/index.ts';
import { appConfigSchema, parseYamlFile } from '../src/config/index.ts';
import { createRng } from '../src/core/rng.ts';
import { chartFontPath, renderBoardSvg, renderSvgPng } from '../src/leaderboard/chart.ts';
import { subsetFontFile } from '../src/leaderboard/font-subset.ts';
import { chartRows } from '../src/leaderboard/views.ts';

const productRounds = parseYamlFile(
  fileURLToPath(new URL('../config/default.yaml', import.meta.url)),
  appConfigSchema,
).aggregation.bootstrap;
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    real: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    noise: { type: 'boolean', default: false },
  },
});
if (flags.real) {
  const { benchRealBoard } = await import('./leaderboard-real.ts');
  const minVotes = parseYamlFile(
    fileURLToPath(new URL('../config/default.yaml', import.meta.url)),
    appConfigSchema,
  ).aggregation.min_votes;
  await benchRealBoard({
    rounds: productRounds,
    minVotes,
    runs: Number(flags.runs),
    noise: flags.noise,
    ...(flags.only ? { only: flags.only } : {}),
  });
  process.exit(0);
}
const roundsList = positionals.map(Number);
if (roundsList.length === 0) roundsList.push(productRounds, 1000);
const rng = createRng(11);
const M = 20;
const models = Array.from({ length: M }, (_, i) => `model-${String(i).padStart(2, '0')}`);
const strength = models.map((_, i) => 1300 - i * 25);

// 1 M votes: one vote per battle, pairs and abilities uniform, outcome from the BT model with 10 % ties.
const VOTES = 1_000_000;
const types = new Map<string, BattleType & { count: number }>();
for (let k = 0; k < VOTES; k++) {
  const a = rng.int(M);
  const b = (a + 1 + rng.int(M - 1)) % M;
  const ability = BOARD_ABILITIES[rng.int(7)]!;
  const p = 1 / (1 + 10 ** ((strength[b]! - strength[a]!) / 400));
  const u = rng.next();
  const o = u < 0.1 ? 't' : rng.next() < p ? 'a' : 'b';
  const key = `${ability}|${a}|${b}|${o}`;
  const t = types.get(key);
  if (t) t.count++;
  else
    types.set(key, {
      ability,
      modelA: models[a]!,
      modelB: models[b]!,
      aWins: o === 'a' ? 1 : 0,
      bWins: o === 'b' ? 1 : 0,
      ties: o === 't' ? 1 : 0,
      count: 1,
    });
}
const battles = [...types.values()];

// 100 k item scores: 10 datasets × 500 items × 20 models.
const datasets: DatasetScores[] = [];
for (let d = 0; d < 10; d++) {
  const n = 500;
  const scores = new Map<string, Float64Array>();
  models.forEach((m, i) => {
    const acc = 0.9 - i * 0.03 - d * 0.01;
    scores.set(
      m,
      Float64Array.from({ length: n }, () => (rng.next() < acc ? 10 : 0)),
    );
  });
  datasets.push({
    dataset: `ds-${d}`,
    ability: BOARD_ABILITIES[d % 7]!,
    method: d % 2 === 0 ? 'metrics' : 'scoring',
    items: n,
    scores,
  });
}
const itemScores = datasets.reduce((s, d) => s + d.items * d.scores.size, 0);
console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (figures scale with the load of other work)`,
);
console.log(
  `input: ${VOTES.toLocaleString('en')} votes in ${battles.length.toLocaleString('en')} battle types, ${itemScores.toLocaleString('en')} item scores, ${M} models`,
);

let board = computeBoard({ models, datasets, battles }, createRng(0), { minVotes: 20, rounds: 10 });
for (const rounds of roundsList) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  board = computeBoard({ models, datasets, battles }, createRng(0), { minVotes: 20, rounds });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const what =
    rounds === productRounds ? 'the product default, aggregation.bootstrap' : 'for comparison';
  console.log(
    `board (${rounds.toLocaleString('en')} paired bootstrap rounds, ${what}): ${ms.toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)${rounds === productRounds ? ` (target ≤ 1000 ms: ${ms <= 1000 ? 'met' : 'missed'})` : ''}`,
  );
}
const top = board.rows[0]!;
console.log(
  `  top: ${top.model} final ${top.final?.toFixed(2)} [${top.finalLo?.toFixed(2)}, ${top.finalHi?.toFixed(2)}]`,
);

const rows = chartRows(board);
const title = '每日排行榜 2026-11-30';
/** One render, stage by stage: vega-lite → vega → SVG, the font subset, resvg → PNG. */
async function render(): Promise<{
  svg: number;
  font: number;
  png: number;
  total: number;
  cpu: number;
  bytes: number;
}> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const svg = await renderBoardSvg(rows, { title });
  const t1 = performance.now();
  subsetFontFile(chartFontPath(), svg); // cached: renderSvgPng asks for the same subset again at no cost
  const t2 = performance.now();
  const png = renderSvgPng(svg);
  const t3 = performance.now();
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  return { svg: t1 - t0, font: t2 - t1, png: t3 - t2, total: t3 - t0, cpu, bytes: png.length };
}
const first = await render();
const runs: Awaited<ReturnType<typeof render>>[] = [];
for (let i = 0; i < 5; i++) runs.push(await render());
const med = (f: (r: (typeof runs)[number]) => number) => runs.map(f).sort((a, b) => a - b)[2]!;
const median = med((r) => r.total);
console.log(
  `PNG chart (${M} models, ${first.bytes.toLocaleString('en')} bytes): first ${first.total.toFixed(0)} ms (loads vega, HarfBuzz and the font; font subset ${first.font.toFixed(0)} ms), then median ${median.toFixed(0)} ms of 5 (CPU ${med((r) => r.cpu).toFixed(0)} ms) (target ≤ 200 ms: ${median <= 200 ? 'met' : 'missed'})`,
);
console.log(
  `  stages (median): vega-lite → SVG ${med((r) => r.svg).toFixed(0)} ms, font subset ${med((r) => r.font).toFixed(1)} ms (cached), resvg → PNG ${med((r) => r.png).toFixed(0)} ms`,
);
