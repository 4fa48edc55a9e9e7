/**
 * ZHUJIU_DATA_DIR naming a file (not a folder) is refused naming the path and the fix, before PGlite is asked to
 * open it (which said "EEXIST: file already exists, mkdir …; move the damaged one away"), and no lock is left. A
 * folder of other files (no PG_VERSION) is refused too, before PGlite writes a database among them
 * (storage/data-folder.ts), by every command and by `config check`.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/storage/db.ts';
import { inProcess } from '../../helpers/run-cli.ts';

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

describe('embedded database folder that holds other files', () => {
  it('is refused naming what it holds, writes nothing into it and leaves no lock', async () => {
    const folder = join(dir, 'built');
    mkdirSync(join(folder, 'knowledge'), { recursive: true });
    writeFileSync(join(folder, 'manifest.json'), '{}\n');
    await expect(openDb({ kind: 'pglite', dataDir: folder })).rejects.toMatchObject({
      code: 'db_unavailable',
      message: expect.stringMatching(
        /^the embedded database folder \S+built holds 2 entries \(knowledge, …\) but no database \(no PG_VERSION file\)/u,
      ),
    });
    expect(readdirSync(folder).sort()).toEqual(['knowledge', 'manifest.json']);
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it('config check refuses it too, and a data folder that is a file, in the command line language', async () => {
    const folder = join(dir, 'other');
    mkdirSync(folder);
    writeFileSync(join(folder, 'notes.txt'), 'mine\n');
    const file = join(dir, 'afile');
    writeFileSync(file, 'x\n');
    const config = join(dir, 'config'); // an empty configuration folder is a valid one
    mkdirSync(config);
    const env = { ZHUJIU_CONFIG_DIR: config, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    const zh = await inProcess(['config', 'check', '--no-endpoints'], {
      env: { ...env, ZHUJIU_DATA_DIR: folder, LANG: 'zh_CN.UTF-8' },
    });
    expect(zh.code).toBe(1);
    expect(zh.stderr).toMatch(/中有 1 项（notes\.txt），但不是数据库（没有 PG_VERSION 文件）/u);
    const en = await inProcess(['config', 'check', '--no-endpoints'], {
      env: { ...env, ZHUJIU_DATA_DIR: file },
    });
    expect(en.code).toBe(1);
    expect(en.stderr).toMatch(/is a file, not a folder/u);
  });
});

describe('config check on a data folder that cannot be made', () => {
  it('says so in one line, as every command does, for a file in its path and for /proc', async () => {
    const config = join(dir, 'config-2');
    mkdirSync(config);
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x\n');
    const env = { ZHUJIU_CONFIG_DIR: config, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    for (const dataDir of [join(file, 'pg'), join(file, 'deeper', 'pg'), '/proc/zhujiu-test/pg']) {
      const r = await inProcess(['config', 'check', '--no-endpoints'], {
        env: { ...env, ZHUJIU_DATA_DIR: dataDir },
      });
      expect(r.code, dataDir).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error \\[db_unavailable\\]: cannot use ${dataDir} as the embedded database folder: (${file} is a file, not a folder \\(a file is in the path, ENOTDIR\\)|/proc takes no new folders \\(no such file or folder, ENOENT\\))`,
          'u',
        ),
      );
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /u);
    }
  });
});
