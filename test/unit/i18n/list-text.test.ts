/**
 * Lists in command line texts: `a, b` in English, `a、b` in Chinese (i18n/cli.ts `listText`, the catalogue's
 * `cli.list.sep`), the way every list a command prints is joined.
 */
import { describe, expect, it } from 'vitest';
import { listText } from '../../../src/i18n/cli.ts';

describe('listText', () => {
  it('joins with a comma in English and 、 in Chinese', () => {
    expect(listText('en', ['knowledge', 'safety', 'refusal'])).toBe('knowledge, safety, refusal');
    expect(listText('zh-CN', ['knowledge', 'safety', 'refusal'])).toBe(
      'knowledge、safety、refusal',
    );
  });

  it('gives one item alone and nothing for none', () => {
    expect(listText('zh-CN', ['m1'])).toBe('m1');
    expect(listText('en', [])).toBe('');
  });
});
