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
 * runtime finishes starting only when every dependency is removed) and removes it when `ready` settles. PGlite
 * checks whether the folder holds a database only after that, so it finds the filled folder, or an empty one to
 * run initdb in when the fill could not be used. `NodeFS` mounts the folder by its path and resolves every file
 * by path, so a folder renamed into place before the dependency is removed is the one PGlite opens.
 */
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** Emscripten's module object as PGlite's file systems see it (the type of `NodeFS.init`'s options). */
type PostgresMod = Parameters<NodeFS['init']>[1] extends Partial<infer M> ? M : never;

/** The part of Emscripten's module object used here (its runtime's run dependencies). */
interface RunDependencies {
  addRunDependency(id: string): void;
  removeRunDependency(id: string): void;
}

/** The run dependency's name (Emscripten only counts them; the name shows in its debug output). */
const DEPENDENCY = 'zhujiu-data-folder-filled';

/** PGlite's `NodeFS` on a folder that PGlite must not look into before `ready` settles (see the module comment). */
export class FolderBeingFilledFS extends NodeFS {
  readonly #ready: Promise<unknown>;

  /**
   * @param dataDir the data folder (created empty when missing, as `NodeFS` does; its parent must exist).
   * @param ready settles (either way) once the folder holds what PGlite should open: the filled database, or
   *   nothing (PGlite then runs initdb in it).
   */
  constructor(dataDir: string, ready: Promise<unknown>) {
    super(dataDir);
    this.#ready = ready;
  }

  override async init(
    pg: PGlite,
    opts: Partial<PostgresMod>,
  ): Promise<{ emscriptenOpts: Partial<PostgresMod> }> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const wait = (mod: PostgresMod) => {
      const deps = mod as unknown as RunDependencies;
      deps.addRunDependency(DEPENDENCY);
      const go = () => deps.removeRunDependency(DEPENDENCY);
      this.#ready.then(go, go);
    };
    return {
      emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), wait] },
    };
  }
}
