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

/**
 * A worker thread running the module `name` next to `callerUrl` (pass `import.meta.url`).
 * @param callerUrl the caller's `import.meta.url` (a file: URL ending in .ts or .js).
 * @param name the worker module's file name without its extension, e.g. `board-worker`.
 */
export function startWorkerBeside(callerUrl: string, name: string): Worker {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./${name}${ext}`, callerUrl);
  if (ext === '.js' || nodeStripsTypes()) return new Worker(entry);
  return new Worker(
    `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true },
  );
}
