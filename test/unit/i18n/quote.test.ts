/**
 * i18n/quote.ts: values put into a sentence, quoted as each language quotes them ("x" / “x”; literals "x" / `x`).
 */
import { describe, expect, it } from 'vitest';
import { said, sayCli } from '../../../src/i18n/cli.ts';
import {
  jsonValueSaid,
  jsonValueText,
  literalList,
  literalText,
  quoted,
  shown,
} from '../../../src/i18n/quote.ts';

describe('quoting per language', () => {
  it('quotes a name "x" in English and “x” in Chinese, its line breaks escaped', () => {
    expect(quoted('en', 'q1')).toBe('"q1"');
    expect(quoted('zh-CN', 'q1')).toBe('“q1”');
    expect(shown('a\nb')).toBe('a\\nb');
    expect(quoted('zh-CN', 'a\nb')).toBe('“a\\nb”');
  });

  it('shows a JSON value as read: a string quoted, anything else as its JSON', () => {
    expect(jsonValueText('zh-CN', 'x')).toBe('“x”');
    expect(jsonValueText('en', 'x')).toBe('"x"');
    expect(jsonValueText('zh-CN', 3)).toBe('3');
    expect(jsonValueText('zh-CN', null)).toBe('null');
    expect(jsonValueText('zh-CN', { a: 1 })).toBe('{"a":1}');
    expect(jsonValueText('en', undefined)).toBe('undefined');
    const refusal = said('cli.ratingsLine.badWinner', { winner: jsonValueSaid('x') });
    expect(sayCli('en', refusal)).toContain('unknown winner "x"');
    expect(sayCli('zh-CN', refusal)).toContain('未知的 `winner` “x”；');
  });

  it('puts a literal to copy in backticks in Chinese, in the language’s list', () => {
    expect(literalText('zh-CN', 'overall')).toBe('`overall`');
    expect(literalText('en', 'overall')).toBe('"overall"');
    expect(literalText('zh-CN', 20)).toBe('20');
    expect(literalList('zh-CN', ['a', 'b'])).toBe('`a`、`b`');
    expect(literalList('en', ['a', 'b'])).toBe('"a", "b"');
  });
});
