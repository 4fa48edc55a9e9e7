/**
 * @module eval/judge/score-store
 * Where the judge reads and stores its scores (storage/judge-scores): directly, one statement per call, or grouped
 * for an evaluation run, whose lanes judge one item each at the same time. Grouped, the look-ups and writes made
 * while an earlier one is on its way go together (core/batch): one query answers all waiting look-ups of the same
 * judge and rubric, one multi-row upsert stores all waiting scores. On PGlite, which has one connection, the
 * separate statements would otherwise queue behind each other and behind the run's other writes.
 */
import type { Kysely } from 'kysely';
import { batched } from '../../core/batch.ts';
import {
  type JudgeScoreFilter,
  type JudgeScoreSpec,
  type JudgeScoreState,
  judgeScoreKey,
  listJudgeScoreStates,
  upsertJudgeScores,
} from '../../storage/judge-scores.ts';
import type { Database } from '../../storage/schema.ts';

/** The judge's access to stored scores. */
export interface JudgeScoreStore {
  /** The stored scores matching `f` (storage/judge-scores `listJudgeScoreStates`; in no particular order). */
  list(f: JudgeScoreFilter): Promise<readonly JudgeScoreState[]>;
  /** Stores scores, replacing a stored row of the same key (storage/judge-scores `upsertJudgeScores`). */
  upsert(specs: readonly JudgeScoreSpec[]): Promise<void>;
}

/** The store that sends each call as its own statement. */
export function directJudgeScoreStore(db: Kysely<Database>): JudgeScoreStore {
  return {
    list: (f) => listJudgeScoreStates(db, f),
    upsert: async (specs) => {
      await upsertJudgeScores(db, specs);
    },
  };
}

/** The key of a stored score (storage/judge-scores: one row per model, item, baseline, judge, rubric, version). */
function specKey(s: JudgeScoreSpec): string {
  return JSON.stringify(judgeScoreKey(s));
}

/**
 * The store that groups concurrent calls (see the module). A grouped look-up must name its items (`itemIds`; one
 * without is sent alone); look-ups with the same other filters share one query over the union of their items, and
 * each gets the rows of its own items. Grouped writes of the same key keep the last one (as separate statements in
 * call order would). A failed statement fails every call grouped into it.
 */
export function batchedJudgeScoreStore(db: Kysely<Database>): JudgeScoreStore {
  const list = batched(async (filters: readonly JudgeScoreFilter[]) => {
    const groups = new Map<string, { filter: JudgeScoreFilter; ids: Set<number> }>();
    for (const f of filters) {
      const { itemIds, ...rest } = f;
      const key = JSON.stringify(rest);
      const g = groups.get(key) ?? { filter: rest, ids: new Set<number>() };
      for (const id of itemIds ?? []) g.ids.add(id);
      groups.set(key, g);
    }
    const rows = new Map<string, JudgeScoreState[]>();
    for (const [key, g] of groups)
      rows.set(key, await listJudgeScoreStates(db, { ...g.filter, itemIds: [...g.ids] }));
    return filters.map((f) => {
      const { itemIds, ...rest } = f;
      const mine = new Set(itemIds);
      return (rows.get(JSON.stringify(rest)) ?? []).filter((r) => mine.has(r.itemId));
    });
  });
  const upsert = batched(async (specs: readonly JudgeScoreSpec[]) => {
    const last = new Map<string, JudgeScoreSpec>();
    for (const s of specs) {
      const key = specKey(s);
      last.delete(key); // re-inserted at the end: the later call wins, in call order
      last.set(key, s);
    }
    await upsertJudgeScores(db, [...last.values()]);
    return specs.map(() => undefined);
  });
  return {
    list: (f) => (f.itemIds === undefined ? listJudgeScoreStates(db, f) : list(f)),
    upsert: async (specs) => {
      await Promise.all(specs.map((s) => upsert(s)));
    },
  };
}
