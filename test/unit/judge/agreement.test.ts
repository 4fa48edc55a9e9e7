/**
 * Agreement figures (docs/scoring.md §3.6): kappa on a hand-computed table, and the published PandaLM figures
 * (three annotators; the GPT-3.5 judge against the majority label).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { agreement, joinLabels, type LabelPair } from '../../../src/eval/metrics/agreement.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { parseLabels } from '../../../src/import/formats/labels.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

describe('agreement on a hand-computed table', () => {
  // A\B  0 1 2
  //  0   1 1 0
  //  1   0 2 0
  //  2   1 0 1      p_o = 4/6, p_e = (2·2 + 2·3 + 2·1)/36 = 1/3 → κ = 1/2
  // linear:    Σ|i−j|·O = 3, Σ|i−j|·r_i·c_j/n = 5 → κ_lin = 1 − 3/5 = 2/5
  // quadratic: Σ(i−j)²·O = 5, Σ(i−j)²·r_i·c_j/n = 7 → κ_quad = 1 − 5/7 = 2/7
  const pairs: LabelPair[] = [
    { a: 0, b: 0 },
    { a: 1, b: 1 },
    { a: 2, b: 2 },
    { a: 0, b: 1 },
    { a: 2, b: 0 },
    { a: 1, b: 1 },
  ];

  it('gives every figure', () => {
    const r = agreement(pairs);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual({
      n: 6,
      kappa: expect.closeTo(1 / 2, 12),
      kappa_linear: expect.closeTo(2 / 5, 12),
      kappa_quadratic: expect.closeTo(2 / 7, 12),
      exact: expect.closeTo(4 / 6, 12),
      within_one: expect.closeTo(5 / 6, 12),
      confusion: {
        labels: [0, 1, 2],
        counts: [
          [1, 1, 0],
          [0, 2, 0],
          [1, 0, 1],
        ],
      },
    });
  });

  it('string labels are unordered unless an order is given', () => {
    const s = pairs.map((p) => ({ a: `L${p.a}`, b: `L${p.b}` }));
    const plain = agreement(s);
    expect(plain.ok && [plain.value.kappa_linear, plain.value.within_one]).toEqual([null, null]);
    const ordered = agreement(s, { order: ['L0', 'L1', 'L2'] });
    expect(ordered.ok && ordered.value.kappa_quadratic).toBeCloseTo(2 / 7, 12);
    const missing = agreement(s, { order: ['L0', 'L1'] });
    // The reason is catalogue data, said in the reader's language (cli/judge-agree.ts).
    const reason = (locale: 'en' | 'zh-CN') => (missing.ok ? '' : sayCli(locale, missing.reason));
    expect(reason('en')).toBe('label "L2" is not in --order (L0,L1); list every label');
    expect(reason('zh-CN')).toBe('标签“L2”不在 --order（L0,L1）中；请列出每一个标签');
    const two = agreement(s, { order: ['L0'] });
    expect(two.ok ? '' : sayCli('en', two.reason)).toBe(
      'labels "L1", "L2" are not in --order (L0); list every label',
    );
  });

  it('one category only: kappa undefined, not a number', () => {
    const r = agreement([
      { a: 1, b: 1 },
      { a: 1, b: 1 },
    ]);
    expect(r.ok && r.value.kappa).toBeNull();
    const none = agreement([]);
    expect(none.ok ? '' : sayCli('zh-CN', none.reason)).toBe('没有两位标注者都标注过的题目');
  });

  it('joins on the item and reports the unmatched ones', () => {
    const a = parseLabels('{"item":"x","label":1}\n{"item":2,"label":0}\n\n', 'a.jsonl');
    const b = parseLabels('{"item":"2","label":0}\n{"item":"y","label":1}\n', 'b.jsonl');
    if (!a.ok || !b.ok) throw new Error('parse');
    expect(joinLabels(a.value, b.value)).toEqual({
      pairs: [{ a: 0, b: 0 }],
      onlyA: ['x'],
      onlyB: ['y'],
    });
  });

  it('labels files: the same syntax error on several lines is one line keeping the first column', () => {
    const r = parseLabels('{"item":"x","label":1}\nnope\nnope\n', 'f.jsonl');
    expect(r.ok ? [] : r.reason).toEqual([
      `f.jsonl:2:1: not valid JSON (expected a value (an object, array, string, number, true, false or null), found 'n'); expected {"item": ..., "label": ...} on each line (also on line 3)`,
    ]);
  });

  it('labels files: every bad line named with the fix', () => {
    const r = parseLabels(
      '{"item":"x","label":1}\nnot json\n{"item":"x","label":2}\n{"item":""}\n',
      'f.jsonl',
    );
    expect(r).toEqual({
      ok: false,
      reason: [
        `f.jsonl:2:1: not valid JSON (expected a value (an object, array, string, number, true, false or null), found 'n'); expected {"item": ..., "label": ...} on each line`,
        'f.jsonl:3: item "x" is already labelled on line 1; keep one label per item',
        'f.jsonl:4: "item" must be a non-empty string or an integer; "label" must be a number or a non-empty string',
      ],
    });
  });
});

interface PandaItem {
  idx: number;
  annotator1: number;
  annotator2: number;
  annotator3: number;
}

const PANDA = ['outputs', 'pandalm'] as const;
describe.skipIf(!hasSharedData(...PANDA, 'testset-v1.json'))('PandaLM published agreement', () => {
  // Read before the tests, not while they are collected: vitest collects a skipped describe too.
  let items: PandaItem[] = [];
  let gpt: { idx: number; gpt_result: string }[] = [];
  beforeAll(() => {
    items = JSON.parse(
      readFileSync(sharedData(...PANDA, 'testset-v1.json'), 'utf8'),
    ) as PandaItem[];
    gpt = JSON.parse(
      readFileSync(sharedData(...PANDA, 'gpt-3.5-turbo-testset-v1.json'), 'utf8'),
    ) as typeof gpt;
  });

  it('inter-annotator unweighted kappa 0.8520 / 0.8789 / 0.8617', () => {
    const k = (x: keyof PandaItem, y: keyof PandaItem) => {
      const r = agreement(items.map((it) => ({ a: it[x], b: it[y] })));
      return r.ok ? Number(r.value.kappa?.toFixed(4)) : Number.NaN;
    };
    expect([
      k('annotator1', 'annotator2'),
      k('annotator1', 'annotator3'),
      k('annotator2', 'annotator3'),
    ]).toEqual([0.852, 0.8789, 0.8617]);
  });

  it('GPT-3.5 vs the majority: accuracy 69.77 over 999, kappa 0.4929 and QWK 0.5882 on parsed', () => {
    const majority = items.map((it) => {
      const v = [it.annotator1, it.annotator2, it.annotator3];
      const top = v.find((x) => v.filter((y) => y === x).length >= 2);
      if (top === undefined) throw new Error(`item ${it.idx} has no majority`);
      return { item: String(it.idx), label: top };
    });
    const toLabel: Record<string, number> = { '1': 1, '2': 2, Tie: 0 };
    const judge = gpt
      .filter((g) => g.gpt_result in toLabel)
      .map((g) => ({ item: String(g.idx), label: toLabel[g.gpt_result] as number }));
    const joined = joinLabels(judge, majority);
    expect([joined.pairs.length, joined.onlyB.length]).toEqual([974, 25]);
    // order: response 1 better < tie < response 2 better
    const r = agreement(joined.pairs, { order: [1, 0, 2] });
    if (!r.ok) throw new Error(r.reason.key);
    const matches = r.value.confusion.counts.reduce((s, row, i) => s + (row[i] as number), 0);
    const total = joined.pairs.length + joined.onlyB.length; // unparsed counted wrong
    expect({
      accuracy: Number(((100 * matches) / total).toFixed(2)),
      kappa: Number(r.value.kappa?.toFixed(4)),
      qwk: Number(r.value.kappa_quadratic?.toFixed(4)),
    }).toEqual({ accuracy: 69.77, kappa: 0.4929, qwk: 0.5882 });
  });
});
