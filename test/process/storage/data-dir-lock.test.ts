/**
 * The embedded database's folder lock after a crash. A lock naming this process's own pid (a restarted
 * container), a dead pid, or a live pid of an unrelated program is taken over at once and logged; a lock of older
 * versions (a plain pid file, or a lock directory with its owner record beside it) likewise; only a live zhujiu
 * process on the same folder refuses, shown with a real second process, and once that process is killed (a crash)
 * the folder is taken over without waiting.
 *
 * A lock is never seen without its owner record, nor beside the record of an earlier lock (found by a new user:
 * Ctrl-C 0.2–0.5 s into a first `zhujiu migrate` left an ownerless lock that the next command waited 13 s for, and
 * of three `zhujiu migrate` started together one warned of a stale lock it took from a live process): a process
 * stopped by a signal at any moment leaves nothing behind, and another process that tries the lock while it is
 * taken and given back gets it or is refused naming its holder, never taking it over or waiting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir, processStart } from '../../../src/storage/data-dir-lock.ts';
import { openDb } from '../../../src/storage/db.ts';
import { asProcess, inProcess, startZhujiu } from '../../helpers/run-cli.ts';
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

/** A lock as a crashed holder leaves it: the fresh lock directory with its owner record in it. */
function crashedLock(dir: string, owner: Record<string, unknown>): void {
  mkdirSync(`${dir}.lock`, { recursive: true });
  writeFileSync(join(`${dir}.lock`, 'owner.json'), JSON.stringify(owner));
}

/** What a folder's lock left beside it: every entry of its parent named after it but the folder itself. */
function leftBeside(dir: string): string[] {
  return readdirSync(dirname(dir)).filter((n) => n.startsWith(`${basename(dir)}.`));
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

/**
 * A second process that takes the lock of `dir` and gives it back again and again (holding it `holdMs` each
 * time), printing `looping` once it has done so 20 times, `TAKEOVER …` for every takeover it logs, and exiting 3
 * on any failure other than a refusal naming a live holder.
 */
async function lockLooper(dir: string, holdMs: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('./src/storage/data-dir-lock.ts').then(async (m) => {
        const say = (s) => process.stdout.write(s + '\\n');
        const log = { warn: (_o, msg) => say('TAKEOVER ' + msg), error: (_o, msg) => say('ERROR ' + msg) };
        const tick = () => new Promise((r) => setImmediate(r));
        for (let n = 1; ; n++) {
          try {
            const release = await m.lockDataDir(${JSON.stringify(dir)}, log);
            await new Promise((r) => setTimeout(r, ${holdMs}));
            release();
          } catch (e) {
            if (!/in use by another zhujiu process/.test(e.message)) { say('FAILED ' + e.message); process.exit(3); }
          }
          if (n === 20) say('looping');
          await tick();
        }
      });`,
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (out.includes('looping')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${out}`)));
  });
  Object.defineProperty(child, 'printed', { get: () => out });
  return child;
}

/** What a {@link lockLooper} printed so far. */
const printed = (child: ChildProcess) => (child as ChildProcess & { printed: string }).printed;

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

describe('a lock is never seen without its owner, and a signal leaves nothing behind', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} while a process takes, holds or gives back the lock: no lock or owner record is left`, async () => {
      const dir = folder();
      const child = await lockLooper(dir, 30);
      const gone = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, sig) => r(sig)));
      // Any moment will do; this one is most often while the lock is held.
      await sleep(45);
      child.kill(signal);
      expect(await gone).toBe(signal);
      expect(printed(child)).not.toMatch(/TAKEOVER|FAILED|ERROR/u);
      expect(leftBeside(dir)).toEqual([]);
      // The next process takes the folder at once, with nothing to take over.
      const log = recorder();
      (await lockDataDir(dir, log))();
      expect(log.lines).toEqual([]);
    });
  }

  it('tried while another process takes and gives it back: taken, or refused naming that process; never taken over', async () => {
    const dir = folder();
    const child = await lockLooper(dir, 0);
    try {
      const log = recorder();
      let refused = 0;
      for (let i = 0; i < 300; i++) {
        try {
          (await lockDataDir(dir, log))();
        } catch (err) {
          refused++;
          expect((err as Error).message).toMatch(
            new RegExp(`in use by another zhujiu process \\(pid ${child.pid} on `, 'u'),
          );
        }
        await new Promise((r) => setImmediate(r));
      }
      expect(log.lines).toEqual([]);
      expect(refused).toBeGreaterThan(0);
      expect(printed(child)).not.toMatch(/TAKEOVER|FAILED|ERROR/u);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('an owner record of an earlier lock beside a live lock is not believed: refused, not taken over', async () => {
    const dir = folder();
    const child = await lockHolder(dir);
    try {
      // As an older version left it beside the lock: a dead pid.
      writeFileSync(
        `${dir}.lock-owner.json`,
        JSON.stringify({ pid: await exitedPid(), host: hostname(), start: '1', since: 'earlier' }),
      );
      const log = recorder();
      await expect(lockDataDir(dir, log)).rejects.toThrow(
        new RegExp(`in use by another zhujiu process \\(pid ${child.pid} on `, 'u'),
      );
      expect(log.lines).toEqual([]);
      expect(existsSync(join(`${dir}.lock`, 'owner.json'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a lock without any owner record that is given back while waited for is taken without a warning', async () => {
    const dir = folder();
    mkdirSync(`${dir}.lock`, { recursive: true }); // an older version's lock: its owner unknown
    const log = recorder();
    const taking = lockDataDir(dir, log);
    await sleep(1500); // it waits (an unknown holder may be alive) …
    rmSync(`${dir}.lock`, { recursive: true }); // … and that holder gives the lock back
    (await taking)();
    expect(log.lines).toEqual([]);
  });

  it('an older version’s lock with its owner record beside it is taken over at once when that pid is gone', async () => {
    const dir = folder();
    const pid = await exitedPid();
    mkdirSync(`${dir}.lock`, { recursive: true });
    writeFileSync(`${dir}.lock-owner.json`, JSON.stringify({ pid, host: hostname(), start: '1' }));
    const log = recorder();
    const release = await lockDataDir(dir, log);
    expect(log.lines[0]?.msg).toMatch(new RegExp(`pid ${pid} no longer runs`, 'u'));
    expect(leftBeside(dir)).toEqual([`${basename(dir)}.lock`]);
    release();
    expect(leftBeside(dir)).toEqual([]);
  });

  it('what a process killed while making or removing its lock left beside it is removed; a live one’s is kept', async () => {
    const dir = folder();
    const dead = await exitedPid();
    mkdirSync(dirname(dir), { recursive: true });
    for (const kind of ['new', 'gone'])
      mkdirSync(join(`${dir}.lock.${kind}-${dead}-0a1b2c3d`, 'x'), { recursive: true });
    const live = `${dir}.lock.new-${process.ppid}-0a1b2c3d`;
    mkdirSync(live);
    (await lockDataDir(dir))();
    expect(leftBeside(dir)).toEqual([basename(live)]);
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

describe('zhujiu migrate on an empty folder, interrupted or started three times at once', () => {
  it('Ctrl-C while it holds the lock leaves nothing behind: the next start takes the folder at once', async () => {
    // Caught while its lock is there (its first second or so); a machine that finishes first tries again.
    for (let attempt = 0; ; attempt++) {
      const dir = join(root, `ctrl-c-${attempt}`, 'pg');
      mkdirSync(dir, { recursive: true });
      const env = { ZHUJIU_DATA_DIR: dir };
      const p = startZhujiu(['migrate'], env);
      while (p.alive() && !existsSync(`${dir}.lock`)) await sleep(2);
      if (!p.alive()) {
        p.kill();
        if (attempt < 4) continue;
        throw new Error(`zhujiu migrate ended before its lock was seen, 5 times: ${p.stderr()}`);
      }
      p.child.kill('SIGINT');
      expect((await p.exited).signal ?? (await p.exited).code).not.toBe(0);
      expect(leftBeside(dir)).toEqual([]);
      const next = await asProcess(['migrate'], { env });
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).not.toMatch(/took over/u);
      return;
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    it(`${signal} while the prepared database is unpacked beside the folder leaves no private folder`, async () => {
      // Caught while its private fill folder is there (its first half second or so); else tried again.
      for (let attempt = 0; ; attempt++) {
        const dir = join(root, `fill-${signal}-${attempt}`, 'pg');
        const fills = () =>
          existsSync(dirname(dir))
            ? readdirSync(dirname(dir)).filter((n) => n.startsWith('.pg.unpacking-'))
            : [];
        const p = startZhujiu(['migrate'], { ZHUJIU_DATA_DIR: dir });
        while (p.alive() && fills().length === 0) await sleep(1);
        if (!p.alive()) {
          if (attempt < 4) continue;
          throw new Error(`zhujiu migrate ended before its fill was seen, 5 times: ${p.stderr()}`);
        }
        p.child.kill(signal);
        const end = await p.exited;
        expect(end.signal ?? end.code).not.toBe(0);
        expect(fills()).toEqual([]);
        expect(leftBeside(dir)).toEqual([]);
        const next = await asProcess(['migrate'], { env: { ZHUJIU_DATA_DIR: dir } });
        expect(next.code, next.stderr).toBe(0);
        return;
      }
    });

  it('three at once: one migrates, the others wait or are refused naming it; no stale-lock warning', async () => {
    const dir = join(root, 'three', 'pg');
    mkdirSync(dir, { recursive: true });
    const runs = await Promise.all(
      [1, 2, 3].map(() => asProcess(['migrate'], { env: { ZHUJIU_DATA_DIR: dir } })),
    );
    for (const r of runs) {
      expect(r.stderr).not.toMatch(/took over/u);
      if (r.code !== 0) expect(r.stderr).toMatch(/in use by another zhujiu process \(pid \d+ on /u);
    }
    expect(runs.filter((r) => r.code === 0).length).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
  });
});
