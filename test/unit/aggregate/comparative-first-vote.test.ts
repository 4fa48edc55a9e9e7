/** fitComparative after the first vote: two models, one vote, no finite rating — listed with a note, no error. */
import { describe, expect, it } from 'vitest';
import { fitComparative } from '../../../src/aggregate/comparative.ts';
import { BOARD_ABILITIES } from '../../../src/aggregate/index.ts';

describe('fitComparative on the first vote', () => {
  it('gives both models a null score with a "not estimable" note instead of throwing', () => {
    const ability = BOARD_ABILITIES[0]!;
    const state = fitComparative(
      ['claude-2', 'alpaca-7b'],
      [ability],
      [{ ability, modelA: 'claude-2', modelB: 'alpaca-7b', aWins: 1, bWins: 0, ties: 0, count: 1 }],
      1,
    );
    const entries = state.entries[0]!;
    expect(entries.map((e) => [e.model, e.rating, e.score])).toEqual(
      expect.arrayContaining([
        ['claude-2', null, null],
        ['alpaca-7b', null, null],
      ]),
    );
    expect(entries.every((e) => /not estimable/.test(e.note ?? ''))).toBe(true);
  });
});
