/**
 * Suites that include other suites (config/suite-include.ts, README "Datasets and suites"): the shipped `zhujiu`
 * suite, caps and seeds, nesting, and the errors for an unknown suite, a cycle and a dataset name that comes twice.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { seededSample } from '../../../src/eval/datasets/prepare.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

function configWith(suites: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-include-'));
  mkdirSync(join(dir, 'suites'));
  for (const [name, body] of Object.entries(suites)) writeFileSync(join(dir, 'suites', name), body);
  return dir;
}

function load(dir: string, locale: 'en' | 'zh-CN' = 'en') {
  return loadConfig({ configDir: dir, env: {}, cwd: dir, locale });
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

const metrics = (name: string, extra = '') =>
  `  - name: ${name}\n    loader: c3\n    ability: language\n    method: metrics\n    path: ${name}.json\n${extra}`;

describe('suite include', () => {
  it('the shipped zhujiu suite runs each included suite capped (metrics ≤ 100, scoring ≤ 50), seeds kept', () => {
    const c = loadConfig({ configDir: join(PROJECT_ROOT, 'config'), env: {} });
    const zhujiu = c.suites.get('zhujiu');
    if (!zhujiu) throw new Error('the shipped zhujiu suite is missing');
    expect(zhujiu.include.slice(0, 2)).toEqual([
      { suite: 'zhujiu-metrics', sample: 100 },
      { suite: 'zhujiu-scoring', sample: 50 },
    ]);
    const parts = zhujiu.include.map((i) => [c.suites.get(i.suite), i.sample] as const);
    expect(zhujiu.datasets.map((d) => d.name)).toEqual(
      parts.flatMap(([s]) => s?.datasets.map((d) => d.name) ?? []),
    );
    for (const [from, cap] of parts) {
      for (const d of from?.datasets ?? []) {
        const z = zhujiu.datasets.find((x) => x.name === d.name);
        const sample =
          cap === undefined || d.loader === undefined
            ? d.sample
            : Math.min(d.sample ?? Infinity, cap);
        expect(z).toEqual({ ...d, ...(sample !== undefined ? { sample } : {}) });
        expect(zhujiu.from?.[d.name]).toBe(from?.from?.[d.name] ?? from?.name);
      }
    }
    const abilities = new Set(zhujiu.datasets.map((d) => d.ability));
    for (const a of ['language', 'reasoning', 'chinese_specific', 'knowledge', 'safety', 'refusal'])
      expect(abilities.has(a as never), a).toBe(true);
    expect(new Set(zhujiu.datasets.map((d) => d.method))).toEqual(new Set(['metrics', 'scoring']));
  });

  it('with the same seed, a capped sample is a subset of the larger one', () => {
    const big = new Set(seededSample(500, 200, 9).chosen);
    expect(seededSample(500, 50, 9).chosen.every((i) => big.has(i))).toBe(true);
  });

  it('caps, seeds, shorthand, nesting and own datasets', () => {
    const dir = configWith({
      'a.yaml': `name: a\ndatasets:\n${metrics('x', '    sample: 30\n    seed: 4\n')}${metrics('y')}`,
      'b.yaml': 'name: b\ninclude:\n  - suite: a\n    sample: 50\n    seed: 2\n',
      'c.yaml': `name: c\ninclude:\n  - b\n  - {suite: d, sample: 10}\ndatasets:\n${metrics('own')}`,
      'd.yaml':
        'name: d\ndatasets:\n  - name: prompts\n    ability: language\n    method: comparative\n',
      'e.yaml': 'name: e\ninclude: [{suite: b, sample: 20}]\n',
    });
    const c = load(dir);
    const pick = (suite: string) =>
      c.suites.get(suite)?.datasets.map((d) => [d.name, d.sample ?? null, d.seed]);
    // x keeps its smaller sample, y is capped; both get the include's seed
    expect(pick('b')).toEqual([
      ['x', 30, 2],
      ['y', 50, 2],
    ]);
    // nested: b's datasets through c unchanged; a stored-items dataset is not sampled; own datasets last
    expect(pick('c')).toEqual([
      ['x', 30, 2],
      ['y', 50, 2],
      ['prompts', null, 0],
      ['own', null, 0],
    ]);
    expect(c.suites.get('c')?.from).toEqual({ x: 'a', y: 'a', prompts: 'd', own: 'c' });
    // caps compose: the smallest wins
    expect(pick('e')).toEqual([
      ['x', 20, 2],
      ['y', 20, 2],
    ]);
    // an included suite itself is unchanged
    expect(pick('a')).toEqual([
      ['x', 30, 4],
      ['y', null, 0],
    ]);
  });

  it('an unknown suite names the file, the line, the suites there are and the fix', () => {
    const dir = configWith({
      'a.yaml': `name: a\ndatasets:\n${metrics('x')}`,
      'z.yaml': 'name: z\ninclude:\n  - a\n  - zhujiu-robustnes\n',
    });
    expect(errorOf(() => load(dir))).toBe(
      `${join(dir, 'suites', 'z.yaml')}:4:5 include[2]: unknown suite "zhujiu-robustnes"; the suites of ${join(dir, 'suites')}/ are a, z: fix the name or add the suite`,
    );
  });

  it('a cycle names the chain; a suite including itself too', () => {
    const dir = configWith({
      'a.yaml': `name: a\ninclude: [b]\ndatasets:\n${metrics('x')}`,
      'b.yaml': 'name: b\ninclude: [c]\n',
      'c.yaml': 'name: c\ninclude: [a]\n',
      's.yaml': `name: s\ninclude: [s]\ndatasets:\n${metrics('y')}`,
    });
    const lines = errorOf(() => load(dir)).split('\n');
    expect(lines).toEqual([
      `${join(dir, 'suites', 'c.yaml')}:2:11 include[1]: including suite "a" makes a cycle (a → b → c → a); remove one include of this chain`,
      `${join(dir, 'suites', 's.yaml')}:2:11 include[1]: including suite "s" makes a cycle (s → s); remove one include of this chain`,
    ]);
  });

  it('a dataset name twice in one suite with its includes names both parts and the fix', () => {
    const dir = configWith({
      'a.yaml': `name: a\ndatasets:\n${metrics('x')}`,
      'b.yaml': `name: b\ndatasets:\n${metrics('x')}`,
      'z.yaml': `name: z\ninclude: [a, b]\ndatasets:\n${metrics('x')}`,
    });
    const file = join(dir, 'suites', 'z.yaml');
    expect(errorOf(() => load(dir)).split('\n')).toEqual([
      `${file}: dataset "x" of suite "z" comes twice (include "a" and include "b"); dataset names must be unique within a suite with its includes: include only one of them, or rename one dataset`,
      `${file}: dataset "x" of suite "z" comes twice (include "a" and its own datasets); dataset names must be unique within a suite with its includes: include only one of them, or rename one dataset`,
    ]);
  });

  it('a suite with neither datasets nor include, and bad overrides, are refused with the fix', () => {
    const dir = configWith({
      'a.yaml': 'name: a\n',
      'b.yaml': 'name: b\ninclude:\n  - suite: a\n    sample: 0\n    sampel: 3\n',
    });
    const msg = errorOf(() => load(dir));
    expect(msg).toContain(
      'a.yaml:1:1 datasets: a suite needs `datasets:` (its own datasets) or `include:` (names of other suites), or both',
    );
    expect(msg).toMatch(/b\.yaml:4:13 include\[1\]\.sample: /);
  });

  it('says the three problems in Chinese for a Chinese command line', () => {
    const dir = configWith({
      'a.yaml': `name: a\ninclude: [b]\ndatasets:\n${metrics('x')}`,
      'b.yaml': `name: b\ninclude: [a, nope]\ndatasets:\n${metrics('x')}`,
      'z.yaml': `name: z\ninclude: [c, d]\n`,
      'c.yaml': `name: c\ndatasets:\n${metrics('y')}`,
      'd.yaml': `name: d\ndatasets:\n${metrics('y')}`,
    });
    const lines = errorOf(() => load(dir, 'zh-CN')).split('\n');
    const suites = join(dir, 'suites');
    expect(lines).toContain(
      `${join(suites, 'b.yaml')}:2:14 include[2]：未知的评测套件“nope”；${suites}/ 中的评测套件有 a、b、c、d、z：请改正名称，或添加这个评测套件`,
    );
    expect(lines.some((l) => l.includes('包含评测套件“a”形成了循环（a → b → a）'))).toBe(true);
    expect(lines).toContain(
      `${join(suites, 'z.yaml')}：评测套件“z”的数据集“y”出现了两次（包含的评测套件“c”和包含的评测套件“d”）；一个评测套件连同它包含的套件，数据集名称必须各不相同：只包含其中一个，或给其中一个数据集改名`,
    );
  });
});
