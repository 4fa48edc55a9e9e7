/**
 * storage/pglite-fill-fs: PGlite started on a data folder that is still being filled starts at once, makes and
 * looks into the folder only once it is told the fill is done, and opens the database renamed into place
 * meanwhile (had it looked earlier, it would have run initdb in an empty folder, and the rename into it would
 * fail); a folder that cannot be made then is reported instead of waited for.
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { FolderBeingFilledFS } from '../../../src/storage/pglite-fill-fs.ts';
import { PGLITE_SETTINGS } from '../../../src/storage/pglite-settings.ts';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'zhujiu-fill-fs-'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('storage/pglite-fill-fs', () => {
  it('starts PGlite before the fill is done and opens the folder filled meanwhile', async () => {
    const fill = join(root, '.pg.unpacking');
    cpSync(inject('pgliteTemplate'), fill, { recursive: true });
    const target = join(root, 'pg');
    let done: () => void = () => undefined;
    let waiting: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      done = resolve;
    });
    const asked = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    // A start-up step after the one that waits for the fill: seen when PGlite's start has reached it.
    class Observed extends FolderBeingFilledFS {
      override async init(...a: Parameters<FolderBeingFilledFS['init']>) {
        const { emscriptenOpts } = await super.init(...a);
        const preRun = [...(emscriptenOpts.preRun ?? []), () => waiting()];
        return { emscriptenOpts: { ...emscriptenOpts, preRun } };
      }
    }
    const pglite = new PGlite({
      fs: new Observed(target, ready),
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    });
    let opened = false;
    void pglite.waitReady.then(() => {
      opened = true;
    });
    await asked;
    // Time for a PGlite that did not wait to look into the empty folder (it would start initdb there).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(opened).toBe(false);
    // Nothing was made where the folder goes; the fill is renamed into place, as storage/pglite-template
    // seedFromTemplate does, then announced.
    expect(existsSync(target)).toBe(false);
    renameSync(fill, target);
    done();
    await pglite.waitReady;
    const r = await pglite.query<{ n: number }>('select count(*)::int as n from kysely_migration');
    expect(r.rows[0]?.n).toBe(Object.keys(migrations).length);
    await pglite.close();
  });

  it('reports a folder that cannot be made once the fill is done', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, '');
    const fs = new FolderBeingFilledFS(join(blocker, 'pg'), Promise.resolve());
    const pglite = new PGlite({ fs });
    await expect(Promise.race([pglite.waitReady, fs.failed])).rejects.toThrow(/a-file/u);
  });
});
