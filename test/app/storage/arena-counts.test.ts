/**
 * Migration 0007: `/arena` reads per-pair battle and live-vote counts (`arena_pair_load`) and per-item battle
 * counts (`item_battle_counts`) kept by triggers instead of counting every battle and vote on each call. After
 * every kind of write the chat path and the commands make (battles created, posted, voided, withdrawn, closed;
 * votes cast, changed, retracted, cast again; an import of public votes; a void by a maintainer; rows deleted by
 * hand), the two tables equal what the old queries counted from the battles and votes themselves.
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeBattle,
  createBattle,
  insertImportedBattles,
  markPosted,
  pairLiveVoteCounts,
  voidBattle,
  withdrawBattle,
} from '../../../src/storage/battles.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { voidAnyBattle } from '../../../src/storage/live-battles.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { Database, VoteChoice } from '../../../src/storage/schema.ts';
import { applyVoteEvent } from '../../../src/storage/votes.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, s));

/** The counts as the queries before migration 0007 computed them, from every battle and vote. */
async function recount(db: Kysely<Database>) {
  const pairs = await sql<{ lo: number; hi: number; votes: number; battles: number }>`
    SELECT least(b.model_left_id, b.model_right_id) AS lo, greatest(b.model_left_id, b.model_right_id) AS hi,
           count(v.id) AS votes, count(DISTINCT b.id) AS battles
      FROM battles b LEFT JOIN votes v ON v.battle_id = b.id AND v.retracted_at IS NULL
     WHERE b.source = 'arena' AND b.status <> 'void'
     GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
  const items = await sql<{ item: number; n: number }>`
    SELECT item_id AS item, count(*) AS n FROM battles WHERE item_id IS NOT NULL AND status <> 'void'
     GROUP BY 1 ORDER BY 1`.execute(db);
  return {
    pairs: pairs.rows.map((r) => [Number(r.lo), Number(r.hi), Number(r.battles), Number(r.votes)]),
    items: items.rows.map((r) => [Number(r.item), Number(r.n)]),
  };
}

/** The counts as the triggers keep them (rows whose counts fell to zero are no pairs or items). */
async function kept(db: Kysely<Database>) {
  const pairs = (await pairLiveVoteCounts(db))
    .map((p) => [p.modelLow, p.modelHigh, p.battles, p.votes])
    .sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
  const items = await sql<{ item: number; n: number }>`
    SELECT item_id AS item, battles AS n FROM item_battle_counts WHERE battles <> 0 ORDER BY 1`.execute(
    db,
  );
  return { pairs, items: items.rows.map((r) => [Number(r.item), Number(r.n)]) };
}

describe.each(backends())('arena counts kept by triggers on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('equal a recount after every kind of write', async () => {
    const db = d.db;
    const ds = await ensureDataset(db, {
      name: 'counts',
      ability: 'language',
      method: 'comparative',
      language: 'en',
    });
    const items = [
      ...(
        await ensureItems(
          db,
          ds,
          [0, 1, 2].map((i) => ({ key: `k${i}`, prompt: `p${i}` })),
        )
      ).values(),
    ];
    const m = await ensureModels(db, ['a', 'b', 'c'], 'recorded');
    const [a, b, c] = ['a', 'b', 'c'].map((n) => m.get(n) as number) as [number, number, number];
    let n = 0;
    const battle = async (left: number, right: number, item: number | null, post = true) => {
      const id = await createBattle(db, {
        itemId: item,
        ability: 'language',
        leftModelId: left,
        rightModelId: right,
        responseLeftId: null,
        responseRightId: null,
      });
      if (post)
        await markPosted(db, id, {
          platform: 'discord',
          channelId: 'c',
          messageId: `m${id}`,
          partIds: [],
          postedAt: at(0),
          closesAt: at(3600),
        });
      return id;
    };
    const vote = (battleId: number, voter: string, kind: 'add' | 'remove', choice: VoteChoice) =>
      applyVoteEvent(db, {
        battleId,
        voterHash: `voter-hash-${voter}`,
        platform: 'discord',
        eventId: `e${++n}`,
        kind,
        choice,
        at: at(n),
      });
    const check = async (what: string) => {
      expect(await kept(db), what).toEqual(await recount(db));
    };

    const b1 = await battle(a, b, items[0] as number);
    const b2 = await battle(b, a, items[0] as number); // the same pair, sides swapped
    const b3 = await battle(c, a, items[1] as number);
    await battle(b, c, items[2] as number, false); // pending
    await check('battles created and posted');
    await vote(b1, 'u1', 'add', 'left');
    await vote(b1, 'u2', 'add', 'right');
    await vote(b2, 'u1', 'add', 'equal');
    await vote(b3, 'u3', 'add', 'left');
    await check('votes cast');
    await vote(b1, 'u1', 'add', 'right'); // changed
    await vote(b1, 'u2', 'remove', 'right'); // retracted
    await check('a vote changed and one retracted');
    await vote(b1, 'u2', 'add', 'equal'); // cast again
    await check('a retracted vote cast again');
    const pending = await battle(a, c, items[2] as number, false);
    await voidBattle(db, pending); // a failed post
    await withdrawBattle(db, b3); // message deleted (its votes stay live on a void battle)
    await check('a pending battle voided, an open one withdrawn');
    await closeBattle(db, b2, at(100));
    await voidAnyBattle(db, b1, 'maintainer-hash', 'spam', at(101));
    await check('a battle closed, a closed one voided by a maintainer');
    await db.transaction().execute((trx) =>
      insertImportedBattles(
        trx,
        'public',
        null,
        [0, 1, 2, 3].map((k) => ({
          importKey: `${k}`,
          leftModelId: k % 2 ? a : b,
          rightModelId: c,
          choice: 'left' as const,
        })),
        at(200),
      ),
    );
    await check('public votes imported (they count in neither table)');
    const b5 = await battle(a, b, items[1] as number);
    await vote(b5, 'u4', 'add', 'left');
    await vote(b5, 'u5', 'add', 'left');
    await sql`DELETE FROM votes WHERE battle_id = ${b5} AND voter_hash = 'voter-hash-u4'`.execute(
      db,
    );
    await check('a vote deleted by hand');
    await sql`DELETE FROM battles WHERE id = ${b5}`.execute(db);
    await check('a battle deleted by hand (its votes with it)');
    expect((await kept(db)).pairs.length).toBeGreaterThan(0);
  });
});
