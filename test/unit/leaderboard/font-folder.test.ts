/**
 * The chart's subset fonts are written to a temporary folder (`zhujiu-font-XXXXXX`, leaderboard/font-subset.ts); the
 * board worker thread's folder goes when the thread is stopped: a thread ended by `Worker.terminate()` runs no exit
 * hook of its own, so a folder it made itself stayed behind after each bot run. The process's end (exit, a signal):
 * test/process/leaderboard/font-folder.test.ts.
 *
 * The thread is started with `TMPDIR` pointing at a folder of this test alone, so that the folders other test files
 * make at the same time are not counted; `TMPDIR` is put back before the test ends.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BoardWorker } from '../../../src/leaderboard/off-thread.ts';
import { abilityScores } from '../../helpers/chart-rows.ts';

const ROWS = [
  { model: 'gpt-4o', rank: 1, final: 8.2, lo: 7.1, hi: 9.0, abilities: abilityScores(8) },
  { model: '通义千问-Max', rank: 2, final: 6.5, lo: 5.0, hi: 7.7, abilities: abilityScores(6) },
];

/** The `zhujiu-font-*` folders in `dir`, with the files in each. */
function fontFolders(dir: string): string[][] {
  return readdirSync(dir)
    .filter((n) => n.startsWith('zhujiu-font-'))
    .map((n) => readdirSync(join(dir, n)));
}

describe('the board worker thread’s font folder', () => {
  it('holds the chart font while the thread runs and is removed by close()', async () => {
    const own = mkdtempSync(join(tmpdir(), 'font-folder-test-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    const w = new BoardWorker();
    try {
      const png = await w.chart(ROWS, '每日排行榜');
      expect(png.byteLength).toBeGreaterThan(1000);
      const folders = fontFolders(own);
      expect(folders).toHaveLength(1);
      expect(folders[0]).toEqual([expect.stringMatching(/^[0-9a-f]{16}\.ttf$/)]);
      await w.close();
      expect(fontFolders(own)).toEqual([]);
      // A closed worker starts again on its next job, with a folder of its own that close() removes too.
      await w.chart(ROWS, 'again');
      expect(fontFolders(own)).toHaveLength(1);
      await w.close();
      expect(fontFolders(own)).toEqual([]);
    } finally {
      await w.close();
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(own, { recursive: true, force: true });
    }
  });
});
