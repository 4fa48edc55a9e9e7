import { describe, expect, it } from 'vitest';
import {
  completeness,
  numbersMatch,
  numericMatch,
  parseFinalNumber,
  parseReferenceNumber,
} from '../../../src/eval/metrics/index.ts';

describe('numeric match (Math23K)', () => {
  it.each([
    ['答：这段布还剩9米。', 9],
    ['6 ÷ 2/5 = 15，15 - 6 = 9（米）', 9],
    ['共 1,250 元', 1250],
    ['增长了12.5%', 0.125],
    ['答案是 4/9', 4 / 9],
    ['答案为\\frac{27}{8}', 27 / 8],
    ['\\boxed{19又3/4}', 19.75],
    ['一共 -3 度', -3],
    ['先算 3+4=7，再算 7×2=14。所以答案是14，检验：14÷2=7', 14],
  ])('%s → %d', (text, value) => {
    expect(parseFinalNumber(text)).toBeCloseTo(value, 10);
  });

  it('no number → undefined', () => {
    expect(parseFinalNumber('我不知道')).toBeUndefined();
  });

  it('parses Math23K references: N%, ((a)/(b)), mixed numbers, expressions', () => {
    expect(
      ['9', '34%', '((4)/(9))', '19((3)/(4))', '176((2)/(3))', '3.7', '2^3', '(1+2)*3', 'x'].map(
        parseReferenceNumber,
      ),
    ).toEqual([9, 0.34, 4 / 9, 19.75, 176 + 2 / 3, 3.7, 8, 9, undefined]);
  });

  it('relative tolerance 1e-4', () => {
    expect(numbersMatch(0.4444, 4 / 9)).toBe(true); // rel. error 1e-4 (rounded to 4 places)
    expect(numbersMatch(0.444, 4 / 9)).toBe(false);
    expect(numbersMatch(10000.5, 10000)).toBe(true);
    expect(numbersMatch(10002, 10000)).toBe(false);
    expect(numericMatch('答：0.4444', 4 / 9)).toEqual({ score: 1, parsed: 0.4444 });
    expect(numericMatch('答：无解', 1)).toEqual({ score: 0 });
  });
});

describe('completeness (ZhuJiu App. B)', () => {
  it('counts the reference elements the answer covers', () => {
    expect(
      completeness(
        'gunpowder, compass, papermaking, porcelain',
        'gunpowder, compass, papermaking, printing',
      ),
    ).toEqual({ covered: 3, required: 4, score: 0.75, tenPoint: 7.5, missing: ['printing'] });
    expect(
      completeness('四大发明是火药、指南针、造纸术和印刷术。', '火药、指南针、造纸术、印刷术')
        .score,
    ).toBe(1);
    expect(() => completeness('x', [])).toThrow(RangeError);
  });
});
