/**
 * The Slack request checks beyond Bolt's signature (chat/slack/request-guard.ts): a timestamp within five minutes
 * either way, and a request key acted on once within twice that window. Through the real Bolt receiver:
 * test/app/chat/slack.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ReplayGuard, timestampRefusal } from '../../../src/chat/slack/request-guard.ts';

describe('timestampRefusal', () => {
  const now = 1_800_000_000_000;
  it('accepts up to 300 s either way, refuses beyond, leaves a missing or malformed header to Bolt', () => {
    const at = (skewS: number) => timestampRefusal(String(now / 1000 + skewS), now);
    expect([at(0), at(300), at(-300)]).toEqual([undefined, undefined, undefined]);
    expect(at(301)).toBe('request timestamp is 301 s in the future (at most 300 s either way)');
    expect(at(-600)).toBe('request timestamp is 600 s in the past (at most 300 s either way)');
    expect(timestampRefusal(undefined, now)).toBeUndefined();
    expect(timestampRefusal('soon', now)).toBeUndefined();
  });
});

describe('ReplayGuard', () => {
  it('says replayed for any key seen within keepMs, and forgets keys after it', () => {
    const g = new ReplayGuard(1_000);
    expect(g.replayed(['trigger:a', 'sig:1'], 0)).toBe(false);
    expect(g.replayed(['trigger:a', 'sig:2'], 500)).toBe(true);
    expect(g.replayed(['trigger:b', 'sig:1'], 900)).toBe(true);
    expect(g.replayed(['trigger:c'], 950)).toBe(false);
    // After keepMs the first request's keys are gone; trigger:c (seen at 950) is still remembered.
    expect(g.replayed(['trigger:a', 'sig:1'], 1_001)).toBe(false);
    expect(g.replayed(['trigger:c'], 1_500)).toBe(true);
  });
});
