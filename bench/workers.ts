/**
 * bench/workers: one large evaluation run spread over `zhujiu worker` processes on one PostgreSQL.
 *
 * A 2,000-item run (C3 / OCNLI / CMRC 2018 mix) against the fake OpenAI-compatible server (a child process,
 * bench/fake-openai-process.ts) answering after 100 ms, at `max_concurrency` BENCH_CONCURRENCY (default 8) per
 * worker, queued as one job, worked by 1 and then by 3 real worker processes (the compiled bin/zhujiu.js, dist/
 * rebuilt first when a source is newer): the worker that takes the job works the run, and the others join it
 * because its items are claimed under leases (eval/service `joinRuns`, docs/architecture.md "Shared work").
 * Printed: the wall time of each (from the job sent to the run finished, the workers already started), its
 * ideal (items × latency / (concurrency × workers)), when the first request reached the fake and how many reached it
 * in each second (the ramp shows when the other workers joined), and the speed-up of 3 workers over 1. Each case
 * evaluates a model of its own name, so no answer comes from the response cache.
 *
 * Run: `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/workers.ts` (a scratch
 * database is created and dropped per case). Prints figures; asserts nothing. The machine is shared: the load
 * average is printed with each figure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '../src/core/logger.ts';
import { PgBossQueue } from '../src/jobs/pg-boss.ts';
import { EVAL_RUN_QUEUE } from '../src/jobs/queue.ts';
import { migrateToLatest, openDb } from '../src/storage/db.ts';
import { createRun, getRun } from '../src/storage/eval-runs.ts';
import { ensureModels } from '../src/storage/models.ts';
import { ensureBuilt } from '../test/helpers/build.ts';
import { writeSmokeFixture } from '../test/helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../test/helpers/shared-data.ts';
import { startFakeOpenAiProcess } from './fake-openai-process.ts';

const base = process.env.BENCH_DATABASE_URL;
if (!base) {
  console.error(
    'bench/workers: set BENCH_DATABASE_URL to a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/postgres)',
  );
  process.exit(2);
}
const ITEMS = 2000;
const LATENCY_MS = 100;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
await ensureBuilt();

const root = mkdtempSync(join(tmpdir(), 'zhujiu-bench-workers-'));
const per = Math.floor(ITEMS / 3);
const fx = writeSmokeFixture(
  join(root, 'datasets'),
  { c3: ITEMS - 2 * per, ocnli: per, cmrc: per },
  'bench',
);
const fake = await startFakeOpenAiProcess({ delayMs: LATENCY_MS, items: fx.items });
mkdirSync(join(root, 'config', 'suites'), { recursive: true });
writeFileSync(join(root, 'config', 'suites', 'bench.yaml'), fx.suiteYaml);
writeFileSync(join(root, 'config', 'default.yaml'), 'http:\n  port: 0\n');
const models = ['one', 'three'].map((n) => `bench-${n}`);
writeFileSync(
  join(root, 'config', 'models.yaml'),
  `models:\n${models
    .map(
      (m) =>
        `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n` +
        `    max_concurrency: ${CONCURRENCY}\n    timeout_ms: 30000\n`,
    )
    .join('')}`,
);

/** A scratch database on the server, migrated; dropped by `drop`. */
async function scratch(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base as string);
  u.pathname = `/${name}`;
  const url = u.toString();
  const d = await openDb({ kind: 'postgres', url });
  await migrateToLatest(d.db);
  await d.close();
  return {
    url,
    drop: async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Starts a `zhujiu worker` on `url`; resolves once it says it started. */
async function startWorker(url: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), 'worker'], {
    cwd: root,
    env: {
      ...process.env,
      ZHUJIU_CONFIG_DIR: join(root, 'config'),
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
      DATABASE_URL: url,
      ZHUJIU_VOTER_SECRET: 'bench-workers-secret-0123456789',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    c.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
      if (err.includes('zhujiu worker started')) resolve();
    });
    c.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err.slice(-2000)}`)));
  });
  return c;
}

/** Wall time, s, of one run of model `model` worked by `workers` worker processes. */
async function runWith(model: string, workers: number): Promise<number> {
  const peakBefore = (await fake.stats()).peakInFlight;
  const { url, drop } = await scratch();
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) children.push(await startWorker(url));
    const d = await openDb({ kind: 'postgres', url });
    try {
      const ids = await ensureModels(d.db, [model], 'openai');
      const created = await createRun(d.db, { modelId: ids.get(model) as number, suite: 'bench' });
      if (!created.created) throw new Error('run not created');
      const q = new PgBossQueue({ connectionString: url, logger: createLogger('silent') });
      await q.start();
      const t0 = performance.now();
      const e0 = Date.now();
      await q.send(EVAL_RUN_QUEUE, { runId: created.run.id });
      await q.stop();
      for (;;) {
        const run = await getRun(d.db, created.run.id);
        if (run?.status === 'succeeded' || run?.status === 'failed') {
          if (run.status === 'failed') throw new Error(`the run failed: ${run.error}`);
          if (run.done !== ITEMS) throw new Error(`the run finished with ${run.done} items`);
          const wall = (performance.now() - t0) / 1000;
          const st = await fake.stats();
          // Arrival times of this case's requests, s since its job was sent (the fake's clock is Date-based).
          const arrivals = (st.arrivalsByModel[`${model}-model`] ?? []).map(
            (a) => (a + (st.startedEpochMs ?? 0) - e0) / 1000,
          );
          ramps.set(workers, ramp(arrivals));
          const peak = st.peakInFlight;
          if (peak > peakBefore) peaks.set(workers, peak);
          return wall;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await d.close();
    }
  } finally {
    for (const c of children) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
    await drop();
  }
}

/** The most requests the fake answered at once during each case (above one worker's concurrency: joined). */
const peaks = new Map<number, number>();
/** Per case: when the first request arrived and how many arrived in each second after the job was sent. */
const ramps = new Map<number, string>();

/** `first request after X s; requests per second: a b c …` for arrival times in s since the job was sent. */
function ramp(arrivals: readonly number[]): string {
  const perSecond: number[] = [];
  for (const a of arrivals) {
    const s = Math.max(0, Math.floor(a));
    perSecond[s] = (perSecond[s] ?? 0) + 1;
  }
  const first = Math.min(...arrivals);
  return `first request after ${first.toFixed(2)} s; requests in each second: ${Array.from(perSecond, (n) => n ?? 0).join(' ')}`;
}
try {
  const results: number[] = [];
  for (const [i, workers] of [1, 3].entries()) {
    const load = loadavg()[0]?.toFixed(2);
    const wall = await runWith(models[i] as string, workers);
    results.push(wall);
    const ideal = (ITEMS * LATENCY_MS) / 1000 / (CONCURRENCY * workers);
    console.log(
      `${workers} worker${workers === 1 ? '' : 's'}: ${ITEMS} items, ${LATENCY_MS} ms latency, concurrency ` +
        `${CONCURRENCY} per worker: wall ${wall.toFixed(2)} s (ideal ${ideal.toFixed(2)} s, ` +
        `${(wall / ideal).toFixed(2)}×); peak requests in flight ${peaks.get(workers) ?? '≤ earlier'}; ` +
        `load average ${load}\n  ${ramps.get(workers) ?? ''}`,
    );
  }
  const [one, three] = results as [number, number];
  console.log(`speed-up of 3 workers over 1: ${(one / three).toFixed(2)}×`);
} finally {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
}
