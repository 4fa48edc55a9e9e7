/**
 * Every refusal of the embedded database's folder names the path at fault, says the system's reason in words in
 * both languages, and the fix (storage/data-folder.ts). Found by a new user: an empty, writable data folder in a
 * folder they could not write was refused with a bare `(EACCES)` naming the data folder, although the lock and the
 * unpacked database go in its parent; `ZHUJIU_DATA_DIR=/proc/x/pg` said `(ENOENT)`; the English messages showed bare
 * codes where the Chinese ones explained them.
 *
 * Permissions cannot be refused to root: the cases of real unwritable or unreadable folders run as any other user;
 * the refusals built from the system's errors (with the path each names) run everywhere.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../../src/core/errors.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { pgliteFailureText } from '../../../src/storage/data-folder.ts';
import { openDb, unusableDataDir } from '../../../src/storage/db.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-datadir-refusals-'));
afterAll(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});
const asRoot = process.getuid?.() === 0;

/** A refusal as the command line says it, in English and in Chinese. */
function both(err: AppError): { en: string; zh: string } {
  const said = err.said ?? { key: 'missing' };
  return { en: sayCli('en', said), zh: sayCli('zh-CN', said) };
}

describe('a data folder whose parent cannot be written', () => {
  it('names the parent (where the lock and the unpacked database go), the reason in words and the fix', () => {
    // As lockDataDir meets it: its private lock folder cannot be made in the parent.
    const err = { code: 'EACCES', syscall: 'mkdir', path: '/srv/ro/pg.lock.new-12-0a1b2c3d' };
    expect(both(unusableDataDir('/srv/ro/pg', err))).toEqual({
      en: 'cannot use /srv/ro/pg as the embedded database folder: cannot write in /srv/ro (no permission, EACCES), where the lock and the newly unpacked database go, beside the data folder. Make /srv/ro writable for this user, set ZHUJIU_DATA_DIR to a folder you can write, or set DATABASE_URL to a Postgres server.',
      zh: '无法把 /srv/ro/pg 用作嵌入式数据库目录：无法在 /srv/ro 中写入（没有权限，EACCES），锁和新解包的数据库要放在那里，即数据目录旁边。请让当前用户可以写入 /srv/ro，或把 ZHUJIU_DATA_DIR 设为可写的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。',
    });
  });

  it.skipIf(asRoot)(
    'really: an empty writable data folder in a read-only folder (not as root)',
    async () => {
      const parent = join(dir, 'ro');
      const data = join(parent, 'pg');
      mkdirSync(data, { recursive: true });
      chmodSync(parent, 0o555);
      try {
        await expect(openDb({ kind: 'pglite', dataDir: data })).rejects.toMatchObject({
          message: expect.stringContaining(
            `: cannot write in ${parent} (no permission, EACCES), where the lock`,
          ),
        });
      } finally {
        chmodSync(parent, 0o755);
      }
    },
  );

  it('a level above a missing data folder that cannot be written is named as the place of the missing folders', () => {
    const err = { code: 'EROFS', syscall: 'mkdir', path: '/mnt/cd/zhujiu' };
    expect(both(unusableDataDir('/mnt/cd/zhujiu/data/pg', err)).en).toBe(
      'cannot use /mnt/cd/zhujiu/data/pg as the embedded database folder: cannot write in /mnt/cd (read-only file system, EROFS), where the missing folders of /mnt/cd/zhujiu/data/pg are created. Set ZHUJIU_DATA_DIR to a folder you can write, or DATABASE_URL to a Postgres server.',
    );
  });
});

describe('every reason in words, in both languages, naming the path', () => {
  it('a system folder that takes no new folders (/proc), from a real command', async () => {
    const env = { DATABASE_URL: '', ZHUJIU_DATA_DIR: '/proc/zhujiu-test/pg' };
    const en = await inProcess(['migrate'], { env });
    expect(en.code).toBe(1);
    expect(en.stderr).toBe(
      'error [db_unavailable]: cannot use /proc/zhujiu-test/pg as the embedded database folder: /proc takes no new folders (no such file or folder, ENOENT), as system folders such as /proc and /sys do. Set ZHUJIU_DATA_DIR to a folder you can write, or DATABASE_URL to a Postgres server.\n',
    );
    const zh = await inProcess(['migrate'], { env: { ...env, LANG: 'zh_CN.UTF-8' } });
    expect(zh.stderr).toBe(
      '错误 [db_unavailable]：无法把 /proc/zhujiu-test/pg 用作嵌入式数据库目录：/proc 中不能新建目录（文件或目录不存在，ENOENT），/proc、/sys 等系统目录都是这样。请把 ZHUJIU_DATA_DIR 设为可写的目录，或把 DATABASE_URL 设为 PostgreSQL 服务器。\n',
    );
  });

  it('a file where a folder of the path should be is named, from a real command', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x\n');
    const r = await inProcess(['migrate'], {
      env: { DATABASE_URL: '', ZHUJIU_DATA_DIR: join(file, 'deeper', 'pg') },
    });
    expect(r.stderr).toContain(
      `: ${file} is a file, not a folder (a file is in the path, ENOTDIR).`,
    );
  });

  it('no refusal shows a bare code: each says it in words in English and in Chinese', () => {
    const cases: [string, string, string][] = [
      ['EACCES', 'no permission, EACCES', '没有权限，EACCES'],
      ['EPERM', 'no permission, EPERM', '没有权限，EPERM'],
      ['EROFS', 'read-only file system, EROFS', '文件系统只读，EROFS'],
      ['ENOSPC', 'no space left on the disk, ENOSPC', '磁盘空间不足，ENOSPC'],
      ['EDQUOT', 'no space left on the disk, EDQUOT', '磁盘空间不足，EDQUOT'],
      ['EMFILE', 'too many open files, EMFILE', '打开的文件太多，EMFILE'],
      ['ELOOP', 'too many levels of symbolic links, ELOOP', '符号链接层数过多，ELOOP'],
      ['EIO', 'input/output error, EIO', '输入输出错误，EIO'],
    ];
    for (const [code, en, zh] of cases) {
      const said = both(unusableDataDir('/srv/pg', { code, path: '/srv/pg.lock' }));
      expect(said.en, code).toContain(en);
      expect(said.en, code).toMatch(/\/srv\b/u);
      expect(said.en, code).not.toContain(`(${code})`);
      expect(said.zh, code).toContain(zh);
    }
    expect(both(unusableDataDir('/srv/pg', { code: 'ENOSPC', path: '/srv/pg.lock' })).en).toBe(
      'cannot use /srv/pg as the embedded database folder: the disk holding /srv is full (no space left on the disk, ENOSPC). Free some space, set ZHUJIU_DATA_DIR to a folder on another disk, or set DATABASE_URL to a Postgres server.',
    );
  });

  it.skipIf(asRoot)(
    'a data folder that cannot be read, or a database in it that cannot be written (not as root)',
    async () => {
      const unreadable = join(dir, 'unreadable');
      mkdirSync(unreadable);
      chmodSync(unreadable, 0o000);
      const readOnly = join(dir, 'read-only-db');
      mkdirSync(readOnly);
      writeFileSync(join(readOnly, 'PG_VERSION'), '18\n');
      chmodSync(readOnly, 0o555);
      try {
        await expect(openDb({ kind: 'pglite', dataDir: unreadable })).rejects.toThrow(
          `cannot read the embedded database folder ${unreadable} (no permission, EACCES). Make it readable and writable`,
        );
        await expect(openDb({ kind: 'pglite', dataDir: readOnly })).rejects.toThrow(
          `cannot write in the embedded database folder ${readOnly} (no permission, EACCES). Make it writable`,
        );
      } finally {
        chmodSync(unreadable, 0o755);
        chmodSync(readOnly, 0o755);
      }
    },
  );

  it('a file-system error of PGlite’s WebAssembly (a number, no message) is said by its code', () => {
    expect(pgliteFailureText({ name: 'ErrnoError', errno: 2 })).toBe('EACCES');
    expect(pgliteFailureText({ name: 'ErrnoError', errno: 999 })).toBe('ErrnoError errno 999');
    expect(pgliteFailureText(new Error('bad'))).toBe('bad');
  });
});
