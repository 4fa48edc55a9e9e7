/**
 * The answers of a live battle (arena/live-answers): one deadline per request that cancels it and ends the wait,
 * the usable-answer check, and the replacement of models whose answers are not usable.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdentityGuard } from '../../../src/arena/identity-guard.ts';
import {
  ASK_TEMPLATE_VERSION,
  answerPair,
  answerWithin,
  type PairOptions,
  usableAnswer,
} from '../../../src/arena/live-answers.ts';
import type { LiveCandidate, RankedPair } from '../../../src/arena/live-pairs.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import type { CompletionRequest, CompletionResult, LlmClient } from '../../../src/llm/types.ts';

const ok = (text: string): CompletionResult => ({ ok: true, text, cached: false, latencyMs: 4 });
const fail = (code: 'http_error' | 'timeout'): CompletionResult => ({
  ok: false,
  code,
  message: code,
  latencyMs: 1,
});

/** A client that answers only when its request is aborted (then as the openai client does: `aborted`). */
function hanging(): LlmClient & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'slow',
    maxConcurrency: 1,
    requests,
    complete: (r) => {
      requests.push(r);
      return new Promise((resolve) =>
        r.signal?.addEventListener('abort', () =>
          resolve({ ok: false, code: 'aborted', message: 'cancelled', latencyMs: 0 }),
        ),
      );
    },
  };
}

describe('answerWithin', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const messages = [{ role: 'user', content: 'q' }] as const;

  it('returns the answer, asked with the live template version', async () => {
    const requests: CompletionRequest[] = [];
    const c: LlmClient = {
      name: 'm',
      maxConcurrency: 1,
      complete: async (r) => {
        requests.push(r);
        return ok('an answer');
      },
    };
    expect(await answerWithin(c, messages, 1000, new AbortController().signal)).toMatchObject({
      ok: true,
      text: 'an answer',
    });
    expect(requests[0]?.templateVersion).toBe(ASK_TEMPLATE_VERSION);
  });

  it('at the deadline the request is cancelled and the answer is a timeout', async () => {
    vi.useFakeTimers();
    const c = hanging();
    const pending = answerWithin(c, messages, 5000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(4999);
    expect(c.requests[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      ok: false,
      code: 'timeout',
      message: 'no answer within 5000 ms',
    });
    expect(c.requests[0]?.signal?.aborted).toBe(true);
  });

  it('ends at the deadline even when the client ignores the cancellation (a request still queued)', async () => {
    vi.useFakeTimers();
    const deaf: LlmClient = {
      name: 'q',
      maxConcurrency: 1,
      complete: () => new Promise(() => undefined),
    };
    const pending = answerWithin(deaf, messages, 100, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toMatchObject({ code: 'timeout' });
  });

  it("the caller's abort cancels the request and ends the wait as aborted; a throwing client is network", async () => {
    const c = hanging();
    const stop = new AbortController();
    const pending = answerWithin(c, messages, 60_000, stop.signal);
    stop.abort();
    expect(await pending).toMatchObject({ ok: false, code: 'aborted' });
    expect(c.requests[0]?.signal?.aborted).toBe(true);
    const throwing: LlmClient = {
      name: 't',
      maxConcurrency: 1,
      complete: async () => {
        throw new Error('socket hang up');
      },
    };
    expect(
      await answerWithin(throwing, messages, 1000, new AbortController().signal),
    ).toMatchObject({ ok: false, code: 'network', message: 'socket hang up' });
  });
});

describe('usableAnswer', () => {
  const guard = new IdentityGuard({ words: ['anthropic'], patterns: [] });
  it('a failure keeps its code; empty and self-revealing answers are not usable', () => {
    expect(usableAnswer(fail('http_error'), 'a', 'b', guard, silentLogger)).toEqual({
      ok: false,
      code: 'http_error',
    });
    expect(usableAnswer(ok('  \n'), 'a', 'b', guard, silentLogger)).toEqual({
      ok: false,
      code: 'empty_reply',
    });
    expect(usableAnswer(ok('I was made by Anthropic.'), 'a', 'b', guard, silentLogger)).toEqual({
      ok: false,
      code: 'revealed',
    });
    expect(
      usableAnswer(ok('As model-blue I think…'), 'model-red', 'model-blue', guard, silentLogger),
    ).toMatchObject({
      ok: false,
      code: 'revealed',
    });
    expect(usableAnswer(ok('Tides.'), 'a', 'b', guard, silentLogger)).toEqual({
      ok: true,
      text: 'Tides.',
      latencyMs: 4,
    });
  });
});

describe('answerPair', () => {
  const m = (name: string, id: number): LiveCandidate => ({ name, id, weight: 1 });
  const [red, green, blue, gold] = [
    m('red', 1),
    m('green', 2),
    m('blue', 3),
    m('gold', 4),
  ] as const;
  const all = [red, green, blue, gold];
  const ranked: RankedPair[] = all.flatMap((a, i) =>
    all.slice(i + 1).map((b) => ({ a, b, load: 1 })),
  );

  function options(answers: Record<string, CompletionResult>, over: Partial<PairOptions> = {}) {
    const asked: string[] = [];
    const progress: string[][] = [];
    const o: PairOptions = {
      pair: { a: red, b: green, load: 1 },
      ranked,
      maxAttempts: 4,
      liveCount: 4,
      ask: async (model, signal) => {
        asked.push(model.name);
        const r = answers[model.name];
        if (r) return r;
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve(fail('timeout'))),
        );
      },
      usable: (res) =>
        res.ok
          ? { ok: true, text: res.text, latencyMs: res.latencyMs }
          : { ok: false, code: res.code },
      onProgress: (slots) => progress.push(slots.map((s) => (s.ready ? 'ready' : s.note))),
      log: silentLogger,
      ...over,
    };
    return { o, asked, progress };
  }

  it('both sides answer: no replacement', async () => {
    const { o } = options({ red: ok('R'), green: ok('G') });
    const r = await answerPair(o, new AbortController());
    expect(r).toMatchObject({ ok: true, replaced: 0 });
    expect(r.ok && r.answers.map((a) => [a.model.name, a.text])).toEqual([
      ['red', 'R'],
      ['green', 'G'],
    ]);
  });

  it('a side whose answer fails is replaced by the next untried model, and the channel is told', async () => {
    const { o, asked, progress } = options({ red: fail('timeout'), green: ok('G'), blue: ok('B') });
    const r = await answerPair(o, new AbortController());
    expect(r.ok && r.answers.map((a) => a.model.name)).toEqual(['blue', 'green']);
    expect(r).toMatchObject({ replaced: 1 });
    expect(asked.sort()).toEqual(['blue', 'green', 'red']);
    expect(progress.flat()).toContain(
      'One model did not answer in time; another is answering instead.',
    );
  });

  it('with no model left, the other side is aborted and the failure says why', async () => {
    const stop = new AbortController();
    const { o } = options(
      { red: fail('http_error'), blue: fail('http_error'), gold: fail('http_error') },
      {},
    );
    const r = await answerPair(o, stop);
    expect(r).toEqual({
      ok: false,
      failure:
        'a model failed and no other live model was left to replace it (4 of 4 models tried)',
    });
    expect(stop.signal.aborted).toBe(true);
  });

  it('stops replacing at max_attempts models', async () => {
    const { o, asked } = options(
      { red: fail('http_error'), green: ok('G'), blue: ok('B') },
      { maxAttempts: 2 },
    );
    const r = await answerPair(o, new AbortController());
    expect(r).toMatchObject({ ok: false });
    expect(r.ok ? '' : r.failure).toContain('(2 of 4 models tried)');
    expect(asked).not.toContain('blue');
  });

  it('an abort from outside ends both sides with no failure of their own', async () => {
    const stop = new AbortController();
    const { o } = options({});
    const pending = answerPair(o, stop);
    stop.abort();
    expect(await pending).toEqual({ ok: false, failure: undefined });
  });
});
