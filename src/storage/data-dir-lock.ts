/**
 * @module storage/data-dir-lock
 * The embedded database's folder belongs to one process at a time: PGlite is one process's database, and a
 * second process opening the same folder would write over the first one's pages.
 *
 * The lock is proper-lockfile's (a lock directory `<data dir>.lock` whose mtime the holder refreshes every
 * {@link UPDATE_MS}; a lock not refreshed for {@link STALE_MS} is stale and taken over; the locks a process holds
 * are removed when it exits, also on SIGINT, SIGTERM and SIGHUP, through its signal-exit hook), not a guess from a
 * pid. Inside it, `owner.json` says who holds it (pid, host, the process's start time from /proc on Linux, since
 * when, and a random token). The lock directory appears with its owner record already in it and disappears in one
 * step ({@link lockFs}: renamed into place from a private folder, renamed away before it is deleted), so another
 * process never sees a lock without its owner, nor the owner record of an earlier lock beside a new one (with the
 * record beside the lock, a process that read it between a holder's mkdir and its write waited 15 s, or took over
 * a live lock; a Ctrl-C between the two left an ownerless lock behind). A lock left by a process that is gone is
 * recognised at once:
 *
 * - the recorded pid is this process's own (a restarted container often gets the same pid): not us, stale;
 * - the recorded pid no longer runs: stale;
 * - the pid runs but started at another time than recorded (the pid was reused by an unrelated program): stale;
 * - the pid runs and is the recorded process (same start time): a live zhujiu process holds the folder: refused;
 * - anything unknown (another host sharing the folder, no /proc, a lock of an older version without an owner
 *   record): wait until the lock is either gone (taken, nothing logged), refreshed (live: refused) or stale (taken
 *   over), at most {@link STALE_MS} + {@link UPDATE_MS} + 1 s.
 *
 * Every takeover is logged with the previous owner, and only when a lock judged stale was really removed. Older
 * versions' locks are read too: a plain file holding a pid, and a lock directory with its owner record beside it
 * (`<data dir>.lock-owner.json`).
 */

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import type { AppError, Said } from '../core/errors.ts';
import { makeDirsSync } from '../core/make-dirs.ts';
import { said, saidError, sayCli } from '../i18n/cli.ts';

/** A lock not refreshed for this long (ms) is stale. */
export const STALE_MS = 15_000;
/** How often the holder refreshes the lock (ms). */
export const UPDATE_MS = 3_000;
/** The owner record's name inside the lock directory. */
export const OWNER_FILE = 'owner.json';

/** Who holds a data folder (the owner record). */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  /** The process's start time (Linux: field 22 of /proc/<pid>/stat), or null where unknown. */
  readonly start: string | null;
  readonly dataDir: string;
  readonly since: string;
  /** Random, one per lock taken: tells this lock from an earlier one of the same process. */
  readonly token: string;
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
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
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

/** An owner record's text as an owner (older versions wrote just a pid); null when it is not one. */
function parseOwner(text: string): Partial<LockOwner> | null {
  const t = text.trim();
  if (/^\d+$/u.test(t)) return { pid: Number(t) };
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'object' && v !== null ? (v as Partial<LockOwner>) : null;
  } catch {
    return null;
  }
}

function readOwner(path: string): Partial<LockOwner> | null {
  try {
    return parseOwner(fs.readFileSync(path, 'utf8'));
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

/** A private name beside `lockPath` (`<lock>.new-PID-HEX`, `<lock>.gone-PID-HEX`), on the same file system. */
function besideLock(lockPath: string, kind: 'new' | 'gone'): string {
  return `${lockPath}.${kind}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

function errnoError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${path}`), { code, path });
}

/**
 * The file system proper-lockfile is given (its `fs` option; it calls `mkdirSync`, `rmdirSync`, `statSync` and
 * `utimesSync` of it): the lock directory is made in a private folder with `owner` written in it, then renamed into
 * place, so it never exists without its owner record (a rename refuses a target folder that has entries); it is
 * removed by renaming it away first. A lock of another holder is removed only when stale by proper-lockfile's own
 * rule (not refreshed for {@link STALE_MS}): `took` is told of it, with its owner record, for the takeover's log.
 */
function lockFs(owner: LockOwner, took: (previous: Partial<LockOwner> | null) => void) {
  return {
    ...fs,
    mkdirSync(path: string): void {
      if (fs.lstatSync(path, { throwIfNoEntry: false })) throw errnoError('EEXIST', path);
      const fresh = besideLock(path, 'new');
      fs.mkdirSync(fresh);
      try {
        fs.writeFileSync(join(fresh, OWNER_FILE), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
        fs.renameSync(fresh, path);
      } catch (err) {
        fs.rmSync(fresh, { recursive: true, force: true });
        const code = (err as NodeJS.ErrnoException).code;
        throw code === 'ENOTEMPTY' || code === 'EEXIST' ? errnoError('EEXIST', path) : err;
      }
    },
    rmdirSync(path: string): void {
      const gone = besideLock(path, 'gone');
      fs.renameSync(path, gone); // ENOENT: nothing to remove (proper-lockfile ignores it)
      const previous = readOwner(join(gone, OWNER_FILE));
      if (previous?.token !== owner.token) {
        if (Date.now() - fs.statSync(gone).mtimeMs <= STALE_MS) {
          // Another holder's lock, fresh: not ours to remove (ours was lost; proper-lockfile says so).
          putBack(gone, path);
          throw errnoError('ELOCKED', path);
        }
        took(previous ?? readOwner(`${path}-owner.json`));
      }
      fs.rmSync(gone, { recursive: true, force: true });
    },
  };
}

/** Renames `gone` back to `lockPath`; when a new lock took that name meanwhile, `gone` is removed instead. */
function putBack(gone: string, lockPath: string): void {
  try {
    fs.renameSync(gone, lockPath);
  } catch {
    fs.rmSync(gone, { recursive: true, force: true });
  }
}

/** The owner record inside lock directory `lockPath`, as written (null: none, or the lock is gone). */
function recordIn(lockPath: string): string | null {
  try {
    return fs.readFileSync(join(lockPath, OWNER_FILE), 'utf8');
  } catch {
    return null;
  }
}

/** What is at the lock path: nothing, or a lock with its owner record (`record` as written inside, null: none). */
type Seen =
  | { readonly kind: 'gone' }
  | {
      readonly kind: 'lock';
      readonly record: string | null;
      readonly owner: Partial<LockOwner> | null;
    };

/** Reads the lock at `lockPath` (and, for an older version's lock without its record inside, the one beside it). */
function inspect(lockPath: string): Seen {
  const record = recordIn(lockPath);
  if (record !== null) return { kind: 'lock', record, owner: parseOwner(record) };
  // No record inside: gone, or an older version's lock (its record, if any, beside it).
  if (!fs.existsSync(lockPath)) return { kind: 'gone' };
  return { kind: 'lock', record, owner: readOwner(`${lockPath}-owner.json`) };
}

/**
 * Removes the lock at `lockPath` if it is still the one that was judged stale (the same owner record inside, or
 * still none).
 * @returns true when it was removed, false when it was gone or is another lock now.
 * @throws the system's error when it cannot be renamed (no permission in its folder).
 */
function removeIfStill(lockPath: string, judged: string | null): boolean {
  const gone = besideLock(lockPath, 'gone');
  try {
    fs.renameSync(lockPath, gone);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // gone meanwhile
    throw err;
  }
  if (recordIn(gone) !== judged) {
    putBack(gone, lockPath);
    return false;
  }
  fs.rmSync(gone, { recursive: true, force: true });
  return true;
}

/**
 * Removes what a process killed inside {@link lockFs}'s few synchronous steps left beside the lock: private
 * folders (`<lock>.new-PID-…`, `<lock>.gone-PID-…`) of processes that no longer run, or of this process's pid
 * (none of this process's own is left between its synchronous steps). Never throws.
 */
function removeLeftovers(lockPath: string): void {
  const prefix = `${basename(lockPath)}.`;
  try {
    for (const name of fs.readdirSync(dirname(lockPath))) {
      const m = /^(?:new|gone)-(\d+)-[0-9a-f]+$/u.exec(name.slice(prefix.length));
      if (!name.startsWith(prefix) || !m) continue;
      const pid = Number(m[1]);
      if (pid === process.pid || !alive(pid))
        fs.rmSync(join(dirname(lockPath), name), { recursive: true, force: true });
    }
  } catch {
    // A parent that cannot be listed: taking the lock says why.
  }
}

/** How lockDataDir tried: the lock itself, or why not (`locked`: another lock is there). */
type Attempt = { readonly release: () => void } | { readonly locked: true };

/**
 * Takes the embedded database's folder for this process (see the module doc).
 * @returns a function that releases the lock (idempotent).
 * @throws AppError `db_unavailable` naming the process that holds the folder and what to do; the system's error
 *   (`code` EACCES, ENOENT, EROFS, …; `path` the folder it could not write) when the lock cannot be made at all.
 */
export async function lockDataDir(dataDir: string, log?: LockLog): Promise<() => void> {
  const base = resolve(dataDir.replace(/[/\\]+$/u, ''));
  const lockPath = `${base}.lock`;
  if (held.has(base)) {
    throw saidError('db_unavailable', said('cli.db.openHere', { dir: dataDir }));
  }
  makeDirsSync(dirname(base));
  // Said on the terminal in its reader's language (core/logger.ts saidLogLines), in English in a log file.
  const takeOver = (why: Said, owner: Partial<LockOwner> | null) => {
    const message = said('cli.db.tookOver', { why, owner: describeOwner(owner) });
    log?.warn({ lock: lockPath, previousOwner: owner, said: message }, sayCli('en', message));
  };
  takeOverPidFile(dataDir, lockPath, takeOver);
  removeLeftovers(lockPath);
  const deadline = Date.now() + STALE_MS + UPDATE_MS + 1000;
  // Each round either returns, throws, waits a second, or finds the lock gone or taken over since the last one:
  // a lock that changes hands 100 times while this process tries is refused as held.
  for (let tries = 0; ; tries++) {
    const attempt = tryLock(base, lockPath, log, takeOver);
    if ('release' in attempt) {
      held.add(base);
      removeOwnerBeside(lockPath);
      return once(() => {
        held.delete(base);
        attempt.release();
      });
    }
    const seen = inspect(lockPath);
    if (tries >= 100) throw refuse(dataDir, lockPath, seen.kind === 'lock' ? seen.owner : null);
    if (seen.kind === 'gone') continue; // released meanwhile: try again at once
    const verdict = judgeOwner(seen.owner);
    if (verdict === 'live') throw refuse(dataDir, lockPath, seen.owner);
    if (verdict === 'stale') {
      if (removeIfStill(lockPath, seen.record)) takeOver(staleWhy(seen.owner), seen.owner);
      continue;
    }
    // Unknown owner: a live holder refreshes the lock every UPDATE_MS; a dead one lets it go stale, and the
    // next try takes it over (proper-lockfile's rule, through lockFs).
    if (Date.now() > deadline) throw refuse(dataDir, lockPath, seen.owner);
    await sleep(1000);
  }
}

/** `fn`, run at most once however often it is called. */
function once(fn: () => void): () => void {
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    fn();
  };
}

/** Why a lock of `owner` (judged stale by {@link judgeOwner}) was taken over. */
function staleWhy(owner: Partial<LockOwner> | null): Said {
  if (owner?.pid === process.pid) return said('cli.db.stale.ownPid');
  const pid = owner?.pid ?? 0;
  return said(alive(pid) ? 'cli.db.stale.reused' : 'cli.db.stale.gone', { pid });
}

/**
 * One synchronous try at the lock: made with its owner record in one step, and registered with proper-lockfile
 * (refreshed, removed at exit) in the same step, so no signal can come in between and leave it behind.
 */
function tryLock(
  base: string,
  lockPath: string,
  log: LockLog | undefined,
  takeOver: (why: Said, owner: Partial<LockOwner> | null) => void,
): Attempt {
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    start: processStart(process.pid),
    dataDir: base,
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const taken: (Partial<LockOwner> | null)[] = [];
  const ownFs = lockFs(me, (previous) => taken.push(previous));
  try {
    lockfile.lockSync(base, {
      lockfilePath: lockPath,
      realpath: false,
      stale: STALE_MS,
      update: UPDATE_MS,
      fs: ownFs,
      onCompromised: (err: Error) => {
        const lost = said('cli.db.lockLost');
        log?.error({ err: err.message, lock: lockPath, said: lost }, sayCli('en', lost));
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return { locked: true };
    throw err;
  }
  // A lock left unrefreshed is also said by its owner's fate when that is known (its pid gone, reused, or this
  // process's own): the same lock gets the same reason whether or not it had been stale for long.
  for (const previous of taken)
    takeOver(
      judgeOwner(previous) === 'stale' ? staleWhy(previous) : said('cli.db.stale.notRefreshed'),
      previous,
    );
  return {
    release: () => {
      try {
        // Synchronous, so the folder can be reopened at once; a lock that was lost is not removed.
        lockfile.unlockSync(base, { lockfilePath: lockPath, realpath: false, fs: ownFs });
      } catch {
        /* already released or lost */
      }
    },
  };
}

/** Older versions left a plain file holding a pid at the lock's path: judged like an owner record. */
function takeOverPidFile(
  dataDir: string,
  lockPath: string,
  takeOver: (why: Said, owner: Partial<LockOwner> | null) => void,
): void {
  if (!fs.statSync(lockPath, { throwIfNoEntry: false })?.isFile()) return;
  const owner = readOwner(lockPath);
  const verdict = judgeOwner(owner);
  if (verdict === 'live' || (verdict === 'unknown' && owner?.pid && alive(owner.pid))) {
    throw refuse(dataDir, lockPath, owner);
  }
  fs.unlinkSync(lockPath);
  takeOver(said('cli.db.stale.earlier'), owner);
}

/** Removes the owner record an older version kept beside the lock (this one keeps it inside). Never throws. */
function removeOwnerBeside(lockPath: string): void {
  fs.rmSync(`${lockPath}-owner.json`, { force: true });
}
