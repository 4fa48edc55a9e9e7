/**
 * llm/reply: reasoning apart from the answer, and every reply shape read into an answer or a named failure.
 */
import { describe, expect, it } from 'vitest';
import { numericMatch } from '../../../src/eval/metrics/numeric.ts';
import { extractOption } from '../../../src/eval/metrics/options.ts';
import { REDACTED, redactSecrets } from '../../../src/llm/redact.ts';
import { readReply, splitReasoningText } from '../../../src/llm/reply.ts';

const reply = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  ...extra,
});

describe('splitReasoningText', () => {
  it('takes every reasoning tag out of the answer', () => {
    expect(splitReasoningText('<think>A 不对，B 也许…</think>答案：C')).toEqual({
      ok: true,
      answer: '答案：C',
      reasoning: ['A 不对，B 也许…'],
    });
    for (const tag of ['thinking', 'reasoning', 'thought', 'THINK'])
      expect(splitReasoningText(`<${tag}>[[1]]</${tag}>\n[[2]]`)).toMatchObject({
        ok: true,
        answer: '[[2]]',
      });
  });
  it('reads a closing tag with no opening one (the template opened it) as reasoning before it', () => {
    expect(splitReasoningText('答案：A 吧\n</think>\n\n答案：D')).toEqual({
      ok: true,
      answer: '答案：D',
      reasoning: ['答案：A 吧'],
    });
  });
  it('names an unclosed tag', () => {
    expect(splitReasoningText('<think>A? B? 答案：B')).toEqual({ ok: false, tag: 'think' });
  });
});

describe('readReply', () => {
  it('separates <think> blocks and the reasoning fields from the answer, with reasoning tokens', () => {
    const r = readReply(
      reply(
        { content: '<think>draft 答案：A</think>答案：C', reasoning_content: 'first thoughts' },
        { usage: { completion_tokens_details: { reasoning_tokens: 42 } } },
      ),
    );
    expect(r).toEqual({
      ok: true,
      answer: '答案：C',
      reasoning: 'first thoughts\n\ndraft 答案：A',
      reasoningTokens: 42,
    });
    expect(readReply(reply({ content: 'B', reasoning: 'hmm' }))).toEqual({
      ok: true,
      answer: 'B',
      reasoning: 'hmm',
    });
  });
  it('joins Magistral-style content parts, thinking parts being reasoning', () => {
    const r = readReply(
      reply({
        content: [
          { type: 'thinking', thinking: [{ type: 'text', text: 'maybe A' }] },
          { type: 'text', text: '答案：' },
          { type: 'text', text: 'B' },
        ],
      }),
    );
    expect(r).toEqual({ ok: true, answer: '答案：B', reasoning: 'maybe A' });
  });
  it('strip drops the reasoning; keep reads no tags', () => {
    expect(readReply(reply({ content: '<think>x</think>C' }), 'strip')).toEqual({
      ok: true,
      answer: 'C',
    });
    expect(readReply(reply({ content: '<think>x</think>C' }), 'keep')).toEqual({
      ok: true,
      answer: '<think>x</think>C',
    });
    expect(readReply(reply({ content: '<think>never closed' }), 'keep')).toMatchObject({
      ok: true,
    });
  });
  it('names each failure', () => {
    const code = (b: unknown) => {
      const r = readReply(b);
      return r.ok ? 'ok' : `${r.code}: ${r.message}`;
    };
    expect(code(reply({ content: '<think>A 不对 答案：B' }))).toMatch(
      /^reasoning_unclosed: the reply ended inside <think> \(finish_reason stop\)/u,
    );
    expect(code(reply({ content: null, refusal: 'I cannot help' }))).toBe(
      'refused: the model refused: I cannot help',
    );
    expect(code(reply({ content: [{ type: 'refusal', refusal: 'no' }] }))).toBe(
      'refused: the model refused: no',
    );
    expect(
      code(
        reply({
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } },
          ],
        }),
      ),
    ).toMatch(/^tool_call: the model called a tool \(search\)/u);
    expect(
      code(
        reply({
          content: 'Let me look that up.',
          tool_calls: [{ id: 'c2', type: 'function', function: { name: 'web', arguments: '{}' } }],
        }),
      ),
    ).toMatch(/^tool_call: the model called a tool \(web\)/u);
    expect(code({ error: { message: 'model overloaded', type: 'server_error' } })).toBe(
      'http_error: the endpoint answered HTTP 200 with an error: model overloaded',
    );
    expect(code({ id: 'x' })).toBe(
      'bad_response: unexpected reply shape: the reply has no choices (object{id})',
    );
    expect(code('hello')).toMatch(/^bad_response: .*string/u);
    expect(code(reply({ content: 42 }))).toBe(
      'bad_response: unexpected reply shape: message.content is number, neither text nor parts',
    );
    expect(code(reply({ content: [{ type: 'image_url', image_url: {} }] }))).toMatch(
      /^bad_response: .*type "image_url"/u,
    );
    expect(code(reply({ content: '<think>all reasoning</think>' }))).toMatch(
      /^empty_reply: the reply holds reasoning but no answer/u,
    );
    expect(code(reply({ content: '' }))).toBe('empty_reply: empty reply (finish_reason stop)');
  });
});

describe('the scorers see the answer alone', () => {
  const answerOf = (content: string) => {
    const r = readReply(reply({ content }));
    if (!r.ok) throw new Error(r.message);
    return r.answer;
  };
  it('option extraction reads the answer, not the draft letters of the reasoning', () => {
    const raw = '<think>答案：A 不对，答案：B 也许…</think>答案：C';
    expect(extractOption(answerOf(raw), 'ABCD')).toMatchObject({ letter: 'C' });
  });
  it('Math23K: the last 答案 of the answer wins, not one inside the reasoning', () => {
    const raw = '<think>先试试，答案：7？再检验一下</think>6 ÷ 2/5 = 15，15 - 6 = 9（米）。答案：9';
    expect(numericMatch(answerOf(raw), 9).score).toBe(1);
  });
});

describe('redactSecrets', () => {
  it('removes the key and bearer-token-like strings', () => {
    const key = 'zk-live-abcdef0123456789';
    const out = redactSecrets(
      `bad key ${key}; Authorization: Bearer ${key}; other sk-proj-AAAAbbbbCCCC1234 and eyJhbGciOiJIUzI1NiJ9abcdefghijklmnop123`,
      [key],
    );
    expect(out).not.toContain(key);
    expect(out).not.toContain('sk-proj');
    expect(out).not.toContain('eyJhbGci');
    expect(out).toContain(REDACTED);
    expect(redactSecrets('HTTP 500: upstream is down')).toBe('HTTP 500: upstream is down');
  });
});
