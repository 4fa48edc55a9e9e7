/**
 * @module cli/bundle-build
 * Install-time step of `npm run build` (after tsc and the prepared database; `npm ci` runs it through `prepare`):
 * bundles the compiled command line (`dist/src/`) into `dist/bundle/cli/` with esbuild, split into chunks along its
 * dynamic imports so each command still loads only what it uses. A command loads about a thousand ES modules
 * (kysely ~260, openai ~240, zod ~95, yaml ~70, ours ~150), and Node resolves, reads and links each one: ~0.25 s and
 * ~30 MB of every start of `zhujiu eval` on the 2-core machine we measure on (bench/first-start.ts). Bundled, they
 * are a few dozen files.
 *
 * Only the packages of {@link BUNDLED} (plain JavaScript) are bundled with our modules; every other dependency
 * stays an import of its own (native code, WebAssembly, worker threads, data files found through their own path).
 * The worker-thread modules started with core/worker-thread `startWorkerBeside` are entry points of their own, so
 * they sit beside the chunks that start them, as they sit beside their callers in `dist/src/`. Paths our modules
 * take from `import.meta.url` (`../../` from a module is `dist/`) hold in `dist/bundle/cli/` as in `dist/src/x/`.
 *
 * bin/zhujiu.js runs the bundle when it is newer than tsc's last build (`dist/.tsbuildinfo`), else `dist/src/`. A
 * failure here is reported and the build goes on: the command line then runs unbundled, only more slowly.
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Dependencies bundled into the command line: plain JavaScript that finds no file by its own path. */
export const BUNDLED: readonly string[] = [
  'commander',
  'kysely',
  'modern-tar',
  'openai',
  'p-limit',
  'pure-rand',
  'safe-stable-stringify',
  'yaml',
  'zod',
];

/** The modules started as worker threads (core/worker-thread `startWorkerBeside`), by their path in `src/`. */
export const WORKER_MODULES: readonly string[] = [
  'storage/pglite-worker',
  'storage/template-fill-worker',
  'leaderboard/board-worker',
  'leaderboard/rounds-worker',
];

/**
 * The entry points, by their path in `src/` (without extension): the command line, its error handler, the early
 * unpacking of the prepared database (bin/zhujiu.js loads both before the command line), the workers.
 */
export const ENTRY_MODULES: readonly string[] = [
  'cli/index',
  'cli/unhandled',
  'cli/early-fill',
  ...WORKER_MODULES,
];

/** The package's root folder (this module is `dist/src/cli/bundle-build.js`, or `src/cli/bundle-build.ts`). */
function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const up2 = resolve(here, '..', '..');
  return here.includes(`${join('dist', 'src')}`) ? resolve(up2, '..') : up2;
}

/**
 * The `--external` list for esbuild: every dependency of package.json outside {@link BUNDLED}, with its subpaths.
 * @param dependencies package.json's `dependencies`.
 */
export function externals(dependencies: Record<string, string>): string[] {
  return Object.keys(dependencies)
    .filter((d) => !BUNDLED.includes(d))
    .flatMap((d) => [d, `${d}/*`]);
}

/** Chunks no entry of the new bundle imports are removed when they are older than this (ms): a week. */
const STALE_CHUNK_MS = 7 * 24 * 3600 * 1000;

/**
 * Moves a bundle written in `work` into `target` without taking a file from a process that runs the previous one
 * (a bot started an hour ago still imports its chunks lazily): chunks are named by their contents, so new ones are
 * added beside the old ones, and the entry points are renamed over the old ones last, each at once. A chunk no new
 * entry uses is removed only when it is older than {@link STALE_CHUNK_MS}.
 * @param now the time to age chunks by (ms since the epoch).
 * @returns the names of the new bundle's files (its entry points and chunks).
 */
export function installBundle(work: string, target: string, now = Date.now()): string[] {
  mkdirSync(target, { recursive: true });
  const fresh = readdirSync(work);
  const chunk = (f: string) => f.startsWith('chunk-');
  for (const f of fresh.filter(chunk)) renameSync(join(work, f), join(target, f));
  for (const f of fresh.filter((x) => !chunk(x))) renameSync(join(work, f), join(target, f));
  const kept = new Set(fresh);
  for (const f of readdirSync(target))
    if (chunk(f) && !kept.has(f) && now - statSync(join(target, f)).mtimeMs > STALE_CHUNK_MS)
      rmSync(join(target, f), { force: true });
  return fresh;
}

/**
 * Fills Node's module compile cache with the new bundle, so that the first command a newcomer runs after `npm ci`
 * does not compile the command line's JavaScript (~1 MB for `zhujiu eval`, the openai and zod packages included):
 * bin/zhujiu.js enables that cache (Node's "Module compile cache": `os.tmpdir()/node-compile-cache`, or
 * NODE_COMPILE_CACHE), keyed by each file's contents, and only the second start of each command found it filled.
 * A child process with the cache enabled imports every file of `files` in `dir` but the worker threads' entry
 * points (their code runs as it loads), and the packages they import, then writes the cache. Best effort: a
 * module that fails to load is skipped (it still compiled), and a failure of the whole step is reported and
 * ignored; nothing is written outside the cache's folder.
 * @param env the child's environment (NODE_COMPILE_CACHE chooses the cache's folder); this process's by default.
 * @returns false when the child process failed (the next command then compiles as before).
 */
export function warmCompileCache(
  dir: string,
  files: readonly string[],
  env?: NodeJS.ProcessEnv,
): boolean {
  const workers = new Set(WORKER_MODULES.map((m) => `${basename(m)}.js`));
  const urls = files
    .filter((f) => f.endsWith('.js') && !workers.has(f))
    .map((f) => pathToFileURL(join(dir, f)).href);
  const script = `
    const m = await import('node:module');
    m.enableCompileCache?.();
    for (const url of ${JSON.stringify(urls)}) {
      try { await import(url); } catch {}
    }
    m.flushCompileCache?.();
    process.exit(0);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    ...(env ? { env } : {}),
    stdio: 'ignore',
    timeout: 120_000,
  });
  return r.status === 0;
}

/**
 * Bundles `dist/src/` of the package at `root` into `dist/bundle/cli/`: written into a private folder, then moved into
 * place by {@link installBundle}, so a failed build leaves the previous bundle (which bin/zhujiu.js then no longer
 * uses: it is older than tsc's build) or none, and a running process keeps every file it may still import.
 * @throws Error from esbuild (a missing module, an import it cannot resolve).
 */
export async function bundleCli(root: string = packageRoot()): Promise<void> {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const target = join(root, 'dist', 'bundle', 'cli');
  const work = join(root, 'dist', 'bundle', `.cli-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  try {
    await build({
      entryPoints: ENTRY_MODULES.map((m) => join(root, 'dist', 'src', `${m}.js`)),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      outdir: work,
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      external: externals(pkg.dependencies),
      // Bundled CommonJS (yaml) calls `require`: an ES module has none of its own.
      banner: {
        js: "import { createRequire as __zhujiuRequire } from 'node:module'; const require = __zhujiuRequire(import.meta.url);",
      },
      logLevel: 'error',
    });
    const files = installBundle(work, target);
    if (!warmCompileCache(target, files))
      process.stderr.write(
        "zhujiu: could not fill Node's compile cache with the command line; its first start compiles it\n",
      );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await bundleCli();
  } catch (err) {
    process.stderr.write(
      `zhujiu: could not bundle the command line (${(err as Error).message}); it runs unbundled (slower to start)\n`,
    );
  }
}
