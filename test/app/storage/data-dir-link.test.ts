/**
 * An embedded database folder given as a symbolic link (ZHUJIU_DATA_DIR=link): the folder it links to is opened,
 * filled when empty, and locked under its own name; a link to nothing is refused naming the link and its target
 * (PGlite itself failed on a link with an error that had no message).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { openDb, pingDb } from '../../../src/storage/db.ts';
import { defaultTemplateDir } from '../../../src/storage/pglite-template.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-data-link-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a data folder given as a symbolic link', () => {
  it('opens (and fills) the folder it links to, then reopens it through the link', async () => {
    const real = join(root, 'real', 'pg');
    mkdirSync(real, { recursive: true });
    const link = join(root, 'link');
    symlinkSync(real, link);
    for (let i = 0; i < 2; i++) {
      const d = await openDb({ kind: 'pglite', dataDir: link }, { template: defaultTemplateDir() });
      try {
        await pingDb(d.db);
        expect(d.describe).toContain(real);
      } finally {
        await d.close();
      }
    }
  });

  it('refuses a link to nothing, naming the link and what it points to', async () => {
    const link = join(root, 'dangling');
    symlinkSync(join(root, 'gone', 'pg'), link);
    const err = await openDb({ kind: 'pglite', dataDir: link }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAppError(err, 'db_unavailable'), String(err)).toBe(true);
    expect((err as Error).message).toContain(`${link} is a link to ${join(root, 'gone', 'pg')}`);
  });
});
