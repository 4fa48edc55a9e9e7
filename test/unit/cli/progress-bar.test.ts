/**
 * `zhujiu eval`'s progress bar fits the terminal (cli/eval.ts `progressFormat`): its line is at most the width
 * cli-progress reads from the bar's stream, less one column, so a narrow terminal never wraps it (it was a 40-cell
 * bar whatever the width); the bar takes what the words leave, up to 40 cells, and goes when under 5.
 */
import { describe, expect, it } from 'vitest';
import { progressFormat } from '../../../src/cli/eval.ts';
import { textWidth } from '../../../src/cli/io.ts';

/** cli-progress's options as the shades_classic preset and the defaults give them (barsize 40). */
const OPTIONS = {
  barsize: 40,
  barCompleteString: '\u2588'.repeat(41),
  barIncompleteString: '\u2591'.repeat(41),
  barGlue: '',
  align: 'left',
} as const;

/** The line drawn at `value` of `total` on a terminal `width` columns wide. */
async function lineAt(width: number, locale: 'en' | 'zh-CN', value = 1234, total = 2000) {
  const format = await progressFormat(17, locale);
  const params = {
    progress: total > 0 ? value / total : 0,
    eta: 125,
    startTime: Date.now() - 10_000,
    stopTime: null,
    total,
    value,
    maxWidth: width,
  };
  return format(OPTIONS as never, params as never, { failed: 3 });
}

const bar = (line: string) => /[\u2588\u2591]+/u.exec(line)?.[0].length ?? 0;

describe('the progress bar on terminals of each width', () => {
  it('never takes more than the width less one column, in either language', async () => {
    for (const locale of ['en', 'zh-CN'] as const)
      for (const width of [200, 120, 80, 72, 60, 50, 40, 30, 20, 10, 1]) {
        const line = await lineAt(width, locale);
        expect(textWidth(line), `${locale} ${width}: ${line}`).toBeLessThanOrEqual(
          Math.max(1, width - 1),
        );
        const preparing = await lineAt(width, locale, 0, 0);
        expect(textWidth(preparing), `${locale} ${width}`).toBeLessThanOrEqual(
          Math.max(1, width - 1),
        );
      }
  });

  it('a wide terminal gets the 40-cell bar; a narrow one a shorter bar, then none, the counts kept first', async () => {
    expect(await lineAt(120, 'en')).toBe(
      `run #17 [${'\u2588'.repeat(25)}${'\u2591'.repeat(15)}] 1234/2000 items | 3 failed | 2m05s left`,
    );
    const at60 = await lineAt(60, 'en');
    expect(bar(at60)).toBe(59 - textWidth('run #17 [] 1234/2000 items | 3 failed | 2m05s left'));
    expect(textWidth(at60)).toBe(59);
    const at40 = await lineAt(40, 'en');
    expect(bar(at40)).toBe(0);
    expect(at40).toBe('run #17 1234/2000 items | 3 failed | 2m');
    const zh = await lineAt(50, 'zh-CN');
    expect(textWidth(zh)).toBeLessThanOrEqual(49);
    expect(zh).toMatch(/^评测任务 #17 /u);
  });
});
