/**
 * The PGlite dialect's queue (storage/pglite-dialect.ts): PGlite's one connection is lent to callers in the order
 * they asked, a transaction keeps it to itself until it ends (no caller's statement runs inside it, none sees its
 * uncommitted rows), and a failed transaction or statement hands it on. Both ways of running PGlite are checked:
 * on the caller's thread and in a worker thread.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openDb } from '../../../src/storage/db.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-dialect-'));
let n = 0;
function copy(): string {
  const dir = join(root, `pg${n++}`);
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

describe.each([
  ['on this thread', false],
  ['in a worker thread', true],
])('PGlite dialect %s', (_name, pgliteThread) => {
  let d: Db;
  beforeAll(async () => {
    d = await openDb({ kind: 'pglite', dataDir: copy() }, { pgliteThread });
    await sql`create table q_log (id serial primary key, who int not null)`.execute(d.db);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('runs the statements of 2,000 callers waiting at once, each once, in the order they asked', async () => {
    await sql`truncate q_log`.execute(d.db);
    const callers = Array.from({ length: 2000 }, (_, i) =>
      sql`insert into q_log (who) values (${i})`.execute(d.db),
    );
    await Promise.all(callers);
    const rows = (await sql<{ who: number }>`select who from q_log order by id`.execute(d.db)).rows;
    expect(rows.map((r) => r.who)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });

  it('keeps the connection for a transaction until it ends: callers waiting meanwhile see none of its rows before commit, all of them after', async () => {
    await sql`truncate q_log`.execute(d.db);
    let release!: () => void;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    let inside!: () => void;
    const started = new Promise<void>((r) => {
      inside = r;
    });
    const tx = d.db.transaction().execute(async (t) => {
      await sql`insert into q_log (who) values (1)`.execute(t);
      inside();
      await hold;
      await sql`insert into q_log (who) values (2)`.execute(t);
    });
    await started;
    const seen = Array.from({ length: 50 }, () =>
      sql<{ n: number }>`select count(*)::int as n from q_log`.execute(d.db),
    );
    release();
    await tx;
    const counts = (await Promise.all(seen)).map((r) => r.rows[0]?.n);
    expect(counts).toEqual(Array.from({ length: 50 }, () => 2));
  });

  it('hands the connection on after a failed statement and a rolled-back transaction', async () => {
    await sql`truncate q_log`.execute(d.db);
    const bad = sql`select 1 / 0`.execute(d.db);
    const failedTx = d.db.transaction().execute(async (t) => {
      await sql`insert into q_log (who) values (7)`.execute(t);
      throw new Error('give up');
    });
    const after = sql<{ n: number }>`select count(*)::int as n from q_log`.execute(d.db);
    await expect(bad).rejects.toThrow(/division by zero/);
    await expect(failedTx).rejects.toThrow('give up');
    expect((await after).rows[0]?.n).toBe(0);
  });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
