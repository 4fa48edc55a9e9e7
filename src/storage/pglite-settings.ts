/**
 * @module storage/pglite-settings
 * PostgreSQL settings for the embedded database (PGlite), wherever it is opened: on a one-shot command's own
 * thread (storage/db.ts) or in a long-lived process's worker thread (storage/pglite-worker.ts).
 *
 * `shared_buffers=16MB`: PostgreSQL zeroes its whole buffer pool at every start, and PGlite's WebAssembly does it
 * byte by byte. With the default 128 MB pool a bare open cost ~2.0 CPU-s and 330 MB of memory on the 2-core
 * machine we measure on; with 16 MB, ~1.5 CPU-s and 210 MB. A command reads most pages about once; large scans
 * and bulk writes use a small ring of buffers whatever the pool's size (importing 200,000 votes takes 17 s either
 * way); and a page that falls out of the pool is still in the operating system's file cache. bench/startup.ts
 * prints the commands' whole-process figures and bench/chat-path.ts the bot's with 1 M votes.
 */
export const PGLITE_SETTINGS: readonly string[] = ['-c', 'shared_buffers=16MB'];

/**
 * PGlite's start-up options wherever this project opens it: its own start parameters with {@link PGLITE_SETTINGS},
 * and the WebAssembly module when one was compiled ahead (storage/pglite-load), as its `pgliteWasmModule` option.
 * @param defaults the PGlite class's `defaultStartParams`.
 */
export function pgliteStartOptions<W extends object>(
  defaults: readonly string[],
  wasm?: W,
): { startParams: string[]; pgliteWasmModule?: W } {
  return {
    startParams: [...defaults, ...PGLITE_SETTINGS],
    ...(wasm === undefined ? {} : { pgliteWasmModule: wasm }),
  };
}

/**
 * The PostgreSQL major version of the bundled PGlite (0.5.x runs PostgreSQL 18; 0.4.x ran 17). A data folder's
 * `PG_VERSION` file names the major version that created it, and PostgreSQL opens only its own: a folder made by
 * another one is refused with a message naming the fix instead of PGlite's "failed to initialize properly".
 * test/app/storage/pglite-version.test.ts checks this against a freshly created folder.
 */
export const PGLITE_PG_MAJOR = '18';
