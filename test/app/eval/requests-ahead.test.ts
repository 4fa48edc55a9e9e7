/**
 * A run's first requests sent before its database exists (eval/requests-ahead, as a first `zhujiu eval` sends them
 * while the embedded database is created): the database is made only once they have reached the endpoint; the run
 * then takes each answer as its own call. Each item is asked once, its answer stored with its item and not counted
 * as cached, and the run's scores are those of the same run without requests sent ahead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { prepareSuiteDatasets } from '../../../src/eval/prepare-suite.ts';
import { sendRequestsAhead } from '../../../src/eval/requests-ahead.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { runSummary } from '../../../src/eval/summary.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { miniEvalConfig, scriptedAnswer, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';

const ITEMS = { c3: 14, ocnli: 12, cmrc: 10 };
const TOTAL = ITEMS.c3 + ITEMS.ocnli + ITEMS.cmrc;
const logger = createLogger('silent');

describe('requests sent ahead of the database', () => {
  let dir: string;
  let fake: FakeOpenAi;
  let config: ReturnType<typeof miniEvalConfig>;
  const dbs: TestDb[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-ahead-'));
    const fx = writeSmokeFixture(dir, ITEMS, 'mini');
    const right = scriptedAnswer(fx.items, (n) => n % 3 !== 0);
    fake = await startFakeOpenAi({
      answer: async (call) => ({ ...(await toReply(right(call))), delayMs: 10 }),
    });
    const models = modelsFileSchema.parse({
      models: [
        { name: 'm', provider: 'openai', base_url: fake.baseUrl, model: 'f', max_concurrency: 4 },
      ],
    }).models as ModelConfig[];
    config = miniEvalConfig(models, fx.suite, dir);
  });
  afterAll(async () => {
    await fake?.close();
    for (const d of dbs) await d.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Suite `mini` of model `m` sent ahead when `newDatabase` (eval/requests-ahead). */
  const sendAhead = (datasets: ReturnType<typeof prepareSuiteDatasets>, newDatabase: boolean) =>
    sendRequestsAhead({
      config,
      judgeModel: null,
      model: 'm',
      suite: 'mini',
      limit: null,
      datasets,
      maxPromptChars: 100_000,
      newDatabase,
      logger,
    });

  /** Runs suite `mini` of model `m` on a new database; with `ahead`, its requests start before that database exists. */
  async function run(ahead: boolean) {
    fake.reset();
    const datasets = prepareSuiteDatasets(config, 'mini');
    const sent = sendAhead(datasets, ahead);
    expect(sent === undefined).toBe(!ahead);
    // Requests reach the endpoint while there is no database at all.
    while (ahead && fake.answered < 8) await new Promise((r) => setTimeout(r, 5));
    const d = await freshDb('pglite');
    dbs.push(d);
    const service = new EvalService({ db: d.db, logger, config, ahead: sent });
    const started = await service.start({ model: 'm', suite: 'mini', prepared: datasets });
    if (!started.ok) throw new Error(started.reason);
    expect(await service.execute(started.run.id)).toBe('finished');
    sent?.stop();
    const scores = await sql<{ key: string; raw: number }>`
      SELECT i.key, s.raw_score AS raw FROM item_scores s JOIN items i ON i.id = s.item_id
       WHERE s.run_id = ${started.run.id} ORDER BY i.key`.execute(d.db);
    const responses = await sql<{ n: string | number }>`
      SELECT count(DISTINCT item_id) AS n FROM responses WHERE item_id IS NOT NULL`.execute(d.db);
    const cached = await sql<{ n: string | number }>`
      SELECT count(*) AS n FROM eval_run_items WHERE run_id = ${started.run.id} AND cached`.execute(
      d.db,
    );
    return {
      calls: fake.calls.map((c) => c.messages.at(-1)?.content).sort(),
      scores: scores.rows.map((r) => [r.key, Number(r.raw)]),
      storedItems: Number(responses.rows[0]?.n),
      cached: Number(cached.rows[0]?.n),
      summary: await runSummary(d.db, started.run.id),
    };
  }

  it('asks each item once, stores each answer with its item as a call of its own, and scores as without', async () => {
    const without = await run(false);
    const withAhead = await run(true);
    expect(withAhead.calls).toHaveLength(TOTAL);
    expect(new Set(withAhead.calls).size).toBe(TOTAL);
    expect(withAhead.calls).toEqual(without.calls);
    expect(withAhead.storedItems).toBe(TOTAL);
    expect(withAhead.scores).toEqual(without.scores);
    expect(withAhead.scores).toHaveLength(TOTAL);
    expect(withAhead.cached).toBe(0);
    expect(withAhead.summary?.promptTokens).toBeGreaterThan(0);
    expect(withAhead.summary?.promptTokens).toBe(without.summary?.promptTokens);
  });

  it('a run stopped at its start stores the answers that came ahead with their items; resumed, it asks none again', async () => {
    const without = await run(false);
    fake.reset();
    const datasets = prepareSuiteDatasets(config, 'mini');
    const sent = sendAhead(datasets, true);
    // Counted as the client has read them (a reply the fake has sent may still be on its way).
    while ((sent?.answered() ?? 0) < 12) await new Promise((r) => setTimeout(r, 5));
    // As `zhujiu eval` does on Ctrl-C: the sending stops and what is on its way is aborted.
    sent?.stop();
    await new Promise((r) => setTimeout(r, 20));
    const came = sent?.answered() ?? 0;
    expect(came).toBeGreaterThanOrEqual(12);
    const asked = fake.calls.length;
    const d = await freshDb('pglite');
    dbs.push(d);
    const service = new EvalService({ db: d.db, logger, config, ahead: sent });
    const started = await service.start({ model: 'm', suite: 'mini', prepared: datasets });
    if (!started.ok) throw new Error(started.reason);
    expect(await service.execute(started.run.id, { signal: AbortSignal.abort() })).toBe('stopped');
    const stored = await sql<{ n: string | number }>`
      SELECT count(DISTINCT item_id) AS n FROM responses WHERE item_id IS NOT NULL`.execute(d.db);
    expect(Number(stored.rows[0]?.n)).toBe(came);
    expect(fake.calls.length).toBe(asked);

    fake.reset();
    const again = new EvalService({ db: d.db, logger, config });
    const resumed = await again.start({ model: 'm', suite: 'mini' });
    if (!resumed.ok) throw new Error(resumed.reason);
    expect(resumed.resumed).toBe(true);
    expect(await again.execute(resumed.run.id)).toBe('finished');
    // Only the items whose answer had not come are asked: the stored ones are the run's cached answers.
    expect(fake.callCount).toBe(TOTAL - came);
    const cached = await sql<{ n: string | number }>`
      SELECT count(*) AS n FROM eval_run_items WHERE run_id = ${resumed.run.id} AND cached`.execute(
      d.db,
    );
    expect(Number(cached.rows[0]?.n)).toBe(came);
    const scores = await sql<{ key: string; raw: number }>`
      SELECT i.key, s.raw_score AS raw FROM item_scores s JOIN items i ON i.id = s.item_id
       WHERE s.run_id = ${resumed.run.id} ORDER BY i.key`.execute(d.db);
    expect(scores.rows.map((r) => [r.key, Number(r.raw)])).toEqual(without.scores);
  });
});

/** A scripted answer as a reply object. */
async function toReply(a: unknown): Promise<Record<string, unknown>> {
  const v = await a;
  return typeof v === 'string' ? { content: v } : (v as Record<string, unknown>);
}
