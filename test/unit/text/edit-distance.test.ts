import { describe, expect, it } from 'vitest';
import { byCloseness, didYouMean, editDistance } from '../../../src/text/edit-distance.ts';

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('winer', 'winner')).toBe(1);
    expect(editDistance('fra', 'far')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('sorts names closest first', () => {
    expect(byCloseness('smok', ['zhujiu', 'smoke', 'gaokao'])).toEqual([
      'smoke',
      'gaokao',
      'zhujiu',
    ]);
  });

  it('suggests a name only when it is a plausible misspelling', () => {
    expect(didYouMean('winer', ['model_a', 'model_b', 'winner'])).toBe('winner');
    expect(didYouMean('fra', ['far', 'keyed'])).toBe('far');
    expect(didYouMean('max_retires', ['max_retries', 'model'])).toBe('max_retries');
    expect(didYouMean('nosuch', ['far', 'keyed'])).toBeUndefined();
    expect(didYouMean('far', ['far'])).toBeUndefined();
    expect(didYouMean('x', ['y'])).toBeUndefined();
  });
});
