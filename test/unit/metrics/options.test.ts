import { describe, expect, it } from 'vitest';
import { choiceScore, extractOption } from '../../../src/eval/metrics/index.ts';

/**
 * [answer text, our extraction ('C', 'wrong: several', 'wrong: none'), what OpenCompass's
 * `first_option_postprocess(text, 'ABCD')` returns ('' = nothing)]: options A–D. The third column was computed by
 * running that function (opencompass/utils/text_postprocessors.py, commit a5acc4bb) on each text. It takes the first
 * of its patterns that matches anywhere, so it can return a letter where the answer names two (`答案是B或C` → B) or
 * one merely discussed (`A项说法错误，…只有选项C是对的` → A); ours returns `several` (scored wrong) there instead.
 */
const TABLE: [string, string, string][] = [
  // Chinese answers.
  ['A项说法错误，B项不符合题意，只有选项C是对的。', 'C', 'A'],
  ['A、B两项均不正确，故选D。', 'D', 'D'],
  ['答案是B或C', 'wrong: several', 'B'],
  ['答案：Ｂ', 'B', ''],
  ['本题选C，因为A项混淆了概念。', 'C', 'C'],
  ['正确答案为(B)', 'B', 'B'],
  ['【解析】A项错误，C项错误。<eoe>\n【答案】D <eoa>', 'D', 'A'],
  ['答案应为：（Ａ）', 'A', ''],
  ['The answer is B.', 'B', 'B'],
  ['Answer: C', 'C', 'C'],
  ['综上所述，最终答案是A。', 'A', 'A'],
  ['答案是A。不过也有人认为答案是C。', 'wrong: several', 'A'],
  ['答案：A、D', 'wrong: several', 'A'],
  ['答案：AB', 'wrong: several', 'A'],
  ['所以应选择B项。', 'B', 'B'],
  ['不选A，选C。', 'C', 'A'],
  ['因此选B而不是D', 'B', 'B'],
  ['C项正确，其余各项均有错误。', 'C', 'C'],
  ['A、B项正确', 'wrong: several', 'A'],
  ['正确的是D', 'D', 'D'],
  ['只有B符合题意', 'B', 'B'],
  ['Option A is correct because the others are wrong.', 'A', 'A'],
  ['B', 'B', 'B'],
  ['（C）', 'C', 'C'],
  ['B. 北京', 'B', 'B'],
  ['A和C都有道理', 'wrong: several', 'A'],
  ['我认为A项和B项都不对', 'wrong: several', 'A'],
  ['我不确定。', 'wrong: none', ''],
  ['Because of the context, it is hard to say.', 'wrong: none', 'B'],
  ['答案：D。A项错在时间，B项错在地点。', 'D', 'D'],
  ['答案：D，A项错在时间，B项错在地点。', 'D', 'D'],
  ['答案是C，B选项说法不对', 'C', 'C'],
  ['答案：A、B、C', 'wrong: several', 'A'],
  // English and mixed answers.
  ["I think it's B, because the passage says the meeting was postponed.", 'B', 'B'],
  ["I think it's B, because A confuses the dates and C is not mentioned.", 'B', 'B'],
  ['The first sentence rules out A and C. Therefore D.', 'D', 'D'],
  ['A is about the cause, C about the effect. Therefore, D.', 'D', 'D'],
  ['The answer is (C).', 'C', 'C'],
  ['The correct answer is **C**.', 'C', 'C'],
  ['B is correct.', 'B', 'B'],
  ['B is correct: the author says so in paragraph 2.', 'B', 'B'],
  ['选项B正确', 'B', 'B'],
  ['选项B正确，选项D也正确。', 'wrong: several', 'B'],
  ['A is correct and C is correct too.', 'wrong: several', 'A'],
  ['Both B and D are correct.', 'wrong: several', 'B'],
  ["It's either B or C.", 'wrong: several', 'C'],
  ["I think it's B, but it could also be C.", 'wrong: several', 'C'],
  ["I don't think it's B; A fits better.", 'wrong: several', 'B'],
  ['B is incorrect, and so is C. The answer is A.', 'A', 'A'],
  ['B is not correct. A is correct.', 'A', 'B'],
  ['My answer: D', 'D', 'D'],
  ["I'd go with C.", 'C', 'C'],
  ['I choose A because the others contradict the text.', 'A', 'A'],
  ['So the answer is B.', 'B', 'B'],
  ['Thus, the correct option is A.', 'A', 'A'],
  ['Final answer: \\boxed{D}', 'D', 'D'],
  ['Answer: (B) 北京', 'B', 'A'],
  ['It must be C.', 'C', 'C'],
  ['It is A, since the text says "every".', 'A', 'A'],
  ['Therefore D is wrong, and B is the answer.', 'B', 'D'],
  ['我觉得是B，因为原文提到了这一点。', 'B', 'B'],
  ['应该是C。', 'C', 'C'],
  ['因此D。', 'D', 'D'],
  ['所以答案是A，不是B', 'A', 'A'],
  ['分析：A错，B错，C对。故答案为C', 'C', 'C'],
  ['The options A, B and C all misread the passage; only D remains, so D.', 'D', 'D'],
  ['答案: C。Explanation: A and B are wrong.', 'C', 'C'],
  ['Answer: B or D', 'wrong: several', 'D'],
  ['I believe the answer would be A.', 'A', 'A'],
  ['Choice C is the best.', 'C', 'C'],
  ["B and C are both plausible, so I can't decide.", 'wrong: several', 'B'],
  ['Looking at A: wrong. Looking at B: right. So B.', 'B', 'B'],
  ['Correct option: D', 'D', 'D'],
  ['The answer is B, not C.', 'B', 'C'],
  ['I think the answer is C.', 'C', 'C'],
  ["It's B.", 'B', 'B'],
  ['Option B.', 'B', 'B'],
  ['**B**', 'B', 'B'],
  ['答案是 B 和 D', 'wrong: several', 'B'],
  ['B是正确答案，A是干扰项。', 'B', 'B'],
];

function show(text: string): string {
  const e = extractOption(text, 'ABCD');
  if (e.kind === 'option') return e.letter;
  return e.kind === 'several' ? 'wrong: several' : 'wrong: none';
}

describe('ordered option extraction (options A–D)', () => {
  it.each(TABLE)('%j → %s (OpenCompass: %j)', (text, expected) => {
    expect(show(text)).toBe(expected);
  });

  it('has at least 60 answers, the two English phrasings OpenCompass gets among them', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
    expect(show("I think it's B, because A confuses the dates and C is not mentioned.")).toBe('B');
    expect(show('The first sentence rules out A and C. Therefore D.')).toBe('D');
  });

  it('never picks one option where two are asserted (OpenCompass returns the first)', () => {
    const two = TABLE.filter(([, ours]) => ours === 'wrong: several');
    expect(two.length).toBeGreaterThanOrEqual(15);
    for (const [, , oc] of two) expect(oc).not.toBe('');
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
