import { describe, expect, it } from 'vitest';
import {
  CMRC2018_PUNCTUATION,
  cmrcNormalize,
  foldPunctuation,
  mixedSegmentation,
  mixedTokens,
  nfkc,
  normalizeAnswer,
} from '../../../src/text/index.ts';

describe('normalisation', () => {
  it('NFKC folds full-width letters, digits and ASCII-like marks', () => {
    expect(nfkc('ＡＢＣ１２３：，！（）％～\u3000')).toBe('ABC123:,!()%~ ');
  });
  it('the CJK punctuation map folds what NFKC leaves alone', () => {
    expect(foldPunctuation('“北京”。《红楼梦》、【注】—·')).toBe('"北京".<红楼梦>,[注]-.');
  });
  it('default normalisation: NFKC, lower case, no punctuation or symbols, one space; idempotent', () => {
    const samples = [
      'Ｂｅｉｊｉｎｇ，北京。',
      '  A  b\t c  ',
      '约100～200米',
      '“GPT-4”！',
      '北京.',
    ];
    expect(samples.map(normalizeAnswer)).toEqual([
      'beijing北京',
      'a b c',
      '约100200米',
      'gpt4',
      '北京',
    ]);
    for (const s of samples) expect(normalizeAnswer(normalizeAnswer(s))).toBe(normalizeAnswer(s));
  });
  it('the cmrc2018 list is the official one: ASCII . , and ‘ are kept, …… never matches one character', () => {
    expect(CMRC2018_PUNCTUATION).toHaveLength(33);
    expect(cmrcNormalize(' 北京。，“”《》 ')).toBe('北京');
    expect(cmrcNormalize('北京.,‘…')).toBe('北京.,‘…');
    expect(cmrcNormalize('ＡＢ')).toBe('ａｂ'); // no NFKC in the official script, only lower()
  });
});

describe('mixed tokenisation', () => {
  it('cmrc2018: each Han character a token, non-Chinese runs as words; list marks skipped inside a run', () => {
    expect(mixedSegmentation('2008年北京奥运会', true)).toEqual([
      '2008',
      '年',
      '北',
      '京',
      '奥',
      '运',
      '会',
    ]);
    expect(mixedSegmentation('GPT-4 模型', true)).toEqual(['gpt4', '模', '型']);
    expect(mixedSegmentation('GPT-4', false)).toEqual(['gpt', '-', '4']);
    expect(mixedSegmentation('北京.', true)).toEqual(['北', '京', '.']);
    expect(mixedSegmentation('3.14 and 1,000 km', true)).toEqual(['3.14', 'and', '1,000', 'km']);
  });
  it('default: NFKC + lower + no punctuation, Han per character (any block), Latin/digit runs as words', () => {
    expect(mixedTokens('GPT-4是OpenAI的模型')).toEqual(['gpt4', '是', 'openai', '的', '模', '型']);
    expect(mixedTokens('Ｎｅｗ York 紐約')).toEqual(['new', 'york', '紐', '約']);
    expect(mixedTokens('𠀀字')).toEqual(['𠀀', '字']); // CJK Extension B is Han too
  });
});
