/**
 * The breaker of refused credentials (llm/auth-breaker): opens after `threshold` consecutive 401/403, turns
 * requests away with the last refusal, lets one probe through after the cool-down, closes on an answer.
 */
import { describe, expect, it } from 'vitest';
import { AuthBreaker, isAuthRefusal } from '../../../src/llm/auth-breaker.ts';

const refusal = { status: 401, message: 'model q: the endpoint refused the API key (HTTP 401)' };

describe('AuthBreaker', () => {
  it('opens after three refusals in a row, and an answer in between resets the count', () => {
    const b = new AuthBreaker({ now: () => 0 });
    b.refused(refusal);
    b.refused(refusal);
    b.accepted();
    b.refused(refusal);
    b.refused(refusal);
    expect(b.admit()).toBeUndefined();
    b.inconclusive(); // a 500 says nothing about the key
    b.refused(refusal);
    expect(b.open).toBe(true);
    expect(b.admit()).toEqual(refusal);
  });

  it('lets one probe through after the cool-down: a refusal opens it again, an answer closes it', () => {
    let t = 0;
    const b = new AuthBreaker({ threshold: 1, cooldownMs: 1000, now: () => t });
    b.refused(refusal);
    t = 999;
    expect(b.admit()).toEqual(refusal);
    t = 1000;
    expect(b.admit()).toBeUndefined(); // the probe
    expect(b.admit()).toEqual(refusal); // others wait for the probe's answer
    b.refused(refusal);
    t = 1999;
    expect(b.admit()).toEqual(refusal);
    t = 2000;
    expect(b.admit()).toBeUndefined();
    b.accepted();
    expect(b.open).toBe(false);
    expect(b.admit()).toBeUndefined();
    expect(b.admit()).toBeUndefined();
  });

  it('counts 401 and 403 only', () => {
    expect([400, 401, 403, 404, 429, 500].map(isAuthRefusal)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
