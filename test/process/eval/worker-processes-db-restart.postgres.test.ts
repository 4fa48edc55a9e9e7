/**
 * The database goes away in the middle of an evaluation run shared by three real `zhujiu worker` processes (the
 * compiled bin/zhujiu.js) on Postgres: for six seconds, every connection to the run's database is terminated
 * every quarter second (`pg_terminate_backend`, what a server restart does to its clients; the shared server
 * itself is not restarted). No worker exits, the run finishes, and every item is scored exactly once; each
 * worker then stops cleanly on SIGTERM. Assertions are on counts and exit codes only; waits poll with generous
 * upper bounds. Only with TEST_DATABASE_URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
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
import { createRun, getRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** Polls `cond` (a failing check counts as false: the test's own connections are terminated too). */
async function until(what: string, cond: () => Promise<boolean>, maxMs = 120_000) {
  const t0 = Date.now();
  while (!(await cond().catch(() => false))) {
    if (Date.now() - t0 > maxMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('a database restart during a shared run', () => {
  let base: TestDb;
  let root: string;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'zhujiu-db-restart-'));
    const fx = writeSmokeFixture(join(root, 'datasets'), { c3: 6, ocnli: 5, cmrc: 5 }, 'mini');
    items = fx.items;
    mkdirSync(join(root, 'config', 'suites'), { recursive: true });
    writeFileSync(join(root, 'config', 'suites', 'mini.yaml'), fx.suiteYaml);
    writeFileSync(
      join(root, 'config', 'default.yaml'),
      'http:\n  port: 0\neval:\n  lease_seconds: 10\n  job_expire_seconds: 2\n  maintenance_seconds: 1\n',
    );
    fake = await startFakeOpenAi({ delayMs: 1_500 });
    fake.setAnswer((call) => items.get(tagOf(call))?.right ?? 'x');
    writeFileSync(
      join(root, 'config', 'models.yaml'),
      `models:\n  - name: slow\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: slow-model\n    max_concurrency: 2\n    timeout_ms: 60000\n`,
    );
    base = await freshDb('postgres');
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await fake?.close();
    await base?.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  const startWorker = () => {
    const c = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), 'worker'], {
      cwd: root,
      env: {
        ...process.env,
        ZHUJIU_CONFIG_DIR: join(root, 'config'),
        ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
        DATABASE_URL: base.url ?? '',
        LOG_FORMAT: 'json',
        ZHUJIU_VOTER_SECRET: 'worker-test-secret-0123456789',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    children.add(c);
    c.on('exit', () => children.delete(c));
    return { child: c, stderr: () => err };
  };

  it('no worker exits, the run finishes, every item is scored once', async () => {
    const ids = await ensureModels(base.db, ['slow'], 'openai');
    const created = await createRun(base.db, { modelId: ids.get('slow') as number, suite: 'mini' });
    if (!created.created) throw new Error('run not created');
    const runId = created.run.id;
    const q = new PgBossQueue({ connectionString: base.url as string, logger: silentLogger });
    await q.start();
    await q.send(EVAL_RUN_QUEUE, { runId }, { expireInSeconds: 2 });
    await q.stop();

    const workers = [startWorker(), startWorker(), startWorker()];
    const scored = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from item_scores where run_id = ${runId}`.execute(base.db)
        ).rows[0]?.n ?? 0,
      );
    await until('the first 2 results', async () => (await scored()) >= 2);

    // The "restart": from another database of the same server, end every connection to the run's database.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const dbName = new URL(base.url as string).pathname.slice(1);
    let terminated = 0;
    try {
      const t0 = Date.now();
      while (Date.now() - t0 < 6_000) {
        const r = await admin.query<{ n: number }>(
          `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid()) t`,
          [dbName],
        );
        terminated += r.rows[0]?.n ?? 0;
        await sleep(250);
      }
    } finally {
      await admin.end();
    }
    expect(terminated).toBeGreaterThan(0);
    const alive = () =>
      workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    const lastWords = () =>
      workers
        .map((w) => `exit ${w.child.exitCode} ${w.child.signalCode}: ${w.stderr().slice(-3000)}`)
        .join('\n---\n');
    expect(alive().length, lastWords()).toBe(3);

    await until(
      'the run to finish',
      async () => (await getRun(base.db, runId))?.status === 'succeeded',
    );
    expect(alive().length, lastWords()).toBe(3);
    const rows = await sql<{ tag: string }>`
      select i.prompt as tag from item_scores s join items i on i.id = s.item_id where s.run_id = ${runId}`.execute(
      base.db,
    );
    const tags = rows.rows.map((x) => Number(/Q(\d+)/.exec(x.tag)?.[1]));
    expect(tags.sort((a, b) => a - b)).toEqual([...items.keys()].sort((a, b) => a - b));

    const codes = await Promise.all(
      workers.map((w) =>
        Promise.race([
          new Promise<number | null>((resolve) => {
            w.child.once('exit', (code) => resolve(code));
            w.child.kill('SIGTERM');
          }),
          sleep(60_000).then(() => 'still running'),
        ]),
      ),
    );
    expect(codes, lastWords()).toEqual([0, 0, 0]);
  }, 300_000);
});
