/**
 * Voters swapping emoji, as a platform would record them: per voter a history of toggles (an emoji added when
 * absent, removed when present), the voters' histories interleaved, and the vote each message shows at the end
 * (the most recently added emoji still present, docs/scoring.md §4.1). Seeded (src/core/rng.ts).
 */
import type { Rng } from '../../src/core/rng.ts';
import type { VoteChoice } from '../../src/storage/schema.ts';

/** One reaction as the platform recorded it, in the platform's order. */
export interface ReactionStep {
  readonly voter: number;
  readonly choice: VoteChoice;
  readonly add: boolean;
}

const CHOICES: readonly VoteChoice[] = ['left', 'equal', 'right'];

/**
 * `voters` histories of `minSteps`..`maxSteps` toggles each, interleaved at random (each voter's own order kept).
 * Most toggles are swaps (an add, then the removal of the previous emoji), as people change their minds.
 */
export function swapScript(
  rng: Rng,
  voters: number,
  minSteps: number,
  maxSteps: number,
): ReactionStep[] {
  const queues: ReactionStep[][] = [];
  for (let v = 0; v < voters; v++) {
    const on = new Set<VoteChoice>();
    const q: ReactionStep[] = [];
    const n = minSteps + rng.int(maxSteps - minSteps + 1);
    while (q.length < n) {
      const choice = CHOICES[rng.int(3)] as VoteChoice;
      const add = !on.has(choice);
      if (add) on.add(choice);
      else on.delete(choice);
      q.push({ voter: v, choice, add });
      // A swap: the other emoji held go.
      if (add && rng.int(3) > 0) {
        for (const c of CHOICES) {
          if (c !== choice && on.has(c) && q.length < n) {
            on.delete(c);
            q.push({ voter: v, choice: c, add: false });
          }
        }
      }
    }
    queues.push(q);
  }
  const out: ReactionStep[] = [];
  const live = queues.filter((q) => q.length > 0);
  while (live.length > 0) {
    const i = rng.int(live.length);
    const q = live[i] as ReactionStep[];
    out.push(q.shift() as ReactionStep);
    if (q.length === 0) live.splice(i, 1);
  }
  return out;
}

/** The vote each voter's message shows after `steps` (absent: none). */
export function shownVotes(steps: readonly ReactionStep[]): Map<number, VoteChoice> {
  const added = new Map<number, Map<VoteChoice, number>>();
  steps.forEach((s, i) => {
    const m = added.get(s.voter) ?? new Map<VoteChoice, number>();
    added.set(s.voter, m);
    if (s.add) m.set(s.choice, i);
    else m.delete(s.choice);
  });
  const out = new Map<number, VoteChoice>();
  for (const [voter, m] of added) {
    let best: VoteChoice | undefined;
    let at = -1;
    for (const [c, i] of m) {
      if (i > at) {
        best = c;
        at = i;
      }
    }
    if (best !== undefined) out.set(voter, best);
  }
  return out;
}

/** The tally of a voter → vote map. */
export function tallyOf(votes: ReadonlyMap<unknown, VoteChoice>): Record<VoteChoice, number> {
  const t = { left: 0, equal: 0, right: 0, bothbad: 0 };
  for (const c of votes.values()) t[c]++;
  return t;
}

/** A Fisher–Yates shuffle. */
export function shuffle<T>(rng: Rng, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}
