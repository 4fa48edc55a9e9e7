/**
 * @module core/worker-thread
 * Starts a worker thread on a module that sits beside the caller. From the compiled JavaScript (dist/) the worker
 * runs `NAME.js`. From the TypeScript sources (tests and benches) it runs `NAME.ts` directly when Node strips
 * types itself (`process.features.typescript`, Node 22.18+ and 24: the sources use only erasable syntax,
 * `verbatimModuleSyntax` in tsconfig.json), which costs nothing; on an older Node it registers tsx's loader in
 * the thread first (~2 CPU-s per thread).
 */
import { Worker } from 'node:worker_threads';

/** True when this Node runs `.ts` files itself (type stripping). */
function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: string | false };
  return typeof features.typescript === 'string';
}

/** {@link startWorkerBeside}'s options. */
export interface WorkerStartOptions {
  /**
   * Set to -1 (and notified, `Atomics.notify`) by the thread when its module cannot be loaded, before the worker's
   * `error` event: a caller that blocks in `Atomics.wait` for the thread's answer, and so cannot receive that
   * event, reads it here instead of waiting for an answer that never comes. One `Int32Array` over a
   * `SharedArrayBuffer`, 0 at the start.
   */
  readonly loadFailed?: Int32Array;
  /** The thread's `workerData` (structured-cloned); with `loadFailed`, it must be an object, which gets that key. */
  readonly workerData?: unknown;
}

/**
 * A worker thread running the module `name` next to `callerUrl` (pass `import.meta.url`).
 * @param callerUrl the caller's `import.meta.url` (a file: URL ending in .ts or .js).
 * @param name the worker module's file name without its extension, e.g. `board-worker`.
 * @param o `loadFailed`, `workerData`: see {@link WorkerStartOptions}. A module that cannot be loaded ends the thread with an
 *   `error` event whose error has Node's code (`ERR_MODULE_NOT_FOUND`, `MODULE_NOT_FOUND`: core/module-load.ts).
 */
export function startWorkerBeside(
  callerUrl: string,
  name: string,
  o: WorkerStartOptions = {},
): Worker {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./${name}${ext}`, callerUrl);
  const direct = ext === '.js' || nodeStripsTypes();
  const { workerData } = o;
  if (direct && o.loadFailed === undefined) return new Worker(entry, { workerData });
  const load = direct
    ? `import(${JSON.stringify(entry.href)})`
    : `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  if (o.loadFailed === undefined) return new Worker(load, { eval: true, workerData });
  // The thread's own code, which imports nothing, marks the failure and then fails as the import did.
  const marking = `${load}.catch((e) => { const f = require('node:worker_threads').workerData.loadFailed; Atomics.store(f, 0, -1); Atomics.notify(f, 0); throw e; })`;
  return new Worker(marking, {
    eval: true,
    workerData: { ...(workerData as object | undefined), loadFailed: o.loadFailed },
  });
}
