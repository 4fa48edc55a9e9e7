/**
 * The embedded database on a full disk (storage/pglite-disk-full): the first disk-full error (SQLSTATE 53100) of a
 * statement is said as `db_unavailable` naming the folder and the fix, every later statement is refused without
 * reaching PGlite (which may never end another), a transaction that cannot begin still lets Kysely's dialect
 * begin and roll back instead of waiting forever, and closing skips PGlite's own shutdown. A real PGlite whose
 * statements fail once `full` is set stands for the full disk.
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { QueuedPGliteDialect } from '../../../src/storage/pglite-dialect.ts';
import { diskFullGuard, isDiskFull } from '../../../src/storage/pglite-disk-full.ts';

/** PostgreSQL's error for a write the disk refused, as PGlite throws it. */
const diskFull = () =>
  Object.assign(new Error('could not extend file "base/5/16640": No space left on device'), {
    code: '53100',
  });

describe('the embedded database on a full disk', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
  });
  afterAll(async () => {
    await pglite?.close();
  });

  /** A client over the test's PGlite that fails every statement once `full` is set, counting what reaches it. */
  function fillingClient() {
    const state = { full: false, statements: 0, closed: 0, terminated: 0 };
    const failing = <T>(run: () => Promise<T>) => {
      state.statements++;
      return state.full ? Promise.reject(diskFull()) : run();
    };
    const client = {
      query: (text: string, params?: unknown[]) => failing(() => pglite.query(text, params)),
      transaction: (cb: (tx: unknown) => Promise<unknown>) =>
        failing(async () =>
          cb({ query: (t: string, p?: unknown[]) => failing(() => pglite.query(t, p)) }),
        ),
      close: async () => {
        state.closed++;
      },
      terminate: async () => {
        state.terminated++;
      },
      ready: true,
      closed: false,
      waitReady: Promise.resolve(),
    };
    return { client: client as unknown as PGlite, state };
  }

  it('tells a disk-full error from others', () => {
    expect(isDiskFull(diskFull())).toBe(true);
    expect(isDiskFull(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  it('says it once with the folder and the fix, refuses every later statement, and skips the shutdown', async () => {
    const { client, state } = fillingClient();
    const db = new Kysely<Record<string, never>>({
      dialect: new QueuedPGliteDialect({ pglite: diskFullGuard(client, '/data/pg') }),
    });
    expect((await sql<{ n: number }>`SELECT 1 AS n`.execute(db)).rows).toEqual([{ n: 1 }]);
    state.full = true;
    const first = await sql`SELECT 2`.execute(db).catch((e: unknown) => e);
    expect(isAppError(first) && first.code).toBe('db_unavailable');
    expect((first as Error).message).toMatch(
      /^the disk holding the embedded database \/data\/pg is full \(could not extend file .*No space left on device\): .*Free some space/u,
    );
    const reached = state.statements;
    // Later statements and transactions fail at once, without reaching PGlite.
    state.full = false;
    await expect(sql`SELECT 3`.execute(db)).rejects.toMatchObject({ code: 'db_unavailable' });
    await expect(
      db.transaction().execute(async (trx) => sql`SELECT 4`.execute(trx)),
    ).rejects.toMatchObject({ code: 'db_unavailable' });
    expect(state.statements).toBe(reached);
    await db.destroy();
    expect(state).toMatchObject({ closed: 0, terminated: 1 });
  });

  it('a transaction that cannot begin fails instead of leaving Kysely waiting for it', async () => {
    const { client, state } = fillingClient();
    const db = new Kysely<Record<string, never>>({
      dialect: new QueuedPGliteDialect({ pglite: diskFullGuard(client, '/data/pg') }),
    });
    state.full = true;
    await expect(
      db.transaction().execute(async (trx) => sql`SELECT 1`.execute(trx)),
    ).rejects.toMatchObject({ code: 'db_unavailable' });
    await expect(sql`SELECT 1`.execute(db)).rejects.toMatchObject({ code: 'db_unavailable' });
    await db.destroy();
  });
});
