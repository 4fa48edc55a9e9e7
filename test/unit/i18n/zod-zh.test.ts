/**
 * zod's own messages in Chinese (i18n/zod.ts) are written the catalogue's way: a value quoted “x”, choices and keys
 * listed with 、, full-width brackets and colons, type names in Chinese (docs/architecture.md "Languages").
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { polishZodZh, zodParseOptions } from '../../../src/i18n/zod.ts';

/** The messages of parsing `data` with `schema` in Chinese, by path. */
function zh(schema: z.ZodType, data: unknown): Record<string, string> {
  const r = schema.safeParse(data, zodParseOptions('zh-CN'));
  if (r.success) throw new Error('expected a failure');
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe("zod's messages in Chinese", () => {
  it('quotes values “x” and lists choices with 、 (not "x"|"y")', () => {
    const m = zh(z.object({ method: z.enum(['metrics', 'scoring']), c: z.literal('q') }), {
      method: 'x',
      c: 'r',
    });
    expect(m.method).toBe('无效选项：应为以下之一：“metrics”、“scoring”');
    expect(m.c).toBe('无效输入：期望“q”');
  });

  it('names unknown keys with full-width punctuation (not 键(key): "u")', () => {
    expect(zh(z.strictObject({}), { u: 1, v: 2 })['']).toBe('出现未知的键：“u”、“v”');
  });

  it('names types in Chinese', () => {
    const m = zh(z.object({ a: z.number(), b: z.string(), c: z.null() }), { a: 'x', c: 1 });
    expect(m.a).toBe('无效输入：期望数字，实际接收字符串');
    expect(m.b).toBe('无效输入：期望字符串，实际接收未定义（undefined）');
    expect(m.c).toBe('无效输入：期望空值（null），实际接收数字');
  });

  it('leaves no straight quote, half-width bracket or colon beside Chinese', () => {
    const m = zh(
      z.object({
        a: z.string().startsWith('ab'),
        b: z.string().includes('zz'),
        c: z.array(z.number()).max(1),
      }),
      { a: 'c', b: 'c', c: [1, 2] },
    );
    expect(m.a).toBe('无效字符串：必须以“ab”开头');
    for (const text of Object.values(m)) expect(text).not.toMatch(/["()]|\p{Script=Han}:/u);
    expect(polishZodZh('出现未知的键(key): "u", "v"')).toBe('出现未知的键：“u”、“v”');
  });

  it('keeps English for English', () => {
    expect(zodParseOptions('en')).toBeUndefined();
  });
});
