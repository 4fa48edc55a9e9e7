/**
 * The derived robustness datasets (eval/robustness/derive): deterministic (same seed → identical items), versioned,
 * each item naming its base; scored by the base's scorer (Format Output: compliance × correctness; Dialect: the
 * reply converted back; Unique Solution: the lowest round); the build of all six.
 */
import { describe, expect, it } from 'vitest';
import { c3Loader } from '../../../src/eval/datasets/choice.ts';
import { buildMessages, type DatasetLoader } from '../../../src/eval/datasets/loader.ts';
import { math23kLoader } from '../../../src/eval/datasets/math23k.ts';
import { cmrc2018Loader } from '../../../src/eval/datasets/span.ts';
import {
  buildRobustnessSets,
  deriveItems,
  ROBUSTNESS_TASKS,
  ROBUSTNESS_VERSION,
  type RobustnessSpec,
  type RobustnessTask,
  robustnessDataset,
  UNIQUE_SOLUTION_FOLLOW_UPS,
} from '../../../src/eval/robustness/index.ts';
import type { EvalItem, PreparedDataset } from '../../../src/eval/types.ts';

function prepared(name: string, loader: DatasetLoader, items: EvalItem[]): PreparedDataset {
  return {
    name,
    ability: 'language',
    method: 'metrics',
    metric: loader.metric,
    profile: loader.profiles[0] as string,
    templateVersion: loader.templateVersion,
    items,
    messages: (item) => buildMessages(loader, item, [], {}),
    score: (item, out) => loader.score(item, out, loader.profiles[0] as string),
  };
}

const choices = Array.from({ length: 12 }, (_, i) => ({
  key: `q${i}`,
  prompt: `材料：\n今天下午学校组织同学们去博物馆参观，大家都很高兴。第${i}组同学最先到达。\n问题：同学们下午去了哪里？\nA. 公园\nB. 博物馆`,
  reference: { answer: 'B', letters: 'AB' },
  metadata: {},
}));
const c3 = prepared('c3', c3Loader, choices);
const maths = prepared('math23k', math23kLoader, [
  {
    key: 'm1',
    prompt: '小明有5个苹果，又买了3个，现在一共有几个苹果？',
    reference: 8,
    metadata: { ans: '8' },
  },
]);
const spans = prepared('cmrc2018', cmrc2018Loader, [
  {
    key: 's1',
    prompt: '文章：他用鼠标打开了软件。\n问题：他用什么打开了软件？',
    reference: ['鼠标'],
    metadata: {},
  },
]);
const spec = (task: RobustnessTask, over: Partial<RobustnessSpec> = {}): RobustnessSpec => ({
  name: `robust_${task}`,
  task,
  seed: 7,
  ability: 'robustness',
  method: 'metrics',
  ...over,
});

describe('derivation', () => {
  it('same seed → identical items; each records task, version, seed and its base item', () => {
    for (const task of ROBUSTNESS_TASKS) {
      const a = deriveItems(spec(task, { sample: 5 }), c3);
      expect(deriveItems(spec(task, { sample: 5 }), c3)).toEqual(a);
      expect(a).toHaveLength(5);
      for (const it of a) {
        const r = it.metadata.robustness as Record<string, unknown>;
        expect(r).toMatchObject({ task, version: ROBUSTNESS_VERSION, seed: 7, base_dataset: 'c3' });
        expect(it.key).toBe(`${r.base_key}@r${ROBUSTNESS_VERSION}`);
        expect(it.reference).toEqual({ answer: 'B', letters: 'AB' });
      }
    }
  });

  it('another seed picks or perturbs differently; an item keeps its perturbation whatever else is sampled', () => {
    const a = deriveItems(spec('error_message'), c3);
    expect(deriveItems(spec('error_message', { seed: 8 }), c3)).not.toEqual(a);
    const some = deriveItems(spec('error_message', { sample: 4 }), c3);
    for (const it of some) expect(a.find((x) => x.key === it.key)).toEqual(it);
  });

  it('the prepared dataset is versioned and sends the perturbed prompt through the base template', () => {
    const ds = robustnessDataset(spec('redundant_information'), c3);
    expect(ds.templateVersion).toBe(`c3-v1+redundant_information-r${ROBUSTNESS_VERSION}`);
    expect(ds.provenance?.derived).toEqual({
      task: 'redundant_information',
      version: 1,
      base: 'c3',
    });
    const it = ds.items[0] as EvalItem;
    const user = ds.messages(it).at(-1)?.content ?? '';
    expect(user).toBe(`${it.prompt}\n请只回答正确选项的字母。`);
    expect(user.length).toBeGreaterThan((c3.items[0] as EvalItem).prompt.length);
  });
});

describe('scoring by the base', () => {
  it('format output: compliance × correctness', () => {
    const ds = robustnessDataset(spec('format_output'), c3);
    const byFormat = new Map(
      ds.items.map((it) => [
        (it.metadata.robustness as { change: { format: string } }).change.format,
        it,
      ]),
    );
    const json = byFormat.get('json') as EvalItem;
    expect(ds.messages(json).at(-1)?.content).toContain('{"answer": "你的答案"}');
    expect(ds.score(json, '{"answer": "B"}')).toMatchObject({
      raw: 1,
      max: 1,
      metric: 'format_output',
    });
    expect(ds.score(json, '{"answer": "A"}')).toMatchObject({
      raw: 0,
      detail: { compliant: true, correct: 0 },
    });
    expect(ds.score(json, 'B')).toMatchObject({ raw: 0, detail: { compliant: false } });
    const tag = byFormat.get('tag') as EvalItem;
    expect(ds.score(tag, '答案是<answer>B</answer>')).toMatchObject({ raw: 1 });
  });

  it('dialect: the passage in regional characters, the span scored after converting the reply back', () => {
    const ds = robustnessDataset(spec('dialect'), spans);
    const it = ds.items[0] as EvalItem;
    expect(it.prompt).toContain('滑鼠');
    expect(ds.score(it, '滑鼠').raw).toBe(1);
    expect(ds.score(it, '键盘').raw).toBe(0);
  });

  it('redundant dialogue: the unrelated conversation comes before the question', () => {
    const ds = robustnessDataset(spec('redundant_dialogue'), maths);
    const msgs = ds.messages(ds.items[0] as EvalItem);
    expect(msgs[0]?.role).toBe('system');
    expect(msgs.length).toBe(2 + 4);
    expect(msgs.at(-1)?.content).toBe('题目：小明有5个苹果，又买了3个，现在一共有几个苹果？');
    expect(ds.score(ds.items[0] as EvalItem, '答案：8').raw).toBe(1);
  });

  it('unique solution: pressed again twice; right every round scores, a change in any round does not', () => {
    const ds = robustnessDataset(spec('unique_solution'), maths);
    const it = ds.items[0] as EvalItem;
    expect(ds.requests?.(it)).toEqual({ kind: 'follow_up', followUps: UNIQUE_SOLUTION_FOLLOW_UPS });
    expect(UNIQUE_SOLUTION_FOLLOW_UPS[0]).toContain('你确定吗？');
    expect(UNIQUE_SOLUTION_FOLLOW_UPS[1]).toContain('请再想一想');
    expect(ds.scoreAnswers?.(it, ['答案：8', '答案：8', '答案：8'])).toMatchObject({
      raw: 1,
      detail: { changed: false },
    });
    expect(ds.scoreAnswers?.(it, ['答案：8', '答案：9', '答案：8'])).toMatchObject({
      raw: 0,
      detail: { rounds: [1, 0, 1], changed: true },
    });
  });

  it('a judged base cannot take format output or unique solution', () => {
    expect(() => robustnessDataset(spec('format_output', { method: 'scoring' }), c3)).toThrow(
      /judged/,
    );
  });
});

describe('buildRobustnessSets', () => {
  it('builds every task over its base, and names a missing base', () => {
    const bases = new Map([
      ['c3', c3],
      ['math23k', maths],
    ]);
    const sets = buildRobustnessSets(
      ROBUSTNESS_TASKS.map((task) => ({
        spec: spec(task),
        base: task === 'unique_solution' ? 'math23k' : 'c3',
      })),
      bases,
    );
    expect(sets.map((s) => [s.name, s.items.length])).toEqual(
      ROBUSTNESS_TASKS.map((t) => [`robust_${t}`, t === 'unique_solution' ? 1 : 12]),
    );
    expect(() => buildRobustnessSets([{ spec: spec('dialect'), base: 'ocnli' }], bases)).toThrow(
      /base dataset "ocnli" is not among the prepared bases \(c3, math23k\)/,
    );
  });
});
