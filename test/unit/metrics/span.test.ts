import { describe, expect, it } from 'vitest';
import { charF1, exactMatch } from '../../../src/eval/metrics/index.ts';

const r3 = (x: number) => Math.round(x * 1000) / 1000;

describe('CMRC 2018 exact match / F1 on the cmrc2018 profile (the official script)', () => {
  it.each([
    ['中华人民共和国', ['中华人民共和国'], 1, 1.0],
    ['中华人民共和国成立', ['中华人民共和国'], 0, 0.875],
    ['人民共和国中华', ['中华人民共和国'], 0, 0.714],
    ['长江中下游', ['长江', '长江流域'], 0, 0.571],
    ['北京。', ['北京'], 1, 1.0],
  ] as const)('%s vs %j → EM %d, F1 %d', (pred, golds, em, f1) => {
    expect(exactMatch(pred, golds, 'cmrc2018')).toBe(em);
    expect(r3(charF1(pred, golds, 'cmrc2018'))).toBe(f1);
  });

  it('uses the longest common contiguous run, not bag-of-tokens overlap', () => {
    // Same characters, different order: bag-of-tokens F1 would be 1.0.
    expect(r3(charF1('京北', ['北京'], 'cmrc2018'))).toBe(0.5);
  });

  it('keeps the official quirks: ASCII punctuation stays a token; list marks vanish without splitting a word', () => {
    expect(exactMatch('北京,', ['北京'], 'cmrc2018')).toBe(0);
    expect(exactMatch('《红楼梦》', ['红楼梦'], 'cmrc2018')).toBe(1);
    expect(exactMatch('GPT-4', ['gpt4'], 'cmrc2018')).toBe(1);
    expect(exactMatch('ＡＢＣ', ['abc'], 'cmrc2018')).toBe(0); // no NFKC in the official script
    expect(r3(charF1('1990年', ['1990'], 'cmrc2018'))).toBe(0.667);
  });
});

describe('default profile', () => {
  it('北京. (ASCII full stop): EM 1, F1 1.0 — the default profile strips every Unicode punctuation mark, and "." is \\p{P}; cmrc2018 gives EM 0, F1 0.8 because the official list has no ASCII "."', () => {
    expect(exactMatch('北京.', ['北京'], 'default')).toBe(1);
    expect(charF1('北京.', ['北京'], 'default')).toBe(1);
    expect(exactMatch('北京.', ['北京'], 'cmrc2018')).toBe(0);
    expect(r3(charF1('北京.', ['北京'], 'cmrc2018'))).toBe(0.8);
  });

  it('folds full-width forms and case, strips symbols', () => {
    expect(exactMatch('ＡＢＣ', ['abc'], 'default')).toBe(1);
    expect(exactMatch('约 100～200 米', ['约100200米'], 'default')).toBe(0); // the space between 约 and 100 stays a separator
    expect(charF1('约 100～200 米', ['约100200米'], 'default')).toBe(1);
  });

  it('gives the issue table the same figures as cmrc2018 where no ASCII punctuation is involved', () => {
    expect(r3(charF1('中华人民共和国成立', ['中华人民共和国'], 'default'))).toBe(0.875);
    expect(r3(charF1('长江中下游', ['长江', '长江流域'], 'default'))).toBe(0.571);
  });
});
