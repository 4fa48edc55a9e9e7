/**
 * Where the real public data of `../shared/data` lives, and a guard that skips a suite with a clear message when
 * it is absent (a clone without the steering repo beside it).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of `../shared/data` (or `$ZHUJIU_SHARED_DATA`). */
export const SHARED_DATA_DIR = process.env.ZHUJIU_SHARED_DATA ?? join(root, '..', 'shared', 'data');

/** Absolute path of a file under the shared data folder. */
export function sharedData(...parts: string[]): string {
  return join(SHARED_DATA_DIR, ...parts);
}

/** True when the named shared file exists; logs once why a suite is skipped when it does not. */
export function hasSharedData(...parts: string[]): boolean {
  const p = sharedData(...parts);
  const present = existsSync(p);
  if (!present) {
    console.warn(
      `[skip] ${p} is absent: tests on real shared data are skipped (set ZHUJIU_SHARED_DATA)`,
    );
  }
  return present;
}

/** Project root (where package.json is). */
export const PROJECT_ROOT = root;
