/**
 * @module core/worker-thread
 * Starts a worker thread on a module that sits beside the caller. From the compiled JavaScript (dist/) the worker
 * runs `NAME.js`. From the TypeScript sources (tests and benches, under tsx or vitest) it registers tsx's loader
 * first and imports `NAME.ts`, unless {@link threadsFromDist} was called: then it runs the compiled `NAME.js`
 * under dist/src/. The test suite calls it (test/helpers/setup-threads.ts), since its global setup has just
 * brought dist/ up to date; loading tsx in every thread cost ~2 CPU-s per thread there.
 */
import { Worker } from 'node:worker_threads';

let fromDist = false;

/**
 * From now on, a caller running from the TypeScript sources (src/…/X.ts) gets the compiled sibling
 * (dist/src/…/NAME.js) in its threads. Only for a process that knows dist/ is up to date (the test suite).
 */
export function threadsFromDist(): void {
  fromDist = true;
}

/**
 * A worker thread running the module `name` next to `callerUrl` (pass `import.meta.url`).
 * @param callerUrl the caller's `import.meta.url` (a file: URL ending in .ts or .js).
 * @param name the worker module's file name without its extension, e.g. `board-worker`.
 * @throws Error after {@link threadsFromDist} when the caller is not under src/.
 */
export function startWorkerBeside(callerUrl: string, name: string): Worker {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./${name}${ext}`, callerUrl).href;
  if (ext === '.js') return new Worker(new URL(entry));
  if (fromDist) {
    const i = entry.lastIndexOf('/src/');
    if (i < 0) throw new Error(`threadsFromDist: ${entry} is not under src/`);
    return new Worker(new URL(`${entry.slice(0, i)}/dist${entry.slice(i, -3)}.js`));
  }
  return new Worker(
    `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}
