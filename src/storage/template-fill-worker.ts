/**
 * @module storage/template-fill-worker
 * Worker-thread entry of storage/template-fill: unpacks the prepared database's archive into a private folder
 * (`workerData`: `{ archive, folder, wasm?, stop }`, absolute paths and a shared flag: once the main thread sets
 * it, nothing more is written) with storage/tar-unpack `unpackTarFileSync`, then posts `{ entries }` (the number written) or `{ error }` (the failure's message) and ends. On its own thread the
 * ~520 files are written while the command's main thread loads its modules, instead of in that thread's idle
 * moments. Before that, it always posts `{ wasm }`: given `wasm` (PGlite's WebAssembly file), it reads and
 * compiles that first (V8 compiles on its own threads while this one unpacks) and posts the compiled module as
 * soon as it is ready (a WebAssembly.Module, which a message shares between threads; undefined when it was not
 * asked for or could not be compiled).
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { FILL_IDLE, FILL_STOP_ASKED } from './fill-state.ts';
import { compileWasm } from './pglite-load.ts';
import { unpackTarFileSync } from './tar-unpack.ts';

const { archive, folder, wasm, stop } = workerData as {
  readonly archive: string;
  readonly folder: string;
  readonly wasm?: string;
  /** One Int32: the writing state shared with the main thread (storage/fill-state). */
  readonly stop: SharedArrayBuffer;
};
const stopFlag = new Int32Array(stop);
// Posted as soon as it is compiled, before the unpacking ends: PGlite starts with it while the folder is written
// (storage/pglite-fill-fs).
(async () => (wasm ? compileWasm(readFileSync(wasm)) : undefined))()
  .catch(() => undefined)
  .then((compiled) => parentPort?.postMessage({ wasm: compiled }));
/** Nothing more is written: the main thread, waiting to remove the folder, is told (storage/template-fill). */
const idle = () => {
  Atomics.store(stopFlag, 0, FILL_IDLE);
  Atomics.notify(stopFlag, 0);
};
const stopped = () => {
  if (Atomics.load(stopFlag, 0) !== FILL_STOP_ASKED) return false;
  idle();
  return true;
};
unpackTarFileSync(archive, folder, stopped)
  .finally(idle)
  .then(
    (entries) => parentPort?.postMessage({ entries }),
    (err: unknown) =>
      parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
