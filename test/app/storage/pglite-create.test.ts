/**
 * storage/pglite-create: when the prepared database cannot be used, PGlite's initdb creates the database in a
 * private folder beside the data folder, renamed into place when it is complete; a creation that fails leaves the
 * data folder as it was (missing) and no private folder, and a file-system failure such as a full disk is said
 * as a refusal of the data folder with its fix, not as a damaged database. A mount point is recognised.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { createDatabaseAside, isMountPoint } from '../../../src/storage/pglite-create.ts';
import { loadPglite } from '../../../src/storage/pglite-load.ts';
import { PGLITE_PG_MAJOR } from '../../../src/storage/pglite-settings.ts';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-create-'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('storage/pglite-create', () => {
  it('creates the database aside and renames it into place', async () => {
    const dataDir = join(root, 'made', 'pg');
    await createDatabaseAside(dataDir, () => loadPglite());
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toBe(PGLITE_PG_MAJOR);
    expect(readdirSync(join(root, 'made'))).toEqual(['pg']);
  }, 60_000);

  it('leaves the data folder missing and nothing beside it when the creation fails', async () => {
    const dataDir = join(root, 'failed', 'pg');
    await expect(
      createDatabaseAside(dataDir, () => Promise.reject(new Error('PGlite could not start'))),
    ).rejects.toThrow('PGlite could not start');
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(join(root, 'failed'))).toEqual([]);
  });

  it('says a full disk as a refusal of the data folder with its fix', async () => {
    const dataDir = join(root, 'full', 'pg');
    const full = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    const err = await createDatabaseAside(dataDir, () => Promise.reject(full)).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('db_unavailable');
    const said = (err as AppError).said;
    if (said === undefined) throw new Error('the refusal carries no catalogue text');
    const text = sayCli('en', said);
    expect(text).toContain(join(root, 'full'));
    expect(text).toMatch(/full/iu);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('leaves a folder that holds anything alone', async () => {
    const dataDir = join(root, 'holds', 'pg');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'PG_VERSION'), `${PGLITE_PG_MAJOR}\n`);
    await createDatabaseAside(dataDir, () => Promise.reject(new Error('not called')));
    expect(readdirSync(dataDir)).toEqual(['PG_VERSION']);
  });

  it('tells a mount point from a folder', () => {
    expect(isMountPoint('/proc')).toBe(true);
    expect(isMountPoint(root)).toBe(false);
  });
});
