/**
 * bench/import-battles: `zhujiu import battles` of the 200,000 public arena votes (`../shared/data/arena/
 * battles.jsonl`, described in its README) into a fresh database, on PostgreSQL (`BENCH_DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/test, in a fresh database) and on embedded PGlite. For each backend it prints
 * the file read (parse and checks) and the store (one transaction) separately: wall time, the CPU time of this
 * process (PGlite runs in it), the CPU time of the PostgreSQL server process that ran the import (read from
 * /proc when the server is on this machine: on a shared, busy machine CPU time is the steadier figure) and the
 * peak resident memory of this process (`process.resourceUsage().maxRSS`, a high-water mark: PostgreSQL runs
 * first, so the PGlite figure includes it). Then, when dist/ is built (`npm run build`), `zhujiu import battles`
 * as a whole child process into another fresh database (migrated first, so the figure is the import's): wall
 * time, CPU time and peak RSS of the child from /usr/bin/time. The load average is printed with each figure.
 *
 *   npx tsx bench/import-battles.ts [--file battles.jsonl] [--only pglite|postgres] [--no-whole] [--runs N]
 *
 * With `--runs N` (default 1) the store is timed N times per backend, each into a fresh database, and the minimum and
 * median store wall time are printed after the runs (a single import's time varies with the server's background
 * writes: 2.5–3.4 s here on PostgreSQL).
 *
 * Targets for 200,000 votes: store ≤ 3 s on PostgreSQL, ≤ 8 s on PGlite. Skips with a message when the file is
 * absent.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { importBattles, readBattlesFile } from '../src/import/battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    only: { type: 'string' },
    'no-whole': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`import-battles: --runs must be a whole number ≥ 1 (got ${values.runs})`);
  process.exit(2);
}
const shared = new URL('../../shared/data/arena/battles.jsonl', import.meta.url).pathname;
const file = values.file ?? shared;
if (!existsSync(file)) {
  console.log(
    `import-battles: skipped: ${file} is absent (the 200,000 public arena votes; see ../shared/data/arena/README.md), ` +
      'or give another battles JSONL file with --file',
  );
  process.exit(0);
}

/** CPU seconds (user + system) of process `pid` from /proc, or undefined when it cannot be read. */
function procCpu(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/zhujiu.js');
const whole = !values['no-whole'] && existsSync(join(ROOT, 'dist/src/cli/index.js'));

/** Runs `zhujiu …args` as a child with `env`: wall seconds, and CPU seconds and peak RSS (MB) from /usr/bin/time. */
function child(args: string[], env: NodeJS.ProcessEnv): string {
  const timed = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', '@@ %U %S %M', process.execPath, CLI, ...args], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      })
    : spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`zhujiu ${args.join(' ')} failed: ${r.stderr}`);
  const m = /@@ ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  return m
    ? `wall ${wall.toFixed(2)} s, CPU ${(Number(m[1]) + Number(m[2])).toFixed(2)} s, peak RSS ${(Number(m[3]) / 1024).toFixed(0)} MB`
    : `wall ${wall.toFixed(2)} s`;
}

/** `zhujiu import battles` of the file as a whole child process, into a database `env` names (migrated first). */
function wholeImport(label: string, env: NodeJS.ProcessEnv): void {
  child(['migrate'], env);
  const l0 = load();
  const r = child(['import', 'battles', file, '--source', 'bench'], env);
  console.log(
    `${label}: whole process \`zhujiu import battles\`: ${r}; load average ${l0} → ${load()}`,
  );
}

const ownCpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

/** Prints the minimum and median of a backend's store wall times (seconds) against its target. */
function storeSummary(label: string, walls: number[], target: number): void {
  if (walls.length < 2) return;
  const sorted = [...walls].sort((a, b) => a - b);
  const min = sorted[0] as number;
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  console.log(
    `${label}: store over ${walls.length} runs: min ${min.toFixed(2)} s, median ${median.toFixed(2)} s ` +
      `(target ≤ ${target} s: median ${median <= target ? 'met' : 'missed'})`,
  );
}

/** Imports the file into `d` (migrated first) and prints its figures; the store's wall time in seconds. */
async function run(label: string, d: Db, exclusive: boolean): Promise<number> {
  await migrateToLatest(d.db);
  const serverPid =
    d.target.kind === 'postgres'
      ? Number(
          (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db)).rows[0]?.pid,
        )
      : undefined;
  let t0 = performance.now();
  let c0 = ownCpu();
  const parsed = await readBattlesFile({ file, source: 'bench' });
  const readWall = (performance.now() - t0) / 1000;
  const readCpu = ownCpu() - c0;
  const s0 = serverPid === undefined ? undefined : procCpu(serverPid);
  t0 = performance.now();
  c0 = ownCpu();
  const r = await importBattles(d.db, { file, source: 'bench', parsed, exclusiveDb: exclusive });
  const wall = (performance.now() - t0) / 1000;
  const cpu = ownCpu() - c0;
  const s1 = serverPid === undefined ? undefined : procCpu(serverPid);
  const server =
    s0 === undefined || s1 === undefined
      ? ''
      : `, CPU of the server process ${(s1 - s0).toFixed(2)} s`;
  const target = d.target.kind === 'postgres' ? 3 : 8;
  console.log(
    `${label}: ${r.added} votes (${r.models} models)\n` +
      `  read  wall ${readWall.toFixed(2)} s, CPU of this process ${readCpu.toFixed(2)} s\n` +
      `  store wall ${wall.toFixed(2)} s (target ≤ ${target} s), CPU of this process ${cpu.toFixed(2)} s${server}, ` +
      `${Math.round(r.added / wall)} votes/s\n` +
      `  peak RSS of this process so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load average ${load()}`,
  );
  return wall;
}

if (values.only !== 'pglite') {
  const base =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const name = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (i > 0) await admin.query(`CREATE DATABASE ${name}`);
      // One connection, so the server process measured is the one that runs the import.
      const d = await openDb({ kind: 'postgres', url: u.toString(), poolSize: 1 });
      try {
        walls.push(await run(`postgres (${u.host})`, d, false));
      } finally {
        await d.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    }
    storeSummary(`postgres (${u.host})`, walls, 3);
    if (whole) {
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        wholeImport(`postgres (${u.host})`, {
          ...process.env,
          DATABASE_URL: u.toString(),
          ZHUJIU_VOTER_SECRET: 'bench-voter-secret-0123',
        });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    }
  } catch (err) {
    console.log(`postgres: skipped (${(err as Error).message})`);
  } finally {
    await admin.end().catch(() => {});
  }
}
if (values.only !== 'postgres') {
  const walls: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-'));
    const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
    try {
      walls.push(await run('pglite (embedded, in this process)', d, true));
    } finally {
      await d.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  storeSummary('pglite (embedded, in this process)', walls, 8);
  if (whole) {
    const wdir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-'));
    const { DATABASE_URL: _, ...rest } = process.env;
    try {
      wholeImport('pglite', {
        ...rest,
        ZHUJIU_DATA_DIR: join(wdir, 'pg'),
        ZHUJIU_VOTER_SECRET: 'bench-voter-secret-0123',
      });
    } finally {
      rmSync(wdir, { recursive: true, force: true });
    }
  }
}
