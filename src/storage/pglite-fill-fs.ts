/**
 * @module storage/pglite-fill-fs
 * PGlite's Node file system for a data folder that is still being filled: PGlite starts at once (reads its
 * bundled files, instantiates its WebAssembly, sets up its in-memory folders) and waits for the folder only
 * before it looks into it. storage/db `openDb` uses it at a first start, when the empty data folder is being
 * filled from the prepared database (storage/pglite-template `seedFromTemplate`): the ~150–190 ms of PGlite's
 * start that do not need the folder then overlap the end of the fill instead of following it (on the 2-core
 * machine we measure on, `zhujiu eval` waited ~100 ms for the fill after its modules and datasets were loaded;
 * bench/first-start.ts prints the phases).
 *
 * How: PGlite's documented `fs` option takes a file system object; this one is PGlite's own `NodeFS` with one
 * more Emscripten `preRun` step, which takes a run dependency (Emscripten's `Module.addRunDependency`: the
 * runtime finishes starting only when every dependency is removed) and removes it when `ready` resolves. PGlite
 * checks whether the folder holds a database only after that, so it finds the filled folder (or the database
 * that storage/pglite-create made aside when the fill could not be used). `NodeFS`'s own step, which mounts the
 * folder, is moved to that moment too: nothing touches the folder before the fill is in place (it is renamed into
 * place under the data folder's lock, storage/data-dir-lock).
 */
import { resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { makeDirsSync } from '../core/make-dirs.ts';

/** Emscripten's module object as PGlite's file systems see it (the type of `NodeFS.init`'s options). */
type PostgresMod = Parameters<NodeFS['init']>[1] extends Partial<infer M> ? M : never;

/** The part of Emscripten's module object used here (its runtime's run dependencies). */
interface RunDependencies {
  addRunDependency(id: string): void;
  removeRunDependency(id: string): void;
}

/** The run dependency's name (Emscripten only counts them; the name shows in its debug output). */
const DEPENDENCY = 'zhujiu-data-folder-filled';

/**
 * PGlite's `NodeFS` on a folder that PGlite must not touch before `ready` resolves (see the module comment): the
 * folder is neither created nor mounted until then.
 */
export class FolderBeingFilledFS extends NodeFS {
  readonly #ready: Promise<unknown>;
  /** Rejects when `ready` rejects, or the folder could not be made or mounted (PGlite then waits forever). */
  readonly failed: Promise<never>;
  #fail: (err: unknown) => void = () => undefined;

  /**
   * @param dataDir the data folder (made, with its parents, when it is still missing once `ready` resolves).
   * @param ready resolves once the folder holds what PGlite should open (the filled database, or nothing: PGlite
   *   then runs initdb in it); when it rejects, PGlite never looks and {@link failed} rejects with its error.
   */
  constructor(dataDir: string, ready: Promise<unknown>) {
    // NodeFS makes its folder at once when it is missing: given the root folder, it makes nothing.
    super('/');
    this.rootDir = resolve(dataDir);
    this.#ready = ready;
    this.failed = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    this.failed.catch(() => undefined); // raced by storage/db against PGlite's start
  }

  override async init(
    pg: PGlite,
    opts: Partial<PostgresMod>,
  ): Promise<{ emscriptenOpts: Partial<PostgresMod> }> {
    const before = opts.preRun?.length ?? 0;
    const { emscriptenOpts } = await super.init(pg, opts);
    const all = emscriptenOpts.preRun ?? [];
    // NodeFS's own steps (mounting the folder) run once the fill is done, in the place of this one.
    const mount = all.slice(before);
    const wait = (mod: PostgresMod) => {
      const deps = mod as unknown as RunDependencies;
      deps.addRunDependency(DEPENDENCY);
      const go = () => {
        try {
          makeDirsSync(this.rootDir);
          for (const step of mount) step(mod);
        } catch (err) {
          this.#fail(err);
          return;
        }
        deps.removeRunDependency(DEPENDENCY);
      };
      this.#ready.then(go, (err: unknown) => this.#fail(err));
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...all.slice(0, before), wait] } };
  }
}
