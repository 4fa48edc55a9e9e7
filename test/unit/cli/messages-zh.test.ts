/**
 * Command line texts said by renderers outside a command's own output, in both languages of the catalogue: the
 * English is the text the command printed before it joined the catalogue, the Chinese its translation.
 */
import { describe, expect, it } from 'vitest';
import { upgradeProgressLine } from '../../../src/cli/migrate.ts';
import { suiteDescription } from '../../../src/config/schema.ts';
import { capProblems, groupProblems } from '../../../src/import/formats/sniff.ts';

describe('zhujiu migrate --upgrade-data-dir progress', () => {
  it('says each copied table in the command line language', () => {
    expect(upgradeProgressLine('en', { table: 'votes', rows: 10 })).toBe('copied votes: 10 rows');
    expect(upgradeProgressLine('zh-CN', { table: 'votes', rows: 10 })).toBe('已复制 votes：10 行');
  });
});

describe('problem lists of a file', () => {
  it('group the same reason on many lines and cap the list, in both languages', () => {
    const en = ['f:1: x', 'f:2: x', 'f:3: x', 'f:4: x', 'f:5: x'];
    expect(groupProblems(en)).toEqual(['f:1: x (also on lines 2, 3, 4 and 1 more)']);
    const zh = ['f:1：缺失', 'f:2：缺失', 'f:3：缺失'];
    expect(groupProblems(zh, 'zh-CN')).toEqual(['f:1：缺失（另有 2 行也是如此：第 2, 3 行）']);
    expect(capProblems(['a', 'b', 'c'], 1)).toEqual(['a', '… and 2 more problems (3 in total)']);
    expect(capProblems(['a', 'b', 'c'], 1, 'zh-CN')).toEqual(['a', '……另有 2 个问题（共 3 个）']);
  });
});

describe('suite descriptions', () => {
  it("pick the reader's language, else the other one", () => {
    const both = { en: 'A suite.', 'zh-CN': '一个评测套件。' };
    expect(suiteDescription(both, 'zh-CN')).toBe('一个评测套件。');
    expect(suiteDescription(both, 'en')).toBe('A suite.');
    expect(suiteDescription({ en: 'A suite.' }, 'zh-CN')).toBe('A suite.');
    expect(suiteDescription('One text.', 'zh-CN')).toBe('One text.');
  });
});
