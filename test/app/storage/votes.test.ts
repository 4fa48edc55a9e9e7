import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeBattle, createBattle, markPosted } from '../../../src/storage/battles.ts';
import { openDb } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { VoteChoice } from '../../../src/storage/schema.ts';
import { applyVoteEvent, listVoteEvents, liveVotes, tally } from '../../../src/storage/votes.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const t = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s));

describe.each(backends())('vote rules on %s', (backend) => {
  let d: TestDb;
  let battleId: number;
  let seq = 0;
  const ev = (
    voter: string,
    kind: 'add' | 'remove',
    choice: VoteChoice | null,
    at: Date,
    eventId?: string,
  ) =>
    applyVoteEvent(d.db, {
      battleId,
      voterHash: `voter-hash-${voter}`,
      platform: 'discord',
      eventId: eventId ?? `e${++seq}`,
      kind,
      choice,
      at,
    });

  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());
  beforeEach(async () => {
    const ids = await ensureModels(d.db, ['left-model', 'right-model'], 'recorded');
    battleId = await createBattle(d.db, {
      itemId: null,
      ability: null,
      leftModelId: ids.get('left-model') as number,
      rightModelId: ids.get('right-model') as number,
      responseLeftId: null,
      responseRightId: null,
    });
    await markPosted(d.db, battleId, {
      platform: 'discord',
      channelId: 'c1',
      messageId: `m${battleId}`,
      partIds: [],
      postedAt: t(0),
      closesAt: t(3600),
    });
  });

  it('casts, changes and retracts; each event is logged with its effect', async () => {
    expect(await ev('a', 'add', 'left', t(1))).toEqual({ effect: 'cast', liveChoice: 'left' });
    expect(await ev('a', 'add', 'right', t(2))).toEqual({ effect: 'changed', liveChoice: 'right' });
    expect(await ev('a', 'add', 'right', t(3))).toEqual({
      effect: 'unchanged',
      liveChoice: 'right',
    });
    // Removing a stale emoji (left) does not retract the live right vote.
    expect(await ev('a', 'remove', 'left', t(4))).toEqual({
      effect: 'ignored_not_live',
      liveChoice: 'right',
    });
    expect(await ev('a', 'remove', 'right', t(5))).toEqual({
      effect: 'retracted',
      liveChoice: null,
    });
    expect(await ev('a', 'remove', 'right', t(6))).toEqual({
      effect: 'ignored_not_live',
      liveChoice: null,
    });
    expect(await ev('a', 'add', 'equal', t(7))).toEqual({ effect: 'cast', liveChoice: 'equal' });
    expect(await ev('b', 'remove', 'left', t(8))).toEqual({
      effect: 'ignored_no_vote',
      liveChoice: null,
    });
    expect(await liveVotes(d.db, battleId)).toMatchObject([
      { voterHash: 'voter-hash-a', choice: 'equal' },
    ]);
    const events = await listVoteEvents(d.db, battleId);
    expect(events.map((e) => [e.kind, e.choice, e.effect])).toEqual([
      ['add', 'left', 'cast'],
      ['add', 'right', 'changed'],
      ['add', 'right', 'unchanged'],
      ['remove', 'left', 'ignored_not_live'],
      ['remove', 'right', 'retracted'],
      ['remove', 'right', 'ignored_not_live'],
      ['add', 'equal', 'cast'],
      ['remove', 'left', 'ignored_no_vote'],
    ]);
  });

  it('a replayed platform event id changes nothing and is not logged twice', async () => {
    await ev('a', 'add', 'left', t(1), 'same-event');
    await ev('a', 'add', 'right', t(2));
    expect(await ev('a', 'add', 'left', t(1), 'same-event')).toEqual({
      effect: 'replayed',
      liveChoice: 'right',
    });
    expect(await tally(d.db, battleId)).toEqual({ left: 0, equal: 0, right: 1 });
    expect((await listVoteEvents(d.db, battleId)).length).toBe(2);
  });

  it('an event older than the last applied one (a late retry) is ignored', async () => {
    await ev('a', 'add', 'right', t(10));
    expect(await ev('a', 'add', 'left', t(5))).toEqual({
      effect: 'ignored_stale',
      liveChoice: 'right',
    });
  });

  it('votes on a closed battle are logged but not counted', async () => {
    await ev('a', 'add', 'left', t(1));
    expect(await closeBattle(d.db, battleId, t(2))).toBe(true);
    expect(await closeBattle(d.db, battleId, t(3))).toBe(false);
    expect(await ev('b', 'add', 'left', t(4))).toEqual({
      effect: 'ignored_closed',
      liveChoice: null,
    });
    expect(await ev('a', 'remove', 'left', t(5))).toEqual({
      effect: 'ignored_closed',
      liveChoice: 'left',
    });
    expect(await tally(d.db, battleId)).toEqual({ left: 1, equal: 0, right: 0 });
  });

  it('rejects a vote for a battle that does not exist', async () => {
    await expect(
      applyVoteEvent(d.db, {
        battleId: 987654,
        voterHash: 'voter-hash-x',
        platform: 'discord',
        eventId: 'zz',
        kind: 'add',
        choice: 'left',
        at: t(1),
      }),
    ).rejects.toThrow(/battle 987654 does not exist/);
  });

  it('concurrent casts by the same voter from 8 clients end with exactly one live vote', async () => {
    const clients =
      backend === 'postgres'
        ? await Promise.all(
            Array.from({ length: 8 }, () =>
              openDb({ kind: 'postgres', url: d.url as string, poolSize: 1 }),
            ),
          )
        : Array.from({ length: 8 }, () => d);
    const choices: VoteChoice[] = ['left', 'equal', 'right'];
    try {
      for (let round = 0; round < 5; round++) {
        await Promise.all(
          clients.map((c, i) =>
            applyVoteEvent(c.db, {
              battleId,
              voterHash: 'voter-hash-racer',
              platform: 'discord',
              eventId: `race-${round}-${i}`,
              kind: 'add',
              choice: choices[(i + round) % 3] as VoteChoice,
              at: t(round),
            }),
          ),
        );
      }
    } finally {
      if (backend === 'postgres') await Promise.all(clients.map((c) => c.close()));
    }
    const live = await liveVotes(d.db, battleId);
    expect(live.length).toBe(1);
    const events = await listVoteEvents(d.db, battleId);
    expect(events.length).toBe(40);
    expect(events.filter((e) => e.effect === 'cast').length).toBe(1);
  });
});
