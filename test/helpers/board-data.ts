/**
 * Board test data written straight into storage: finished evaluation runs with item scores (as the Metrics and
 * Scoring engines store them) and battles with one vote each under a source.
 */
import type { Kysely } from 'kysely';
import { insertImportedBattles } from '../../src/storage/battles.ts';
import { ensureDataset, ensureItems } from '../../src/storage/items.ts';
import { ensureModels } from '../../src/storage/models.ts';
import type { Database } from '../../src/storage/schema.ts';

type Ability =
  | 'knowledge'
  | 'chinese_specific'
  | 'language'
  | 'reasoning'
  | 'refusal'
  | 'safety'
  | 'robustness';

/** One item's stored score. */
export interface ScoreSpec {
  readonly key: string;
  readonly raw: number;
  readonly max: number;
  readonly sv?: boolean;
}

/** Stores a run of `model` on `suite` with item scores on one dataset; returns the run id. */
export async function addRun(
  db: Kysely<Database>,
  r: {
    model: string;
    suite: string;
    dataset: string;
    ability: Ability;
    method: 'metrics' | 'scoring';
    scores: readonly ScoreSpec[];
    status?: 'succeeded' | 'failed' | 'running';
    finishedAt?: Date;
    /** Scoring runs: the judge recorded with each grade (default `judge`), as the runner records it. */
    judge?: string;
  },
): Promise<number> {
  const ds = await ensureDataset(db, { name: r.dataset, ability: r.ability, method: r.method });
  const ids = await ensureItems(
    db,
    ds,
    r.scores.map((s) => ({ key: s.key, prompt: `item ${s.key}` })),
  );
  const models = await ensureModels(db, [r.model], 'recorded');
  const run = await db
    .insertInto('eval_runs')
    .values({
      model_id: models.get(r.model)!,
      suite: r.suite,
      status: r.status ?? 'succeeded',
      finished_at: r.status === 'running' ? null : (r.finishedAt ?? new Date()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < r.scores.length; i += 2000) {
    await db
      .insertInto('item_scores')
      .values(
        r.scores.slice(i, i + 2000).map((s) => ({
          run_id: run.id,
          item_id: ids.get(s.key)!,
          method: r.method,
          metric: r.method === 'metrics' ? 'accuracy' : 'judge',
          raw_score: s.raw,
          max_score: s.max,
          safety_flag: s.sv ?? false,
          ...(r.method === 'scoring'
            ? { detail: JSON.stringify({ judge: r.judge ?? 'judge' }) }
            : {}),
        })),
      )
      .execute();
  }
  return Number(run.id);
}

/** Stores closed battles with one vote each (`left` = a wins). */
export async function addBattles(
  db: Kysely<Database>,
  source: string,
  ability: Ability | null,
  rows: readonly { a: string; b: string; choice: 'left' | 'right' | 'equal' }[],
  keyPrefix = 'k',
): Promise<number> {
  const names = [...new Set(rows.flatMap((r) => [r.a, r.b]))];
  const models = await ensureModels(db, names, 'external');
  return db.transaction().execute((trx) =>
    insertImportedBattles(
      trx,
      source,
      ability,
      rows.map((r, i) => ({
        importKey: `${keyPrefix}${i}`,
        leftModelId: models.get(r.a)!,
        rightModelId: models.get(r.b)!,
        choice: r.choice,
      })),
      new Date(),
    ),
  );
}
