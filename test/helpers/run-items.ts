/**
 * An evaluation run with item-level results written straight into storage, as the runner stores them: items, the
 * model's answers (`responses`, reasoning apart), the run's plan rows (`eval_run_items`, done or failed with a
 * cause), the scores with what the scorer extracted (`item_scores.detail`) and, for judged items, the judge's
 * grade and reply (`judge_scores`). For the results page's tests and bench/results-items.ts.
 */
import type { Kysely } from 'kysely';
import type { Ability } from '../../src/config/abilities.ts';
import { ensureDataset, ensureItems } from '../../src/storage/items.ts';
import { ensureModels } from '../../src/storage/models.ts';
import type { Database } from '../../src/storage/schema.ts';

/** One stored item of a run. */
export interface RunItemSpec {
  readonly dataset: string;
  readonly ability: Ability;
  readonly key: string;
  readonly prompt: string;
  /** Omitted for a failure before any answer. */
  readonly answer?: string;
  readonly reasoning?: string;
  /** A scored item: raw and max, and the detail the scorer kept. */
  readonly score?: { raw: number; max: number; detail?: Record<string, unknown> };
  /** A judged item: its grade, reply and safety verdict (the score's metric is then `judge`). */
  readonly judge?: { name: string; raw: number; max: number; reply: string; safety?: boolean };
  /** A failed item. */
  readonly failure?: { code: string; message: string };
}

/** Stores a finished run of `model` on `suite` with `items` (in chunks of 1,000); returns the run id. */
export async function addRunWithItems(
  db: Kysely<Database>,
  r: { model: string; suite: string; items: readonly RunItemSpec[] },
): Promise<number> {
  const modelId = (await ensureModels(db, [r.model], 'recorded')).get(r.model) as number;
  const run = await db
    .insertInto('eval_runs')
    .values({
      model_id: modelId,
      suite: r.suite,
      status: 'succeeded',
      progress_total: r.items.length,
      progress_done: r.items.filter((i) => !i.failure).length,
      progress_failed: r.items.filter((i) => i.failure).length,
      finished_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const datasets = new Map<string, number>();
  for (const it of r.items)
    if (!datasets.has(it.dataset))
      datasets.set(
        it.dataset,
        await ensureDataset(db, {
          name: it.dataset,
          ability: it.ability,
          method: it.judge ? 'scoring' : 'metrics',
        }),
      );
  let seq = 0;
  for (let i = 0; i < r.items.length; i += 1000) {
    const chunk = r.items.slice(i, i + 1000);
    const ids = new Map<RunItemSpec, number>();
    for (const [ds, dsId] of datasets) {
      const mine = chunk.filter((x) => x.dataset === ds);
      if (mine.length === 0) continue;
      const got = await ensureItems(
        db,
        dsId,
        mine.map((x) => ({ key: x.key, prompt: x.prompt })),
      );
      for (const x of mine) ids.set(x, got.get(x.key) as number);
    }
    const answered = chunk.filter((x) => x.answer !== undefined);
    const resp = answered.length
      ? await db
          .insertInto('responses')
          .values(
            answered.map((x) => ({
              model_id: modelId,
              item_id: ids.get(x) as number,
              request_hash: `h-${run.id}-${x.dataset}-${x.key}`,
              output: x.answer as string,
              reasoning: x.reasoning ?? null,
            })),
          )
          .returning(['id', 'item_id'])
          .execute()
      : [];
    const respOf = new Map(resp.map((x) => [Number(x.item_id), Number(x.id)]));
    await db
      .insertInto('eval_run_items')
      .values(
        chunk.map((x) => {
          const itemId = ids.get(x) as number;
          return {
            run_id: run.id,
            item_id: itemId,
            dataset: x.dataset,
            seq: seq++,
            status: x.failure ? ('failed' as const) : ('done' as const),
            response_id: x.failure ? null : (respOf.get(itemId) ?? null),
            latency_ms: 100,
            failure_code: x.failure?.code ?? null,
            failure_message: x.failure?.message ?? null,
            finished_at: new Date(),
          };
        }),
      )
      .execute();
    const scored = chunk.filter((x) => !x.failure && (x.score || x.judge));
    if (scored.length)
      await db
        .insertInto('item_scores')
        .values(
          scored.map((x) => {
            const itemId = ids.get(x) as number;
            const j = x.judge;
            return {
              run_id: run.id,
              item_id: itemId,
              response_id: respOf.get(itemId) ?? null,
              method: j ? 'scoring' : 'metrics',
              metric: j ? 'judge' : 'accuracy',
              raw_score: j ? (j.safety ? 0 : j.raw) : (x.score?.raw ?? 0),
              max_score: j ? j.max : (x.score?.max ?? 1),
              detail: JSON.stringify(
                j
                  ? { judge: j.name, judge_score: j.raw, safety_violation: j.safety ?? null }
                  : (x.score?.detail ?? {}),
              ),
            };
          }),
        )
        .execute();
    const judged = chunk.filter((x) => x.judge);
    if (judged.length)
      await db
        .insertInto('judge_scores')
        .values(
          judged.map((x) => {
            const j = x.judge as NonNullable<RunItemSpec['judge']>;
            const itemId = ids.get(x) as number;
            return {
              model_id: modelId,
              item_id: itemId,
              kind: 'single' as const,
              judge: j.name,
              rubric: 'open',
              rubric_version: '1',
              response_id: respOf.get(itemId) ?? null,
              run_id: run.id,
              status: 'judged' as const,
              raw_score: j.raw,
              max_score: j.max,
              safety_flag: j.safety ?? null,
              judge_output: JSON.stringify({ reply: j.reply }),
            };
          }),
        )
        .execute();
  }
  return Number(run.id);
}
