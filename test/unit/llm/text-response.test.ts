/**
 * llm/openai-client textResponse: an answer handed to the OpenAI SDK without a body stream reads back as the
 * text it was made from, through every reader the SDK may use, with its status and headers.
 */
import { describe, expect, it } from 'vitest';
import { textResponse } from '../../../src/llm/openai-client.ts';

describe('textResponse', () => {
  const text = '{"choices":[{"message":{"content":"答案：B"}}]}';
  const make = () =>
    textResponse(text, {
      status: 200,
      statusText: 'OK',
      headers: new Headers({ 'content-type': 'application/json' }),
    });

  it('holds no body stream', () => {
    expect(make().body).toBeNull();
  });

  it('reads back as its text, its JSON and its UTF-8 bytes', async () => {
    expect(await make().text()).toBe(text);
    expect(await make().json()).toEqual(JSON.parse(text));
    expect(new TextDecoder().decode(await make().arrayBuffer())).toBe(text);
  });

  it('keeps its status and headers', () => {
    const r = make();
    expect([r.status, r.statusText, r.ok]).toEqual([200, 'OK', true]);
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('rejects json() of a text that is not JSON, as a Response does', async () => {
    await expect(textResponse('not json', { status: 200 }).json()).rejects.toThrow(SyntaxError);
  });
});
