/**
 * bench/eval: evaluation-run throughput and memory against the local fake OpenAI-compatible server.
 *
 * 1. 2,000 items (C3 / OCNLI / CMRC 2018 mix) with 100 ms model latency at concurrency 32: wall time as a ratio of
 *    the ideal items × latency / concurrency (6.25 s); target ≤ 1.2.
 * 2. Peak memory of a 20,000-item run (10 ms latency) next to a 2,000-item run: the runner keeps the prepared
 *    datasets and an id index, never the answers or results, so the difference is the datasets themselves.
 *    Peak RSS, peak heap, and peak retained heap (sampled after a full GC every 500 ms). On PGlite the RSS is
 *    mostly the embedded database (a freshly created one is ~0.9 GB resident before any item), so read the heap
 *    figures there, and RSS on Postgres.
 *
 * The fake server runs in a child process (bench/fake-openai-process.ts), so this process's CPU time and peak
 * memory are the product's own (the fake keeps every request it receives). Each part runs BENCH_REPEAT times
 * (default 3) and the throughput median is printed with the load average (the machine is shared).
 *
 * 3. The shipped `zhujiu` suite on ../shared/data/datasets (~3,200 items, its scoring datasets graded by a judge on
 *    the same fake) with 100 ms latency at concurrency 32 for the model and for the judge: a multi-request item
 *    (follow-up turns, five phrasings) and a judged item make several requests. Two ideals are printed: the
 *    one-pool ideal, total requests × latency / concurrency (as if model and judge shared 32 slots), and the
 *    endpoint-bound ideal, max(model requests, judge requests) × latency / concurrency (each endpoint has its own 32
 *    slots, so the busier one bounds the run from below). The second is the stricter; target ≤ 1.2 on it.
 *
 * Run: `npx tsx bench/eval.ts` (embedded PGlite), or with `BENCH_DATABASE_URL=postgres://…/db` for Postgres
 * (a scratch database is created and dropped). `BENCH_ONLY=throughput|memory|zhujiu` runs one part;
 * `BENCH_PROFILE=DIR` writes a CPU profile of each execution to DIR. Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KyselyPlugin } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/config/loader.ts';
import { type ModelConfig, modelsFileSchema } from '../src/config/schema.ts';
import { createLogger } from '../src/core/logger.ts';
import { EvalService } from '../src/eval/service.ts';
import { runSummary } from '../src/eval/summary.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { writeSmokeFixture } from '../test/helpers/eval-fixtures.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../test/helpers/shared-data.ts';
import { startFakeOpenAiProcess } from './fake-openai-process.ts';

const base = process.env.BENCH_DATABASE_URL;
// BENCH_PGLITE_THREAD=1: PGlite in a worker thread, as `zhujiu bot` and `zhujiu worker` run it.
const pgliteThread = process.env.BENCH_PGLITE_THREAD === '1';
const backend = base ? 'Postgres' : pgliteThread ? 'PGlite thread' : 'PGlite';

async function scratchDb(): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (!base) {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-eval-'));
    const db = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') }, { pgliteThread });
    await migrateToLatest(db.db);
    return {
      db,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  const db = await openDb({ kind: 'postgres', url: u.toString(), poolSize: 20 });
  await migrateToLatest(db.db);
  return {
    db,
    drop: async () => {
      await db.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** With BENCH_PROFILE=DIR, a CPU profile of each execution (not the setup) is written to DIR. */
async function startProfile(): Promise<((name: string) => Promise<void>) | undefined> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/** A full garbage collection (V8's gc() exposed at run time), so heap samples show what is retained. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * One execution of `items` items. With `retained`, the heap is also sampled after a full collection every 500 ms
 * (what the process keeps, not garbage waiting to be collected; this slows the run, so only the memory part does it).
 */
async function runOnce(items: number, latencyMs: number, concurrency: number, retained = false) {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-data-'));
  const per = Math.floor(items / 3);
  const fx = writeSmokeFixture(dir, { c3: items - 2 * per, ocnli: per, cmrc: per }, 'bench');
  const fake = await startFakeOpenAiProcess({ delayMs: latencyMs, items: fx.items });
  const { db, drop } = await scratchDb();
  const [model] = modelsFileSchema.parse({
    models: [
      {
        name: 'bench-model',
        provider: 'openai',
        base_url: fake.baseUrl,
        model: 'fake-model',
        params: { temperature: 0 },
        timeout_ms: 30_000,
        max_concurrency: concurrency,
      },
    ],
  }).models as [ModelConfig];
  const service = new EvalService({
    db: db.db,
    logger: createLogger('silent'),
    config: {
      models: [model],
      suites: new Map([['bench', fx.suite]]),
      datasetsDir: dir,
      datasetsCacheDir: join(dir, 'cache'),
      apiKeyFor: () => undefined,
    },
  });
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  let peakRetained = 0;
  let ticks = 0;
  const sampler = setInterval(() => {
    if (retained && ++ticks % 5 === 0) {
      collect();
      peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed);
    }
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 100);
  const started = await service.start({ model: 'bench-model', suite: 'bench' });
  if (!started.ok) throw new Error(started.reason);
  const prof = await startProfile();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await service.execute(started.run.id);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await prof?.(`eval-${backend}-${items}-${latencyMs}ms`);
  clearInterval(sampler);
  const s = await runSummary(db.db, started.run.id);
  const { callCount: calls, peakInFlight: peak } = await fake.stats();
  await fake.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
  return {
    wallMs,
    cpuMs,
    peakRss,
    peakHeap,
    peakRetained,
    calls,
    peak,
    scored: s?.datasets.reduce((a, d) => a + d.n, 0),
  };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
const only = process.env.BENCH_ONLY; // 'throughput' | 'memory' | unset: both

if (only === undefined || only === 'throughput') {
  const ideal = (2000 * 100) / 32;
  const ratios: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const before = load();
    const t = await runOnce(2000, 100, 32);
    ratios.push(t.wallMs / ideal);
    cpus.push(t.cpuMs / 2000);
    console.log(
      `throughput (${backend}) #${i + 1}: 2000 items, 100 ms latency, concurrency 32: wall ${(t.wallMs / 1000).toFixed(2)} s, ` +
        `ideal ${(ideal / 1000).toFixed(2)} s, ratio ${(t.wallMs / ideal).toFixed(2)}; ${t.calls} calls, ${t.scored} scored, ` +
        `peak in flight ${t.peak}; CPU of this process ${(t.cpuMs / 2000).toFixed(2)} ms/item; load average ${before}`,
    );
  }
  console.log(
    `throughput (${backend}): median ratio ${median(ratios).toFixed(2)} (target ≤ 1.2) over ${repeat} runs, ` +
      `median CPU ${median(cpus).toFixed(2)} ms/item; load average now ${load()} on ${availableParallelism()} cores`,
  );
}
if (only === undefined || only === 'memory') {
  for (let i = 0; i < repeat; i++) {
    const before = load();
    const small = await runOnce(2000, 10, 32, true);
    const large = await runOnce(20000, 10, 32, true);
    console.log(
      `memory (${backend}) #${i + 1}: 2,000 items peak RSS ${mb(small.peakRss)} / heap ${mb(small.peakHeap)} / ` +
        `retained heap ${mb(small.peakRetained)}; 20,000 items peak RSS ${mb(large.peakRss)} / heap ` +
        `${mb(large.peakHeap)} / retained heap ${mb(large.peakRetained)} ` +
        `(${large.calls} calls, ${large.scored} scored, wall ${(large.wallMs / 1000).toFixed(1)} s); load average ${before}`,
    );
  }
}

/**
 * How busy one endpoint of the fake was, from its requests' arrival times (ms, any origin) with `latencyMs` each:
 * the most in flight at once, the mean in flight between its first arrival and its last answer, the share of that
 * window it had at least `slots` in flight, and the mean in flight per second of the window (a timeline). Pure.
 */
function endpointLoad(arrivals: readonly number[], latencyMs: number, slots: number) {
  if (arrivals.length === 0)
    return { peak: 0, mean: 0, full: 0, first: 0, last: 0, perSecond: [] as number[] };
  const events: [number, number][] = [];
  // Whole milliseconds, so that the second boundaries below are exact.
  for (const a of arrivals) events.push([Math.round(a), 1], [Math.round(a + latencyMs), -1]);
  events.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const first = (events[0] as [number, number])[0];
  const last = (events[events.length - 1] as [number, number])[0];
  let n = 0;
  let peak = 0;
  let area = 0;
  let fullMs = 0;
  let at = first;
  const perSecond = Array.from({ length: Math.ceil((last - first) / 1000) }, () => 0);
  for (const [t, d] of events) {
    // Spread the time since the previous event over the seconds it covers.
    for (let s = at; s < t; ) {
      const sec = Math.floor((s - first) / 1000);
      const end = Math.max(s + 1, Math.min(t, first + (sec + 1) * 1000));
      perSecond[sec] = (perSecond[sec] ?? 0) + (n * (end - s)) / 1000;
      s = end;
    }
    area += n * (t - at);
    if (n >= slots) fullMs += t - at;
    at = t;
    n += d;
    peak = Math.max(peak, n);
  }
  const span = Math.max(1, last - first);
  return { peak, mean: area / span, full: fullMs / span, first, last, perSecond };
}

/** A Kysely plugin that counts the statements sent through it. */
function statementCounter(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: {
      transformQuery: (args) => {
        n++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
    count: () => n,
  };
}

/** CPU seconds (user + system) of this process since `from` (process.cpuUsage). */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1e6;
};

/**
 * One execution of the shipped `zhujiu` suite against the fake (every answer "答案：A", every grade 2): wall and CPU
 * seconds of this process and database statements per phase (`start`: the run validated and its suite prepared by
 * EvalService.start; then the execution's phases, eval/runner `RunPhase`; `summary`: the run's summary read), and
 * each endpoint's load.
 */
async function runZhujiu(latencyMs: number, concurrency: number) {
  const datasetsDir = sharedData('datasets');
  const cache = mkdtempSync(join(tmpdir(), 'zhujiu-bench-cache-'));
  const cfg = loadConfig({ cwd: PROJECT_ROOT, env: { ZHUJIU_DATASETS_DIR: datasetsDir } });
  const fake = await startFakeOpenAiProcess({
    delayMs: latencyMs,
    items: new Map(),
    generic: true,
  });
  const { db, drop } = await scratchDb();
  const models = modelsFileSchema.parse({
    models: ['bench-model', 'judge'].map((name) => ({
      name,
      provider: 'openai',
      base_url: fake.baseUrl,
      model: name === 'judge' ? 'judge-model' : 'fake-model',
      timeout_ms: 30_000,
      max_concurrency: concurrency,
    })),
  }).models as ModelConfig[];
  const statements = statementCounter();
  const counted = db.db.withPlugin(statements.plugin);
  const service = new EvalService({
    db: counted,
    logger: createLogger('silent'),
    config: {
      models,
      suites: cfg.suites,
      datasetsDir,
      datasetsCacheDir: cache,
      apiKeyFor: () => undefined,
    },
    judge: { model: 'judge', configDir: join(PROJECT_ROOT, 'config') },
  });
  const phases: { name: string; wallS: number; cpuS: number; statements: number }[] = [];
  let cpuMark = process.cpuUsage();
  let statementMark = 0;
  const mark = (name: string, ms: number) => {
    phases.push({
      name,
      wallS: ms / 1000,
      cpuS: cpuSince(cpuMark),
      statements: statements.count() - statementMark,
    });
    cpuMark = process.cpuUsage();
    statementMark = statements.count();
  };
  let t = performance.now();
  const started = await service.start({ model: 'bench-model', suite: 'zhujiu' });
  if (!started.ok) throw new Error(started.reason);
  mark('start', performance.now() - t);
  const prof = await startProfile();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await service.execute(started.run.id, { onPhase: mark });
  const wallMs = performance.now() - t0;
  const cpuS = cpuSince(cpu0);
  await prof?.(`zhujiu-${Date.now()}`);
  t = performance.now();
  const s = await runSummary(counted, started.run.id);
  mark('summary', performance.now() - t);
  const {
    callCount: calls,
    peakInFlight: peak,
    callsByModel,
    arrivalsByModel,
  } = await fake.stats();
  await fake.close();
  await drop();
  rmSync(cache, { recursive: true, force: true });
  const modelCalls = callsByModel['fake-model'] ?? 0;
  const judgeCalls = callsByModel['judge-model'] ?? 0;
  return {
    wallMs,
    cpuS,
    phases,
    calls,
    modelCalls,
    judgeCalls,
    peak,
    model: endpointLoad(arrivalsByModel['fake-model'] ?? [], latencyMs, concurrency),
    judge: endpointLoad(arrivalsByModel['judge-model'] ?? [], latencyMs, concurrency),
    items: s?.datasets.reduce((a, d) => a + d.n, 0),
  };
}

if (only === 'zhujiu' || (only === undefined && hasSharedData('datasets'))) {
  const ratios: number[] = [];
  const poolRatios: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const before = load();
    const t = await runZhujiu(100, 32);
    const poolIdeal = (t.calls * 100) / 32;
    const ideal = (Math.max(t.modelCalls, t.judgeCalls) * 100) / 32;
    ratios.push(t.wallMs / ideal);
    poolRatios.push(t.wallMs / poolIdeal);
    cpus.push(t.cpuS);
    const ep = (name: string, l: ReturnType<typeof endpointLoad>, t0: number) =>
      `${name}: peak in flight ${l.peak}, mean ${l.mean.toFixed(1)}, at 32 for ${(100 * l.full).toFixed(0)}% of ` +
      `${((l.last - l.first) / 1000).toFixed(1)} s (from +${((l.first - t0) / 1000).toFixed(1)} s); per second ` +
      `[${l.perSecond.map((x) => x.toFixed(0)).join(' ')}]`;
    console.log(
      `zhujiu (${backend}) #${i + 1}: ${t.items} items scored, ${t.modelCalls} model + ${t.judgeCalls} judge requests, ` +
        `100 ms latency, concurrency 32 each: wall ${(t.wallMs / 1000).toFixed(2)} s; endpoint-bound ideal ` +
        `${(ideal / 1000).toFixed(2)} s, ratio ${(t.wallMs / ideal).toFixed(2)}; one-pool ideal ${(poolIdeal / 1000).toFixed(2)} s, ` +
        `ratio ${(t.wallMs / poolIdeal).toFixed(2)}; peak in flight ${t.peak}; CPU of this process ${t.cpuS.toFixed(2)} s; ` +
        `load average ${before}\n  phases (wall s / CPU s / database statements): ${t.phases
          .map((p) => `${p.name} ${p.wallS.toFixed(2)} / ${p.cpuS.toFixed(2)} / ${p.statements}`)
          .join(
            ', ',
          )}\n  ${ep('model', t.model, t.model.first)}\n  ${ep('judge', t.judge, t.model.first)}`,
    );
  }
  console.log(
    `zhujiu (${backend}): endpoint-bound ratio min ${Math.min(...ratios).toFixed(2)}, median ${median(ratios).toFixed(2)} ` +
      `(target ≤ 1.2); one-pool ratio median ${median(poolRatios).toFixed(2)}; median CPU ${median(cpus).toFixed(2)} s; ` +
      `over ${repeat} runs; load average now ${load()}`,
  );
}
