/**
 * The time left on `zhujiu eval`'s progress bar (cli/eval `etaText`): rounded as a whole (cli-progress rounded the
 * seconds apart from the minutes and printed 119 s as `1m60s`), in the command line's language; and the line that
 * says a run is resumed, its status in words.
 */
import { describe, expect, it } from 'vitest';
import { etaText, resumingLine } from '../../../src/cli/eval.ts';

describe('etaText', () => {
  it('rounds the whole time, never 60 seconds or minutes', () => {
    expect(etaText(119, 'en')).toBe('2m00s');
    expect(etaText(118, 'en')).toBe('2m00s');
    expect(etaText(116, 'en')).toBe('1m55s');
    expect(etaText(61, 'en')).toBe('1m00s');
    expect(etaText(3599, 'en')).toBe('1h00m');
    expect(etaText(7199, 'en')).toBe('2h00m');
    expect(etaText(3725, 'en')).toBe('1h02m');
    expect(etaText(9.4, 'en')).toBe('9s');
    expect(etaText(0, 'en')).toBe('0s');
    expect(etaText(Number.POSITIVE_INFINITY, 'en')).toBe('∞');
  });

  it('says the units in Chinese for a Chinese command line', () => {
    expect(etaText(119, 'zh-CN')).toBe('2 分 00 秒');
    expect(etaText(45, 'zh-CN')).toBe('45 秒');
    expect(etaText(3725, 'zh-CN')).toBe('1 小时 02 分');
  });
});

describe('resumingLine', () => {
  it('says the status in words in Chinese; English keeps the status', () => {
    expect(resumingLine(41, 'running', 'zh-CN')).toBe(
      '继续评测任务 #41（它的进程停止时状态为进行中）',
    );
    expect(resumingLine(41, 'running', 'en')).toBe(
      'resuming run #41 (left running by a process that stopped)',
    );
    expect(resumingLine(2, 'odd', 'zh-CN')).toBe('继续评测任务 #2（它的进程停止时状态为odd）');
  });
});
