/**
 * A run's progress (finished / failed / planned items) is read from its items wherever it is shown, as its
 * results are: found by a new user, `zhujiu results` listed a run whose process was killed (`kill -9`) as
 * `0 / 0 / 20` while `zhujiu results --run N` wrote its 5 finished items, because the list read the run row's copy
 * of the progress, which its workers refresh only at their heartbeats. The same copy fed `/runs`, `/eval status`,
 * a run's page and the texts of a resumed or cancelled run; a run cancelled between two heartbeats, or whose
 * worker went on writing items until it noticed the cancel, stayed behind for good too. A run that ended by
 * finishing keeps the progress stored at its end.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelRun,
  claimRunItems,
  createRun,
  finishRun,
  finishRunItems,
  getRun,
  type ItemOutcome,
  listRuns,
  planRunItems,
  runsToReport,
  startRun,
} from '../../../src/storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { listRunsPage } from '../../../src/storage/run-results.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';

const LEASE_MS = 600_000;

const done: ItemOutcome = {
  kind: 'done',
  responseId: null,
  cached: false,
  latencyMs: 5,
  score: { method: 'metrics', metric: 'accuracy', profile: 'default', raw: 1, max: 1 },
};
const failed: ItemOutcome = { kind: 'failed', code: 'llm_failed', message: 'down', latencyMs: 5 };

describe.each(backends())('run progress as its items hold it (%s)', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  /** A started run of `suite` with 20 planned items, 4 of them done and 1 failed by `owner`, no progress stored. */
  async function workedRun(suite: string, owner: string): Promise<number> {
    const ids = await ensureModels(d.db, ['m'], 'openai');
    const created = await createRun(d.db, { modelId: ids.get('m') as number, suite });
    if (!created.created) throw new Error('run not created');
    const runId = created.run.id;
    await startRun(d.db, runId, { suite });
    const ds = await ensureDataset(d.db, {
      name: `d-${suite}`,
      ability: 'language',
      method: 'metrics',
    });
    const items = await ensureItems(
      d.db,
      ds,
      Array.from({ length: 20 }, (_, k) => ({ key: String(k), prompt: `问题 ${k}` })),
    );
    await planRunItems(
      d.db,
      runId,
      [...items.values()].map((itemId, seq) => ({ itemId, dataset: `d-${suite}`, seq })),
    );
    const claimed = await claimRunItems(d.db, runId, owner, 6, LEASE_MS);
    const outcomes = claimed
      .slice(0, 5)
      .map((itemId, k) => ({ itemId, outcome: k < 4 ? done : failed }));
    expect((await finishRunItems(d.db, runId, owner, outcomes)).size).toBe(5);
    return runId;
  }

  /** The progress every reader of a run shows: finished / failed / planned. */
  async function shown(runId: number) {
    const env = { DATABASE_URL: '' };
    const rt = await runtimeOn(d, env);
    const list = await inProcess(['results'], { rt });
    const listed = new RegExp(`^\\s*${runId}\\s.*\\s(\\d+) / (\\d+) / (\\d+)$`, 'mu').exec(
      list.stdout,
    );
    const of = (r: { done: number; failed: number; total: number } | undefined) =>
      r && `${r.done} / ${r.failed} / ${r.total}`;
    return {
      cli: listed && `${listed[1]} / ${listed[2]} / ${listed[3]}`,
      page: of((await listRunsPage(d.db, { limit: 50 })).find((r) => r.id === runId)),
      run: of(await getRun(d.db, runId)),
      status: of((await listRuns(d.db, { limit: 50 })).find((r) => r.id === runId)),
    };
  }

  it('a run whose worker was killed between heartbeats: 5 finished (1 failed) of 20 everywhere', async () => {
    const runId = await workedRun('killed', 'killed-owner');
    const all = '5 / 1 / 20';
    expect(await shown(runId)).toEqual({ cli: all, page: all, run: all, status: all });
    // What `zhujiu results --run N` writes: the same 5 items.
    const rt = await runtimeOn(d, { DATABASE_URL: '' });
    const items = await inProcess(['results', '--run', String(runId)], { rt });
    expect(items.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('a run cancelled between heartbeats, whose worker writes one more item before it notices', async () => {
    const runId = await workedRun('cancelled', 'late-owner');
    expect(await cancelRun(d.db, runId)).toBe(true);
    const [last] = await sql<{ item_id: number }>`
      SELECT item_id FROM eval_run_items WHERE run_id = ${runId} AND status = 'claimed'`
      .execute(d.db)
      .then((r) => r.rows.map((x) => Number(x.item_id)));
    await finishRunItems(d.db, runId, 'late-owner', [{ itemId: last as number, outcome: done }]);
    const all = '6 / 1 / 20';
    expect(await shown(runId)).toEqual({ cli: all, page: all, run: all, status: all });
  });

  it('a chat platform reporting on a run sees the same counts', async () => {
    const runId = await workedRun('reported', 'chat-owner');
    await sql`UPDATE eval_runs SET report_platform = 'shell', report_channel = 'c' WHERE id = ${runId}`.execute(
      d.db,
    );
    const run = (await runsToReport(d.db, 'shell')).find((r) => r.id === runId);
    expect([run?.done, run?.failed, run?.total]).toEqual([5, 1, 20]);
  });

  it('a finished run keeps the progress stored at its end', async () => {
    const runId = await workedRun('finished', 'done-owner');
    await sql`UPDATE eval_run_items SET status = 'failed', failure_code = 'x', owner = NULL
               WHERE run_id = ${runId} AND status IN ('pending', 'claimed')`.execute(d.db);
    expect(await finishRun(d.db, runId, 'succeeded')).toBe(true);
    // Stored at its end from its items: 4 done and 16 failed of 20.
    const all = '20 / 16 / 20';
    expect(await shown(runId)).toEqual({ cli: all, page: all, run: all, status: all });
  });
});
