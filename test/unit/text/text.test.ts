import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CMRC2018_PUNCTUATION,
  cmrcNormalize,
  foldPunctuation,
  mixedSegmentation,
  mixedTokens,
  nfkc,
  normalizeAnswer,
  pyStrip,
  treebankWordTokenize,
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
  it('cmrc2018: Latin runs split by NLTK word_tokenize rules (periods in words, clitics, glued symbols)', () => {
    expect(mixedSegmentation('J.K.罗琳', true)).toEqual(['j.k', '.', '罗', '琳']);
    expect(mixedSegmentation('.NET Framework', true)).toEqual(['.net', 'framework']);
    expect(mixedSegmentation('28℃', true)).toEqual(['28℃']);
    expect(mixedSegmentation('\ufeff村雨城', true)).toEqual(['\ufeff', '村', '雨', '城']);
  });
  it('default: NFKC + lower + no punctuation, Han per character (any block), Latin/digit runs as words', () => {
    expect(mixedTokens('GPT-4是OpenAI的模型')).toEqual(['gpt4', '是', 'openai', '的', '模', '型']);
    expect(mixedTokens('Ｎｅｗ York 紐約')).toEqual(['new', 'york', '紐', '約']);
    expect(mixedTokens('𠀀字')).toEqual(['𠀀', '字']); // CJK Extension B is Han too
  });
});

describe('Python strip() and NLTK NLTKWordTokenizer', () => {
  it('strip() keeps U+FEFF and U+200B, removes U+3000, U+0085 and U+001C–U+001F', () => {
    expect(pyStrip('\ufeffa\u200b')).toBe('\ufeffa\u200b');
    expect(pyStrip('\u3000\u0085\u001c a \t\n\u00a0')).toBe('a');
  });
  // Expected tokens as NLTK's own doctests and rules give them (nltk/tokenize/destructive.py).
  it.each([
    [
      'Good muffins cost $3.88 (roughly 3,36 euros)\nin New York.  Please buy me\ntwo of them.\nThanks.',
      [
        'Good',
        'muffins',
        'cost',
        '$',
        '3.88',
        '(',
        'roughly',
        '3,36',
        'euros',
        ')',
        'in',
        'New',
        'York.',
        'Please',
        'buy',
        'me',
        'two',
        'of',
        'them.',
        'Thanks',
        '.',
      ],
    ],
    ["J.K. Rowling's 28℃ .NET don't.", ['J.K.', 'Rowling', "'s", '28℃', '.NET', 'do', "n't", '.']],
    ['"Hello," he said', ['``', 'Hello', ',', "''", 'he', 'said']],
    [
      'cannot gonna wanna go... U.S.',
      ['can', 'not', 'gon', 'na', 'wan', 'na', 'go', '...', 'U.S', '.'],
    ],
    ['46,600m² a:b 1:2', ['46,600m²', 'a', ':', 'b', '1:2']],
    ["'tis 'twas", ["'t", 'is', "'t", 'was']],
    ['x, y;z', ['x', ',', 'y', ';', 'z']],
  ])('%j', (text, tokens) => {
    expect(treebankWordTokenize(text)).toEqual(tokens);
  });
});

describe('treebankWordTokenize against NLTK on random strings', () => {
  it('gives NLTK’s tokens on all 400 stored cases (see made_with in the file)', () => {
    const doc = JSON.parse(
      readFileSync(new URL('./treebank-nltk.cases.json', import.meta.url), 'utf8'),
    ) as { cases: [string, string[]][] };
    expect(doc.cases).toHaveLength(400);
    const wrong = doc.cases.filter(
      ([s, t]) => JSON.stringify(treebankWordTokenize(s)) !== JSON.stringify(t),
    );
    expect(wrong).toEqual([]);
  });
});
