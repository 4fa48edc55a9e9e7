/**
 * bench/first-start: what a newcomer's first command costs on an empty data folder, as whole processes of the
 * compiled `bin/zhujiu.js` (dist/ is rebuilt first when a source is newer, with the prepared database of
 * storage/pglite-template.ts), wall time from spawn to exit and peak resident memory from `/usr/bin/time`:
 *
 * 1. `zhujiu migrate` on an empty folder (each run a new one): the folder is filled from the prepared database;
 *    targets ≤ 2 s and ≤ 300 MB. Shown beside it, without a target: the same command on the folder it left (the
 *    cost of reopening an existing database, which every later command pays).
 * 2. The first `zhujiu eval` of 2,000 items (C3 / OCNLI / CMRC 2018 mix) against the fake OpenAI-compatible server
 *    (bench/fake-openai-process.ts, a child process) answering after 100 ms, at concurrency 32, on an empty folder:
 *    wall time as a ratio of the ideal items × latency / concurrency (6.25 s); target ≤ 1.3. Its phases, from the
 *    fake's arrival times: spawn to the first request (start-up: the modules loaded, the configuration and the
 *    datasets read; the first requests leave while the database is created, eval/requests-ahead), first to last
 *    request (ideal: (items / concurrency − 1) × latency = 6.15 s) and last request to exit. The fake must receive
 *    exactly one request per item (requests sent ahead are the run's own).
 *
 * Each case runs BENCH_REPEAT times (default 3); the median and the minimum are printed with the load average
 * (the machine may be shared: wall time grows with the load, CPU time much less). Prints figures; asserts nothing.
 *
 * Run: npx tsx bench/first-start.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTemplateMeta } from '../src/storage/pglite-template.ts';
import { ensureBuilt } from '../test/helpers/build.ts';
import { writeSmokeFixture } from '../test/helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../test/helpers/shared-data.ts';
import { startFakeOpenAiProcess } from './fake-openai-process.ts';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('bench/first-start: /usr/bin/time is missing (apt-get install time)');
  process.exit(2);
}
await ensureBuilt();
const bin = join(PROJECT_ROOT, 'bin', 'zhujiu.js');
const meta = readTemplateMeta(join(PROJECT_ROOT, 'dist'));
console.log(
  meta
    ? `prepared database: dist/pglite-template.tar (PGlite ${meta.pglite}, ${meta.migrations.length} migrations)`
    : 'prepared database: none in dist/ (the first start runs initdb)',
);

/** One whole-process run under /usr/bin/time: wall and CPU seconds, peak RSS in MB (2^20 bytes). */
function measure(
  argv: readonly string[],
  env: Record<string, string>,
  scratch: string,
): { s: number; cpu: number; mb: number; stdout: string } {
  const out = join(scratch, 'time.txt');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, process.execPath, bin, ...argv], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DISCORD_TOKEN: '',
      SLACK_BOT_TOKEN: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`zhujiu ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [s, user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').at(-1)?.split(' ') ?? [];
  return { s: Number(s), cpu: Number(user) + Number(sys), mb: Number(kb) / 1024, stdout: r.stdout };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

function report(
  name: string,
  runs: { s: number; cpu: number; mb: number }[],
  target: { s?: number; mb?: number; ideal?: number },
): void {
  const s = median(runs.map((r) => r.s));
  const mb = Math.max(...runs.map((r) => r.mb));
  const parts = [
    `${name}: wall median ${s.toFixed(2)} s (min ${Math.min(...runs.map((r) => r.s)).toFixed(2)})`,
    `cpu median ${median(runs.map((r) => r.cpu)).toFixed(2)} s`,
    `peak RSS ${mb.toFixed(0)} MB`,
  ];
  if (target.s !== undefined) parts.push(`time ${(s / target.s).toFixed(2)}× of ${target.s} s`);
  if (target.mb !== undefined)
    parts.push(`memory ${(mb / target.mb).toFixed(2)}× of ${target.mb} MB`);
  if (target.ideal !== undefined)
    parts.push(
      `ideal ${target.ideal.toFixed(2)} s, ratio median ${(s / target.ideal).toFixed(2)} ` +
        `(min ${(Math.min(...runs.map((r) => r.s)) / target.ideal).toFixed(2)}), target ≤ 1.3`,
    );
  console.log(parts.join('; '));
}

const scratch = mkdtempSync(join(tmpdir(), 'zhujiu-bench-first-start-'));
try {
  console.log(
    `Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${REPEAT} runs each`,
  );

  // 1. `zhujiu migrate` on an empty folder, then on the folder it left.
  const first: ReturnType<typeof measure>[] = [];
  const again: ReturnType<typeof measure>[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const dataDir = join(scratch, `migrate-${i}`, 'pg');
    first.push(measure(['migrate'], { ZHUJIU_DATA_DIR: dataDir }, scratch));
    again.push(measure(['migrate'], { ZHUJIU_DATA_DIR: dataDir }, scratch));
    rmSync(join(scratch, `migrate-${i}`), { recursive: true, force: true });
  }
  report('zhujiu migrate, empty data folder', first, { s: 2, mb: 300 });
  report('zhujiu migrate, the same folder again (reopen)', again, {});

  // 2. The first `zhujiu eval` of 2,000 items, 100 ms latency, concurrency 32.
  const ITEMS = 2000;
  const LATENCY_MS = 100;
  const CONCURRENCY = 32;
  const root = join(scratch, 'eval');
  const per = Math.floor(ITEMS / 3);
  const fx = writeSmokeFixture(
    join(root, 'datasets'),
    { c3: ITEMS - 2 * per, ocnli: per, cmrc: per },
    'bench',
  );
  const fake = await startFakeOpenAiProcess({ delayMs: LATENCY_MS, items: fx.items });
  try {
    mkdirSync(join(root, 'config', 'suites'), { recursive: true });
    writeFileSync(join(root, 'config', 'suites', 'bench.yaml'), fx.suiteYaml);
    writeFileSync(join(root, 'config', 'default.yaml'), 'http:\n  port: 0\n');
    writeFileSync(
      join(root, 'config', 'models.yaml'),
      `models:\n  - name: bench-model\n    provider: openai\n    base_url: ${fake.baseUrl}\n` +
        `    model: fake-model\n    params: { temperature: 0 }\n    timeout_ms: 30000\n` +
        `    max_concurrency: ${CONCURRENCY}\n`,
    );
    const runs: ReturnType<typeof measure>[] = [];
    const phases: { startUp: number; requests: number; tail: number }[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const dataDir = join(scratch, `eval-${i}`, 'pg');
      const before = (await fake.stats()).callCount;
      const spawnedAt = Date.now();
      const r = measure(
        ['eval', '--model', 'bench-model', '--suite', 'bench', '--json'],
        {
          ZHUJIU_DATA_DIR: dataDir,
          ZHUJIU_CONFIG_DIR: join(root, 'config'),
          ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
        },
        scratch,
      );
      const st = await fake.stats();
      const calls = st.callCount - before;
      if (calls !== ITEMS)
        throw new Error(`expected ${ITEMS} requests, the fake received ${calls}`);
      runs.push(r);
      // This run's arrivals on this process's clock, in seconds after the spawn.
      const at = (st.arrivalsByModel['fake-model'] ?? [])
        .slice(before)
        .map((a) => (a + (st.startedEpochMs ?? 0) - spawnedAt) / 1000);
      const first = Math.min(...at);
      const last = Math.max(...at);
      phases.push({ startUp: first, requests: last - first, tail: r.s - last });
      rmSync(join(scratch, `eval-${i}`), { recursive: true, force: true });
    }
    report(
      `first zhujiu eval, ${ITEMS} items, ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}, empty data folder`,
      runs,
      { ideal: (ITEMS * LATENCY_MS) / CONCURRENCY / 1000 },
    );
    const med = (k: keyof (typeof phases)[number]) => median(phases.map((p) => p[k])).toFixed(2);
    console.log(
      `  phases (medians): spawn → first request ${med('startUp')} s; first → last request ${med('requests')} s ` +
        `(ideal ${(((ITEMS / CONCURRENCY - 1) * LATENCY_MS) / 1000).toFixed(2)} s); last request → exit ${med('tail')} s`,
    );
  } finally {
    await fake.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
