/**
 * Battle ids of imported votes on a shared database: each staged row draws its id from the battle sequence as it
 * is staged (storage/battles `insertImportedBattles`), in chunks written while the next is staged. Two imports
 * racing with battles inserted by other connections (as the bot's processes insert them) still get distinct
 * ids, ascending in each file's order (an export lists a source by battle id), their numbers 1…n in the same
 * order, and each battle its one vote; every row is stored across the chunk boundaries as in one piece.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { importBattles } from '../../../src/import/battles.ts';
import { createNumberedBattle, type NewBattle } from '../../../src/storage/battles.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb } from '../../helpers/db.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-import-ids-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WINNERS = ['model_a', 'model_b', 'tie', 'tie (bothbad)'] as const;
const CHOICES = ['left', 'right', 'equal', 'bothbad'];

/** `n` votes among five models (more than one staging chunk of 25,000 rows when n is larger). */
function votesFile(name: string, n: number, shift: number): string {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      model_a: `ids-${(i + shift) % 5}`,
      model_b: `ids-${(i + shift + 1 + (i % 3)) % 5}`,
      winner: WINNERS[(i * 7 + shift) % 4],
    }),
  );
  const file = join(tmp, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe.each(backends())('imported battle ids on %s', (backend) => {
  it('two imports racing with live inserts get distinct ids, ascending in file order, every vote whole', async () => {
    const d = await freshDb(backend);
    const extra: Db[] = [];
    try {
      const ids = await ensureModels(d.db, ['live-1', 'live-2'], 'recorded');
      const live: NewBattle = {
        itemId: null,
        ability: null,
        leftModelId: ids.get('live-1') as number,
        rightModelId: ids.get('live-2') as number,
        responseLeftId: null,
        responseRightId: null,
      };
      // Postgres: three more pools on the same database, as three processes; PGlite has one connection.
      if (backend === 'postgres' && d.url)
        for (let i = 0; i < 3; i++)
          extra.push(await openDb({ kind: 'postgres', url: d.url, poolSize: 2 }));
      const conns = [d.db, ...extra.map((x) => x.db)];
      const conn = (i: number) => conns[i % conns.length] as Db['db'];
      const sizes = { one: 26_000, two: 25_001 };
      const work: Promise<unknown>[] = [
        importBattles(conn(1), { file: votesFile('one.jsonl', sizes.one, 0), source: 'one' }),
        importBattles(conn(2), { file: votesFile('two.jsonl', sizes.two, 3), source: 'two' }),
      ];
      // Live battles keep drawing ids from the same sequence while both imports stage theirs.
      const liveInserts = (async () => {
        for (let i = 0; i < 60; i++) {
          await createNumberedBattle(conn(3 + i), live);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all([...work, liveInserts]);

      const all = await sql<{ n: number; distinct: number }>`
        SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct FROM battles`.execute(d.db);
      expect(all.rows[0]).toEqual({
        n: sizes.one + sizes.two + 60,
        distinct: sizes.one + sizes.two + 60,
      });
      for (const [source, n] of Object.entries(sizes)) {
        const shift = source === 'one' ? 0 : 3;
        const rows = await sql<{
          id: number;
          number: number;
          import_key: string;
          battle_id: number;
          voter_hash: string;
          choice: string;
          votes: number;
        }>`
          SELECT b.id, b.number::int AS number, b.import_key, v.battle_id, v.voter_hash, v.choice,
                 (SELECT count(*)::int FROM votes w WHERE w.battle_id = b.id) AS votes
            FROM battles b JOIN votes v ON v.battle_id = b.id
           WHERE b.source = ${source} ORDER BY b.id`.execute(d.db);
        expect(rows.rows).toHaveLength(n);
        // In id order the battles are the file's lines in order, numbered 1…n, each with its one vote.
        const bad = rows.rows.filter(
          (r, i) =>
            r.number !== i + 1 ||
            r.import_key.split(':')[0] !== String(i + 1) ||
            r.votes !== 1 ||
            r.voter_hash !== `import:${source}:${r.import_key}` ||
            r.choice !== CHOICES[(i * 7 + shift) % 4],
        );
        expect(bad).toEqual([]);
      }
    } finally {
      for (const x of extra) await x.close();
      await d.destroy();
    }
    // Two imports of 51,001 rows and 60 live battles: tens of seconds on a busy 2-core machine (a guard, not a
    // speed check).
  }, 180_000);
});
