/**
 * Where the real public data of `../shared/data` lives, and a guard that skips a suite with a clear message when
 * it is absent (a clone without the public data folder beside it): the message names the test file that skips,
 * the file it needs, and where the data is expected (the folder, and `ZHUJIU_SHARED_DATA` to point elsewhere),
 * once per test file and missing file.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The variable that points the tests at the public data folder when it is not `../shared/data`. */
export const SHARED_DATA_ENV = 'ZHUJIU_SHARED_DATA';

/** Absolute path of `../shared/data` beside the checkout, or of `$ZHUJIU_SHARED_DATA` (relative: to the checkout). */
export const SHARED_DATA_DIR =
  process.env[SHARED_DATA_ENV] !== undefined && process.env[SHARED_DATA_ENV] !== ''
    ? resolve(root, process.env[SHARED_DATA_ENV])
    : join(root, '..', 'shared', 'data');

/** Absolute path of a file under the shared data folder. */
export function sharedData(...parts: string[]): string {
  return join(SHARED_DATA_DIR, ...parts);
}

/**
 * The line saying that `testFile` (relative to the project root; undefined: unknown) skips its tests on `needed`
 * (a path under `dir`, the shared data folder) because it is absent, and where the data is expected: `dir`, set by
 * `ZHUJIU_SHARED_DATA` when `fromEnv`, else `../shared/data` beside the checkout.
 */
export function sharedDataSkipNote(
  testFile: string | undefined,
  needed: string,
  dir: string,
  fromEnv: boolean,
): string {
  const where = fromEnv
    ? `${SHARED_DATA_ENV}=${dir}`
    : `${dir} (../shared/data beside this checkout)`;
  return (
    `[skip] ${testFile ?? 'a test file'}: its tests on real public data are skipped: ` +
    `${relative(dir, needed) || needed} is not in the shared data folder ${where}. ` +
    `Put the public data folder there, or set ${SHARED_DATA_ENV} to the folder that holds it (README "Quick start").`
  );
}

/** The test file (relative to the project root) whose module called this helper, from the call stack. */
function callerTestFile(): string | undefined {
  for (const line of (new Error().stack ?? '').split('\n')) {
    const m = /(?:file:\/\/)?(\/[^\s():?]+\.test\.ts)/u.exec(line);
    if (m?.[1]) return relative(root, m[1]);
  }
  return undefined;
}

/** Notes already written, per test file and missing path (a file may check one path several times). */
const noted = new Set<string>();

/**
 * True when the named shared file exists. When it does not, writes once per test file and path (stderr) which
 * test file skips, what it needs and where the data is expected ({@link sharedDataSkipNote}).
 */
export function hasSharedData(...parts: string[]): boolean {
  const p = sharedData(...parts);
  const present = existsSync(p);
  if (!present) {
    const file = callerTestFile();
    const key = `${file}\u0000${p}`;
    if (!noted.has(key)) {
      noted.add(key);
      const fromEnv = (process.env[SHARED_DATA_ENV] ?? '') !== '';
      console.warn(sharedDataSkipNote(file, p, SHARED_DATA_DIR, fromEnv));
    }
  }
  return present;
}

/** Project root (where package.json is). */
export const PROJECT_ROOT = root;
