/**
 * The one reader of a typed ability or method name (src/i18n/display-names.ts): the id or its display name in either
 * language is accepted (`--ability 知识`, `/ask … 推理`, `/leaderboard method 对比评估`), and a misspelling gets a
 * "did you mean" in the output's language: the display name of that language, or the id (a misspelt Chinese name in
 * English output is suggested as its id, not left without a suggestion). The catalogue's `ability.*` and `method.*`
 * are these names.
 */
import { describe, expect, it } from 'vitest';
import { BOARD_METHODS } from '../../../src/aggregate/index.ts';
import { choiceSuggestion } from '../../../src/cli/help-text.ts';
import { ABILITIES } from '../../../src/config/abilities.ts';
import { displayName, idOfName, meantId } from '../../../src/i18n/display-names.ts';
import { t } from '../../../src/i18n/index.ts';
import { meantDisplayName } from '../../../src/i18n/names.ts';

describe('typed ability and method names', () => {
  it('takes the id, the English name in any case, or the Chinese name', () => {
    expect(idOfName('knowledge', ABILITIES, 'ability')).toBe('knowledge');
    expect(idOfName('Knowledge', ABILITIES, 'ability')).toBe('knowledge');
    expect(idOfName(' 知识 ', ABILITIES, 'ability')).toBe('knowledge');
    expect(idOfName('推理', ABILITIES, 'ability')).toBe('reasoning');
    expect(idOfName('鲁棒性', ABILITIES, 'ability')).toBe('robustness');
    expect(idOfName('对比评估', BOARD_METHODS, 'method')).toBe('comparative');
    for (const bad of ['', 'knowlege', '知识x', '对比评估', 'metrics'])
      expect(idOfName(bad, ABILITIES, 'ability'), bad).toBeUndefined();
  });

  it('is the catalogue: ability.* and method.* say these names in both languages', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      for (const a of ABILITIES)
        expect(t(locale, `ability.${a}`)).toBe(displayName('ability', a, locale));
      for (const m of BOARD_METHODS)
        expect(t(locale, `method.${m}`)).toBe(displayName('method', m, locale));
    }
  });

  it('suggests the close name in the output language, or the id', () => {
    expect(meantId('knowlege', ABILITIES, 'ability', 'en')).toBe('knowledge');
    expect(meantId('knowlege', ABILITIES, 'ability', 'zh-CN')).toBe('knowledge');
    expect(meantId('知识x', ABILITIES, 'ability', 'zh-CN')).toBe('知识');
    expect(meantId('知识x', ABILITIES, 'ability', 'en')).toBe('knowledge');
    expect(meantId('推里', ABILITIES, 'ability', 'en')).toBe('reasoning');
    expect(meantId('对比评古', BOARD_METHODS, 'method', 'en')).toBe('comparative');
    // Named already, or nothing close: no suggestion.
    expect(meantId('知识', ABILITIES, 'ability', 'en')).toBeUndefined();
    expect(meantId('cooking', ABILITIES, 'ability', 'en')).toBeUndefined();
    expect(meantDisplayName('知识x', ABILITIES, 'ability', 'en')).toBe(
      ' Did you mean "knowledge"?',
    );
    expect(meantDisplayName('知识x', ABILITIES, 'ability', 'zh-CN')).toBe('你是不是想输入“知识”？');
  });
});

describe('the did-you-mean of a fixed-list option', () => {
  it('names the close choice in both languages, abilities by their names too', () => {
    expect(choiceSuggestion('en', 'cvs', ['jsonl', 'csv'])).toBe('(Did you mean csv?)');
    expect(choiceSuggestion('zh-CN', 'cvs', ['jsonl', 'csv'])).toBe('（你是不是想输入 csv？）');
    expect(choiceSuggestion('en', 'abilty', ['overall', 'ability', 'method'])).toBe(
      '(Did you mean ability?)',
    );
    expect(choiceSuggestion('en', 'knowlege', ABILITIES)).toBe('(Did you mean knowledge?)');
    expect(choiceSuggestion('en', '知识x', ABILITIES)).toBe('(Did you mean knowledge?)');
    expect(choiceSuggestion('zh-CN', '知识x', ABILITIES)).toBe('（你是不是想输入 知识？）');
    expect(choiceSuggestion('en', 'bogus', ['jsonl', 'csv'])).toBeUndefined();
  });
});
