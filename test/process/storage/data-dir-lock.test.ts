/**
 * The embedded database's folder lock after a crash. A lock naming this process's own pid (a restarted
 * container), a dead pid, or a live pid of an unrelated program is taken over at once and logged; a lock of older
 * versions (a plain pid file) likewise; only a live zhujiu process on the same folder refuses, shown with a real
 * second process, and once that process is killed (a crash) the folder is taken over without waiting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir, processStart } from '../../../src/storage/data-dir-lock.ts';
import { openDb } from '../../../src/storage/db.ts';
import { asProcess, inProcess } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const folder = () => join(root, `pg${n++}`);

/** A log that keeps what it is told. */
function recorder() {
  const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    warn: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', obj, msg }),
    error: (obj: Record<string, unknown>, msg: string) => lines.push({ level: 'error', obj, msg }),
  };
}

/** A lock as a crashed holder leaves it: the fresh lock directory and its owner record. */
function crashedLock(dir: string, owner: Record<string, unknown>): void {
  mkdirSync(`${dir}.lock`, { recursive: true });
  writeFileSync(`${dir}.lock-owner.json`, JSON.stringify(owner));
}

/** A second process (not this one) that takes the lock of `dir` and holds it until killed. */
async function lockHolder(dir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('./src/storage/data-dir-lock.ts').then(async (m) => { await m.lockDataDir(${JSON.stringify(dir)}); process.stdout.write('locked\\n'); setInterval(() => {}, 1000); });`,
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
  return child;
}

function exitedPid(): Promise<number> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    c.on('exit', () => resolve(c.pid as number));
  });
}

describe('embedded database lock', () => {
  it('a lock naming this process’s own pid is taken over and logged', async () => {
    const dir = folder();
    crashedLock(dir, { pid: process.pid, host: hostname(), start: '1', since: 'earlier' });
    const log = recorder();
    const release = await lockDataDir(dir, log);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.msg).toMatch(
      /took over a stale lock.*own pid.*it was held by pid \d+ on \S+ since earlier\)$/u,
    );
    release();
  });

  it('a lock of a dead pid is taken over and logged', async () => {
    const dir = folder();
    const pid = await exitedPid();
    crashedLock(dir, { pid, host: hostname(), start: '1', since: 'earlier' });
    const log = recorder();
    const release = await lockDataDir(dir, log);
    expect(log.lines[0]?.msg).toMatch(new RegExp(`pid ${pid} no longer runs`, 'u'));
    release();
  });

  it('a lock whose pid now belongs to an unrelated live program is taken over and logged', async () => {
    const dir = folder();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      stdio: 'ignore',
    });
    try {
      // The crashed holder had this pid but started at another time than the program that has it now.
      crashedLock(dir, { pid: other.pid, host: hostname(), start: '1', since: 'earlier' });
      const log = recorder();
      const release = await lockDataDir(dir, log);
      expect(log.lines[0]?.msg).toMatch(/now belongs to another program/u);
      release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a pid lock file of an earlier version is taken over when its process is gone', async () => {
    const dir = folder();
    writeFileSync(`${dir}.lock`, `${await exitedPid()}\n`);
    const log = recorder();
    const release = await lockDataDir(dir, log);
    expect(log.lines[0]?.msg).toMatch(/earlier version/u);
    release();
    // Released: the folder can be taken again at once, with nothing to take over.
    const again = recorder();
    (await lockDataDir(dir, again))();
    expect(again.lines).toEqual([]);
  });

  it('a second open in the same process is refused, not taken over', async () => {
    const dir = folder();
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toThrow(/already open in this process/u);
    release();
  });

  it('a live zhujiu process on the same folder refuses (a real second process); after it crashes, taken over', async () => {
    const dir = folder();
    const child = await lockHolder(dir);
    try {
      expect(processStart(child.pid as number)).not.toBeNull();
      // Refused before the embedded database is even started, naming the holder.
      await expect(openDb({ kind: 'pglite', dataDir: dir })).rejects.toThrow(
        new RegExp(`in use by another zhujiu process \\(pid ${child.pid} on `, 'u'),
      );
      // The holder crashes (no chance to release): the next start takes the folder over at once.
      const gone = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await gone;
      const log = recorder();
      const release = await lockDataDir(dir, log);
      expect(log.lines[0]?.msg).toMatch(new RegExp(`pid ${child.pid} no longer runs`, 'u'));
      release();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('config check on PGlite checks the data-folder lock as its connection check', () => {
  it('free, then held by another process (named), then skipped with --no-connect', async () => {
    const dir = join(root, 'lockcheck', 'pg');
    const env = { ZHUJIU_DATA_DIR: dir };
    const zhujiu = (...args: string[]) => inProcess(args, { env });
    {
      // A folder whose parent does not exist yet: nothing holds it, and the check creates nothing.
      const fresh = await zhujiu('config', 'check');
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(fresh.stdout).toContain(`database: embedded PGlite in ${dir}, not created yet`);
      expect(existsSync(dirname(dir))).toBe(false);
      mkdirSync(dirname(dir));
      const free = await zhujiu('config', 'check');
      expect(free.code, free.stderr).toBe(0);
      expect(free.stdout).toContain(
        `database: embedded PGlite in ${dir}, free (no other zhujiu process holds it`,
      );
    }
    const child = await lockHolder(dir);
    try {
      {
        const held = await zhujiu('config', 'check');
        expect(held.code).toBe(1);
        expect(held.stderr).toMatch(
          new RegExp(
            `^error \\[db_unavailable\\]: the embedded database in .* is in use by another zhujiu process \\(pid ${child.pid} on `,
            'u',
          ),
        );
        expect(held.stdout).not.toContain('config OK');
        const skipped = await zhujiu('config', 'check', '--no-connect');
        expect(skipped.code).toBe(0);
        expect(skipped.stdout).toContain('lock not checked (--no-connect)');
      }
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('a command that takes over a stale lock says so in its reader language', () => {
  it('Chinese on a Chinese terminal (the log line is said from the catalogue), English otherwise', async () => {
    const takeOver = async (lang: string) => {
      const dir = join(root, `takeover-${lang}`, 'pg');
      mkdirSync(dirname(dir), { recursive: true });
      crashedLock(dir, { pid: await exitedPid(), host: hostname(), start: '1', since: 'earlier' });
      return asProcess(['migrate'], { env: { ZHUJIU_DATA_DIR: dir, LANG: lang } });
    };
    const zh = await takeOver('zh_CN.UTF-8');
    expect(zh.code, zh.stderr).toBe(0);
    expect(zh.stderr).toMatch(
      /WARN: 已接管嵌入式数据库的过期锁（pid \d+ 已不在运行；此前由进程 \d+/u,
    );
    expect(zh.stderr).not.toContain('took over');
    const en = await takeOver('C.UTF-8');
    expect(en.code, en.stderr).toBe(0);
    expect(en.stderr).toMatch(
      /WARN: took over a stale lock of the embedded database \(pid \d+ no longer runs;/u,
    );
  });
});
