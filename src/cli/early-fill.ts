/**
 * @module cli/early-fill
 * The first thing bin/zhujiu.js does for a command that opens the embedded database: when that database's folder
 * is empty or missing, the prepared database starts unpacking beside it at once (storage/template-fill), while
 * the command's modules load. For a command that runs PGlite on its main thread (not `bot`, `worker` or `eval`,
 * which run it on a worker thread of its own), that thread compiles PGlite's WebAssembly too, and PGlite starts
 * loading with it (storage/pglite-load).
 * Commands that never open the database (`help`, `config check`, `suites`…) and those given a PostgreSQL server
 * (DATABASE_URL) start nothing.
 */
import { join, resolve } from 'node:path';
import { loadPglite, pgliteWasmFile } from '../storage/pglite-load.ts';
import {
  defaultTemplateDir,
  fillWasm,
  startTemplateFill,
  TEMPLATE_ARCHIVE,
} from '../storage/template-fill.ts';

/** The commands that open the database (their first word on the command line). */
const OPENS_DATABASE: ReadonlySet<string> = new Set([
  'bot',
  'worker',
  'migrate',
  'eval',
  'import',
  'leaderboard',
  'results',
  'votes',
  'submissions',
  'judge',
  'export',
]);

/** The commands that open it on a worker thread of their own (storage/pglite-thread; main.ts `pgliteThread`). */
const THREADED: ReadonlySet<string> = new Set(['bot', 'worker', 'eval']);

/**
 * Starts unpacking the prepared database for the command of `argv` (`process.argv`: node, script, command…)
 * when it opens the embedded database at `ZHUJIU_DATA_DIR` (else `data/pg` under `cwd`, as config/loader
 * resolves it) and that folder is empty or missing. Never throws; a guess that turns out wrong (another folder,
 * a command that fails before opening it) costs only the unpacking, removed at exit, and PGlite's loading.
 * @param archive the prepared database (default: this installation's, in `dist/`).
 * @returns as storage/template-fill `startTemplateFill`: true once a fill started here is complete.
 */
export function startEarlyFill(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
  archive: string = join(defaultTemplateDir(), TEMPLATE_ARCHIVE),
): Promise<boolean> {
  const command = argv[2];
  const skip =
    command === undefined ||
    !OPENS_DATABASE.has(command) ||
    argv.includes('--help') ||
    argv.includes('-h') ||
    Boolean(env.DATABASE_URL);
  if (skip) return Promise.resolve(false);
  const target = resolve(cwd, env.ZHUJIU_DATA_DIR || join('data', 'pg'));
  const mainThread = !THREADED.has(command);
  let wasm: string | undefined;
  try {
    wasm = mainThread ? pgliteWasmFile() : undefined;
  } catch {
    // PGlite's package is missing: openDb says so (install_broken)
  }
  const filled = startTemplateFill(target, archive, wasm);
  const compiled = fillWasm(target);
  // PGlite loads with the module that thread compiles (openDb takes this load, and reports a failure).
  if (mainThread && compiled !== undefined) loadPglite(compiled).catch(() => undefined);
  return filled;
}
