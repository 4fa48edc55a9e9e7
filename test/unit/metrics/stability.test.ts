import { describe, expect, it } from 'vitest';
import {
  completeness,
  knowledgeExactMatch,
  stability,
  statedAnswer,
} from '../../../src/eval/metrics/index.ts';

const right = { correct: true, normalized: '亚洲' };
const wrong = (t: string) => ({ correct: false, normalized: t });

describe('stability of five phrasings (docs/scoring.md §2.7)', () => {
  it('gives the values docs/scoring.md states', () => {
    expect(stability([right, right, right, right, right]).score).toBe(1);
    expect(stability([right, right, right, right, wrong('欧洲')]).score).toBeCloseTo(0.64, 12);
    expect(stability([right, right, right, wrong('欧洲'), wrong('非洲')]).score).toBeCloseTo(
      0.36,
      12,
    );
    expect(stability([right, right, wrong('欧洲'), wrong('欧洲'), wrong('欧洲')])).toEqual({
      correct: 2,
      agreeing: 3,
      n: 5,
      score: 6 / 25,
    });
    expect(stability([right, right, wrong('a'), wrong('b'), wrong('c')]).score).toBeCloseTo(
      0.16,
      12,
    );
    expect(
      stability([wrong('欧洲'), wrong('欧洲'), wrong('欧洲'), wrong('欧洲'), wrong('欧洲')]).score,
    ).toBe(0);
  });

  it('treats every right answer as agreeing, and one answer as exact match', () => {
    expect(stability([right, { correct: true, normalized: '亚细亚洲' }]).score).toBe(1);
    expect(stability([right]).score).toBe(1);
    expect(stability([wrong('x')]).score).toBe(0);
    expect(() => stability([])).toThrow(RangeError);
  });
});

describe('completeness on the ten-point scale (ZhuJiu App. B)', () => {
  it('四大发明 answered 火药, 指南针, 造纸术, 瓷器 is 7.5', () => {
    expect(completeness('火药, 指南针, 造纸术, 瓷器', '火药、指南针、造纸术、印刷术')).toEqual({
      covered: 3,
      required: 4,
      score: 0.75,
      tenPoint: 7.5,
      missing: ['印刷术'],
    });
  });

  it('covers an element by any of its accepted names', () => {
    const r = completeness('朝鲜、俄罗斯、蒙古', [['朝鲜', '北韩'], ['俄罗斯'], ['越南']]);
    expect(r).toMatchObject({ covered: 2, required: 3, missing: ['越南'] });
    expect(completeness('北韩', [['朝鲜', '北韩']]).score).toBe(1);
    expect(() => completeness('x', [['']])).toThrow(RangeError);
  });
});

describe('knowledge exact match', () => {
  it('compares the stated answer with every accepted form', () => {
    expect(knowledgeExactMatch('亚洲。', ['亚洲'])).toEqual({ score: 1, stated: '亚洲' });
    expect(knowledgeExactMatch('答案：+86', ['86', '+86']).score).toBe(1);
    expect(knowledgeExactMatch('2026年10月1日', ['10月1日', '2026年10月1日']).score).toBe(1);
    expect(knowledgeExactMatch('位于亚洲', ['亚洲']).score).toBe(0);
    expect(knowledgeExactMatch('\n\nCNY\n人民币的代码', ['CNY']).score).toBe(1);
    expect(() => knowledgeExactMatch('x', [])).toThrow(RangeError);
  });

  it('takes the text after the last answer marker', () => {
    expect(statedAnswer('让我想想。答案是：欧洲')).toBe('欧洲');
    expect(statedAnswer('我的回答：大洋洲')).toBe('大洋洲');
    expect(statedAnswer('答复很简单')).toBe('答复很简单');
  });
});
