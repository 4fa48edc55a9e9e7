import { describe, expect, it } from 'vitest';
import { charF1, exactMatch } from '../../../src/eval/metrics/index.ts';
import { spanFigures } from '../../../src/eval/summary.ts';

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

describe('cmrc2018: NLTK word tokens for Latin runs and Python strip()/lower(), as the official script', () => {
  // Official EM / F1 from ymcui/cmrc2018 baseline/cmrc2018_evaluate.py (calc_em_score, calc_f1_score).
  it.each([
    ['28', ['28℃'], 0, 0], // a symbol glued to a number stays in the word: 28℃ is one token
    ['罗琳', ['J.K.罗琳'], 0, 0.667], // j.k. before Chinese is a run of its own; its final period splits off
    ['NET Framework', ['.NET Framework'], 0, 0.5], // .net is one word
    ['村雨城', ['\ufeff村雨城'], 0, 0.857], // strip() keeps U+FEFF: it is a token of its own
    ['\ufeff村雨城', ['村雨城'], 0, 0.857],
    ['\u3000村雨城\u0085', ['村雨城'], 1, 1], // U+3000 and U+0085 are white space to Python
    ["罗琳's", ['罗琳'], 0, 0.8], // 's splits off
    ["don't", ['do'], 0, 0.667], // n't splits off
    ['46,600m²', ['46,600'], 0, 0],
    ['约46,600m²', ['46,600m²'], 0, 0.667],
    ['http://www.example.com/a.html', ['www.example.com'], 0, 0], // ':' and '/' vanish inside the run
    ['HELLO World', ['hello world'], 1, 1],
  ] as const)('%j vs %j → EM %d, F1 %d', (pred, golds, em, f1) => {
    expect(exactMatch(pred, golds, 'cmrc2018')).toBe(em);
    expect(r3(charF1(pred, golds, 'cmrc2018'))).toBe(f1);
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

describe('span figures of a run summary (the official script: EM, F1, AVERAGE in 0–100)', () => {
  it('EM = 100 × mean exact match, F1 = 100 × mean F1, AVERAGE = (EM + F1) / 2, to 3 decimals', () => {
    expect(spanFigures(3, 4.5, 6, 6)).toEqual({ em: 50, f1: 75, average: 62.5 });
    expect(spanFigures(1, 2, 3, 3)).toEqual({ em: 33.333, f1: 66.667, average: 50 });
  });
});
