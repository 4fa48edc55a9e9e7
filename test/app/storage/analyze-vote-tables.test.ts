/**
 * storage/battles `analyzeVoteTables({ scope: 'import' })`: the statistics of the imported battles are there
 * afterwards (row count, the source's share), and its lower statistics target never outlives it: a connection
 * that ran it outside a transaction keeps the server's default, one inside a transaction until that ends.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeVoteTables, insertImportedBattles } from '../../../src/storage/battles.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(backends())('analyzeVoteTables after an import on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    // One connection: the setting checked afterwards is that of the connection that analyzed.
    d = await freshDb(backend, { poolSize: 1 });
    const ids = await ensureModels(d.db, ['av-a', 'av-b'], 'external');
    await d.db.transaction().execute((trx) =>
      insertImportedBattles(
        trx,
        'av',
        null,
        Array.from({ length: 500 }, (_, i) => ({
          importKey: `${i + 1}:k${i}`,
          leftModelId: ids.get('av-a') as number,
          rightModelId: ids.get('av-b') as number,
          choice: i % 3 === 0 ? ('right' as const) : ('left' as const),
        })),
        new Date('2026-01-01T00:00:00Z'),
      ),
    );
  });
  afterAll(async () => d?.destroy());

  const target = async () =>
    (
      await sql<{ t: string }>`SELECT current_setting('default_statistics_target') AS t`.execute(
        d.db,
      )
    ).rows[0]?.t;

  it('leaves statistics of the imported rows and the default target behind', async () => {
    expect(await target()).toBe('100');
    await analyzeVoteTables(d.db, { scope: 'import' });
    expect(await target()).toBe('100');
    const rel = await sql<{ n: number }>`
      SELECT reltuples::int AS n FROM pg_class WHERE relname = 'battles'`.execute(d.db);
    expect(rel.rows[0]?.n).toBe(500);
    const stats = await sql<{ vals: string }>`
      SELECT most_common_vals::text AS vals FROM pg_stats
       WHERE tablename = 'battles' AND attname = 'source'`.execute(d.db);
    expect(stats.rows[0]?.vals).toBe('{av}');
  });

  it('inside a transaction, holds its target until the transaction ends', async () => {
    await d.db.transaction().execute(async (trx) => {
      await analyzeVoteTables(trx, { scope: 'import' });
      const inside = await sql<{
        t: string;
      }>`SELECT current_setting('default_statistics_target') AS t`.execute(trx);
      expect(inside.rows[0]?.t).toBe('10');
    });
    expect(await target()).toBe('100');
  });
});
