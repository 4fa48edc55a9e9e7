/**
 * zod's own messages (i18n/zod.ts) are said by the catalogue in the reader's language, in words that fit what was
 * checked: a string's length in characters (太短, not 数值过小), a list's size in items, a number against its bound,
 * a wrong type named in words; never zod's English ("Too small: expected string to have >=1 characters"), and in
 * Chinese the catalogue's punctuation (a value quoted “x”, lists with 、, full-width colons and brackets).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Locale } from '../../../src/i18n/index.ts';
import { zodParseOptions } from '../../../src/i18n/zod.ts';

/** The messages of parsing `data` with `schema` in `locale`, by path. */
function said(schema: z.ZodType, data: unknown, locale: Locale): Record<string, string> {
  const r = schema.safeParse(data, zodParseOptions(locale));
  if (r.success) throw new Error('expected a failure');
  return Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
}

const sizes = z.object({
  empty: z.string().min(1),
  short: z.string().min(3),
  long: z.string().max(2),
  one: z.string().length(1),
  list: z.array(z.number()).min(1),
  few: z.array(z.number()).min(2),
  many: z.array(z.number()).max(1),
  count: z.number().int().positive(),
  low: z.number().min(1),
  high: z.number().max(10),
  below: z.number().lt(5),
});
const tooSmall = {
  empty: '',
  short: 'ab',
  long: 'abc',
  one: 'ab',
  list: [],
  few: [1],
  many: [1, 2],
  count: 0,
  low: 0,
  high: 11,
  below: 5,
};

describe("zod's messages by what they check", () => {
  it('says a string is empty, too short or too long in characters (English)', () => {
    const m = said(sizes, tooSmall, 'en');
    expect(m).toEqual({
      empty: 'must not be empty',
      short: 'is too short: at least 3 characters',
      long: 'is too long: at most 2 characters',
      one: 'must be exactly 1 character long',
      list: 'must not be empty: give at least one item',
      few: 'has too few items: at least 2 items',
      many: 'has too many items: at most 1 item',
      count: 'must be greater than 0',
      low: 'must be at least 1',
      high: 'must be at most 10',
      below: 'must be less than 5',
    });
  });

  it('says the same in Chinese: 太短 for a string, 项数 for a list, 不能小于 for a number', () => {
    const m = said(sizes, tooSmall, 'zh-CN');
    expect(m).toEqual({
      empty: '不能为空',
      short: '太短：至少 3 个字符',
      long: '太长：最多 2 个字符',
      one: '长度必须正好是 1 个字符',
      list: '不能为空：至少要有一项',
      few: '项数太少：至少 2 项',
      many: '项数太多：最多 1 项',
      count: '必须大于 0',
      low: '不能小于 1',
      high: '不能大于 10',
      below: '必须小于 5',
    });
    expect(Object.values(m).join('')).not.toMatch(/数值过小|>=|字符串 /u);
  });

  it('names a wrong type, a missing value and a fraction in words', () => {
    const schema = z.object({ a: z.number(), b: z.string(), c: z.null(), d: z.number().int() });
    const data = { a: 'x', c: 1, d: 1.5 };
    expect(said(schema, data, 'en')).toEqual({
      a: 'must be a number, not a string',
      b: 'is missing: give a string',
      c: 'must be null, not 1',
      d: 'must be a whole number, not 1.5',
    });
    expect(said(schema, data, 'zh-CN')).toEqual({
      a: '应为数字，实际是字符串',
      b: '缺失：应为字符串',
      c: '应为空值（null），实际是 1',
      d: '必须是整数，实际是 1.5',
    });
  });

  it('quotes values and lists choices and keys in each language', () => {
    const schema = z.object({ method: z.enum(['metrics', 'scoring']), c: z.literal('q') });
    expect(said(schema, { method: 'x', c: 'r' }, 'en')).toEqual({
      method: 'must be one of "metrics", "scoring"',
      c: 'must be "q"',
    });
    expect(said(schema, { method: 'x', c: 'r' }, 'zh-CN')).toEqual({
      method: '应为以下之一：“metrics”、“scoring”',
      c: '应为“q”',
    });
    expect(said(z.strictObject({}), { u: 1, v: 2 }, 'en')['']).toBe('unknown keys: "u", "v"');
    expect(said(z.strictObject({}), { u: 1 }, 'en')['']).toBe('unknown key: "u"');
    expect(said(z.strictObject({}), { u: 1, v: 2 }, 'zh-CN')['']).toBe(
      '出现 2 个未知的键：“u”、“v”',
    );
  });

  it('names the types a union takes when the value has none of them', () => {
    const schema = z.object({ id: z.union([z.string(), z.number()]) });
    expect(said(schema, { id: true }, 'en').id).toBe('must be a string or a number, not true');
    expect(said(schema, { id: [] }, 'zh-CN').id).toBe('应为字符串或数字，实际是列表');
  });

  it("says formats in words and keeps a schema's own message", () => {
    const schema = z.object({
      a: z.string().startsWith('ab'),
      u: z.url(),
      own: z.string().min(1, 'must name the model'),
    });
    const data = { a: 'c', u: 'nope', own: '' };
    expect(said(schema, data, 'en')).toEqual({
      a: 'must start with "ab"',
      u: 'must be a URL, e.g. https://example.com/',
      own: 'must name the model',
    });
    const zh = said(schema, data, 'zh-CN');
    expect(zh.a).toBe('必须以“ab”开头');
    expect(zh.u).toBe('必须是网址（URL），例如 https://example.com/');
  });

  it("never says zod's English, whatever the issue", () => {
    const schema = z.object({
      t: z.string(),
      n: z.number().multipleOf(5),
      s: z.set(z.number()).min(2),
      r: z.record(z.string().min(2), z.number()),
      m: z.map(z.string(), z.number()).max(0),
      e: z.email(),
      rx: z.string().regex(/^a+$/u),
      un: z.union([z.string(), z.number()]),
      x: z.string().refine(() => false),
      d: z.date().min(new Date(0)),
      i: z.int(),
    });
    const data = {
      t: 1,
      n: 3,
      s: new Set([1]),
      r: { a: 1 },
      m: new Map([['a', 1]]),
      e: 'no',
      rx: 'b',
      un: true,
      x: 'y',
      d: new Date(-1),
      i: 1.5,
    };
    const zodEnglish = /Too (small|big)|Invalid|expected \w+, received|>=|<=|Unrecognized/u;
    for (const locale of ['en', 'zh-CN'] as const) {
      const m = said(schema, data, locale);
      expect(Object.keys(m).length, locale).toBeGreaterThanOrEqual(10);
      for (const [path, text] of Object.entries(m))
        expect(text, `${locale} ${path}`).not.toMatch(zodEnglish);
      if (locale === 'zh-CN')
        for (const text of Object.values(m)) expect(text).not.toMatch(/["()]|\p{Script=Han}:/u);
    }
  });
});
