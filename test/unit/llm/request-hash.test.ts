import { describe, expect, it } from 'vitest';
import { type RequestIdentity, requestHash } from '../../../src/llm/request-hash.ts';

const base: RequestIdentity = {
  model: 'gpt-4o',
  baseUrl: 'https://api.example.com/v1',
  params: { temperature: 0, max_tokens: 64 },
  messages: [
    { role: 'system', content: '你是助手' },
    { role: 'user', content: '1+1=?' },
  ],
  templateVersion: 'c3@1',
};

describe('requestHash', () => {
  it('is a stable hex digest that ignores key order and a trailing slash', () => {
    const h = requestHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash({ ...base, params: { max_tokens: 64, temperature: 0 } })).toBe(h);
    expect(requestHash({ ...base, baseUrl: 'https://api.example.com/v1/' })).toBe(h);
  });

  it('changes with every part that determines the answer', () => {
    const h = requestHash(base);
    const variants: RequestIdentity[] = [
      { ...base, model: 'gpt-4o-mini' },
      { ...base, baseUrl: 'https://other.example.com/v1' },
      { ...base, params: { temperature: 0.1, max_tokens: 64 } },
      { ...base, params: { temperature: 0, max_tokens: 64, seed: 1 } },
      { ...base, messages: [...base.messages.slice(0, 1), { role: 'user', content: '1+1=? ' }] },
      { ...base, messages: base.messages.slice(1) },
      { ...base, templateVersion: 'c3@2' },
      { ...base, jsonSchema: { name: 'x', schema: { type: 'object' } } },
    ];
    const hashes = variants.map(requestHash);
    expect(new Set([h, ...hashes]).size).toBe(variants.length + 1);
  });
});
