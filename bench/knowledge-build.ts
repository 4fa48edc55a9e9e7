/**
 * Cost of `zhujiu datasets build` (every constructed dataset: the ZhuJiu knowledge sets, 10 files, 1,000 items)
 * as a user pays it: the compiled `bin/zhujiu.js` (dist/ rebuilt first when a source is newer) run in a fresh
 * process per run, wall time from spawn to exit and peak resident memory (`/usr/bin/time`, Debian package
 * `time`), median and minimum of the runs. Target: < 10 s wall. Every run's files must be byte-identical to the
 * first run's (the build is deterministic).
 *
 * Run: npx tsx bench/knowledge-build.ts [runs=3]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../test/helpers/build.ts';
import { PROJECT_ROOT } from '../test/helpers/shared-data.ts';

const runs = Number(process.argv[2] ?? 3);
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('bench/knowledge-build: /usr/bin/time is missing (apt-get install time)');
  process.exit(2);
}
await ensureBuilt();

const bin = join(PROJECT_ROOT, 'bin', 'zhujiu.js');
const work = mkdtempSync(join(tmpdir(), 'zj-bench-build-'));

function files(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((f) => `${f.slice(dir.length)}\n${readFileSync(f, 'latin1')}`)
    .join('\n');
}

const wall: number[] = [];
const rss: number[] = [];
let first: string | undefined;
for (let i = 0; i < runs; i++) {
  const out = join(work, `run${i}`);
  const stats = join(work, `time${i}`);
  const t0 = performance.now();
  const r = spawnSync(
    TIME,
    ['-f', '%M', '-o', stats, process.execPath, bin, 'datasets', 'build', '--out', out],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    },
  );
  wall.push((performance.now() - t0) / 1000);
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
  rss.push(Number(readFileSync(stats, 'utf8').trim().split('\n').at(-1)) / 1024);
  const now = files(out);
  first ??= now;
  if (now !== first) {
    console.error(`run ${i}: the files differ from the first run's`);
    process.exit(1);
  }
}
rmSync(work, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(
  `machine: ${cpus().length} cores, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `zhujiu datasets build (${runs} runs): wall median ${median(wall).toFixed(2)} s, min ${Math.min(...wall).toFixed(2)} s (target < 10 s: ${(median(wall) / 10).toFixed(2)} of it); peak RSS median ${median(rss).toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB; files byte-identical across runs`,
);
