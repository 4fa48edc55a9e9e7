/**
 * Command line texts said by renderers outside a command's own output, in both languages of the catalogue: the
 * English is the text the command printed before it joined the catalogue, the Chinese its translation.
 */
import { describe, expect, it } from 'vitest';
import { upgradeProgressLine } from '../../../src/cli/migrate.ts';

describe('zhujiu migrate --upgrade-data-dir progress', () => {
  it('says each copied table in the command line language', () => {
    expect(upgradeProgressLine('en', { table: 'votes', rows: 10 })).toBe('copied votes: 10 rows');
    expect(upgradeProgressLine('zh-CN', { table: 'votes', rows: 10 })).toBe('已复制 votes：10 行');
  });
});
