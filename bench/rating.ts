/**
 * Benchmark of the arena rating module on all 1,670,250 votes of the Chatbot Arena 2024-08-14 dump
 * (`../shared/data/arena/arena_20240814_pair_counts.jsonl`): parse + aggregate, BT fit, 1,000 bootstrap rounds,
 * peak memory, with ratios against FastChat on the same class of machine (2 vCPU EPYC: compute_bt 2.3 s,
 * compute_bootstrap_bt 8.7 s per 100 rounds; see expected_ratings.meta.json).
 *
 * Run: npx tsx bench/rating.ts [rounds=1000]
 * Targets: fit < 0.25 s, 1,000 rounds < 5 s, peak RSS < 300 MB.
 */
import { createReadStream, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/core/rng.ts';
import { createArenaLineParser } from '../src/import/formats/index.ts';
import { bootstrapBradleyTerry, fitBradleyTerry } from '../src/rating/index.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.ZHUJIU_SHARED_DATA ?? join(root, '..', 'shared', 'data');
const file = join(dataDir, 'arena', 'arena_20240814_pair_counts.jsonl');
if (!existsSync(file)) {
  console.error(
    `bench/rating: ${file} is absent; put the shared data beside the repo (../shared/data) or set ZHUJIU_SHARED_DATA`,
  );
  process.exit(2);
}
const rounds = Number(process.argv[2] ?? 1000);
const FASTCHAT_FIT_S = 2.3;
const FASTCHAT_BOOT_100_S = 8.7;

let peakRss = process.memoryUsage().rss;
const sample = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
const timer = setInterval(sample, 20);
const secs = (t0: number): number => (performance.now() - t0) / 1000;
const faster = (ours: number, ref: number): string =>
  `${(ref / ours).toFixed(1)}× faster than ${ref} s`;

let t0 = performance.now();
const parser = createArenaLineParser(file);
const lines = createInterface({
  input: createReadStream(file, 'utf8'),
  crlfDelay: Number.POSITIVE_INFINITY,
});
for await (const line of lines) parser.push(line);
const data = parser.finish();
const parseS = secs(t0);
sample();

t0 = performance.now();
const fit = fitBradleyTerry(data, {
  anchor: { model: 'mixtral-8x7b-instruct-v0.1', rating: 1114 },
});
const fitS = secs(t0);
sample();
t0 = performance.now();
for (let r = 0; r < 5; r++)
  fitBradleyTerry(data, { anchor: { model: 'mixtral-8x7b-instruct-v0.1', rating: 1114 } });
const fitWarmS = secs(t0) / 5;

t0 = performance.now();
const boot = bootstrapBradleyTerry(fit, createRng(0), { rounds });
const bootS = secs(t0);
sample();
clearInterval(timer);
const maxRssMb = Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 2 ** 20;
const per100 = (bootS * 100) / rounds;

console.log(
  `data: ${data.totalVotes.toLocaleString('en')} votes, ${data.pairI.length} pairs, ${fit.models.length} models`,
);
console.log(`parse+aggregate ${parseS.toFixed(3)} s`);
console.log(
  `fit ${fitS.toFixed(3)} s first call (${faster(fitS, FASTCHAT_FIT_S)}); warm ${fitWarmS.toFixed(3)} s; ` +
    `${fit.iterations} Newton iterations, max|grad| ${fit.maxAbsGradient.toExponential(1)}`,
);
console.log(
  `bootstrap ${rounds} rounds ${bootS.toFixed(2)} s = ${per100.toFixed(2)} s per 100 rounds ` +
    `(${faster(per100, FASTCHAT_BOOT_100_S)} per 100); degenerate rounds ${boot.degenerateRounds}`,
);
console.log(`peak RSS ${maxRssMb.toFixed(0)} MB`);
const ok = fitS < 0.25 && (rounds < 1000 || bootS < 5) && maxRssMb < 300;
console.log(`targets (fit < 0.25 s, 1,000 rounds < 5 s, < 300 MB): ${ok ? 'met' : 'NOT met'}`);
