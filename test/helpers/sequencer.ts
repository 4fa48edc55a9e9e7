/**
 * Test-file order: the files that spend the longest waiting (real processes kept alive for 30 s, models that take
 * seconds per call) start first, so they overlap with the rest instead of running alone at the end; then vitest's own
 * order (longest first from its cache, else largest first). Their order only affects the suite's wall time.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Path suffixes of the slowest files, in the order they start: first those that mostly wait (processes kept alive
 * for 30 s, models that take seconds per call), then the longest of those whose tests run one after another
 * (measured in the whole suite on a 2-core machine: 90–170 s each). A clean clone (CI) has no duration cache, so
 * without this list vitest would start them by file size and the longest could start last.
 */
export const SLOW_FIRST = [
  'test/integration/eval/worker-processes.pglite.test.ts',
  'test/integration/eval/worker-processes.postgres.test.ts',
  'test/integration/eval/stop-resume.pglite.test.ts',
  'test/integration/eval/stop-resume.postgres.test.ts',
  'test/integration/cli/long-lived.test.ts',
  'test/integration/cli/robust.test.ts',
  'test/integration/arena/ask-export.test.ts',
  'test/integration/arena/shell.pglite.test.ts',
  'test/integration/arena/shell.postgres.test.ts',
  'test/integration/cli/judge.test.ts',
  'test/integration/cli/cli.test.ts',
  'test/integration/messages/review-messages.test.ts',
  'test/integration/arena/ask.test.ts',
  'test/integration/leaderboard/chat-upload.test.ts',
  'test/integration/arena/chat-path-cost.test.ts',
  'test/integration/cli/start.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}
