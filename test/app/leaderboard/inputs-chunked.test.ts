/**
 * The board's votes are read in keyset-paged chunks (so that on PGlite no single query holds the bot's
 * event loop for long). With a small chunk size the battle types and the whole board input come back identical
 * to the single query, read in more than one chunk; a table whose battle ids span less than a chunk is read in
 * one chunk.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBoardInput } from '../../../src/leaderboard/inputs.ts';
import { boardBattleTypes } from '../../../src/storage/leaderboard.ts';
import { addBattles, addRun } from '../../helpers/board-data.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const MODELS = ['m-a', 'm-b', 'm-c', 'm-d', 'Zeta', 'alpha'];
const CHOICES = ['left', 'equal', 'right'] as const;

describe.each(backends())('board inputs read in chunks (%s)', (backend) => {
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDb(backend);
    await addRun(db.db, {
      model: 'm-a',
      suite: 's',
      dataset: 'obj',
      ability: 'knowledge',
      method: 'metrics',
      scores: [0, 1, 1].map((raw, i) => ({ key: `q${i}`, raw, max: 1 })),
    });
    const rows = (n: number, salt: number) =>
      Array.from({ length: n }, (_, k) => {
        const a = (k + salt) % MODELS.length;
        const b = (a + 1 + ((k * 7 + salt) % (MODELS.length - 1))) % MODELS.length;
        return {
          a: MODELS[a] as string,
          b: MODELS[b] as string,
          choice: CHOICES[(k * 5 + salt) % 3] as 'left',
        };
      });
    await addBattles(db.db, 'arena', 'reasoning', rows(120, 1), 'r-');
    await addBattles(db.db, 'public', 'language', rows(60, 2), 'p-');
    await addBattles(db.db, 'arena', null, rows(40, 3), 'n-');
    await addBattles(db.db, 'arena', 'safety', rows(90, 4), 's-');
    // More votes on some battles, a retracted vote, a void battle.
    await sql`
      INSERT INTO votes (battle_id, voter_hash, choice, last_event_at)
      SELECT b.id, 'extra-voter-' || k, (ARRAY['left','equal','right'])[1 + ((b.id * 3 + k) % 3)::int], now()
        FROM battles b, generate_series(1, 3) k
       WHERE b.id % 4 = 0`.execute(db.db);
    await sql`UPDATE votes SET retracted_at = now() WHERE id IN (SELECT id FROM votes WHERE id % 11 = 0)`.execute(
      db.db,
    );
    await sql`UPDATE battles SET status = 'void' WHERE id % 13 = 0`.execute(db.db);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('gives the same battle types and board input in many chunks as in one query', async () => {
    for (const sources of [['arena'], ['arena', 'public']]) {
      const one = await boardBattleTypes(db.db, sources, { chunkVotes: 0 });
      let chunks = 0;
      const paged = await boardBattleTypes(db.db, sources, {
        chunkVotes: 7,
        onChunk: () => {
          chunks++;
        },
      });
      expect(one.length).toBeGreaterThan(20);
      expect(paged).toEqual(one);
      expect(chunks).toBeGreaterThan(10);
    }
    const a = await loadBoardInput(db.db, ['arena'], { chunkVotes: 0 });
    let chunks = 0;
    const b = await loadBoardInput(db.db, ['arena'], {
      chunkVotes: 25,
      onChunk: () => {
        chunks++;
      },
    });
    expect(b).toEqual(a);
    expect(chunks).toBeGreaterThan(1);
  });

  it('reads a table whose battle ids span less than a chunk in one chunk', async () => {
    let chunks = 0;
    const r = await boardBattleTypes(db.db, ['arena'], {
      chunkVotes: 100_000,
      onChunk: () => {
        chunks++;
      },
    });
    expect(r).toEqual(await boardBattleTypes(db.db, ['arena']));
    expect(chunks).toBe(1);
  });

  it('rejects a bad chunk size', async () => {
    await expect(boardBattleTypes(db.db, ['arena'], { chunkVotes: -1 })).rejects.toThrow(
      /chunkVotes must be a non-negative integer/,
    );
  });
});
