/**
 * The suite's file order (test/helpers/sequencer.ts): project by project (process, unit, app), each project's files
 * shuffled by the seed, the same order for the same seed whatever order the files were found in.
 */
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { ProjectGroupedShuffle, seededShuffle } from '../../helpers/sequencer.ts';

function spec(project: string, moduleId: string): TestSpecification {
  return { project: { name: project }, moduleId } as unknown as TestSpecification;
}
function sequencer(seed: number): ProjectGroupedShuffle {
  return new ProjectGroupedShuffle({ config: { sequence: { seed } } } as unknown as Vitest);
}
const FILES = [
  ...Array.from({ length: 12 }, (_, i) => spec('unit', `/t/unit/u${i}.test.ts`)),
  ...Array.from({ length: 12 }, (_, i) => spec('app', `/t/app/a${i}.test.ts`)),
  ...Array.from({ length: 6 }, (_, i) => spec('process', `/t/process/p${i}.test.ts`)),
];
const ids = (xs: TestSpecification[]) => xs.map((x) => x.moduleId);

describe('the suite order', () => {
  it('queues process files, then unit files, then app files, each project whole', async () => {
    const order = await sequencer(7).sort([...FILES].reverse());
    const projects = order.map((s) => s.project.name);
    expect(projects).toEqual([
      ...Array(6).fill('process'),
      ...Array(12).fill('unit'),
      ...Array(12).fill('app'),
    ]);
    expect(new Set(ids(order))).toEqual(new Set(ids(FILES)));
  });

  it('shuffles within a project by the seed, whatever order the files came in', async () => {
    const a = ids(await sequencer(7).sort(FILES));
    const b = ids(await sequencer(7).sort([...FILES].reverse()));
    const c = ids(await sequencer(8).sort(FILES));
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(a.filter((x) => x.includes('/app/'))).not.toEqual(
      ids(FILES).filter((x) => x.includes('/app/')),
    );
  });

  it('seededShuffle keeps every item once', () => {
    const xs = Array.from({ length: 50 }, (_, i) => i);
    const s = seededShuffle(xs, 3);
    expect([...s].sort((p, q) => p - q)).toEqual(xs);
    expect(s).not.toEqual(xs);
  });
});
