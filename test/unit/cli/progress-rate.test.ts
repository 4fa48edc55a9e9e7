/**
 * `zhujiu eval`'s progress line (cli/eval.ts `progressLine`) after a resume: its items/s counts only the items this
 * process finished, over this process's time on the run, not the items an earlier process had done
 * (`run #1: 2000/2000 items, 0 failed, 1000.1 items/s` for ~505 items in ~2 s).
 */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../src/cli/eval.ts';
import type { RunCounts } from '../../../src/storage/eval-runs.ts';

const counts = (done: number, failed = 0, total = 2000): RunCounts => ({
  total,
  pending: total - done - failed,
  claimed: 0,
  done,
  failed,
  promptTokens: 0,
  completionTokens: 0,
});

describe('the progress line of a resumed run', () => {
  it('rates only the items this process finished (English and Chinese)', () => {
    const atStart = counts(1495);
    expect(progressLine(1, counts(2000), atStart, 2, 'en')).toBe(
      'run #1: 2000/2000 items, 0 failed, 252.5 items/s',
    );
    expect(progressLine(1, counts(2000), atStart, 2, 'zh-CN')).toContain('252.5');
  });

  it('counts failed items on both sides; a fresh run rates all its items', () => {
    expect(progressLine(3, counts(90, 10, 100), counts(40, 10, 100), 10, 'en')).toContain(
      '5.0 items/s',
    );
    expect(progressLine(3, counts(90, 10, 100), counts(0, 0, 100), 10, 'en')).toContain(
      '10.0 items/s',
    );
    expect(progressLine(3, counts(0, 0, 100), counts(0, 0, 100), 0, 'en')).toContain('0.0 items/s');
  });
});
