/**
 * A run's summary wall time counts its working spans only: a run worked on, stopped, left idle for five minutes
 * and resumed reports the time its items were worked on (from the stored per-item finish times and latencies).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSummary } from '../../../src/eval/summary.ts';
import { createRun, planRunItems, startRun } from '../../../src/storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(backends())('eval run wall time on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('leaves out the idle gap between a stop and a resume', async () => {
    const ids = await ensureModels(d.db, ['m'], 'openai');
    const created = await createRun(d.db, { modelId: ids.get('m')!, suite: 's' });
    if (!created.created) throw new Error('run not created');
    const runId = created.run.id;
    await startRun(d.db, runId, { suite: 's' });
    const ds = await ensureDataset(d.db, { name: 'd', ability: 'language', method: 'metrics' });
    const keys = Array.from({ length: 8 }, (_, k) => String(k));
    const items = await ensureItems(
      d.db,
      ds,
      keys.map((key) => ({ key, prompt: `q ${key}` })),
    );
    await planRunItems(
      d.db,
      runId,
      [...items.values()].map((itemId, seq) => ({ itemId, dataset: 'd', seq })),
    );
    // Started at 12:00:00; items finish every 10 s to 12:00:40 (10 s answers), Ctrl-C; resumed at 12:05:40,
    // items finish to 12:06:20; finished then. Working: 40 s + 40 s (+ the first answer's 10 s before 12:00:10).
    const t0 = Date.UTC(2026, 11, 1, 12, 0, 0);
    const finishes = [10, 20, 30, 40, 350, 360, 370, 380].map((s) => new Date(t0 + s * 1000));
    const itemIds = [...items.values()];
    for (let k = 0; k < itemIds.length; k++) {
      await sql`UPDATE eval_run_items SET status = 'done', latency_ms = 10000,
                 finished_at = ${finishes[k]!.toISOString()}::timestamptz
                 WHERE run_id = ${runId} AND item_id = ${itemIds[k]!}`.execute(d.db);
    }
    await sql`UPDATE eval_runs SET status = 'succeeded', started_at = ${new Date(t0).toISOString()}::timestamptz,
               finished_at = ${finishes[7]!.toISOString()}::timestamptz WHERE id = ${runId}`.execute(
      d.db,
    );
    const s = await runSummary(d.db, runId);
    // 0–40 s and 340–380 s: 80 s, not 380 s from the first start.
    expect(s?.wallMs).toBe(80_000);
  });
});
