/**
 * @module storage/template-fill
 * The prepared embedded database (storage/pglite-template) unpacked ahead of need: a command that will open an
 * empty embedded data folder starts unpacking the archive into a private folder beside it as the process starts
 * (bin/zhujiu.js, through cli/early-fill), so the file writes, which wait on the disk, overlap the loading of the
 * command's modules, its configuration and its datasets, which keep the main thread busy. The data folder itself
 * is only filled later, under its lock, by `seedFromTemplate`, which takes the folder unpacked here
 * ({@link takeTemplateFill}) instead of unpacking again; a fill nobody took (the command failed first, or its data
 * folder is another) is removed when the process ends (also by a signal), with the parent folders it created.
 *
 * The unpacking runs on a worker thread of its own (storage/template-fill-worker), writing synchronously. Done on
 * the main thread through the thread pool, each of the ~520 files' open, write and close waited for a moment when
 * the module loader left the thread free: on the 2-core machine we measure on, the fill took 1.1–1.2 s of a first
 * `zhujiu eval` and the command waited ~0.6 s of it after its modules were loaded; alone, the same unpacking takes
 * ~0.15 s (bench/first-start.ts prints the phases).
 */
import { existsSync, mkdtempSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { onExit } from 'signal-exit';
import { makeDirsSync } from '../core/make-dirs.ts';
import { startWorkerBeside } from '../core/worker-thread.ts';
import { FILL_STOP_ASKED, FILL_WRITING } from './fill-state.ts';
import type { PgliteWasm } from './pglite-load.ts';

/** The archive's file name inside the template folder (storage/pglite-template). */
export const TEMPLATE_ARCHIVE = 'pglite-template.tar';

/**
 * The template folder of this installation: `dist/` of the package (the compiled module sits in
 * `dist/src/storage/`, the source one in `src/storage/`, a bundled chunk in `dist/bundle/cli/`; all resolve to
 * the same `dist/`).
 */
export function defaultTemplateDir(): string {
  const up2 = fileURLToPath(new URL('../../', import.meta.url));
  return basename(up2) === 'dist' ? resolve(up2) : join(up2, 'dist');
}

/** A fill started by {@link startTemplateFill}. */
interface Fill {
  /** The private folder being filled. */
  readonly folder: string;
  /** Resolves to true when the whole archive was written, false when unpacking failed (the folder is removed). */
  readonly done: Promise<boolean>;
  /** Parent folders created for it, outermost first (removed again if the fill is not taken and they are empty). */
  readonly made: readonly string[];
  /** The thread writing it; it does not keep the process alive until somebody waits for it. */
  readonly worker: Worker;
  /** PGlite's WebAssembly as that thread compiled it (undefined: not asked for, or it could not be compiled). */
  readonly wasm: Promise<PgliteWasm | undefined>;
  /**
   * The thread's writing state, shared with it (storage/fill-state):
   * {@link stopFillWrites} asks it to stop and waits until it writes nothing more.
   */
  readonly stop: Int32Array;
  taken: boolean;
}

/**
 * How long the process's end waits for a fill's thread to finish the write it is in (one file: milliseconds), ms;
 * a thread that never answers (it died) only delays the end by this much.
 */
const STOP_WAIT_MS = 2000;

/**
 * Stops the writes of `fill`'s thread and waits until the file it is writing is written, so that removing its
 * folder next cannot race with a write that makes a file in a folder being removed (rmdir's ENOTEMPTY, which left
 * the folder behind). Blocks the thread: called as the process ends.
 */
function stopFillWrites(fill: Fill): void {
  if (Atomics.compareExchange(fill.stop, 0, FILL_WRITING, FILL_STOP_ASKED) === FILL_WRITING)
    Atomics.wait(fill.stop, 0, FILL_STOP_ASKED, STOP_WAIT_MS);
}

/** Fills by the resolved data folder they are for. */
const fills = new Map<string, Fill>();
/** Every private folder made by {@link privateFillFolder} in this process (removed at exit when still there). */
const privateFolders = new Set<string>();
let exitHookSet = false;

/** True when `dir` does not exist or is an empty folder. */
export function isEmptyOrMissing(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The private folder a fill of `target` goes into: beside it (so that the rename into place stays on one file
 * system), hidden, named after it and after this process (`.NAME.unpacking-PID-XXXXXX`: {@link removeStaleFills}
 * removes at once the folder of a process that is gone). This process removes it when it ends, also by a
 * signal, unless it was renamed into place by then (a process killed outright leaves it to the next start).
 */
export function privateFillFolder(target: string): string {
  const folder = mkdtempSync(
    join(dirname(target), `.${basename(target)}.unpacking-${process.pid}-`),
  );
  privateFolders.add(folder);
  if (!exitHookSet) {
    exitHookSet = true;
    onExit(removePrivateFolders);
  }
  return folder;
}

/**
 * Removes, as the process ends (its exit, or a signal that ends it: SIGINT, SIGTERM, SIGHUP…, through
 * signal-exit's hook, which lets the signal end it as before), the fills nobody took and every private folder not
 * renamed into place; the fills' threads are first stopped ({@link stopFillWrites}).
 */
function removePrivateFolders(): void {
  for (const fill of fills.values()) stopFillWrites(fill);
  removeUntakenFills();
  for (const f of privateFolders) removeFolderSurely(f);
}

/** Attempts, and the pause between two (ms), at removing a folder whose last writes may still be landing. */
const REMOVE_ATTEMPTS = 40;
const REMOVE_PAUSE_MS = 25;

/**
 * Removes the folder `dir` as the process ends, also while writes into it are still landing: a file the thread
 * pool creates (storage/tar-unpack `unpackTarFile` on this thread) or a fill's thread writes while the folder is
 * being listed makes its removal fail (ENOTEMPTY); it is tried again, a pause apart, for up to a second. Never
 * throws (it runs in the exit hook).
 */
function removeFolderSurely(dir: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < REMOVE_ATTEMPTS; i++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      if (!existsSync(dir)) return;
    } catch {
      // tried again below
    }
    Atomics.wait(pause, 0, 0, REMOVE_PAUSE_MS);
  }
}

/** False when no process has the id `pid` (a signal 0 to it fails with ESRCH); true when one may have it. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Starts unpacking the archive `archive` for the embedded data folder `dataDir` when that folder is missing or
 * empty; nothing otherwise, or when a fill for it was started already. Never throws: a folder that cannot be
 * made or an archive that cannot be read only means that `seedFromTemplate` unpacks (or reports) as it would
 * have without this.
 * @param dataDir the data folder as the command will resolve it (ZHUJIU_DATA_DIR, else `data/pg`).
 * @param archive the prepared database (storage/pglite-template `TEMPLATE_ARCHIVE` in its template folder).
 * @param wasm PGlite's WebAssembly file, for the thread to compile as well ({@link fillWasm}); none by default.
 * @returns resolves (never rejects) to true once a fill started here is complete, false when none was started
 *   or it failed.
 */
export function startTemplateFill(
  dataDir: string,
  archive: string,
  wasm?: string,
): Promise<boolean> {
  const target = resolve(dataDir);
  if (fills.has(target) || !isEmptyOrMissing(target)) return Promise.resolve(false);
  let folder: string | undefined;
  let made: string[];
  let worker: Worker;
  const stop = new Int32Array(new SharedArrayBuffer(4));
  try {
    statSync(archive);
    made = makeDirsSync(dirname(target));
    folder = privateFillFolder(target);
    worker = startWorkerBeside(import.meta.url, 'template-fill-worker', {
      workerData: { archive: resolve(archive), folder, wasm, stop: stop.buffer },
    });
  } catch {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    return Promise.resolve(false);
  }
  worker.unref();
  // The thread posts `{ wasm }` first, then `{ entries }` or `{ error }` (storage/template-fill-worker).
  let compiledNow: (w: PgliteWasm | undefined) => void = () => undefined;
  const compiled = new Promise<PgliteWasm | undefined>((settle) => {
    compiledNow = settle;
  });
  const message = new Promise<{ entries?: number } | undefined>((settle) => {
    worker.on('message', (m: { entries?: number; error?: string; wasm?: PgliteWasm }) => {
      if ('wasm' in m) compiledNow(m.wasm);
      else settle(m);
    });
    // Its module could not be loaded, or it ended (after its messages, if any).
    for (const end of ['error', 'exit'] as const)
      worker.once(end, () => {
        compiledNow(undefined);
        settle(undefined);
      });
  });
  const into = folder;
  const done = message.then((m) => {
    const ok = typeof m?.entries === 'number';
    if (!ok) rmSync(into, { recursive: true, force: true });
    return ok;
  });
  fills.set(target, { folder, done, made, worker, wasm: compiled, stop, taken: false });
  return done;
}

/**
 * PGlite's WebAssembly compiled by the thread filling data folder `dataDir` (started with `wasm`), as soon as it
 * is compiled (the fill may still be running: storage/pglite-fill-fs); undefined when no fill was started for
 * that folder. The promise resolves to undefined when the thread was not asked for it or could not compile it; it
 * never rejects. Whoever waits for it calls {@link keepFillsAlive} first.
 */
export function fillWasm(dataDir: string): Promise<PgliteWasm | undefined> | undefined {
  return fills.get(resolve(dataDir))?.wasm;
}

/**
 * Lets every fill's thread keep the process alive until it has finished (by default they do not): called by a
 * caller about to wait for one (storage/db, waiting for PGlite, which may wait for {@link fillWasm}).
 */
export function keepFillsAlive(): void {
  for (const fill of fills.values()) fill.worker.ref();
}

/** How old (ms since its last change) a private fill folder must be to count as left by a process that died. */
const STALE_FILL_MS = 10 * 60_000;

/**
 * Removes the private fill folders beside data folder `dataDir` that a process killed (or stopped by a signal)
 * while unpacking left behind: those named after a process that is gone, and any not changed for
 * {@link STALE_FILL_MS} (a fill being written changes its folder every few milliseconds, and takes seconds; the
 * process id may have been reused). The caller holds the data folder's lock. Never throws.
 * @returns how many were removed.
 */
export function removeStaleFills(dataDir: string, now: number = Date.now()): number {
  const target = resolve(dataDir);
  const prefix = `.${basename(target)}.unpacking-`;
  let removed = 0;
  try {
    for (const name of readdirSync(dirname(target))) {
      if (!name.startsWith(prefix)) continue;
      const path = join(dirname(target), name);
      const pid = Number(/^(\d+)-/u.exec(name.slice(prefix.length))?.[1] ?? Number.NaN);
      const gone = Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid);
      if (!gone && now - statSync(path).mtimeMs < STALE_FILL_MS) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    }
  } catch {
    // A parent that cannot be listed holds nothing this can remove.
  }
  return removed;
}

/**
 * The folder a fill of data folder `dataDir` wrote, once it is complete; undefined when none was started for it
 * or it failed. The caller owns the folder from then on (renames it into place, or removes it).
 */
export async function takeTemplateFill(dataDir: string): Promise<string | undefined> {
  const fill = fills.get(resolve(dataDir));
  if (fill === undefined || fill.taken) return undefined;
  fill.taken = true;
  fill.worker.ref(); // awaited now: the process stays up until the thread has written it
  return (await fill.done) ? fill.folder : undefined;
}

/**
 * Removes the fills nobody took, and the parent folders made for them when they are empty (run at the process's
 * exit; a fill still being written may leave a file behind, which the next fill's folder never collides with).
 */
export function removeUntakenFills(): void {
  for (const [target, fill] of fills) {
    if (fill.taken) continue;
    fills.delete(target);
    removeFolderSurely(fill.folder);
    for (const dir of [...fill.made].reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty (or gone): the levels above it are not empty either
      }
    }
  }
}
