/**
 * The compiled command line for process tests. Tests of units import the TypeScript sources directly (vitest
 * transpiles them), but tests that start `zhujiu` as a process run `bin/zhujiu.js`, which runs the compiled
 * JavaScript in dist/ exactly as a user's `npm start` / `npx zhujiu` does. So the vitest global setup calls
 * {@link ensureBuilt} first: it rebuilds dist/ (`npm run build`, incremental) only when a source is newer than
 * the last build, so runs without changes pay nothing and no test ever runs stale JavaScript. Like `npm run build`,
 * it then brings the prepared embedded database in dist/ up to date (storage/pglite-template.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from './shared-data.ts';

/** Written after every successful build; its mtime is the build time. */
const STAMP = join(PROJECT_ROOT, 'dist', '.built');
/** tsc's incremental build info (tsconfig.build.json), rewritten by every build that emits. */
const BUILD_INFO = join(PROJECT_ROOT, 'dist', '.tsbuildinfo');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted or renamed file changes its folder's mtime
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when dist/ is missing or older than a file it is built from. */
export function buildIsStale(): boolean {
  // `npm run build` (run by `npm ci` through `prepare`) leaves tsc's build info; ensureBuilt leaves STAMP.
  const marks = [STAMP, BUILD_INFO].filter((f) => existsSync(f));
  if (marks.length === 0) return true;
  const built = Math.max(...marks.map((f) => statSync(f).mtimeMs));
  const inputs = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
  return inputs.some((p) => newestMtime(join(PROJECT_ROOT, p)) > built);
}

/**
 * Builds dist/ when it is stale.
 * @throws Error with tsc's output when the build fails (a type error in src/).
 */
export async function ensureBuilt(): Promise<void> {
  if (!buildIsStale()) return;
  try {
    await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 },
    );
    // The rest of `npm run build`: the prepared embedded database (storage/pglite-template.ts), written again
    // only when the migrations or PGlite changed; it reports its own failure and never fails the build.
    await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, 'dist', 'src', 'storage', 'pglite-template-build.js')],
      { cwd: PROJECT_ROOT },
    );
    // And the bundle bin/zhujiu.js runs (cli/bundle-build.ts); it too reports its own failure.
    await promisify(execFile)(
      process.execPath,
      [join(PROJECT_ROOT, 'dist', 'src', 'cli', 'bundle-build.js')],
      { cwd: PROJECT_ROOT },
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(
      `building dist/ for the process tests failed (npm run build):\n${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
  }
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
