/**
 * The robustness perturbations (eval/robustness, docs/scoring.md §2.7) on Chinese examples: what each kind of
 * character noise does, where nothing is touched, the inserted sentences, the prior dialogue, the stated formats
 * and the regional conversion.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import {
  converter,
  homophonesOf,
  otherWidth,
  readings,
  similarShapesOf,
} from '../../../src/eval/robustness/chinese.ts';
import {
  applyNoise,
  NOISE_OPS,
  noiseEditCount,
} from '../../../src/eval/robustness/error-message.ts';
import { readFormatted } from '../../../src/eval/robustness/format-output.ts';
import {
  DISTRACTOR_SENTENCES,
  insertDistractors,
  UNRELATED_DIALOGUES,
  withPriorDialogue,
} from '../../../src/eval/robustness/redundant.ts';
import { editableText } from '../../../src/eval/robustness/text.ts';

const PASSAGE =
  '文章：小明的妈妈在北京工作，每天早上坐地铁上班。她很喜欢自己的工作，同事们也都很友好。周末她常常带小明去公园散步。\n问题：小明的妈妈在哪里工作？\nA. 上海\nB. 北京';

describe('what a perturbation may touch', () => {
  it('leaves option lines, line labels, newlines and the reference spans alone', () => {
    const t = editableText(PASSAGE, ['北京']);
    const kept = t.chars.filter((_, i) => !t.editable[i]).join('');
    expect(kept).toBe('文章：北京\n问题：\nA. 上海\nB. 北京');
  });
});

describe('character noise (Error Message)', () => {
  it('homophones share the toned pinyin read in context', () => {
    expect(readings(Array.from('重新开始'))).toEqual(['chong2', 'xin1', 'kai1', 'shi3']);
    const h = homophonesOf('是', 'shi4');
    expect(h).toContain('事');
    expect(h).toContain('市');
    expect(h).not.toContain('是');
  });

  it('similar shapes, width forms and traditional characters', () => {
    expect(similarShapesOf('己')).toEqual(expect.arrayContaining(['已', '巳']));
    expect(similarShapesOf('晴')).toContain('睛');
    expect(similarShapesOf('猫')).toEqual([]);
    expect(otherWidth('5')).toBe('５');
    expect(otherWidth('A')).toBe('Ａ');
    expect(otherWidth('，')).toBe(',');
    expect(otherWidth('中')).toBeUndefined();
    expect(converter('cn', 't')('发展')).toBe('發展');
  });

  it('every kind of edit does what it says, only where allowed, and the same seed gives the same text', () => {
    const t = editableText(PASSAGE, ['北京']);
    const seen = new Set<string>();
    const han = t.chars.filter((c, i) => t.editable[i] && /\p{Script=Han}/u.test(c)).length;
    expect(noiseEditCount(han)).toBe(Math.round(han * 0.05));
    for (let seed = 0; seed < 120; seed++) {
      const a = applyNoise(t, createRng(seed));
      expect(applyNoise(t, createRng(seed))).toEqual(a);
      expect(a.edits.length).toBe(noiseEditCount(han));
      for (const e of a.edits) {
        seen.add(e.op);
        expect(t.editable[e.at]).toBe(true);
        const reading = readings(t.chars)[e.at] as string;
        if (e.op === 'homophone') expect(homophonesOf(e.from, reading)).toContain(e.to);
        if (e.op === 'similar_shape') expect(similarShapesOf(e.from)).toContain(e.to);
        if (e.op === 'swap') expect(e.to).toBe(Array.from(e.from).reverse().join(''));
        if (e.op === 'drop') expect(e.to).toBe('');
        if (e.op === 'width') expect(e.to).toBe(otherWidth(e.from));
        if (e.op === 'traditional') expect(e.to).toBe(converter('cn', 't')(e.from));
      }
      expect(a.text).toContain('B. 北京');
      expect(a.text).toContain('\n问题：');
    }
    expect([...seen].sort()).toEqual([...NOISE_OPS].sort());
  });

  it('a text with no Han character is left as it is', () => {
    expect(applyNoise(editableText('1 + 1 = ?', undefined), createRng(1))).toEqual({
      text: '1 + 1 = ?',
      edits: [],
    });
  });
});

describe('Redundant Information and Redundant Dialogue', () => {
  it('inserts two distinct pool sentences at sentence ends of the passage; removing them gives the question back', () => {
    const t = editableText(PASSAGE, ['北京']);
    const { text, inserted } = insertDistractors(t, createRng(4));
    expect(inserted).toHaveLength(2);
    expect(new Set(inserted.map((x) => x.sentence)).size).toBe(2);
    let back = text;
    for (const x of inserted) {
      expect(DISTRACTOR_SENTENCES).toContain(x.sentence);
      expect(['。', '，'].includes(t.chars[x.at - 1] as string)).toBe(true);
      back = back.replace(x.sentence, '');
    }
    expect(back).toBe(PASSAGE);
    expect(text.endsWith('\n问题：小明的妈妈在哪里工作？\nA. 上海\nB. 北京')).toBe(true);
  });

  it('a word problem with only clause ends gets the sentences after a comma', () => {
    const q = '小明有5个苹果，又买了3个，现在一共有几个';
    const { text, inserted } = insertDistractors(editableText(q, 8), createRng(1));
    expect(inserted.every((x) => q[x.at - 1] === '，')).toBe(true);
    expect(text.length).toBe(q.length + inserted.reduce((n, x) => n + x.sentence.length, 0));
  });

  it('puts the unrelated conversation just before the question', () => {
    const d = UNRELATED_DIALOGUES[0] ?? [];
    const msgs = withPriorDialogue(
      [
        { role: 'system', content: '请解答数学题。' },
        { role: 'user', content: '题目：1+1=?' },
      ],
      d,
    );
    expect(msgs.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(msgs[1]?.content).toBe('周末想去爬山，有什么需要准备的吗？');
    expect(msgs.at(-1)?.content).toBe('题目：1+1=?');
  });
});

describe('Format Output: compliance', () => {
  it('json: the whole reply is an object with an answer (a ```json fence allowed)', () => {
    expect(readFormatted('json', '{"answer": "B"}')).toEqual({ ok: true, answer: 'B' });
    expect(readFormatted('json', '```json\n{"answer": 12}\n```')).toEqual({
      ok: true,
      answer: '12',
    });
    expect(readFormatted('json', '答案是 {"answer": "B"}')).toEqual({ ok: false });
    expect(readFormatted('json', '{"result": "B"}')).toEqual({ ok: false });
    expect(readFormatted('json', '["B"]')).toEqual({ ok: false });
  });

  it('tag: exactly one <answer> pair; final_line: the last line is 最终答案：【…】', () => {
    expect(readFormatted('tag', '我认为是<answer>北京</answer>')).toEqual({
      ok: true,
      answer: '北京',
    });
    expect(readFormatted('tag', '<answer>A</answer><answer>B</answer>')).toEqual({ ok: false });
    expect(readFormatted('final_line', '因为……\n最终答案：【C】')).toEqual({
      ok: true,
      answer: 'C',
    });
    expect(readFormatted('final_line', '最终答案：【C】\n以上。')).toEqual({ ok: false });
    expect(readFormatted('final_line', '答案：C')).toEqual({ ok: false });
  });
});

describe('Dialect: regional characters and phrases (OpenCC)', () => {
  it('Taiwan wording with its phrase table, Hong Kong characters, and back to mainland text', () => {
    const q = '我用鼠标打开软件，查看信息。';
    expect(converter('cn', 'twp')(q)).toBe('我用滑鼠開啟軟體，檢視資訊。');
    expect(converter('cn', 'hkp')(q)).toBe('我用滑鼠打開軟件，查看信息。');
    expect(converter('twp', 'cn')('我用滑鼠開啟軟體，檢視資訊。')).toBe(q);
  });
});
