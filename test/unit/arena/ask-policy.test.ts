/** The live arena's refusals (arena/ask-policy): order of the prompt checks, the per-person limit, follow-ups. */
import { describe, expect, it } from 'vitest';
import {
  failureWords,
  followUpRefusal,
  liveModelsRefusal,
  modelsGoneRefusal,
  promptRefusal,
  rateRefusal,
} from '../../../src/arena/ask-policy.ts';
import { IDENTITY_QUESTION_REFUSAL } from '../../../src/arena/identity-question.ts';

describe('promptRefusal', () => {
  it('refuses an empty prompt, then one too long (code points), then an identity question; else nothing', () => {
    expect(promptRefusal('', 10)?.reason).toBe('empty');
    expect(promptRefusal('', 10)?.text).toContain('/ask How do tides work?');
    const long = promptRefusal('潮汐潮汐潮', 4);
    expect(long?.reason).toBe('too_long');
    expect(long?.text).toContain('Your prompt has 5 characters; the arena takes at most 4.');
    expect(promptRefusal('潮汐潮汐', 4)).toBeUndefined();
    const who = promptRefusal('Which model are you?', 100);
    expect(who).toMatchObject({ reason: 'identity_question', text: IDENTITY_QUESTION_REFUSAL });
    expect(who?.identity?.language).toBeTypeOf('string');
    expect(promptRefusal('How do tides work?', 100)).toBeUndefined();
  });
});

describe('rateRefusal', () => {
  const now = Date.UTC(2026, 10, 30, 12, 0, 0);
  const limit = { max: 2, window_minutes: 10 };

  it('counts stored questions and those in flight against the limit', () => {
    expect(
      rateRefusal({ askTimes: [new Date(now - 60_000)], inFlight: 0, now }, limit),
    ).toBeUndefined();
    expect(rateRefusal({ askTimes: [], inFlight: 2, now }, limit)?.reason).toBe('rate_limited');
  });

  it('says when the oldest question leaves the window, in whole minutes (at least 1)', () => {
    const r = rateRefusal(
      { askTimes: [new Date(now - 7.5 * 60_000), new Date(now - 60_000)], inFlight: 0, now },
      limit,
    );
    expect(r?.text).toContain('You have asked 2 questions in the last 10 minutes');
    expect(r?.text).toContain('ask again in about 3 minutes');
    const one = rateRefusal({ askTimes: [], inFlight: 1, now }, { max: 1, window_minutes: 1 });
    expect(one?.text).toContain('You have asked 1 question in the last minute,');
    expect(one?.text).toContain('about 1 minute;');
  });
});

describe('liveModelsRefusal', () => {
  it('needs two live models and says how many there are', () => {
    expect(liveModelsRefusal(2)).toBeUndefined();
    expect(liveModelsRefusal(1)?.text).toContain('there is 1.');
    expect(liveModelsRefusal(0)).toMatchObject({ reason: 'not_enough_models' });
    expect(liveModelsRefusal(0)?.text).toContain('there are 0.');
  });
});

describe('followUpRefusal', () => {
  const open = {
    number: 7,
    status: 'open',
    closeReason: null,
    closeCap: null,
    live: true,
    turns: 1,
  };

  it('a recorded battle, then a closed one, then one at the turn limit are refused, in that order', () => {
    expect(followUpRefusal({ ...open, live: false, status: 'closed' }, 5)?.reason).toBe('not_live');
    expect(followUpRefusal({ ...open, status: 'closed', turns: 9 }, 5)?.reason).toBe('closed');
    const full = followUpRefusal({ ...open, turns: 5 }, 5);
    expect(full?.reason).toBe('too_many_turns');
    expect(full?.text).toContain('Battle #7 has reached 5 turns');
    expect(followUpRefusal(open, 5)).toBeUndefined();
    expect(modelsGoneRefusal(7)).toMatchObject({ reason: 'models_gone' });
  });
});

describe('failureWords', () => {
  it('names each kind of failure for the asker', () => {
    expect(failureWords('timeout')).toBe('did not answer in time');
    expect(failureWords('revealed')).toBe('revealed which model it is');
    expect(failureWords('empty_reply')).toBe('gave an empty answer');
    expect(failureWords('rate_limited')).toBe('was rate limited');
    expect(failureWords('http_error')).toBe('failed');
  });
});
