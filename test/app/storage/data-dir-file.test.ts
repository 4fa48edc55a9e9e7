/**
 * ZHUJIU_DATA_DIR naming a file (not a folder) is refused naming the path and the fix, before PGlite is asked to
 * open it (which said "EEXIST: file already exists, mkdir …; move the damaged one away"), and no lock is left.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/storage/db.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-datadir-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded database folder that is a file', () => {
  it('is refused as a file, not a damaged database, and leaves no lock', async () => {
    const file = join(dir, 'pg');
    writeFileSync(file, 'not a database\n');
    await expect(openDb({ kind: 'pglite', dataDir: file })).rejects.toMatchObject({
      code: 'db_unavailable',
      message: `the embedded database folder ${file} is a file, not a folder. Set ZHUJIU_DATA_DIR to a folder (it is created when missing), or DATABASE_URL to a Postgres server.`,
    });
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
