import { describe, expect, it } from 'vitest';
import {
  knowledgeLoader,
  knowledgeRequests,
  parseKnowledge,
} from '../../../src/eval/datasets/knowledge/loader.ts';
import { sayCli } from '../../../src/i18n/cli.ts';

const provenance = [{ package: 'countries-list', version: '3.4.1', licence: 'MIT' }];
const base = {
  relation: 'country_continent',
  fact: 'country_continent:JP',
  template: 'knowledge-v1',
  provenance,
};
const rows = [
  {
    ...base,
    id: 'world_accuracy/001',
    perspective: 'world',
    property: 'accuracy',
    question: '日本位于哪个大洲？',
    answers: ['亚洲'],
    reference: '亚洲',
  },
  {
    ...base,
    id: 'world_robustness/001',
    perspective: 'world',
    property: 'robustness',
    question: 'q1',
    variants: ['q1', 'q2', 'q3', 'q4', 'q5'],
    answers: ['亚洲'],
    reference: '亚洲',
  },
  {
    ...base,
    id: 'world_completeness/001',
    relation: 'country_borders',
    perspective: 'world',
    property: 'completeness',
    question: '四大发明是哪些？',
    answers: [],
    elements: [['火药'], ['指南针'], ['造纸术'], ['印刷术', '活字印刷术']],
    reference: '火药、指南针、造纸术、印刷术',
  },
];
const text = rows.map((r) => JSON.stringify(r)).join('\n');
const items = parseKnowledge([{ name: 'k.jsonl', text }]).items;
const [acc, rob, comp] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];

describe('the knowledge loader', () => {
  it('reads built rows into items with the reference for the judge', () => {
    expect(items.map((i) => i.key)).toEqual([
      'world_accuracy/001',
      'world_robustness/001',
      'world_completeness/001',
    ]);
    expect(acc.reference).toBe('亚洲');
    expect(acc.metadata).toMatchObject({ perspective: 'world', property: 'accuracy', provenance });
    expect(knowledgeLoader.user(acc)).toBe('日本位于哪个大洲？');
  });

  it('reports bad rows as file:line', () => {
    const bad = [
      JSON.stringify({ ...rows[1], variants: undefined }),
      JSON.stringify({ ...rows[0], answers: [] }),
      JSON.stringify({ ...rows[0], property: 'speed' }),
      JSON.stringify(rows[0]),
      '{',
    ].join('\n');
    const said = parseKnowledge([{ name: 'k.jsonl', text: bad }]).problems;
    const p = said.map((x) => sayCli('en', x));
    expect(p[0]).toBe('k.jsonl:1: a robustness row needs "variants" (the phrasings)');
    expect(p[1]).toBe('k.jsonl:2: "answers" is empty: give the accepted answers');
    expect(p[2]).toMatch(/^k\.jsonl:3: "property"/);
    expect(p).toHaveLength(4);
    expect(p.at(-1)).toMatch(/^k\.jsonl:5/);
    const zh = said.map((x) => sayCli('zh-CN', x));
    expect(zh[0]).toBe('k.jsonl:1：robustness 行需要 `variants`（各种问法）');
    expect(zh[2]).toMatch(/^k\.jsonl:3：`property` 应为以下之一：“accuracy”、/);
  });

  it('asks a robustness item as five independent requests, the others as one', () => {
    expect(knowledgeRequests(rob)).toEqual({
      kind: 'independent',
      variants: ['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => [{ role: 'user', content: q }]),
    });
    expect(knowledgeRequests(acc)).toBeUndefined();
    expect(knowledgeRequests(comp)).toBeUndefined();
  });

  it('scores each property with its metric', () => {
    const sa = knowledgeLoader.scoreAnswers;
    if (!sa) throw new Error('knowledgeLoader has no scoreAnswers');
    expect(sa(rob, ['亚洲', '亚洲。', '答案：亚洲', '欧洲', '欧洲'], 'default')).toMatchObject({
      raw: (3 / 5) * (3 / 5),
      max: 1,
      metric: 'stability',
      detail: { correct: 3, agreeing: 3, n: 5 },
    });
    expect(sa(rob, Array(5).fill('亚洲'), 'default').raw).toBe(1);
    expect(() => sa(rob, Array(6).fill('亚洲'), 'default')).toThrow(RangeError);
    expect(knowledgeLoader.score(rob, '亚洲', 'default')).toMatchObject({
      raw: 1,
      metric: 'stability',
    });
    expect(knowledgeLoader.score(acc, '亚洲', 'default')).toMatchObject({
      raw: 1,
      max: 1,
      metric: 'exact_match',
    });
    expect(knowledgeLoader.score(acc, '欧洲', 'default').raw).toBe(0);
    const c = knowledgeLoader.score(comp, '火药, 指南针, 造纸术, 瓷器', 'default');
    expect(c).toMatchObject({
      raw: 0.75,
      max: 1,
      metric: 'completeness',
      detail: { missing: ['印刷术'] },
    });
    expect((10 * c.raw) / c.max).toBe(7.5);
  });
});
