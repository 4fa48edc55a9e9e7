/**
 * @module storage/data-dir-lock
 * The embedded database's folder belongs to one process at a time: PGlite is one process's database, and a
 * second process opening the same folder would write over the first one's pages.
 *
 * The lock is proper-lockfile's (a lock directory `<data dir>.lock` created atomically with mkdir, whose mtime
 * the holder refreshes every few seconds; a lock not refreshed for {@link STALE_MS} is stale and taken over), not
 * a guess from a pid. Beside it, `<data dir>.lock-owner.json` says who holds it (pid, host, the process's start
 * time from /proc on Linux, since when), so that a fresh-looking lock left by a crash is recognised at once:
 *
 * - the recorded pid is this process's own (a restarted container often gets the same pid): not us, stale;
 * - the recorded pid no longer runs: stale;
 * - the pid runs but started at another time than recorded (the pid was reused by an unrelated program): stale;
 * - the pid runs and is the recorded process (same start time): a live zhujiu process holds the folder: refused;
 * - anything unknown (another host sharing the folder, no /proc, no owner file): wait until the lock is either
 *   refreshed (live: refused) or stale (taken over), at most {@link STALE_MS} + {@link UPDATE_MS}.
 *
 * Every takeover is logged with the previous owner. A lock file of older versions (a plain file holding a pid)
 * is treated the same way.
 */
import { existsSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import type { AppError, Said } from '../core/errors.ts';
import { makeDirsSync } from '../core/make-dirs.ts';
import { said, saidError, sayCli } from '../i18n/cli.ts';

/** A lock not refreshed for this long (ms) is stale. */
export const STALE_MS = 15_000;
/** How often the holder refreshes the lock (ms). */
export const UPDATE_MS = 3_000;

/** Who holds a data folder (the owner file). */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** The process's start time (Linux: field 22 of /proc/<pid>/stat), or null where unknown. */
  readonly start: string | null;
  readonly dataDir: string;
  readonly since: string;
}

/** Where a takeover or a problem is reported (the app's logger fits). */
export interface LockLog {
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

/** Folders this process holds (a second open in the same process is refused, never "taken over"). */
const held = new Set<string>();

/** The start time of process `pid` from /proc (Linux), or null when it cannot be read. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 overall
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): Partial<LockOwner> | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (/^\d+$/u.test(text)) return { pid: Number(text) }; // older versions: just a pid
    return JSON.parse(text) as Partial<LockOwner>;
  } catch {
    return null;
  }
}

/** Whether the recorded owner is a live process (see the module doc), or 'unknown'. */
export function judgeOwner(owner: Partial<LockOwner> | null): 'live' | 'stale' | 'unknown' {
  if (!owner || !Number.isInteger(owner.pid) || (owner.pid as number) <= 0) return 'unknown';
  const pid = owner.pid as number;
  if (owner.host !== undefined && owner.host !== hostname()) return 'unknown';
  if (pid === process.pid) return 'stale';
  if (!alive(pid)) return 'stale';
  const start = processStart(pid);
  if (start !== null && owner.start) return start === owner.start ? 'live' : 'stale';
  return 'unknown';
}

function describeOwner(owner: Partial<LockOwner> | null): Said {
  if (!owner?.pid) return said('cli.db.ownerUnknown');
  return said('cli.db.owner', {
    pid: owner.pid,
    host: owner.host ? said('cli.db.ownerHost', { host: owner.host }) : '',
    since: owner.since ? said('cli.db.ownerSince', { since: owner.since }) : '',
  });
}

function refuse(dataDir: string, lockPath: string, owner: Partial<LockOwner> | null): AppError {
  return saidError(
    'db_unavailable',
    said('cli.db.inUse', {
      dir: dataDir,
      owner: describeOwner(owner),
      lock: lockPath,
      secs: STALE_MS / 1000,
    }),
  );
}

/**
 * Takes the embedded database's folder for this process (see the module doc).
 * @returns a function that releases the lock (idempotent).
 * @throws AppError `db_unavailable` naming the process that holds the folder and what to do.
 */
export async function lockDataDir(dataDir: string, log?: LockLog): Promise<() => void> {
  const base = resolve(dataDir.replace(/[/\\]+$/u, ''));
  const lockPath = `${base}.lock`;
  const ownerPath = `${base}.lock-owner.json`;
  if (held.has(base)) {
    throw saidError('db_unavailable', said('cli.db.openHere', { dir: dataDir }));
  }
  makeDirsSync(dirname(base));
  const options = {
    lockfilePath: lockPath,
    realpath: false,
    stale: STALE_MS,
    update: UPDATE_MS,
    onCompromised: (err: Error) => {
      const lost = said('cli.db.lockLost');
      log?.error({ err: err.message, lock: lockPath, said: lost }, sayCli('en', lost));
    },
  };
  // Said on the terminal in its reader's language (core/logger.ts saidLogLines), in English in a log file.
  const takeOver = (why: Said, owner: Partial<LockOwner> | null) => {
    const message = said('cli.db.tookOver', { why, owner: describeOwner(owner) });
    log?.warn({ lock: lockPath, previousOwner: owner, said: message }, sayCli('en', message));
  };
  // Older versions left a plain file holding a pid: judge it like an owner record.
  if (existsSync(lockPath) && statSync(lockPath).isFile()) {
    const owner = readOwner(lockPath);
    const verdict = judgeOwner(owner);
    if (verdict === 'live' || (verdict === 'unknown' && owner?.pid && alive(owner.pid))) {
      throw refuse(dataDir, lockPath, owner);
    }
    unlinkSync(lockPath);
    takeOver(said('cli.db.stale.earlier'), owner);
  }
  try {
    await lockfile.lock(base, { ...options, retries: 0 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const owner = readOwner(ownerPath);
    const verdict = judgeOwner(owner);
    if (verdict === 'live') throw refuse(dataDir, lockPath, owner);
    if (verdict === 'stale') {
      rmSync(lockPath, { recursive: true, force: true });
      takeOver(
        owner?.pid === process.pid
          ? said('cli.db.stale.ownPid')
          : said(alive(owner?.pid ?? 0) ? 'cli.db.stale.reused' : 'cli.db.stale.gone', {
              pid: owner?.pid ?? 0,
            }),
        owner,
      );
      await lockfile.lock(base, { ...options, retries: 0 });
    } else {
      // Unknown owner: a live holder refreshes the lock every UPDATE_MS; a dead one lets it go stale.
      const waits = Math.ceil((STALE_MS + UPDATE_MS) / 1000) + 1;
      try {
        await lockfile.lock(base, {
          ...options,
          retries: { retries: waits, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
        });
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code === 'ELOCKED')
          throw refuse(dataDir, lockPath, owner);
        throw again;
      }
      takeOver(said('cli.db.stale.notRefreshed'), owner);
    }
  }
  held.add(base);
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    start: processStart(process.pid),
    dataDir: base,
    since: new Date().toISOString(),
  };
  writeFileSync(ownerPath, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    held.delete(base);
    try {
      unlinkSync(ownerPath);
    } catch {
      /* already gone */
    }
    // Synchronous, so the folder can be reopened at once (proper-lockfile also removes it on exit).
    try {
      lockfile.unlockSync(base, { lockfilePath: lockPath, realpath: false });
    } catch {
      /* already released or compromised */
    }
  };
}
