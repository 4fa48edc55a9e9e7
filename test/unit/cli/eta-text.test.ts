/**
 * The time left on `zhujiu eval`'s progress bar (cli/eval `etaText`): rounded as a whole (cli-progress rounded the
 * seconds apart from the minutes and printed 119 s as `1m60s`), in the command line's language.
 */
import { describe, expect, it } from 'vitest';
import { etaText } from '../../../src/cli/eval.ts';

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
