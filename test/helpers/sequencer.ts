/**
 * @module test/helpers/sequencer
 * The order `npm test` runs its files in (vitest.config.ts `sequence.sequencer`): shuffled within each project by
 * the run's seed (`--sequence.seed=N` replays an order), the projects one after another: `process` first, then
 * `unit`, then `app`. (vitest.config.ts also puts `app` in a later group, `sequence.groupOrder`, with fewer files
 * at a time; within a group this order is the queue's.)
 *
 * Why grouped: vitest's pool hands a finished non-isolated worker (`isolate: false`, the `app` and `unit`
 * projects) the next file only when the next queued file is of the same project; otherwise it stops the worker and
 * the next file of that project starts a new one, which imports the application (and compiles PGlite) again.
 * Shuffled across projects, as vitest's own random sequencer does, nearly every `app` file paid that start
 * (docs/architecture.md "Tests"). Why `process` first: its files mostly wait on child processes, signals and slow
 * fakes, and the longest of them (30–40 s) would otherwise start last and end their group; the short CPU-bound
 * `unit` files then fill the cores as the last `process` files wait.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { createRng } from '../../src/core/rng.ts';

/** The projects in the order their files are queued; a project not named here comes last. */
export const PROJECT_ORDER: readonly string[] = ['process', 'unit', 'app'];

/**
 * Seeded Fisher–Yates shuffle of `items` (a copy).
 * @param seed any safe integer (vitest's `sequence.seed`).
 */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const rng = createRng(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Files grouped by project in {@link PROJECT_ORDER}, each project's files shuffled by the run's seed. */
export class ProjectGroupedShuffle extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seed = this.ctx.config.sequence.seed;
    const rank = (name: string) => {
      const i = PROJECT_ORDER.indexOf(name);
      return i === -1 ? PROJECT_ORDER.length : i;
    };
    const byProject = new Map<string, TestSpecification[]>();
    // The glob's order can change between runs: only the seed may decide the order.
    const sorted = [...files].sort((a, b) =>
      a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0,
    );
    for (const f of sorted) {
      const name = f.project.name;
      byProject.set(name, [...(byProject.get(name) ?? []), f]);
    }
    return [...byProject.keys()]
      .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .flatMap((name) => seededShuffle(byProject.get(name) ?? [], seed));
  }
}
