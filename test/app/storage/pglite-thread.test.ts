/**
 * The embedded database in a worker thread (storage/pglite-thread.ts), as `zhujiu bot` and
 * `zhujiu worker` open it. The rows and errors that come back are the ones PGlite gives on the caller's own thread,
 * transactions hold, and the caller's event loop keeps turning while a long query runs (on its own thread the
 * same query holds the loop from start to end).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { copyRowsSql } from '../../../src/storage/copy-rows.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-thread-'));
let n = 0;
function copy(): string {
  const dir = join(root, `pg${n++}`);
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  return dir;
}

/** A query that runs for a while in PostgreSQL (hundreds of milliseconds here; its length is not asserted). */
const LONG = sql<{
  n: number;
}>`select count(*)::int as n from generate_series(1, 3000000) g where g % 7 = 3`;

/** How many times a 0 ms timer fired while `p` was pending. */
async function ticksDuring<T>(p: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    ticks++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const value = await p;
  done = true;
  return { value, ticks };
}

describe('PGlite in a worker thread', () => {
  let threaded: Db;
  let local: Db;
  beforeAll(async () => {
    threaded = await openDb({ kind: 'pglite', dataDir: copy() }, { pgliteThread: true });
    local = await openDb({ kind: 'pglite', dataDir: copy() });
  });
  afterAll(async () => {
    await threaded?.close();
    await local?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('returns the same values as PGlite on this thread: numbers, bigints, dates, JSON, bytes, arrays, nulls', async () => {
    const q = sql`select 1::int as i, 9007199254740993::int8 as big, 2.5::float8 as f, 'x'::text as t,
      timestamptz '2026-11-30 12:00:00+00' as ts, '{"a":[1,"两"]}'::jsonb as j, '\\x00ff'::bytea as b,
      array[1,2,3]::int[] as arr, null::text as nothing, true as yes`;
    const a = (await q.execute(threaded.db)).rows;
    const b = (await q.execute(local.db)).rows;
    expect(a).toEqual(b);
    expect((a[0] as { ts: unknown }).ts).toBeInstanceOf(Date);
    expect((a[0] as { b: unknown }).b).toBeInstanceOf(Uint8Array);
  });

  it('runs a bulk COPY (storage/copy-rows) inside a transaction as PGlite on this thread does, and rolls it back with it', async () => {
    const rows = [
      [1, 'tab\there'],
      [2, null],
    ] as const;
    for (const d of [threaded, local]) {
      const got = await d.db.transaction().execute(async (trx) => {
        await sql`create temp table copied (a bigint, b text) on commit drop`.execute(trx);
        await copyRowsSql('copied', ['a', 'b'], rows).execute(trx);
        return (
          await sql<{
            a: string;
            b: string | null;
          }>`select a::text, b from copied order by a`.execute(trx)
        ).rows;
      });
      expect(got).toEqual([
        { a: '1', b: 'tab\there' },
        { a: '2', b: null },
      ]);
      await sql`create table copy_kept (a bigint)`.execute(d.db);
      await expect(
        d.db.transaction().execute(async (trx) => {
          await copyRowsSql('copy_kept', ['a'], [[1], [2]]).execute(trx);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      const left = await sql<{ n: number }>`select count(*)::int as n from copy_kept`.execute(d.db);
      expect(left.rows[0]?.n).toBe(0);
      await sql`drop table copy_kept`.execute(d.db);
    }
  });

  it('reports affected rows, and errors with PostgreSQL fields (code, constraint)', async () => {
    await sql`insert into models (name, provider) values ('a', 'recorded'), ('b', 'recorded')`.execute(
      threaded.db,
    );
    const upd = await threaded.db
      .updateTable('models')
      .set({ provider: 'recorded' })
      .where('name', 'in', ['a', 'b'])
      .executeTakeFirst();
    expect(upd.numUpdatedRows).toBe(2n);
    const err = await sql`insert into models (name, provider) values ('a', 'recorded')`
      .execute(threaded.db)
      .then(
        () => undefined,
        (e: unknown) => e as Error & { code?: string; constraint?: string },
      );
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toMatch(/duplicate key/);
    expect(err?.code).toBe('23505');
    expect(err?.constraint).toMatch(/models/);
  });

  it('a failed transaction leaves nothing behind; a committed one stays', async () => {
    await expect(
      threaded.db.transaction().execute(async (trx) => {
        await sql`insert into models (name, provider) values ('t1', 'recorded')`.execute(trx);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await threaded.db.transaction().execute(async (trx) => {
      await sql`insert into models (name, provider) values ('t2', 'recorded')`.execute(trx);
    });
    const names = await threaded.db
      .selectFrom('models')
      .select('name')
      .where('name', 'in', ['t1', 't2'])
      .execute();
    expect(names.map((r) => r.name)).toEqual(['t2']);
  });

  it.each([
    ['in a worker thread', () => threaded],
    ["on the caller's thread", () => local],
  ])('a query from outside an open transaction waits for it (%s)', async (_, db) => {
    // The outside insert is sent while the transaction is open; the transaction then rolls back. Run inside the
    // transaction, the insert would be rolled back with it; waiting for it, the insert stays.
    let inside!: () => void;
    const opened = new Promise<void>((r) => {
      inside = r;
    });
    let outside: Promise<unknown> | undefined;
    await expect(
      db()
        .db.transaction()
        .execute(async (trx) => {
          await sql`insert into models (name, provider) values ('tx-rolled-back', 'recorded')`.execute(
            trx,
          );
          inside();
          outside =
            sql`insert into models (name, provider) values (${`outside-${_}`}, 'recorded')`.execute(
              db().db,
            );
          // Give the outside query every chance to run now (it must not): the loop turns a few times.
          for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    await opened;
    await outside;
    const names = await db()
      .db.selectFrom('models')
      .select('name')
      .where('name', 'in', ['tx-rolled-back', `outside-${_}`])
      .execute();
    expect(names.map((r) => r.name)).toEqual([`outside-${_}`]);
  });

  it("keeps the caller's event loop turning while a long query runs (on the caller's thread it is held)", async () => {
    const off = await ticksDuring(LONG.execute(threaded.db));
    const on = await ticksDuring(LONG.execute(local.db));
    expect(off.value.rows).toEqual(on.value.rows);
    // On its own thread the query runs in one piece: at most the one tick before it starts.
    expect(on.ticks).toBeLessThanOrEqual(2);
    expect(off.ticks).toBeGreaterThan(on.ticks + 2);
  });

  it('a folder that cannot be opened is a one-line error naming the fix', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a folder');
    await expect(
      openDb({ kind: 'pglite', dataDir: join(file, 'pg') }, { pgliteThread: true }),
    ).rejects.toThrow(/ZHUJIU_DATA_DIR/);
  });
});
