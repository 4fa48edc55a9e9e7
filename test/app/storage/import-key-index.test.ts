/**
 * Migration 0018: the unique index of imported battles' keys is ordered by the length of the key's line number,
 * then the key, so a file's keys go in in ascending order; it refuses exactly what `(source, import_key)` refused.
 * Built over battles imported before it (migrated up from 0017), refusing a key stored again in its source (of
 * the `line:hash` form or any other), allowing it in another source; its reader gives the keys back; down
 * restores the old index.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKeysOfSource, insertImportedBattles } from '../../../src/storage/battles.ts';
import { migrateDown, migrateToLatest, migrationStatus } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const KEYS = ['1:aaaa', '2:bbbb', '9:cccc', '10:dddd', '11:eeee', 'old-key'];

describe.each(backends())('import key index (migration 0018) on %s', (backend) => {
  let d: TestDb;
  let ids: Map<string, number>;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  const definition = async () =>
    (
      await sql<{ def: string }>`
        SELECT indexdef AS def FROM pg_indexes WHERE indexname = 'battles_import_key_idx'`.execute(
        d.db,
      )
    ).rows[0]?.def;
  /** Inserts one imported battle with `key` under `source` as a plain row (no import's own checks). */
  const insert = (source: string, key: string) =>
    sql`INSERT INTO battles (model_left_id, model_right_id, source, import_key, status, number)
        VALUES (${ids.get('ik-a')}, ${ids.get('ik-b')}, ${source}, ${key}, 'closed',
                (SELECT coalesce(max(number), 0) + 1 FROM battles WHERE source = ${source}))`.execute(
      d.db,
    );

  /** Migrates down to 0017, the later migrations first, one at a time (later ones may have landed since). */
  const downTo0017 = async () => {
    while (!(await migrationStatus(d.db)).applied.at(-1)?.startsWith('0017_'))
      expect((await migrateDown(d.db)).error).toBeUndefined();
  };

  it('is built over keys imported before it and refuses what the old index refused', async () => {
    await downTo0017();
    expect(await definition()).toMatch(/\(source, import_key\)/);
    ids = await ensureModels(d.db, ['ik-a', 'ik-b'], 'external');
    await d.db.transaction().execute((trx) =>
      insertImportedBattles(
        trx,
        'old',
        null,
        KEYS.map((importKey) => ({
          importKey,
          leftModelId: ids.get('ik-a') as number,
          rightModelId: ids.get('ik-b') as number,
          choice: 'left' as const,
        })),
        new Date('2026-01-01T00:00:00Z'),
      ),
    );
    expect((await migrateToLatest(d.db)).error).toBeUndefined();
    expect(await definition()).toMatch(
      /length\(split_part\(import_key, ':'::text, 1\)\), import_key\)/,
    );

    expect((await importKeysOfSource(d.db, 'old')).sort()).toEqual([...KEYS].sort());
    for (const key of ['10:dddd', 'old-key'])
      await expect(insert('old', key)).rejects.toThrow(/battles_import_key_idx/);
    await insert('other', '10:dddd');
    await insert('other', 'old-key');
    await insert('old', '12:ffff');
    expect((await importKeysOfSource(d.db, 'other')).sort()).toEqual(['10:dddd', 'old-key']);

    await downTo0017();
    expect(await definition()).toMatch(/\(source, import_key\)/);
    await expect(insert('old', '12:ffff')).rejects.toThrow(/battles_import_key_idx/);
    expect((await migrateToLatest(d.db)).error).toBeUndefined();
  });
});
