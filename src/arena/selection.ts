/**
 * @module arena/selection
 * Picks the next battle: a pair of models and an item both answered (imported recorded outputs count), favouring
 * the pairs with the fewest live votes (then the fewest battles), then items not battled yet (then least
 * battled), checking every candidate with the identity guard, skipping two answers that are the same text (a vote
 * between them could only be noise; docs/scoring.md §4.1), and putting the two answers on random sides.
 * All randomness comes from the Rng passed in (seeded per battle, the seed is stored with the battle), so a
 * selection can be replayed from the seed and the database state.
 */

import type { Kysely } from 'kysely';
import type { Logger } from '../core/logger.ts';
import type { Rng } from '../core/rng.ts';
import {
  candidateItemsForPair,
  modelPairsWithSharedItems,
  pairTexts,
} from '../storage/arena-queries.ts';
import { pairLiveVoteCounts } from '../storage/battles.ts';
import { listModels } from '../storage/models.ts';
import type { Database } from '../storage/schema.ts';
import type { IdentityGuard } from './identity-guard.ts';

/** A chosen battle, sides already randomised. */
export interface SelectedBattle {
  readonly itemId: number;
  readonly ability: string;
  readonly prompt: string;
  readonly left: {
    readonly modelId: number;
    readonly model: string;
    readonly responseId: number;
    readonly output: string;
  };
  readonly right: {
    readonly modelId: number;
    readonly model: string;
    readonly responseId: number;
    readonly output: string;
  };
}

/** Counters of one selection (refusals are also logged). */
export interface SelectionStats {
  /** Candidate (pair, item) combinations the identity guard refused. */
  refused: number;
  /** Candidates examined in total. */
  examined: number;
  /** Candidates skipped because both answers are the same text ({@link sameAnswer}); absent: none yet. */
  identical?: number;
}

/**
 * Whether two answers are the same text once whitespace is normalised (every run of whitespace one space, none at
 * either end): such a pair never battles, since either side winning would be noise (docs/scoring.md §4.1).
 */
export function sameAnswer(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/gu, ' ').trim();
  return a === b || norm(a) === norm(b);
}

/** In-place Fisher–Yates shuffle with a seeded Rng. */
export function shuffle<T>(xs: T[], rng: Rng): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = xs[i] as T;
    xs[i] = xs[j] as T;
    xs[j] = t;
  }
  return xs;
}

/** Options of {@link selectBattle}. */
export interface SelectOptions {
  readonly ability?: string;
  /** Candidates fetched per round trip while scanning a pair's items (default 32). */
  readonly chunk?: number;
}

/**
 * Selects a battle, or undefined when no pair has an item that passes the guard.
 * @param stats incremented in place (refusals, examined candidates).
 */
export async function selectBattle(
  db: Kysely<Database>,
  guard: IdentityGuard,
  rng: Rng,
  logger: Logger,
  opts: SelectOptions = {},
  stats: SelectionStats = { refused: 0, examined: 0 },
): Promise<SelectedBattle | undefined> {
  const names = new Map((await listModels(db)).map((m) => [m.id, m.name]));
  const shared = await modelPairsWithSharedItems(db, opts.ability);
  if (shared.length === 0) return undefined;
  const load = new Map(
    (await pairLiveVoteCounts(db)).map((p) => [`${p.modelLow}:${p.modelHigh}`, p]),
  );
  const pairs = shuffle(
    shared.map((p) => {
      const l = load.get(`${p.modelLow}:${p.modelHigh}`);
      return { ...p, votes: l?.votes ?? 0, battles: l?.battles ?? 0 };
    }),
    rng,
  ).sort((a, b) => a.votes - b.votes || a.battles - b.battles); // stable: the shuffle breaks ties
  const chunk = opts.chunk ?? 32;
  for (const pair of pairs) {
    const nameA = names.get(pair.modelLow) ?? String(pair.modelLow);
    const nameB = names.get(pair.modelHigh) ?? String(pair.modelHigh);
    const candidates = await candidateItemsForPair(db, pair.modelLow, pair.modelHigh, opts.ability);
    // Group by battle count (ascending), shuffle within each group.
    const ordered: number[] = [];
    for (let i = 0; i < candidates.length; ) {
      let j = i;
      while (j < candidates.length && candidates[j]?.battles === candidates[i]?.battles) j++;
      ordered.push(
        ...shuffle(
          candidates.slice(i, j).map((c) => c.itemId),
          rng,
        ),
      );
      i = j;
    }
    for (let i = 0; i < ordered.length; i += chunk) {
      const texts = await pairTexts(db, ordered.slice(i, i + chunk), pair.modelLow, pair.modelHigh);
      for (const t of texts) {
        stats.examined++;
        if (sameAnswer(t.responseA.output, t.responseB.output)) {
          stats.identical = (stats.identical ?? 0) + 1;
          logger.debug(
            { itemId: t.itemId, models: [nameA, nameB] },
            'identical answers; not a battle',
          );
          continue;
        }
        const hit = guard.checkPair(t.responseA.output, t.responseB.output, [nameA, nameB]);
        if (hit) {
          stats.refused++;
          logger.debug(
            {
              itemId: t.itemId,
              models: [nameA, nameB],
              kind: hit.kind,
              term: hit.term,
              side: hit.side === 'left' ? nameA : nameB,
            },
            'identity guard refused a candidate battle',
          );
          continue;
        }
        const a = {
          modelId: pair.modelLow,
          model: nameA,
          responseId: t.responseA.id,
          output: t.responseA.output,
        };
        const b = {
          modelId: pair.modelHigh,
          model: nameB,
          responseId: t.responseB.id,
          output: t.responseB.output,
        };
        const swap = rng.next() < 0.5;
        return {
          itemId: t.itemId,
          ability: t.ability,
          prompt: t.prompt,
          left: swap ? b : a,
          right: swap ? a : b,
        };
      }
    }
  }
  return undefined;
}
