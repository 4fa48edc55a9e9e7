/**
 * Queued runs in real `zhujiu worker` processes (the compiled bin/zhujiu.js) against a slow fake model (3 s per
 * call, concurrency 2: longer than the job expiry, so a run outlives its job), with a short job expiry (2 s) and
 * item lease (10 s):
 * - duplicates: the run ends with exactly 10 results and 10 model calls, each item asked once (on Postgres two
 *   workers share the queue, and the expired job is handed to the other one while the first still works);
 * - kill: `kill -9` of the worker after 4 results, then a new worker: only the items without a result are asked,
 *   each once, and the run ends with 10 results.
 * Assertions are on counts only; waits poll with generous upper bounds. One test file per backend and test
 * (worker-processes-duplicates.pglite.test.ts, worker-processes-kill.postgres.test.ts …), so they run side by side:
 * most of their time is spent waiting on the slow model.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { PgBossQueue } from '../../../src/jobs/pg-boss.ts';
import { EVAL_RUN_QUEUE } from '../../../src/jobs/queue.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { createRun, getRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { type Backend, freshDb, type TestDb } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/**
 * Each test's own bound: above its waits ({@link until}, up to 180 s each), so a slow machine ends a wait with the
 * name of what did not happen rather than the project's 120 s test timeout cutting in first.
 */
const TEST_MS = 400_000;

async function until(what: string, cond: () => Promise<boolean> | boolean, maxMs = 180_000) {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > maxMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The tests, one per test file so they run side by side. */
export type WorkerProcessPart = 'duplicates' | 'kill';

/** Declares the test `part` for one backend. */
export function workerProcessTests(backend: Backend, part: WorkerProcessPart): void {
  describe(`eval workers as processes on ${backend} (${part})`, () => {
    let base: TestDb;
    let root: string;
    let fake: FakeOpenAi;
    let items: Map<number, FixtureItem>;
    const children = new Set<ChildProcess>();

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'zhujiu-workers-'));
      const fx = writeSmokeFixture(join(root, 'datasets'), { c3: 4, ocnli: 3, cmrc: 3 }, 'mini');
      items = fx.items;
      mkdirSync(join(root, 'config', 'suites'), { recursive: true });
      writeFileSync(join(root, 'config', 'suites', 'mini.yaml'), fx.suiteYaml);
      writeFileSync(
        join(root, 'config', 'default.yaml'),
        'http:\n  port: 0\neval:\n  lease_seconds: 10\n  job_expire_seconds: 2\n  maintenance_seconds: 1\n',
      );
      fake = await startFakeOpenAi({ delayMs: 3_000 });
      fake.setAnswer((call) => items.get(tagOf(call))?.right ?? 'x');
      writeFileSync(
        join(root, 'config', 'models.yaml'),
        `models:\n${['slow', 'slow-b']
          .map(
            (m) =>
              `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 2\n    timeout_ms: 60000\n`,
          )
          .join('')}`,
      );
      base = await freshDb(backend);
    });
    afterAll(async () => {
      for (const c of children) c.kill('SIGKILL');
      await fake?.close();
      await base?.destroy();
      rmSync(root, { recursive: true, force: true });
    });

    const env = () => ({
      ...process.env,
      ZHUJIU_CONFIG_DIR: join(root, 'config'),
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
      ZHUJIU_DATA_DIR: base.dataDir ?? '',
      DATABASE_URL: base.url ?? '',
      // The runner's log is how the PGlite cases (whose database the worker holds) see progress: "results stored"
      // (debug, after each batch of results is committed) and "run finished"; JSON lines, to read the counts.
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      ZHUJIU_VOTER_SECRET: 'worker-test-secret-0123456789',
    });
    const startWorker = () => {
      const c = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), 'worker'], {
        cwd: root,
        env: env(),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      c.stderr?.on('data', (b: Buffer) => {
        err += b.toString();
      });
      children.add(c);
      c.on('exit', () => children.delete(c));
      /** Results the worker has committed so far, from its "results stored" log lines. */
      const stored = () => {
        let done = 0;
        for (const line of err.split('\n')) {
          if (!line.includes('"results stored"')) continue;
          try {
            done = Math.max(done, Number((JSON.parse(line) as { done?: number }).done ?? 0));
          } catch {
            // a line still being written: the next poll reads it whole
          }
        }
        return done;
      };
      return { child: c, stderr: () => err, stored };
    };
    const stopWorker = async (c: ChildProcess, signal: NodeJS.Signals) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill(signal);
      await exited;
    };

    /** Opens the database from the test (PGlite: only while no worker holds it). */
    async function withDb<T>(fn: (d: Db) => Promise<T>): Promise<T> {
      if (backend === 'postgres') return fn(base);
      await base.close();
      const d = await openDb({ kind: 'pglite', dataDir: base.dataDir as string });
      try {
        return await fn(d);
      } finally {
        await d.close();
      }
    }
    let pgliteOpen = true;
    // Each test evaluates its own model: the same model would be answered from the response cache.
    const queueRun = async (model: string): Promise<number> => {
      const run = await (async () => {
        const d: Db =
          backend === 'postgres' || pgliteOpen
            ? base
            : await openDb({ kind: 'pglite', dataDir: base.dataDir as string });
        const ids = await ensureModels(d.db, [model], 'openai');
        const created = await createRun(d.db, { modelId: ids.get(model) as number, suite: 'mini' });
        if (!created.created) throw new Error('run not created');
        if (d !== base) await d.close();
        return created.run;
      })();
      if (backend === 'postgres') {
        const q = new PgBossQueue({
          connectionString: base.url as string,
          logger: createLogger('silent'),
        });
        await q.start();
        await q.send(EVAL_RUN_QUEUE, { runId: run.id }, { expireInSeconds: 2 });
        await q.stop();
      } else if (pgliteOpen) {
        await base.close(); // the worker process takes the embedded database; its start-up sweep finds the run
        pgliteOpen = false;
      }
      return run.id;
    };
    const results = async (d: Db, runId: number) => {
      const r = await sql<{ item_id: number; tag: string }>`
      select s.item_id, i.prompt as tag from item_scores s join items i on i.id = s.item_id
       where s.run_id = ${runId}`.execute(d.db);
      return r.rows.map((x) => Number(/Q(\d+)/.exec(x.tag)?.[1]));
    };

    if (part === 'duplicates')
      it(
        'duplicate and late workers: exactly 10 results and 10 model calls',
        async () => {
          fake.reset();
          const runId = await queueRun('slow');
          const workers = backend === 'postgres' ? [startWorker(), startWorker()] : [startWorker()];
          if (backend === 'postgres') {
            await until(
              'the run to finish',
              async () => (await getRun(base.db, runId))?.status === 'succeeded',
            );
          } else {
            // The worker holds the embedded database: wait for its own word that the run is written and finished.
            const w = workers[0] as (typeof workers)[number];
            await until('the run to finish', () => w.stderr().includes('run finished'));
          }
          for (const w of workers) await stopWorker(w.child, 'SIGTERM');
          const tags = await withDb((d) => results(d, runId));
          expect(tags.sort((a, b) => a - b)).toEqual([...items.keys()].sort((a, b) => a - b));
          expect(fake.callCount).toBe(10);
          expect(new Set(fake.calls.map(tagOf)).size).toBe(10);
          const run = await withDb(async (d) => getRun(d.db, runId));
          expect(run?.status).toBe('succeeded');
        },
        TEST_MS,
      );

    if (part === 'kill')
      it(
        'kill -9 after 4 results, then a new worker: only the missing items are asked, each once',
        async () => {
          fake.reset();
          const runId = await queueRun('slow-b');
          const a = startWorker();
          if (backend === 'postgres') {
            await until('4 results', async () => (await results(base, runId)).length >= 4);
          } else {
            // The test cannot read the embedded database while the worker holds it, and an answer sent by the fake
            // is not yet a stored result (the runner writes results in batches, up to 100 ms later, and a busy
            // machine can take longer): wait for the worker's own word that 4 results are committed. This used to
            // be a 1 s sleep after 4 answers.
            await until('4 stored results', () => a.stored() >= 4).catch((e) => {
              throw new Error(`${(e as Error).message}; worker said: ${a.stderr().slice(-2000)}`);
            });
          }
          await stopWorker(a.child, 'SIGKILL');
          const before = new Set(await withDb((d) => results(d, runId)));
          expect(before.size).toBeGreaterThanOrEqual(4);
          const callsBefore = fake.callCount;
          const b = startWorker();
          if (backend === 'postgres') {
            await until(
              'the run to finish',
              async () => (await getRun(base.db, runId))?.status === 'succeeded',
            );
          } else {
            await until('the run to finish', () => b.stderr().includes('run finished'));
          }
          await stopWorker(b.child, 'SIGTERM');
          const asked = fake.calls.slice(callsBefore).map(tagOf);
          const missing = [...items.keys()].filter((n) => !before.has(n)).sort((x, y) => x - y);
          expect([...asked].sort((x, y) => x - y)).toEqual(missing);
          const after = await withDb((d) => results(d, runId));
          expect(after).toHaveLength(10);
          expect((await withDb(async (d) => getRun(d.db, runId)))?.status).toBe('succeeded');
        },
        TEST_MS,
      );
  });
}
