import { describe, expect, it } from 'vitest';
import {
  chineseNumber,
  dateForms,
  numberForms,
  pinyinForms,
  toneForms,
  toneOf,
} from '../../../src/eval/datasets/knowledge/forms.ts';
import {
  allPhrasings,
  question,
  TEMPLATES,
} from '../../../src/eval/datasets/knowledge/templates.ts';

describe('knowledge question templates', () => {
  it('have five distinct phrasings per relation, each with the same slots', () => {
    for (const [relation, t] of Object.entries(TEMPLATES)) {
      expect(new Set(t.phrasings).size, relation).toBe(5);
      const slots = t.phrasings.map((p) =>
        [...new Set([...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort().join(),
      );
      expect(new Set(slots).size, relation).toBe(1);
      expect(t.instruction, relation).toMatch(/^只|^请/);
    }
  });

  it('fill their slots and append the answer instruction', () => {
    expect(question('country_continent', 0, { country: '日本' })).toBe(
      '日本位于哪个大洲？只回答大洲的中文名称。',
    );
    const five = allPhrasings('char_strokes', { char: '汉' });
    expect(five).toHaveLength(5);
    expect(five.every((q) => q.includes('汉') && q.endsWith('只回答笔画数。'))).toBe(true);
    expect(() => question('char_strokes', 5, { char: '汉' })).toThrow(RangeError);
    expect(() => question('char_strokes', 0, {})).toThrow(/no value for \{char\}/);
  });
});

describe('answer forms', () => {
  it('writes numbers in Chinese numerals', () => {
    expect([0, 7, 10, 12, 20, 21, 99].map(chineseNumber)).toEqual([
      '零',
      '七',
      '十',
      '十二',
      '二十',
      '二十一',
      '九十九',
    ]);
    expect(() => chineseNumber(100)).toThrow(RangeError);
    expect(numberForms(8, '天')).toEqual(['8', '8天', '八', '八天']);
  });

  it('writes dates as 某月某日 first, then with the year and in ISO form', () => {
    expect(dateForms('2025-01-28')).toEqual([
      '1月28日',
      '2025年1月28日',
      '01月28日',
      '2025-01-28',
      '1/28',
    ]);
    expect(dateForms('2026-12-22')).toEqual(['12月22日', '2026年12月22日', '2026-12-22', '12/22']);
    expect(() => dateForms('2025/1/28')).toThrow(RangeError);
  });

  it('reads tones from tone marks', () => {
    expect(toneOf('hàn')).toEqual({ tone: 4, numbered: 'han4' });
    expect(toneOf('de')).toEqual({ tone: 5, numbered: 'de' });
    expect(pinyinForms('lǜ')).toEqual(['lǜ', 'lü4', 'lv4', 'lu:4']);
    expect(toneForms(3)).toEqual(['第三声', '三声', '3', '第3声', '上声']);
  });
});
