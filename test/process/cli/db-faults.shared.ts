/**
 * Driver faults against real `zhujiu worker` / `zhujiu bot` processes (the compiled bin/zhujiu.js) on one
 * PostgreSQL database (docs/architecture.md, "Failures"):
 * - {@link connectionKillTests}: every connection of the database is terminated (`pg_terminate_backend`, what a
 *   server restart or a failover does to its clients) every 0.3 s for a while; no process exits, and afterwards
 *   the worker still takes and finishes a queued run. The short version runs in test/process
 *   (db-faults-connections.postgres.test.ts), the minute-long one in test/e2e (db-faults.test.ts).
 * - {@link startUpTests}: four workers started at once on a fresh (unmigrated) database all start and each takes
 *   a job; a database migrated by a newer version is refused with the upgrade message by `worker`, `bot` and
 *   `config check` (db-faults-startup.postgres.test.ts).
 * Assertions are on exit codes, log lines and counts; waits poll with generous upper bounds. Only with
 * TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/logger.ts';
import { PgBossQueue } from '../../../src/jobs/pg-boss.ts';
import { EVAL_RUN_QUEUE } from '../../../src/jobs/queue.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { createRun, getRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { startZhujiu, type ZhujiuProcess } from '../../helpers/run-cli.ts';

const MODELS = ['m1', 'm2', 'm3', 'm4'];

async function until(what: string, cond: () => Promise<boolean> | boolean, maxMs = 120_000) {
  const t0 = Date.now();
  while (!(await Promise.resolve(cond()).catch(() => false))) {
    if (Date.now() - t0 > maxMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** A config folder (suite `mini` of four items, four slow models on the fake) and the fake behind it. */
function useSetup(delayMs: number) {
  const s = {} as { root: string; fake: FakeOpenAi; items: Map<number, FixtureItem> };
  beforeAll(async () => {
    s.root = mkdtempSync(join(tmpdir(), 'zhujiu-db-faults-'));
    const fx = writeSmokeFixture(join(s.root, 'datasets'), { c3: 2, ocnli: 1, cmrc: 1 }, 'mini');
    s.items = fx.items;
    mkdirSync(join(s.root, 'config', 'suites'), { recursive: true });
    writeFileSync(join(s.root, 'config', 'suites', 'mini.yaml'), fx.suiteYaml);
    writeFileSync(
      join(s.root, 'config', 'default.yaml'),
      'http:\n  port: 0\neval:\n  lease_seconds: 10\n  job_expire_seconds: 30\n  maintenance_seconds: 1\n',
    );
    s.fake = await startFakeOpenAi({ delayMs });
    s.fake.setAnswer((call) => s.items.get(tagOf(call))?.right ?? 'x');
    writeFileSync(
      join(s.root, 'config', 'models.yaml'),
      `models:\n${MODELS.map(
        (m) =>
          `  - name: ${m}\n    provider: openai\n    base_url: ${s.fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 1\n    timeout_ms: 60000\n`,
      ).join('')}`,
    );
  });
  afterAll(async () => {
    await s.fake?.close();
    if (s.root) rmSync(s.root, { recursive: true, force: true });
  });
  return s;
}

/** A new, empty (unmigrated) database on the test server; `drop` removes it. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `zhujiu_f_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Starts `zhujiu COMMAND` on `url` with the setup's folders (JSON logs at info, to read them). */
function start(command: string[], root: string, url: string): ZhujiuProcess {
  return startZhujiu(command, {
    ZHUJIU_CONFIG_DIR: join(root, 'config'),
    ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
    ZHUJIU_DATA_DIR: join(root, 'data', 'pg'),
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ZHUJIU_VOTER_SECRET: 'db-faults-test-secret-0123456789',
  });
}

/** Creates a run of `model` on suite `mini` and sends its job. */
async function queueRun(db: Db, url: string, model: string): Promise<number> {
  const ids = await ensureModels(db.db, [model], 'openai');
  const created = await createRun(db.db, { modelId: ids.get(model) as number, suite: 'mini' });
  if (!created.created) throw new Error('run not created');
  const q = new PgBossQueue({ connectionString: url, logger: silentLogger });
  await q.start();
  await q.send(EVAL_RUN_QUEUE, { runId: created.run.id });
  await q.stop();
  return created.run.id;
}

/** Sends SIGTERM and returns the exit. */
async function stop(p: ZhujiuProcess) {
  if (p.alive()) p.child.kill('SIGTERM');
  return Promise.race([p.exited, sleep(60_000).then(() => 'still running' as const)]);
}

/**
 * Terminates every connection of a worker's and a bot's database every 0.3 s for `killForMs`: neither exits, and
 * the worker then finishes a queued run.
 */
export function connectionKillTests(killForMs: number): void {
  describe.runIf(process.env.TEST_DATABASE_URL)(
    `connections terminated every 0.3 s for ${killForMs / 1000} s`,
    // Each wait has its own bound under this one, so a slow phase fails with the processes' logs.
    { timeout: 300_000 },
    () => {
      const s = useSetup(500);
      it('no worker or bot exits, and the worker still finishes a run', async () => {
        const d = await freshDb('postgres', { poolSize: 2 });
        const url = d.url as string;
        const procs = [start(['worker'], s.root, url), start(['bot'], s.root, url)];
        try {
          await procs[0]?.waitFor(/zhujiu worker started/, 60_000);
          await procs[1]?.waitFor(/zhujiu bot started/, 60_000);
          const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
          admin.on('error', () => {});
          await admin.connect();
          const dbName = new URL(url).pathname.slice(1);
          let terminated = 0;
          try {
            const t0 = Date.now();
            while (Date.now() - t0 < killForMs) {
              const r = await admin.query<{ n: number }>(
                `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
                  where datname = $1 and pid <> pg_backend_pid()) t`,
                [dbName],
              );
              terminated += r.rows[0]?.n ?? 0;
              await sleep(300);
            }
          } finally {
            await admin.end();
          }
          const words = () => procs.map((p) => p.stderr().slice(-2000)).join('\n---\n');
          expect(terminated).toBeGreaterThan(0);
          expect(
            procs.map((p) => p.alive()),
            words(),
          ).toEqual([true, true]);
          // The test's own pool lost its connections too; the next statements open new ones.
          const runId = await until('the database to answer', async () => {
            await sql`select 1`.execute(d.db);
            return true;
          }).then(() => queueRun(d, url, 'm1'));
          await until(
            'the run to finish',
            async () => (await getRun(d.db, runId))?.status === 'succeeded',
          );
          expect(
            procs.map((p) => p.alive()),
            words(),
          ).toEqual([true, true]);
          expect(words()).not.toMatch(/^fatal:/mu);
          for (const p of procs)
            expect(await stop(p), p.stderr()).toEqual({ code: 0, signal: null });
        } finally {
          for (const p of procs) p.kill();
          await d.destroy();
        }
      });
    },
  );
}

/** Four workers at once on a fresh database; a newer-migrated database refused. */
export function startUpTests(): void {
  describe.runIf(process.env.TEST_DATABASE_URL)(
    'start-up on a shared PostgreSQL',
    { timeout: 300_000 },
    () => {
      const s = useSetup(2_000);

      it('four workers started at once on a fresh database all start, and each takes a job', async () => {
        const empty = await emptyDatabase();
        const workers = MODELS.map(() => start(['worker'], s.root, empty.url));
        let d: Db | undefined;
        try {
          await Promise.all(workers.map((w) => w.waitFor(/zhujiu worker started/, 60_000)));
          d = await openDb({ kind: 'postgres', url: empty.url, poolSize: 2 });
          const db = d;
          // One run per model (four items of 2 s each, one at a time): each worker works one job at a time, so
          // four jobs queued together go to the four workers.
          const runs: number[] = [];
          for (const m of MODELS) runs.push(await queueRun(db, empty.url, m));
          await until('every run to finish', async () => {
            const st = await Promise.all(runs.map((r) => getRun(db.db, r)));
            return st.every((r) => r?.status === 'succeeded');
          });
          // Which runs each worker executed, from its "run executing" log lines.
          const ranBy = workers.map((w) =>
            w
              .stderr()
              .split('\n')
              .filter((l) => l.includes('"run executing"'))
              .map((l) => (JSON.parse(l) as { runId: number }).runId),
          );
          expect(
            ranBy.map((r) => r.length > 0),
            workers.map((w) => w.stderr().slice(-1500)).join('\n---\n'),
          ).toEqual([true, true, true, true]);
          expect(new Set(ranBy.flat())).toEqual(new Set(runs));
          for (const w of workers)
            expect(await stop(w), w.stderr()).toEqual({ code: 0, signal: null });
        } finally {
          for (const w of workers) w.kill();
          await d?.close();
          await empty.drop();
        }
      });

      it('a database migrated by a newer version: worker, bot and config check refuse it with the upgrade message', async () => {
        const d = await freshDb('postgres', { poolSize: 1 });
        try {
          await sql`insert into kysely_migration (name, timestamp) values ('9999_future', '2030-01-01T00:00:00Z')`.execute(
            d.db,
          );
          const url = d.url as string;
          const newer =
            /^error \[db_newer\]: the database was migrated by a newer version \(it has migration 9999_future; this zhujiu knows up to \d{4}_\w+\); upgrade zhujiu/u;
          for (const command of [['worker'], ['bot'], ['config', 'check', '--no-endpoints']]) {
            const p = start(command, s.root, url);
            const exit = await Promise.race([p.exited, sleep(120_000).then(() => 'still running')]);
            expect(exit, `${command.join(' ')}: ${p.stderr()}`).toEqual({ code: 1, signal: null });
            const lines = p
              .stderr()
              .split('\n')
              .filter((l) => l.startsWith('error'));
            expect(lines, `${command.join(' ')}: ${p.stderr()}`).toHaveLength(1);
            expect(lines[0]).toMatch(newer);
            p.kill();
          }
        } finally {
          await d.destroy();
        }
      });
    },
  );
}
