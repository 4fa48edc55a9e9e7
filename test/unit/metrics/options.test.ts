import { describe, expect, it } from 'vitest';
import { choiceScore, extractOption } from '../../../src/eval/metrics/index.ts';

/** [answer text, expected extraction ('C', 'wrong: several', 'wrong: none')]: options A–D. */
const TABLE: [string, string][] = [
  // The table.
  ['A项说法错误，B项不符合题意，只有选项C是对的。', 'C'],
  ['A、B两项均不正确，故选D。', 'D'],
  ['答案是B或C', 'wrong: several'],
  ['答案：Ｂ', 'B'],
  ['本题选C，因为A项混淆了概念。', 'C'],
  // More answer markers.
  ['正确答案为(B)', 'B'],
  ['【解析】A项错误，C项错误。<eoe>\n【答案】D <eoa>', 'D'],
  ['答案应为：（Ａ）', 'A'],
  ['The answer is B.', 'B'],
  ['Answer: C', 'C'],
  ['综上所述，最终答案是A。', 'A'],
  ['答案是A。不过也有人认为答案是C。', 'wrong: several'],
  ['答案：A、D', 'wrong: several'],
  ['答案：AB', 'wrong: several'],
  // Choice verbs.
  ['所以应选择B项。', 'B'],
  ['不选A，选C。', 'C'],
  ['因此选B而不是D', 'B'],
  // An option asserted correct.
  ['C项正确，其余各项均有错误。', 'C'],
  ['A、B项正确', 'wrong: several'],
  ['正确的是D', 'D'],
  ['只有B符合题意', 'B'],
  ['Option A is correct because the others are wrong.', 'A'],
  // Fallback: bare letters, only when exactly one distinct letter appears.
  ['B', 'B'],
  ['（C）', 'C'],
  ['B. 北京', 'B'],
  ['A和C都有道理', 'wrong: several'],
  ['我认为A项和B项都不对', 'wrong: several'],
  // Nothing committed.
  ['我不确定。', 'wrong: none'],
  ['Because of the context, it is hard to say.', 'wrong: none'],
  // A marker beats later mentions of other options.
  ['答案：D。A项错在时间，B项错在地点。', 'D'],
  ['答案：D，A项错在时间，B项错在地点。', 'D'],
  ['答案是C，B选项说法不对', 'C'],
  ['答案：A、B、C', 'wrong: several'],
];

function show(text: string): string {
  const e = extractOption(text, 'ABCD');
  if (e.kind === 'option') return e.letter;
  return e.kind === 'several' ? 'wrong: several' : 'wrong: none';
}

describe('ordered option extraction (options A–D)', () => {
  it.each(TABLE)('%s → %s', (text, expected) => {
    expect(show(text)).toBe(expected);
  });

  it('names the deciding pattern for audit', () => {
    expect(extractOption('A、B两项均不正确，故选D。', 'ABCD')).toEqual({
      kind: 'option',
      letter: 'D',
      pattern: 'choose',
    });
    expect(extractOption('答案是B或C', 'ABCD')).toEqual({
      kind: 'several',
      letters: ['B', 'C'],
      pattern: 'answer_marker',
    });
    expect(extractOption('B', 'ABCD')).toEqual({
      kind: 'option',
      letter: 'B',
      pattern: 'bare_letter',
    });
  });

  it('only letters of the item count (two options: A, B)', () => {
    expect(extractOption('答案是C', 'AB')).toEqual({ kind: 'none' });
    expect(extractOption('答案是G', 'ABCDEFG')).toMatchObject({ letter: 'G' });
  });

  it('scores the extracted option against the gold one (two options committed → 0)', () => {
    expect(choiceScore('本题选C，因为A项混淆了概念。', 'C', 'ABCD').score).toBe(1);
    expect(choiceScore('本题选C，因为A项混淆了概念。', 'A', 'ABCD').score).toBe(0);
    expect(choiceScore('答案是B或C', 'B', 'ABCD').score).toBe(0);
    expect(choiceScore('答案是B或C', 'C', 'ABCD').score).toBe(0);
  });
});
