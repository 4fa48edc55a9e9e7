/**
 * core/make-dirs: `mkdir -p` for typed paths. Node's own recursive mkdir never returns under /proc (a parent that
 * exists but answers ENOENT); these fail at once there, make every missing level elsewhere, and name a file in the
 * way. The logger's LOG_FILE check uses them, so LOG_FILE=/proc/… is one clear error.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLogFile } from '../../../src/core/logger.ts';
import { makeDirs, makeDirsSync } from '../../../src/core/make-dirs.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-make-dirs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each([
  ['makeDirsSync', async (p: string) => makeDirsSync(p)],
  ['makeDirs', makeDirs],
])('%s', (name, make) => {
  it('makes every missing level, and again is nothing', async () => {
    const p = join(root, name, 'a', 'b', 'c');
    await make(p);
    expect(statSync(p).isDirectory()).toBe(true);
    await make(p);
    await make(join(root, name, 'a'));
  });

  it('a file in the way: ENOTDIR naming it', async () => {
    const file = join(root, `${name}-file`);
    writeFileSync(file, 'x');
    await expect(make(join(file, 'sub', 'dir'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(make(file)).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(existsSync('/proc/self'))('under /proc: fails at once with ENOENT', async () => {
    await expect(make('/proc/zhujiu-no/such/dir')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

it.runIf(existsSync('/proc/self'))(
  'LOG_FILE under /proc: the env_invalid error naming LOG_FILE',
  () => {
    expect(() => checkLogFile('/proc/zhujiu-no/x.log')).toThrow(
      /^LOG_FILE: cannot open the log file/u,
    );
  },
);
