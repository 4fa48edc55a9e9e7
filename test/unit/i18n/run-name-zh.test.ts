/**
 * The Chinese catalogue names an evaluation run one way everywhere: 评测任务 (the progress bar and the progress line
 * said `任务 #1` while the summary and the result said `评测任务 #1`). 任务 alone is only another kind of task
 * (the daily post's scheduled job, 定时任务).
 */
import { describe, expect, it } from 'vitest';
import { zhCN } from '../../../src/i18n/zh-CN.ts';
import { zhCNCli } from '../../../src/i18n/zh-CN-cli.ts';

const NOT_A_RUN = new Set(['daily.late']);

describe('the zh-CN name of an evaluation run', () => {
  it('is 评测任务 in every message, the CLI catalogue included', () => {
    const bare = Object.entries({ ...zhCN, ...zhCNCli }).filter(
      ([key, text]) => !NOT_A_RUN.has(key) && /(?<!评测)任务/u.test(text),
    );
    expect(bare).toEqual([]);
  });

  it('the progress bar, the progress line and the summary agree', () => {
    for (const key of [
      'cli.eval.bar',
      'cli.eval.barless',
      'cli.eval.preparing',
      'cli.eval.progress',
      'cli.eval.summary',
    ] as const)
      expect(zhCNCli[key]).toMatch(/^评测任务 #\{run\}/u);
  });
});
