/**
 * @module arena/live-pairs
 * Which two live models answer an `/ask` (pure; randomness from the seeded Rng passed in).
 *
 * The same active sampling as recorded battles (arena/selection.ts: the pairs with the fewest live votes first,
 * then the fewest battles, ties in random order), restricted to the live models, with a per-model weight
 * (`arena_weight` in config/models.yaml, default 1) as Chatbot Arena boosts new models: a pair is ordered by
 * (votes + 1) / (w_a · w_b), then (battles + 1) / (w_a · w_b), so a newcomer of weight 3 has its pairs chosen as if
 * they had a third of their votes (the + 1 lets the weight count before any vote: with equal weights the order is
 * exactly the fewest-votes-first of recorded battles). A replacement (a model timed out, failed or revealed itself) is the
 * untried model whose pair with the model that stays comes first in the same order.
 */
import type { Rng } from '../core/rng.ts';
import { shuffle } from './selection.ts';

/** A live model as the sampler sees it. */
export interface LiveCandidate {
  readonly name: string;
  /** Its `models` row id (pair statistics are keyed by ids). */
  readonly id: number;
  /** `arena_weight` (> 0). */
  readonly weight: number;
}

/** Votes and battles so far on an unordered pair (ids ascending), as storage reports them. */
export interface PairLoad {
  readonly modelLow: number;
  readonly modelHigh: number;
  readonly votes: number;
  readonly battles: number;
}

/** An ordered candidate pair. */
export interface RankedPair {
  readonly a: LiveCandidate;
  readonly b: LiveCandidate;
  /** (votes + 1) divided by the weight product (the first sort key). */
  readonly load: number;
}

const key = (x: number, y: number): string => (x < y ? `${x}:${y}` : `${y}:${x}`);

/** Every pair of `models`, fewest weighted votes first, then fewest weighted battles, ties shuffled by `rng`. */
export function rankLivePairs(
  models: readonly LiveCandidate[],
  load: readonly PairLoad[],
  rng: Rng,
): RankedPair[] {
  const byKey = new Map(load.map((p) => [key(p.modelLow, p.modelHigh), p]));
  const pairs: (RankedPair & { battlesLoad: number })[] = [];
  for (let i = 0; i < models.length; i++) {
    for (let j = i + 1; j < models.length; j++) {
      const a = models[i] as LiveCandidate;
      const b = models[j] as LiveCandidate;
      const l = byKey.get(key(a.id, b.id));
      const w = a.weight * b.weight;
      pairs.push({
        a,
        b,
        load: ((l?.votes ?? 0) + 1) / w,
        battlesLoad: ((l?.battles ?? 0) + 1) / w,
      });
    }
  }
  return shuffle(pairs, rng)
    .sort((x, y) => x.load - y.load || x.battlesLoad - y.battlesLoad) // stable: the shuffle breaks ties
    .map(({ a, b, load: l }) => ({ a, b, load: l }));
}

/**
 * The replacement for a failed model: the first model in `ranked` order paired with `stays` that is not in
 * `tried`, or undefined when none is left.
 */
export function replacementFor(
  stays: LiveCandidate,
  tried: ReadonlySet<string>,
  ranked: readonly RankedPair[],
): LiveCandidate | undefined {
  for (const p of ranked) {
    const other = p.a.name === stays.name ? p.b : p.b.name === stays.name ? p.a : undefined;
    if (other && !tried.has(other.name)) return other;
  }
  return undefined;
}
