/**
 * `zhujiu eval` on an embedded database whose disk fills up during the run (a real one: a small tmpfs, which only
 * root may mount; skipped otherwise): the command ends within seconds, exit 1, its last line naming the folder and
 * the fix (storage/pglite-disk-full), instead of waiting forever on a statement PGlite never ends; with space
 * freed, the same command resumes the run and finishes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder } from '../../helpers/eval-fixtures.ts';
import { asProcess } from '../../helpers/run-cli.ts';

/** Mounts a tmpfs of `size` at `dir` (or changes its size); false when this process may not. */
function mountTmpfs(dir: string, size: string, remount = false): boolean {
  try {
    execFileSync(
      'mount',
      ['-t', 'tmpfs', '-o', `${remount ? 'remount,' : ''}size=${size}`, 'tmpfs', dir],
      { stdio: 'ignore' },
    );
    return true;
  } catch {
    return false;
  }
}

const root = mkdtempSync(join(tmpdir(), 'zhujiu-disk-full-'));
const disk = join(root, 'disk');
mkdirSync(disk);
const mounted = process.getuid?.() === 0 && mountTmpfs(disk, '11m');
if (!mounted)
  console.warn(
    'disk-full.test.ts: skipped (mounting a small tmpfs needs root: run as root to try it)',
  );

describe.skipIf(!mounted)('an embedded database whose disk fills up during zhujiu eval', () => {
  let fake: FakeOpenAi;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Long answers: 2,000 of them need more than the ~1.6 MB the migrated database leaves on 11 MB.
    fake = await startFakeOpenAi({ answer: () => `答案：A${'x'.repeat(4000)}` });
    const folder = miniEvalFolder(root, fake.baseUrl, undefined, {
      counts: { c3: 700, ocnli: 700, cmrc: 600 },
      maxConcurrency: 8,
    });
    env = {
      ZHUJIU_CONFIG_DIR: folder.ZHUJIU_CONFIG_DIR as string,
      ZHUJIU_DATASETS_DIR: folder.ZHUJIU_DATASETS_DIR as string,
      ZHUJIU_DATA_DIR: join(disk, 'pg'),
    };
  });
  afterAll(async () => {
    await fake?.close();
    try {
      execFileSync('umount', [disk], { stdio: 'ignore' });
    } catch {
      // not mounted
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('ends with exit 1 naming the full disk; with space freed the same command resumes and finishes', async () => {
    const migrated = await asProcess(['migrate'], { env });
    expect(migrated.code, migrated.stderr).toBe(0);
    const args = ['eval', '--model', 'erry', '--suite', 'mini', '--json'];
    const full = await asProcess(args, { env });
    expect(full.code, full.stderr).toBe(1);
    // No log dump before it: only the progress lines (one per 5 s) and the last line.
    expect(
      full.stderr
        .trim()
        .split('\n')
        .filter((l) => !/^run #1: \d+\/2000 items/u.test(l)),
      full.stderr,
    ).toHaveLength(1);
    expect(full.stderr.trim().split('\n').at(-1)).toMatch(
      /^error \[db_unavailable\]: the disk holding the embedded database .*\/disk\/pg is full \(.*No space left on device\): .*Free some space and run the same command again/u,
    );
    expect(mountTmpfs(disk, '80m', true)).toBe(true);
    const again = await asProcess(args, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^resuming run #1/mu);
    // Every item is scored: those planned before the disk filled are not lost to the resumed plan.
    const summary = JSON.parse(again.stdout) as { datasets: { n: number; failures: number }[] };
    expect(summary.datasets.reduce((s, d) => s + d.n, 0)).toBe(2000);
    expect(summary.datasets.reduce((s, d) => s + d.failures, 0)).toBe(0);
  });
});
