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
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 */
export function installBundle(work: string, target: string, now = Date.now()): void {
  mkdirSync(target, { recursive: true });
  const fresh = readdirSync(work);
  const chunk = (f: string) => f.startsWith('chunk-');
  for (const f of fresh.filter(chunk)) renameSync(join(work, f), join(target, f));
  for (const f of fresh.filter((x) => !chunk(x))) renameSync(join(work, f), join(target, f));
  const kept = new Set(fresh);
  for (const f of readdirSync(target))
    if (chunk(f) && !kept.has(f) && now - statSync(join(target, f)).mtimeMs > STALE_CHUNK_MS)
      rmSync(join(target, f), { force: true });
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
    installBundle(work, target);
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
