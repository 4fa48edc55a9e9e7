/**
 * An embedded data folder made by another PostgreSQL major version (PGlite 0.4 ran PostgreSQL 17, 0.5 runs 18)
 * is refused with a message naming the fix, before PGlite tries it; the bundled version is the one a new folder
 * gets.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../../src/storage/db.ts';
import { PGLITE_PG_MAJOR } from '../../../src/storage/pglite-settings.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-pg-version-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the PostgreSQL version of an embedded data folder', () => {
  it('is the bundled one in a folder PGlite creates', () => {
    expect(readFileSync(join(inject('pgliteTemplate'), 'PG_VERSION'), 'utf8').trim()).toBe(
      PGLITE_PG_MAJOR,
    );
  });

  it('another one is refused with the fix, and the folder is left as it was', async () => {
    const dataDir = join(root, 'pg');
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'PG_VERSION'), '17\n');
    await expect(openDb({ kind: 'pglite', dataDir })).rejects.toMatchObject({
      code: 'db_unavailable',
      message: expect.stringMatching(
        /was made by PostgreSQL 17 .* runs PostgreSQL 18, which cannot open it\. Run `zhujiu migrate --upgrade-data-dir`.*ZHUJIU_DATA_DIR/,
      ),
    });
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    // The lock was released: the folder opens once its version is the bundled one.
    writeFileSync(join(dataDir, 'PG_VERSION'), `${PGLITE_PG_MAJOR}\n`);
    const d = await openDb({ kind: 'pglite', dataDir });
    await d.close();
  });
});
