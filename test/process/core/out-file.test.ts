/**
 * Output paths (`export battles --out`, `leaderboard --png`) are checked before any work, and the refusal says what
 * is really wrong. Found on a fresh clone: `--out /proc/x` said "the folder /proc does not exist".
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutputPath, writeFileAtomic } from '../../../src/core/out-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-out-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `path` as named by `flag`, a folder answered with `out.jsonl` in it. */
const out = (flag: string, path: string) => ({ flag, path, fileName: 'out.jsonl' });

describe('checkOutputPath', () => {
  it('accepts a new file in a writable folder and leaves nothing behind', async () => {
    expect(await checkOutputPath(out('--out', join(dir, 'a.jsonl')))).toBe(join(dir, 'a.jsonl'));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names a folder, a missing folder and a file in the path', async () => {
    await expect(checkOutputPath(out('--out', dir))).rejects.toThrow(
      `--out ${dir}: cannot write (${dir} is a folder; give a file path inside it, e.g. ${join(dir, 'out.jsonl')})`,
    );
    await expect(checkOutputPath(out('--out', join(dir, 'nope', 'x')))).rejects.toThrow(
      `the folder ${join(dir, 'nope')} does not exist`,
    );
    writeFileSync(join(dir, 'f'), '');
    await expect(checkOutputPath(out('--out', join(dir, 'f', 'x')))).rejects.toThrow(
      `${join(dir, 'f')} is a file, not a folder`,
    );
  });

  it.runIf(existsSync('/proc/self'))(
    'a folder that exists but takes no files (/proc) is not called missing',
    async () => {
      const err = await checkOutputPath(out('--out', '/proc/x')).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/^--out \/proc\/x: cannot write \(/);
      expect(err?.message).not.toContain('does not exist');
    },
  );

  it('a named pipe or a device is refused, not replaced by a plain file', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(checkOutputPath(out('--out', fifo))).rejects.toThrow(
      `--out ${fifo}: cannot write (${fifo} is not a regular file (a named pipe, a device or a socket)`,
    );
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    await expect(checkOutputPath(out('--png', '/dev/null'))).rejects.toThrow(
      'is not a regular file',
    );
    rmSync(fifo);
  });

  it('a symbolic link is written through: the link stays, the file it points to is replaced', async () => {
    const target = join(dir, 'target.png');
    const link = join(dir, 'link.png');
    writeFileSync(target, 'keep');
    symlinkSync(target, link);
    expect(await checkOutputPath(out('--png', link))).toBe(target);
    await writeFileAtomic(out('--png', link), 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
    rmSync(link);
    rmSync(target);
  });
});
