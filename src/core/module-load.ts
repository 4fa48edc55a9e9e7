/**
 * @module core/module-load
 * Tells a module that cannot be loaded from other failures. Node fails an `import` (static or dynamic, on any
 * thread) of a missing file or package with code `ERR_MODULE_NOT_FOUND` (ESM) or `MODULE_NOT_FOUND` (CommonJS,
 * and a worker thread whose entry file is missing); the code survives the copy of a worker thread's error into
 * the thread that started it. Such a failure of zhujiu's own files means the installation is incomplete (a bundle
 * chunk deleted, a build interrupted, `node_modules` partly installed), not that the database or the input is at
 * fault (docs/architecture.md, "Failures").
 */

/** Node's error codes of a module or package that cannot be found. */
const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/** How deep {@link unloadableModule} follows `cause`. */
const MAX_CAUSES = 5;

/**
 * What could not be loaded, when `err` (or an error in its `cause` chain) is a module-not-found failure: the path
 * or package Node names (`/app/dist/bundle/cli/chunk-AB12.js`, `pg`), else Node's whole message.
 * @returns undefined for any other error.
 */
export function unloadableModule(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth <= MAX_CAUSES && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_FOUND_CODES.has(code)) {
      // "Cannot find module '/x/chunk.js' imported from /x/index.js", "Cannot find package 'pg' imported from …"
      const named = /'([^']+)'/u.exec(e.message);
      return named?.[1] ?? e.message;
    }
    e = e.cause;
  }
  return undefined;
}
