import { describe, expect, it } from 'vitest';
import { sameAnswer } from '../../../src/arena/selection.ts';

describe('sameAnswer', () => {
  it('is the same text once whitespace runs are one space and the ends are trimmed', () => {
    expect(sameAnswer('Paris.', 'Paris.')).toBe(true);
    expect(sameAnswer(' Paris\n\nis  the capital.\t', 'Paris is the capital.')).toBe(true);
    expect(sameAnswer('Paris is the capital.', 'Paris is the capital!')).toBe(false);
    expect(sameAnswer('Parisis', 'Paris is')).toBe(false);
    expect(sameAnswer('Paris', 'paris')).toBe(false);
  });
});
