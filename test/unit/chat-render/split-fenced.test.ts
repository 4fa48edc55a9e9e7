import { describe, expect, it } from 'vitest';
import { splitFenced } from '../../../src/chat/render/split.ts';

describe('splitFenced', () => {
  it('short text is one part, unchanged; empty text none', () => {
    expect(splitFenced('```js\nx()\n```', 100)).toEqual(['```js\nx()\n```']);
    expect(splitFenced('', 100)).toEqual([]);
  });

  it('closes a cut block and reopens it with its opening line', () => {
    expect(splitFenced('```py\naaaa\nbbbb\n```', 16)).toEqual([
      '```py\naaaa\n```',
      '```py\nbbbb\n```',
    ]);
  });

  it('keeps ~~~ and longer backtick fences, and a ``` line inside a ```` block is code', () => {
    const tilde = splitFenced(`~~~rust\n${'let x = 1;\n'.repeat(6)}~~~`, 40);
    for (const p of tilde) expect(p).toMatch(/^~~~rust\n[\s\S]*\n~~~$/u);
    const quad = splitFenced(`\`\`\`\`md\n${'```\ninner\n'.repeat(6)}\`\`\`\``, 40);
    for (const p of quad) {
      expect(p.startsWith('````md\n')).toBe(true);
      expect(p.endsWith('\n````')).toBe(true);
    }
  });

  it('keeps blank lines and indentation inside code across cuts', () => {
    const code = ['def f():', '    a = 1', '', '    b = 2', '', '    return a + b'].join('\n');
    const parts = splitFenced(`\`\`\`python\n${code}\n\`\`\``, 36);
    const body = parts.map((p) => p.replace(/^```python\n/u, '').replace(/\n```$/u, '')).join('\n');
    expect(body).toBe(code);
  });

  it('a block the author left open stays open only in the last part; prose is not fenced', () => {
    const parts = splitFenced(`Intro words here.\n\n\`\`\`sh\n${'echo hi\n'.repeat(8)}`, 40);
    expect(parts[0]).toBe('Intro words here.');
    for (const p of parts.slice(1, -1)) expect(p.endsWith('\n```')).toBe(true);
    expect(parts.at(-1)?.startsWith('```sh\n')).toBe(true);
  });

  it('respects the limit after a transform (Slack escaping) and never splits a surrogate pair', () => {
    const text = `\`\`\`\n${'a < b && c > d\n'.repeat(30)}\`\`\``;
    const esc = (s: string) =>
      s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
    for (const p of splitFenced(text, 100, esc)) expect(p.length).toBeLessThanOrEqual(100);
    const emoji = '😀'.repeat(40);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;
    const parts = splitFenced(emoji, 21);
    expect(parts.join('')).toBe(emoji);
    for (const p of parts) expect(lone.test(p)).toBe(false);
  });
});
