/**
 * Vitest global setup of every project: gives the run one scratch folder and points `TMPDIR` at it, so every
 * folder a test makes with `mkdtemp(tmpdir())` (embedded databases, data folders, output files) and every `zhujiu`
 * process a test starts write under it; the teardown removes it whole, with whatever a failed or killed test left.
 *
 * The folder is made on `/dev/shm` when that is a writable memory file system (Linux), else in the system's
 * temporary folder. Tests open a copy of an embedded database per file and write to it; on a disk, PostgreSQL's
 * `fsync` calls made those writes the largest share of the `app` project's system time: the `app` project took
 * 143 s wall and 244 CPU-s with its folders on the disk and 112 s and 181 CPU-s on `/dev/shm` (2-core machine,
 * docs/architecture.md "Tests"). Nothing a test checks depends on the file system's kind: locks, renames and
 * `kill -9` behave the same on it.
 *
 * The folder a run started from is kept in `ZHUJIU_TEST_SYSTEM_TMPDIR`, for what must outlive the run (the
 * migrated template of test/helpers/global-setup.ts). Each project's setup calls this; the first one makes the
 * folder and the others find it in the environment.
 */
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `statfs` magic number of tmpfs (linux/magic.h `TMPFS_MAGIC`). */
const TMPFS_MAGIC = 0x01021994;

/** `/dev/shm` when it is a writable tmpfs, else undefined. */
function memoryFolder(): string | undefined {
  try {
    if (statfsSync('/dev/shm').type !== TMPFS_MAGIC) return undefined;
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return undefined;
  }
}

export default function setup(): (() => void) | undefined {
  if (process.env.ZHUJIU_TEST_SCRATCH) return undefined;
  const system = tmpdir();
  const scratch = mkdtempSync(join(memoryFolder() ?? system, 'zhujiu-tests-'));
  process.env.ZHUJIU_TEST_SYSTEM_TMPDIR = system;
  process.env.ZHUJIU_TEST_SCRATCH = scratch;
  process.env.TMPDIR = scratch;
  return () => {
    rmSync(scratch, { recursive: true, force: true });
    process.env.TMPDIR = system;
    delete process.env.ZHUJIU_TEST_SCRATCH;
  };
}

/** The temporary folder of the machine (outside the run's scratch folder), for caches kept between runs. */
export function systemTmpdir(): string {
  return process.env.ZHUJIU_TEST_SYSTEM_TMPDIR ?? tmpdir();
}
