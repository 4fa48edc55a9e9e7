import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../src/core/rng.ts';
import { closeBattle, createBattle, markPosted } from '../../../src/storage/battles.ts';
import { openDb } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { VoteChoice } from '../../../src/storage/schema.ts';
import { applyVoteEvent, listVoteEvents, liveVotes, tally } from '../../../src/storage/votes.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const t = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s));

/** One reaction event of a voter's history, as the platform ordered it. */
interface Step {
  readonly id: string;
  readonly kind: 'add' | 'remove';
  readonly choice: VoteChoice;
  readonly at: Date;
  readonly seq: number;
}

const CHOICES: readonly VoteChoice[] = ['left', 'equal', 'right'];

/**
 * A history the platform could have produced for one voter: each step toggles one emoji (added when absent,
 * removed when present), at increasing times, some in the same millisecond told apart by the sequence.
 */
function history(rng: Rng, n: number, tag: string): Step[] {
  const on = new Set<VoteChoice>();
  const out: Step[] = [];
  let ms = Date.UTC(2026, 10, 29, 10, 0, 0);
  for (let i = 0; i < n; i++) {
    const choice = CHOICES[rng.int(3)] as VoteChoice;
    const kind = on.has(choice) ? 'remove' : 'add';
    if (kind === 'add') on.add(choice);
    else on.delete(choice);
    if (rng.int(3) > 0) ms += 1 + rng.int(2000);
    out.push({ id: `${tag}-${i}`, kind, choice, at: new Date(ms), seq: i });
  }
  return out;
}

/** What the message shows at the end of `steps`: the most recently added emoji still present. */
function shownVote(steps: readonly Step[]): VoteChoice | null {
  const added = new Map<VoteChoice, number>();
  steps.forEach((s, i) => {
    if (s.kind === 'add') added.set(s.choice, i);
    else added.delete(s.choice);
  });
  let best: VoteChoice | null = null;
  let bestAt = -1;
  for (const [c, i] of added) {
    if (i > bestAt) {
      best = c;
      bestAt = i;
    }
  }
  return best;
}

function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

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
    expect(await tally(d.db, battleId)).toEqual({ left: 0, equal: 0, right: 1, bothbad: 0 });
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
    expect(await tally(d.db, battleId)).toEqual({ left: 1, equal: 0, right: 0, bothbad: 0 });
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
              seq: i,
            }),
          ),
        );
      }
    } finally {
      if (backend === 'postgres') await Promise.all(clients.map((c) => c.close()));
    }
    const live = await liveVotes(d.db, battleId);
    expect(live.length).toBe(1);
    // The greatest key (the last round, the highest sequence) decides, whichever client committed last.
    expect(live[0]?.choice).toBe(choices[(7 + 4) % 3]);
    const events = await listVoteEvents(d.db, battleId);
    expect(events.length).toBe(40);
    expect(events.filter((e) => e.effect === 'cast').length).toBe(1);
  });

  it('a swap applied out of order stores what the message shows (add ⬅️, remove ⬅️, add ➡️ in that order)', async () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, 0) + ms);
    expect(await ev('s', 'add', 'left', at(0))).toEqual({ effect: 'cast', liveChoice: 'left' });
    expect(await ev('s', 'remove', 'left', at(2000))).toEqual({
      effect: 'retracted',
      liveChoice: null,
    });
    // Older than the removal of ⬅️, but the first event of ➡️: the set is {➡️}.
    expect(await ev('s', 'add', 'right', at(1000))).toEqual({
      effect: 'cast',
      liveChoice: 'right',
    });
    expect(await tally(d.db, battleId)).toEqual({ left: 0, equal: 0, right: 1, bothbad: 0 });
    // The same swap with its halves the other way round, and a removal of ⬅️ that never undoes a later ➡️.
    await ev('o', 'add', 'left', at(0));
    expect(await ev('o', 'add', 'right', at(1000))).toEqual({
      effect: 'changed',
      liveChoice: 'right',
    });
    expect(await ev('o', 'remove', 'left', at(2000))).toEqual({
      effect: 'ignored_not_live',
      liveChoice: 'right',
    });
    expect(await tally(d.db, battleId)).toEqual({ left: 0, equal: 0, right: 2, bothbad: 0 });
  });

  it('an older removal of an emoji does not take back its later add; the platform sequence orders one millisecond', async () => {
    const at = new Date(Date.UTC(2026, 10, 29, 10, 0, 0));
    const apply = (id: string, kind: 'add' | 'remove', choice: VoteChoice, seq: number) =>
      applyVoteEvent(d.db, {
        battleId,
        voterHash: 'voter-hash-q',
        platform: 'discord',
        eventId: id,
        kind,
        choice,
        at,
        seq,
      });
    // add ⬅️ (1), remove ⬅️ (2), add ⬅️ (3), all in one millisecond, applied 3, 1, 2.
    expect((await apply('q3', 'add', 'left', 3)).effect).toBe('cast');
    expect((await apply('q1', 'add', 'left', 1)).effect).toBe('ignored_stale');
    expect(await apply('q2', 'remove', 'left', 2)).toEqual({
      effect: 'ignored_stale',
      liveChoice: 'left',
    });
    expect(await tally(d.db, battleId)).toEqual({ left: 1, equal: 0, right: 0, bothbad: 0 });
  });

  it('a removal without a choice takes every emoji (a deleted message): no other one becomes the vote', async () => {
    await ev('n', 'add', 'left', t(1));
    await ev('n', 'add', 'right', t(2));
    expect(await ev('n', 'remove', null, t(3))).toEqual({ effect: 'retracted', liveChoice: null });
    // An older add of either arriving late stays undone.
    expect((await ev('n', 'add', 'left', t(2))).liveChoice).toBeNull();
  });

  it("every interleaving of one voter's events ends in the vote the message shows (property, seeded)", async () => {
    const seed = 20261129;
    const rng = createRng(seed);
    let voters = 0;
    let events = 0;
    let mismatches = 0;
    const expected = { left: 0, equal: 0, right: 0, bothbad: 0 };
    for (let k = 0; k < 16; k++) {
      const steps = history(rng, 3 + rng.int(6), `p${k}`);
      const shown = shownVote(steps);
      for (let p = 0; p < 3; p++) {
        const voterHash = `voter-hash-p${k}-${p}`;
        // A shuffled delivery with one event delivered twice (a replay or a retry).
        const order = shuffled(rng, steps);
        order.splice(rng.int(order.length + 1), 0, order[rng.int(order.length)] as Step);
        let last: VoteChoice | null = null;
        for (const s of order) {
          const r = await applyVoteEvent(d.db, {
            battleId,
            voterHash,
            platform: 'discord',
            eventId: `${voterHash}:${s.id}`,
            kind: s.kind,
            choice: s.choice,
            at: s.at,
            seq: s.seq,
          });
          last = r.liveChoice;
          events++;
        }
        voters++;
        if (last !== shown) mismatches++;
        if (shown !== null) expected[shown]++;
      }
    }
    expect({ seed, voters, events, mismatches }).toEqual({ seed, voters, events, mismatches: 0 });
    expect(await tally(d.db, battleId)).toEqual(expected);
  });
});
