/**
 * @module storage/pglite-load
 * Loading PGlite in this thread, once per process: its module, and its WebAssembly (`pglite.wasm`, 9 MB) read and
 * compiled, V8 compiling on its background threads; storage/db `openDb` starts it. At a one-shot command's first
 * start, the thread that unpacks the prepared database reads and compiles the WebAssembly too
 * (storage/template-fill), and cli/early-fill starts the load with that module as the process starts. Read here
 * through the thread pool (512 KB at a time) while the module loader kept this thread busy, the file came in
 * ~0.5 s after the call; on that thread, ~30 ms after it started (bench/first-start.ts). The compiled module goes
 * to PGlite as `pgliteWasmModule` (its documented option).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';

/** PGlite's compiled WebAssembly module (its `pgliteWasmModule` option). */
export type PgliteWasm = NonNullable<PGliteOptions['pgliteWasmModule']>;

/** What {@link loadPglite} resolves to. */
export interface LoadedPglite {
  readonly PGlite: typeof import('@electric-sql/pglite').PGlite;
  /** undefined when the file could not be read or compiled here: PGlite then loads its own as usual. */
  readonly wasm: PgliteWasm | undefined;
}

/**
 * Compiles WebAssembly `bytes` with the global WebAssembly API (the project's `lib` setting declares its types,
 * not the global), V8 compiling on its background threads.
 * @throws Error (through the promise) for bytes that are not WebAssembly.
 */
export function compileWasm(bytes: Uint8Array): Promise<PgliteWasm> {
  const api = (
    globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<PgliteWasm> } }
  ).WebAssembly;
  return api.compile(bytes);
}

let loading: Promise<LoadedPglite> | undefined;

/**
 * The path of PGlite's WebAssembly file in this installation.
 * @throws Error when PGlite's package cannot be found.
 */
export function pgliteWasmFile(): string {
  return join(
    dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')),
    'pglite.wasm',
  );
}

/**
 * Starts loading PGlite, or returns the load already started in this process. Never rejects for the
 * WebAssembly (`wasm` is then undefined); the module's import failing rejects (an installation without
 * PGlite's package), and a later call tries again.
 * @param compiled the WebAssembly compiled elsewhere (resolving to undefined: it could not be, and it is read and
 *   compiled here); used only by the call that starts the load.
 */
export function loadPglite(compiled?: Promise<PgliteWasm | undefined>): Promise<LoadedPglite> {
  if (loading !== undefined) return loading;
  const here = async () => compileWasm(await readFile(pgliteWasmFile()));
  const wasm = (compiled ?? Promise.resolve(undefined))
    .then((w) => w ?? here())
    .catch(() => undefined);
  const load = Promise.all([import('@electric-sql/pglite'), wasm]).then(([m, w]) => ({
    PGlite: m.PGlite,
    wasm: w,
  }));
  loading = load;
  load.catch(() => {
    if (loading === load) loading = undefined;
  });
  return load;
}
