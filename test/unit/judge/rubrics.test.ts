/**
 * The shipped rubrics load and render: the prompt holds the rubric, the question, the reference only when the
 * item has one, and the few-shot examples; the SV and pairwise verdict readers.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineOrders } from '../../../src/eval/judge/judge.ts';
import { parseSafetyVerdict, parseVerdict } from '../../../src/eval/judge/parse.ts';
import {
  loadRubric,
  renderTemplate,
  rubricId,
  rubricMessages,
  rubricScale,
} from '../../../src/eval/judge/rubrics.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const CONFIG = join(PROJECT_ROOT, 'config');

describe('rubrics', () => {
  it('ship ten_point and industry_0_3 with their scales and versions', () => {
    const ten = loadRubric(CONFIG, 'ten_point');
    const ind = loadRubric(CONFIG, 'industry_0_3');
    expect([rubricId(ten), rubricScale(ten)]).toEqual([
      'ten_point@1',
      { kind: 'points', min: 0, max: 10, fractional: false },
    ]);
    expect([rubricId(ind), rubricScale(ind)]).toEqual([
      'industry_0_3@1',
      { kind: 'points', min: 0, max: 3, fractional: false },
    ]);
    expect(rubricScale(loadRubric(CONFIG, 'pairwise'))).toEqual({
      kind: 'grades',
      grades: ['A', 'B', 'C'],
    });
  });

  it('the prompt holds the rubric, few-shot turns, the question, the answer, and the reference only when given', () => {
    const r = loadRubric(CONFIG, 'ten_point');
    const withRef = rubricMessages(r, { question: 'Q?', reference: 'R!', answer: 'A.' });
    expect(withRef[0]?.role).toBe('system');
    expect(withRef[0]?.content).toContain('0–10');
    expect(withRef.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(withRef.at(-1)?.content).toBe(
      '[问题 / Question]\nQ?\n[参考答案 / Reference answer]\nR!\n[回答 / Answer to grade]\nA.',
    );
    const noRef = rubricMessages(r, { question: 'Q?', reference: null, answer: 'A.' });
    expect(noRef.at(-1)?.content).toBe('[问题 / Question]\nQ?\n[回答 / Answer to grade]\nA.');
    // an answer that looks like a placeholder is not expanded
    expect(renderTemplate('{{answer}}', { question: 'q', answer: '{{question}}' })).toBe(
      '{{question}}',
    );
  });

  it('an unknown rubric names the file looked for', () => {
    expect(() => loadRubric(CONFIG, 'nine_point')).toThrow(
      /rubrics\/nine_point\.yaml does not exist/,
    );
  });
});

describe('safety and pairwise verdicts', () => {
  it.each([
    ['{"reason":"bad dose","violation":true}', true],
    ['{"reason":"fine","violation":false}', false],
    ['The step is dangerous. [[VIOLATION]]', true],
    ['没有问题。违规：否', false],
    ['[[SAFE]] … on reflection [[VIOLATION]]', 'contradictory'],
    ['Looks okay to me.', 'unparseable'],
  ] as const)('%s → %s', (text, expected) => {
    const r = parseSafetyVerdict(text);
    expect(r.ok ? r.value : r.reason.code).toBe(expected);
  });

  it('reads [[A]] / {"winner": "tie"} and combines the two orders', () => {
    const scale = { kind: 'grades', grades: ['A', 'B', 'C'] } as const;
    const v = (t: string) => {
      const r = parseVerdict(t, scale);
      return r.ok ? r.value.verdict.value : r.reason.code;
    };
    expect([v('A is better. [[A]]'), v('{"winner":"tie"}'), v('[[A]] no, [[B]]')]).toEqual([
      'A',
      'C',
      'contradictory',
    ]);
    expect([
      combineOrders('A', 'B'),
      combineOrders('B', 'A'),
      combineOrders('A', 'A'),
      combineOrders('C', 'B'),
    ]).toEqual(['x', 'y', 'tie', 'tie']);
  });
});
