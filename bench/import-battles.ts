/**
 * bench/import-battles: `zhujiu import battles` of the 200,000 public arena votes (`../shared/data/arena/
 * battles.jsonl`, described in its README) into a fresh database, on PostgreSQL (`BENCH_DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/test, in a fresh database) and on embedded PGlite. For each backend it prints
 * the file read (parse and checks) and the store (one transaction) separately: wall time, the CPU time of this
 * process (PGlite runs in it), the CPU time of the PostgreSQL server process that ran the import (read from
 * /proc when the server is on this machine: on a shared, busy machine CPU time is the steadier figure) and the
 * peak resident memory of this process (`process.resourceUsage().maxRSS`, a high-water mark: PostgreSQL runs
 * first, so the PGlite figure includes it).
 *
 *   npx tsx bench/import-battles.ts [--file battles.jsonl] [--only pglite|postgres]
 *
 * Targets for 200,000 votes: store ≤ 3 s on PostgreSQL, ≤ 8 s on PGlite. Skips with a message when the file is
 * absent.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { importBattles, readBattlesFile } from '../src/import/battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';

const { values } = parseArgs({
  options: { file: { type: 'string' }, only: { type: 'string' } },
});
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

const ownCpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

async function run(label: string, d: Db, exclusive: boolean): Promise<void> {
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
      `  peak RSS of this process so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
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
    // One connection, so the server process measured is the one that runs the import.
    const d = await openDb({ kind: 'postgres', url: u.toString(), poolSize: 1 });
    try {
      await run(`postgres (${u.host})`, d, false);
    } finally {
      await d.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } catch (err) {
    console.log(`postgres: skipped (${(err as Error).message})`);
  } finally {
    await admin.end().catch(() => {});
  }
}
if (values.only !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-'));
  const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
  try {
    await run('pglite (embedded, in this process)', d, true);
  } finally {
    await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
