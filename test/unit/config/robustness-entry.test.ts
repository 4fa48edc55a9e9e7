/** Suite entries of derived robustness datasets (`loader: robustness`, `task:`, `base:`; config/schema). */
import { describe, expect, it } from 'vitest';
import { suiteDatasetSchema } from '../../../src/config/schema.ts';

const entry = {
  name: 'robust_dialect_c3',
  loader: 'robustness',
  task: 'dialect',
  ability: 'robustness',
  method: 'metrics',
  sample: 50,
  seed: 7,
  base: { name: 'c3', loader: 'c3', path: 'c3/dev.json', sample: 500, seed: 9 },
};
const problems = (x: unknown) => {
  const r = suiteDatasetSchema.safeParse(x);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('robustness suite entries', () => {
  it('a task and a base entry; no files of its own', () => {
    expect(problems(entry)).toEqual([]);
    expect(problems({ ...entry, task: undefined })[0]).toMatch(
      /task: a robustness dataset needs `task:`/,
    );
    expect(problems({ ...entry, task: 'typos' })[0]).toMatch(/^task: /);
    expect(problems({ ...entry, path: 'c3/dev.json' })).toEqual([
      "base: a robustness dataset reads its base's files: give `path`, `files`, `prompts`, `shots` and `profile` under `base:`",
    ]);
    expect(problems({ ...entry, base: { ...entry.base, path: undefined } })[0]).toMatch(
      /^base.files: give `path:`/,
    );
    expect(problems({ ...entry, base: { ...entry.base, loader: 'robustness' } })[0]).toMatch(
      /a base dataset needs a file format/,
    );
    expect(problems({ ...entry, loader: 'c3', path: 'x' })).toEqual([
      'task: `task:` and `base:` are for `loader: robustness` only',
    ]);
  });
});

describe('robustnessPlan', () => {
  it('one base entry per base name, one build per robustness dataset; a name standing for two entries is refused', async () => {
    const { robustnessPlan } = await import('../../../src/eval/datasets/prepare.ts');
    const { suiteSchema } = await import('../../../src/config/schema.ts');
    const suite = suiteSchema.parse({
      name: 's',
      datasets: [entry, { ...entry, name: 'robust_format_c3', task: 'format_output' }],
    });
    const plan = robustnessPlan(suite);
    expect(plan.bases.map((b) => b.name)).toEqual(['c3']);
    expect(plan.builds.map((b) => [b.spec.name, b.spec.task, b.base])).toEqual([
      ['robust_dialect_c3', 'dialect', 'c3'],
      ['robust_format_c3', 'format_output', 'c3'],
    ]);
    const clash = suiteSchema.parse({
      name: 's',
      datasets: [entry, { ...entry, name: 'x', base: { ...entry.base, seed: 1 } }],
    });
    expect(() => robustnessPlan(clash)).toThrow(/base "c3" differs from the base of that name/);
  });
});
