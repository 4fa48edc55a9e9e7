/**
 * @module storage/template-fill-worker
 * Worker-thread entry of storage/template-fill: unpacks the prepared database's archive into a private folder
 * (`workerData`: `{ archive, folder, wasm? }`, absolute paths) with storage/tar-unpack `unpackTarFileSync`, then
 * posts `{ entries }` (the number written) or `{ error }` (the failure's message) and ends. On its own thread the
 * ~520 files are written while the command's main thread loads its modules, instead of in that thread's idle
 * moments. Given `wasm` (PGlite's WebAssembly file), it reads and compiles that first (V8 compiles on its own
 * threads while this one unpacks) and adds the compiled module to its message (`wasm`: a WebAssembly.Module,
 * which a message shares between threads; absent when it could not be compiled).
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { compileWasm } from './pglite-load.ts';
import { unpackTarFileSync } from './tar-unpack.ts';

const { archive, folder, wasm } = workerData as {
  readonly archive: string;
  readonly folder: string;
  readonly wasm?: string;
};
const compiling = (async () => (wasm ? compileWasm(readFileSync(wasm)) : undefined))().catch(
  () => undefined,
);
unpackTarFileSync(archive, folder).then(
  async (entries) => parentPort?.postMessage({ entries, wasm: await compiling }),
  async (err: unknown) =>
    parentPort?.postMessage({
      error: err instanceof Error ? err.message : String(err),
      wasm: await compiling,
    }),
);
