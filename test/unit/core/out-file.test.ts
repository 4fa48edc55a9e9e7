/**
 * Output paths (`export battles --out`, `leaderboard --png`) are checked before any work, and the refusal says what
 * is really wrong. Found on a fresh clone: `--out /proc/x` said "the folder /proc does not exist".
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutputPath } from '../../../src/core/out-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-out-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkOutputPath', () => {
  it('accepts a new file in a writable folder and leaves nothing behind', async () => {
    await checkOutputPath('--out', join(dir, 'a.jsonl'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names a folder, a missing folder and a file in the path', async () => {
    await expect(checkOutputPath('--out', dir)).rejects.toThrow(
      `--out ${dir}: cannot write (${dir} is a folder`,
    );
    await expect(checkOutputPath('--out', join(dir, 'nope', 'x'))).rejects.toThrow(
      `the folder ${join(dir, 'nope')} does not exist`,
    );
    writeFileSync(join(dir, 'f'), '');
    await expect(checkOutputPath('--out', join(dir, 'f', 'x'))).rejects.toThrow(
      `${join(dir, 'f')} is a file, not a folder`,
    );
  });

  it.runIf(existsSync('/proc/self'))(
    'a folder that exists but takes no files (/proc) is not called missing',
    async () => {
      const err = await checkOutputPath('--out', '/proc/x').then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/^--out \/proc\/x: cannot write \(/);
      expect(err?.message).not.toContain('does not exist');
    },
  );
});
