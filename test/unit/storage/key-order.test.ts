/**
 * The order multi-row inserts write shared keys in (storage/key-order): numbers numerically, strings by code unit,
 * null first, part by part.
 */
import { describe, expect, it } from 'vitest';
import { compareKeys, inKeyOrder } from '../../../src/storage/key-order.ts';

describe('key order', () => {
  it('compares numbers numerically, strings by code unit, null first, part by part', () => {
    expect(compareKeys([2], [10])).toBeLessThan(0);
    expect(compareKeys(['b'], ['a'])).toBeGreaterThan(0);
    expect(compareKeys([null], [0])).toBeLessThan(0);
    expect(compareKeys([1, 'x'], [1, 'x'])).toBe(0);
    expect(compareKeys([1, null, 'j'], [1, 3, 'a'])).toBeLessThan(0);
  });

  it('inKeyOrder sorts a copy and keeps every row', () => {
    const rows = [
      { m: 2, i: 1 },
      { m: 1, i: 9 },
      { m: 1, i: 2 },
    ];
    expect(inKeyOrder(rows, (r) => [r.m, r.i])).toEqual([
      { m: 1, i: 2 },
      { m: 1, i: 9 },
      { m: 2, i: 1 },
    ]);
    expect(rows[0]).toEqual({ m: 2, i: 1 });
  });
});
