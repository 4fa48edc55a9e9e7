/**
 * stdout that refuses writes (`> /dev/full`: ENOSPC, as a full disk does): the command ends with exit 1 and one
 * line naming the standard output and the fix, never Node's uncaught-exception dump; also for help and the
 * version, which commander writes itself. A closed pipe stays exit 0 (closed-pipe.test.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLEAN_ENV, ZHUJIU_BIN } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** `zhujiu ARGS` with stdout on /dev/full: its exit code and stderr. */
async function toFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [ZHUJIU_BIN, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...CLEAN_ENV, LANG: 'C.UTF-8', LOG_LEVEL: 'silent' },
    stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const code = await new Promise<number | null>((done) => child.on('close', done));
  return { code, stderr };
}

describe.skipIf(!existsSync('/dev/full'))('stdout that refuses writes', () => {
  for (const args of [['--version'], ['--help'], ['help', 'eval']])
    it(`zhujiu ${args.join(' ')} > /dev/full: exit 1, one line`, async () => {
      const r = await toFull(args);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        'error [file_unwritable]: cannot write the standard output (ENOSPC); free some space where it goes, or send it elsewhere (e.g. `> file` on another disk)',
      );
    });
});
