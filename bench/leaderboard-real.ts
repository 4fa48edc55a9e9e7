/**
 * The board on real, long-tailed votes (run by `npx tsx bench/leaderboard.ts --real`): the 200,000 public Chatbot
 * Arena votes of ../shared/data/arena/battles.jsonl (129 models, 138 to 19,466 votes each; seven models have
 * fewer than 100 votes on a side) imported under one ability, then
 *
 *   1. `zhujiu leaderboard --source public` as a whole child process (the built dist/, `npm run build` first),
 *      `--runs` times, each rebuilding the board (the stored snapshots are deleted before each run): wall time,
 *      CPU time (user + system) and peak RSS of the child, from /usr/bin/time when it is there;
 *   2. the inner build in this process (`loadBoardInput` + `computeBoard` at the product's rounds);
 *   3. the interval agreement: the product's board against a reference whose every round resamples every battle
 *      and refits exactly (`normalMinSide: Infinity`), both at the product's rounds: the largest difference of a
 *      2.5 % / 97.5 % endpoint of a model's comparative score (ten-point scale), also as a share of that model's
 *      interval width, and of the final scores. With `--noise` a second exact run (another seed) gives the
 *      Monte Carlo noise between two exact runs, the floor of any such comparison.
 *
 * On PGlite (a temporary data folder) and on PostgreSQL when TEST_DATABASE_URL or DATABASE_URL is set (a fresh
 * database, dropped afterwards). The machine's load average is printed: figures scale with the other work.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { type Board, type BoardInput, computeBoard } from '../src/aggregate/index.ts';
import { createRng } from '../src/core/rng.ts';
import { loadBoardInput } from '../src/leaderboard/inputs.ts';
import { type DbTarget, openDb } from '../src/storage/db.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FILE = join(ROOT, '../shared/data/arena/battles.jsonl');
const NODE = process.execPath;
const CLI = join(ROOT, 'bin/zhujiu.js');
const TIME = '/usr/bin/time';

interface RealOptions {
  readonly rounds: number;
  readonly minVotes: number;
  readonly runs: number;
  readonly only?: string;
  readonly noise: boolean;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const min = (xs: number[]) => Math.min(...xs);

/** Runs the CLI with `args` and `env`; wall seconds, and CPU seconds and peak RSS (MB) when /usr/bin/time exists. */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): { wall: number; cpu: number | null; rssMb: number | null; out: string } {
  const timed = existsSync(TIME);
  const t0 = performance.now();
  const r = timed
    ? spawnSync(TIME, ['-f', '@@ %U %S %M', NODE, CLI, ...args], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      })
    : spawnSync(NODE, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`zhujiu ${args.join(' ')} failed: ${r.stderr}`);
  const m = /@@ ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  return {
    wall,
    cpu: m ? Number(m[1]) + Number(m[2]) : null,
    rssMb: m ? Number(m[3]) / 1024 : null,
    out: r.stdout,
  };
}

/** max |Δ| of the comparative interval endpoints (and as a share of b's width) and of the final endpoints. */
function agreement(
  a: Board,
  b: Board,
): { comp: number; share: number; final: number; worst: string } {
  const other = new Map(b.rows.map((r) => [r.model, r]));
  let comp = 0;
  let share = 0;
  let final = 0;
  let worst = '';
  for (const ra of a.rows) {
    const rb = other.get(ra.model);
    const ia = ra.methodIntervals?.comparative;
    const ib = rb?.methodIntervals?.comparative;
    if (!rb || !ia || !ib) continue;
    const width = ib.hi - ib.lo;
    for (const [x, y] of [
      [ia.lo, ib.lo],
      [ia.hi, ib.hi],
    ] as const) {
      const d = Math.abs(x - y);
      comp = Math.max(comp, d);
      if (width > 0 && d / width > share) {
        share = d / width;
        worst = `${ra.model} (${rb.votes} votes, width ${width.toFixed(3)})`;
      }
    }
    for (const [x, y] of [
      [ra.finalLo, rb.finalLo],
      [ra.finalHi, rb.finalHi],
    ] as const) {
      if (x !== null && y !== null) final = Math.max(final, Math.abs(x - y));
    }
  }
  return { comp, share, final, worst };
}

/** A timed board build in this process (wall and CPU ms). */
function timedBoard(input: BoardInput, seed: number, opts: Parameters<typeof computeBoard>[2]) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const board = computeBoard(input, createRng(seed), opts);
  const c = process.cpuUsage(c0);
  return { board, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

/** Imports the votes, times the whole process and the inner build, prints the agreement. */
async function runOn(label: string, target: DbTarget, env: NodeJS.ProcessEnv, o: RealOptions) {
  console.log(`\n${label}`);
  const imp = cli(['import', 'battles', FILE, '--source', 'public', '--ability', 'reasoning'], env);
  console.log(
    `  import (once, child process): ${imp.wall.toFixed(1)} s wall; load average ${load()}`,
  );
  const walls: number[] = [];
  const cpus: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    const d = await openDb(target);
    await sql`DELETE FROM leaderboard_snapshots`.execute(d.db);
    await d.close();
    const r = cli(['leaderboard', '--source', 'public'], env);
    walls.push(r.wall);
    if (r.cpu !== null) cpus.push(r.cpu);
    if (r.rssMb !== null) rss.push(r.rssMb);
  }
  const cpuText = cpus.length
    ? `, CPU min ${min(cpus).toFixed(2)} s, median ${med(cpus).toFixed(2)} s, peak RSS median ${med(rss).toFixed(0)} MB`
    : '';
  console.log(
    `  zhujiu leaderboard --source public (whole process, board rebuilt, ${o.rounds.toLocaleString('en')} rounds, ${o.runs} runs): wall min ${min(walls).toFixed(2)} s, median ${med(walls).toFixed(2)} s${cpuText} (target ≤ 3 s wall: ${min(walls) <= 3 ? 'met' : 'missed'}); load average ${load()}`,
  );
  const d = await openDb(target);
  const t0 = performance.now();
  const { input } = await loadBoardInput(d.db, ['public'], {});
  const loadMs = performance.now() - t0;
  await d.close();
  const opts = { minVotes: o.minVotes, rounds: o.rounds };
  const inner = [0, 1, 2].map(() => timedBoard(input, 0, opts));
  console.log(
    `  inner: inputs read ${loadMs.toFixed(0)} ms (${input.battles.length.toLocaleString('en')} battle types); computeBoard min ${min(inner.map((x) => x.ms)).toFixed(0)} ms, median ${med(inner.map((x) => x.ms)).toFixed(0)} ms (CPU median ${med(inner.map((x) => x.cpuMs)).toFixed(0)} ms)`,
  );
  return { input, product: inner[0]!.board };
}

/** The agreement of the product's intervals with exact resampling (and, with `noise`, exact with itself). */
function agreementReport(input: BoardInput, product: Board, o: RealOptions): void {
  const opts = { minVotes: o.minVotes, rounds: o.rounds };
  const exact = timedBoard(input, 1, { ...opts, normalMinSide: Number.POSITIVE_INFINITY });
  const again = timedBoard(input, 2, opts);
  const fmt = (x: ReturnType<typeof agreement>) =>
    `comparative endpoints max |Δ| ${x.comp.toFixed(4)} (ten-point scale), max ${(100 * x.share).toFixed(1)} % of the interval width [${x.worst}]; final endpoints max |Δ| ${x.final.toFixed(4)}`;
  console.log(
    `  exact reference (every round resamples every battle and refits): computeBoard ${exact.ms.toFixed(0)} ms (CPU ${exact.cpuMs.toFixed(0)} ms)`,
  );
  console.log(
    `  agreement, product (seed 0) vs exact (seed 1): ${fmt(agreement(product, exact.board))}`,
  );
  console.log(
    `  agreement, product (seed 2) vs exact (seed 1): ${fmt(agreement(again.board, exact.board))}`,
  );
  if (o.noise) {
    const exact2 = timedBoard(input, 3, { ...opts, normalMinSide: Number.POSITIVE_INFINITY });
    console.log(
      `  noise floor, exact (seed 3) vs exact (seed 1): ${fmt(agreement(exact2.board, exact.board))}`,
    );
  }
}

/** The real-data case on PGlite and PostgreSQL (see the module doc). */
export async function benchRealBoard(o: RealOptions): Promise<void> {
  if (!existsSync(FILE)) {
    console.log(
      `real data: skipped (${FILE} not found; the public data folder sits beside the checkout)`,
    );
    return;
  }
  if (!existsSync(join(ROOT, 'dist/src/cli/index.js'))) {
    console.log('real data: skipped (dist/ not built; run `npm run build`)');
    return;
  }
  console.log(`real data: ${FILE} (200,000 votes, 129 models) under the ability reasoning`);
  let done: { input: BoardInput; product: Board } | null = null;
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (base && o.only !== 'pglite') {
    const name = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    const env = {
      ...process.env,
      DATABASE_URL: u.toString(),
      ZHUJIU_VOTER_SECRET: 'bench-voter-secret-0123',
    };
    try {
      done = await runOn(`postgres (${u.host})`, { kind: 'postgres', url: u.toString() }, env, o);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  if (o.only !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-real-'));
    const { DATABASE_URL: _, ...rest } = process.env;
    const env = { ...rest, ZHUJIU_DATA_DIR: join(dir, 'pg') };
    try {
      const r = await runOn(
        'pglite (child processes on one data folder)',
        { kind: 'pglite', dataDir: join(dir, 'pg') },
        env,
        o,
      );
      done ??= r;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (done) agreementReport(done.input, done.product, o);
}
