/**
 * Errors inside a run's lanes never wedge it (in-process, on each backend of test/helpers/db.ts `backends()`):
 * - the database refuses a claim in the middle of a worker's job (a real database error: a trigger raises on the
 *   claim): every lane stops, no item stays claimed, the failed job attempt is logged with its cause, and the run
 *   is nobody's at once, so the same start resumes it (item lease 10 minutes: nothing here passes because a lease
 *   ran out) and every item is scored once;
 * - the model client throws for one item (a reply it could not read): that item fails with the cause, the run
 *   goes on and finishes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { InProcessQueue } from '../../../src/jobs/in-process.ts';
import type { LlmClient } from '../../../src/llm/types.ts';
import { getRun, isRunUnattended } from '../../../src/storage/eval-runs.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import {
  type FixtureItem,
  miniEvalConfig,
  tagOf,
  writeSmokeFixture,
} from '../../helpers/eval-fixtures.ts';

const LEASE_MS = 600_000;

async function until(what: string, cond: () => Promise<boolean> | boolean): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > 120_000) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe.each(flowBackends())('errors in the lanes of a run (%s)', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let queue: InProcessQueue;
  let service: EvalService;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-lane-errors-'));
    const fx = writeSmokeFixture(dir, { c3: 4, ocnli: 3, cmrc: 3 }, 'mini');
    items = fx.items;
    fake = await startFakeOpenAi();
    const models = modelsFileSchema.parse({
      models: ['m', 'throws'].map((name) => ({
        name,
        provider: 'openai',
        base_url: fake.baseUrl,
        model: `${name}-model`,
        timeout_ms: 120_000,
        max_concurrency: 1,
      })),
    }).models as ModelConfig[];
    const logger = createLogger('info', {
      write: (s: string) => {
        logs.push(JSON.parse(s) as Record<string, unknown>);
      },
    });
    queue = new InProcessQueue({ logger });
    await queue.start();
    const config = miniEvalConfig(models, fx.suite, dir);
    // The client of model `throws` throws for item Q1, as a client does that cannot read a reply.
    const plain = new EvalService({ db: d.db, logger, config });
    service = new EvalService({
      db: d.db,
      logger,
      config,
      queue,
      leaseMs: LEASE_MS,
      // One worker, which never joins a run on its own: a stopped run is resumed only by the test's start.
      joinEveryMs: LEASE_MS,
      openModel: async (name) => {
        const opened = await plain.openModel(name);
        if (name !== 'throws') return opened;
        const real = opened.client;
        const client = new Proxy(real, {
          get(t, k) {
            if (k === 'complete')
              return (req: Parameters<LlmClient['complete']>[0]) => {
                if (/Q1\b/.test(String(req.messages.at(-1)?.content)))
                  throw new TypeError("Cannot read properties of undefined (reading 'trim')");
                return t.complete(req);
              };
            const v = Reflect.get(t, k);
            return typeof v === 'function' ? v.bind(t) : v;
          },
        });
        return { ...opened, client };
      },
    });
    await service.startWorker();
  });
  afterAll(async () => {
    service?.stopWorker();
    await queue?.stop();
    await fake?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const claimedOf = async (runId: number) => {
    const r = await sql<{ n: string | number }>`
      SELECT count(*) AS n FROM eval_run_items WHERE run_id = ${runId} AND status = 'claimed'`.execute(
      d.db,
    );
    return Number(r.rows[0]?.n);
  };
  const scoresOf = async (runId: number) => {
    const r = await sql<{ n: string | number; items: string | number }>`
      SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM item_scores WHERE run_id = ${runId}`.execute(
      d.db,
    );
    return { n: Number(r.rows[0]?.n), items: Number(r.rows[0]?.items) };
  };

  it('a claim the database refuses mid-run: no claim stays, the attempt is logged, the run resumes at once', async () => {
    await sql`CREATE TABLE refuse_claims (why text)`.execute(d.db);
    await sql`CREATE FUNCTION refuse_claim() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM refuse_claims) THEN RAISE EXCEPTION 'claims refused by the test'; END IF;
        RETURN NEW;
      END $$`.execute(d.db);
    await sql`CREATE TRIGGER refuse_claim BEFORE UPDATE ON eval_run_items FOR EACH ROW
      WHEN (NEW.status = 'claimed') EXECUTE FUNCTION refuse_claim()`.execute(d.db);
    fake.reset();
    fake.setAnswer(async (call: FakeCall) => {
      // From the second answer on, every claim is refused (the first batches are already claimed).
      if (call.n === 2) await sql`INSERT INTO refuse_claims VALUES ('on')`.execute(d.db);
      return items.get(tagOf(call))?.right ?? 'x';
    });
    const started = await service.start({ model: 'm', suite: 'mini' });
    if (!started.ok) throw new Error(started.reason);
    const runId = started.run.id;
    const failedJob = () =>
      logs.find((l) => l.msg === 'job failed' && (l.data as { runId?: number })?.runId === runId);
    await until('the failed job attempt in the log', () => failedJob() !== undefined);
    expect((failedJob()?.err as { message?: string })?.message).toMatch(
      /claims refused by the test/,
    );
    expect(await claimedOf(runId)).toBe(0);
    expect(await isRunUnattended(d.db, runId, LEASE_MS)).toBe(true);
    expect((await getRun(d.db, runId))?.status).toBe('running');

    await sql`DELETE FROM refuse_claims`.execute(d.db);
    const again = await service.start({ model: 'm', suite: 'mini' });
    expect(again).toMatchObject({ ok: true, resumed: true, run: { id: runId } });
    await until('the resumed run to finish', async () => {
      const r = await getRun(d.db, runId);
      return r?.status === 'succeeded';
    });
    expect(await scoresOf(runId)).toEqual({ n: 10, items: 10 });
    expect(await claimedOf(runId)).toBe(0);
  });

  it('a model client that throws for one item fails that item with the cause; the run goes on', async () => {
    fake.reset();
    fake.setAnswer((call: FakeCall) => items.get(tagOf(call))?.right ?? 'x');
    const started = await service.start({ model: 'throws', suite: 'mini' });
    if (!started.ok) throw new Error(started.reason);
    const runId = started.run.id;
    const jobFailed = () =>
      logs.some((l) => l.msg === 'job failed' && (l.data as { runId?: number })?.runId === runId);
    await until('the run to finish', async () => {
      const r = await getRun(d.db, runId);
      return r?.status === 'succeeded' || r?.status === 'failed' || jobFailed();
    });
    expect(jobFailed()).toBe(false);
    expect((await getRun(d.db, runId))?.status).toBe('succeeded');
    const failed = await sql<{ code: string; message: string }>`
      SELECT failure_code AS code, failure_message AS message FROM eval_run_items
       WHERE run_id = ${runId} AND status = 'failed'`.execute(d.db);
    expect(failed.rows).toEqual([
      {
        code: 'client_error',
        message: "the model client failed: Cannot read properties of undefined (reading 'trim')",
      },
    ]);
    expect(await scoresOf(runId)).toEqual({ n: 9, items: 9 });
  });
});
