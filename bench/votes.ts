/**
 * bench/votes: sustained vote casts per second and p50/p99 latency with 16 concurrent voters, through the real
 * vote path (`applyVoteEvent`: append event + cast/change/retract in one transaction), against real Postgres
 * (`BENCH_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/test, in a fresh database) and embedded PGlite.
 *
 *   npx tsx bench/votes.ts [--seconds 10] [--concurrency 16] [--only pglite|postgres]
 *
 * Target on a 2-core machine: ≥ 2,000 casts/s and p99 ≤ 50 ms on the server. Also prints the CPU per cast of this
 * process and, for a server on this machine, of the server processes serving the bench's database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { createRng } from '../src/core/rng.ts';
import { createBattle, markPosted } from '../src/storage/battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';
import { ensureModels } from '../src/storage/models.ts';
import type { VoteChoice } from '../src/storage/schema.ts';
import { applyVoteEvent } from '../src/storage/votes.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    only: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const BATTLES = 500;
const VOTERS = 2000;

async function setup(d: Db): Promise<number[]> {
  await migrateToLatest(d.db);
  const names = Array.from({ length: 10 }, (_, i) => `bench-model-${i}`);
  const ids = [...(await ensureModels(d.db, names, 'recorded')).values()];
  const battles: number[] = [];
  const now = new Date();
  for (let i = 0; i < BATTLES; i++) {
    const l = ids[i % ids.length] as number;
    const r = ids[(i + 1 + (i % 7)) % ids.length] as number;
    const id = await createBattle(d.db, {
      itemId: null,
      ability: null,
      leftModelId: l,
      rightModelId: r === l ? (ids[0] as number) : r,
      responseLeftId: null,
      responseRightId: null,
    });
    await markPosted(d.db, id, {
      platform: 'discord',
      channelId: 'bench',
      messageId: `bench-${id}`,
      partIds: [],
      postedAt: now,
      closesAt: new Date(now.getTime() + 86_400_000),
    });
    battles.push(id);
  }
  return battles;
}

/**
 * CPU milliseconds (user + system) used so far by the server processes serving this database, read from
 * /proc/<pid>/stat (clock ticks of 10 ms); undefined when the server is not on this machine or on PGlite.
 */
async function serverCpuMs(d: Db): Promise<number | undefined> {
  if (d.target.kind !== 'postgres') return undefined;
  const pids = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database()`.execute(d.db);
  try {
    let ms = 0;
    for (const { pid } of pids.rows) {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ms += (Number(f[11]) + Number(f[12])) * 10;
    }
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}

async function run(label: string, d: Db): Promise<void> {
  const battles = await setup(d);
  const choices: VoteChoice[] = ['left', 'equal', 'right'];
  const latencies: number[] = [];
  let seq = 0;
  const effects = new Map<string, number>();
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async (w: number) => {
    const rng = createRng(1000 + w);
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const r = await applyVoteEvent(d.db, {
        battleId: battles[rng.int(battles.length)] as number,
        voterHash: `bench-voter-${rng.int(VOTERS)}`,
        platform: 'discord',
        eventId: `bench-${w}-${seq++}`,
        kind: rng.next() < 0.1 ? 'remove' : 'add',
        choice: choices[rng.int(3)] as VoteChoice,
        at: new Date(),
      });
      latencies.push(performance.now() - t0);
      effects.set(r.effect, (effects.get(r.effect) ?? 0) + 1);
    }
  };
  const server0 = await serverCpuMs(d);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const secs = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server1 = await serverCpuMs(d);
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number;
  const rate = latencies.length / secs;
  console.log(
    `${label}: ${latencies.length} vote events in ${secs.toFixed(1)} s with ${CONCURRENCY} concurrent voters → ` +
      `${rate.toFixed(0)} casts/s (target ≥ 2000: ${(rate / 2000).toFixed(2)}×), p50 ${q(0.5).toFixed(2)} ms, ` +
      `p99 ${q(0.99).toFixed(2)} ms (target ≤ 50 ms), max ${q(1).toFixed(1)} ms`,
  );
  const n = latencies.length;
  console.log(
    `  CPU per cast: this process ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms` +
      (server0 !== undefined && server1 !== undefined
        ? `, the server's processes ${((server1 - server0) / n).toFixed(3)} ms`
        : d.target.kind === 'postgres'
          ? ", the server's: not on this machine"
          : ' (PGlite runs in it)') +
      " (less sensitive to the machine's other load than the rate)",
  );
  console.log(`  effects: ${[...effects].map(([k, v]) => `${k} ${v}`).join(', ')}`);
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
    const d = await openDb({ kind: 'postgres', url: u.toString(), poolSize: CONCURRENCY });
    try {
      await run(`postgres (${u.host})`, d);
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
    await run('pglite (embedded, one connection)', d);
  } finally {
    await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
