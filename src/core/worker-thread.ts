/**
 * @module core/worker-thread
 * Starts a worker thread on a module that sits beside the caller. From the compiled JavaScript (dist/) the worker
 * runs `NAME.js`; from the TypeScript sources (tests and benches, under tsx) it registers tsx's loader first and
 * imports `NAME.ts`.
 */
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module `name` next to `callerUrl` (pass `import.meta.url`).
 * @param callerUrl the caller's `import.meta.url` (a file: URL ending in .ts or .js).
 * @param name the worker module's file name without its extension, e.g. `board-worker`.
 */
export function startWorkerBeside(callerUrl: string, name: string): Worker {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./${name}${ext}`, callerUrl).href;
  return ext === '.ts'
    ? new Worker(
        `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`,
        { eval: true },
      )
    : new Worker(new URL(entry));
}
