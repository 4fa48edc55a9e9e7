/**
 * storage/vote-flags `flagVote`, the daily cap (docs/scoring.md §4.3: "the voter already had the cap of live votes
 * on other battles cast the same UTC day"): the votes counted against a vote are those cast before it, so flagging
 * two votes whose events were applied before either was flagged (two reactions handled at once) flags only the
 * later one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBattle, markPosted } from '../../../src/storage/battles.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { flagVote } from '../../../src/storage/vote-flags.ts';
import { applyVoteEvent } from '../../../src/storage/votes.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, s));
const RULES = { dailyVoteCap: 1, readMsPerChar: 0 };

describe.each(backends())('the daily cap on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  async function battle(): Promise<number> {
    const ids = await ensureModels(d.db, ['left-model', 'right-model'], 'recorded');
    const id = await createBattle(d.db, {
      itemId: null,
      ability: null,
      leftModelId: ids.get('left-model') as number,
      rightModelId: ids.get('right-model') as number,
      responseLeftId: null,
      responseRightId: null,
    });
    await markPosted(d.db, id, {
      platform: 'discord',
      channelId: 'c1',
      messageId: `m${id}`,
      partIds: [],
      postedAt: t(0),
      closesAt: t(3600),
    });
    return id;
  }
  const cast = (battleId: number, at: Date) =>
    applyVoteEvent(d.db, {
      battleId,
      voterHash: 'voter-hash-a',
      platform: 'discord',
      eventId: `e-${battleId}`,
      kind: 'add',
      choice: 'left',
      at,
    });

  it('flags the vote over the cap, not the one cast before it, whatever order they are flagged in', async () => {
    const [a, b] = [await battle(), await battle()];
    // Both votes are stored before either is flagged.
    await cast(a, t(10));
    await cast(b, t(20));
    expect((await flagVote(d.db, a, 'voter-hash-a', 'cast', t(10), RULES)).flag).toBeNull();
    expect((await flagVote(d.db, b, 'voter-hash-a', 'cast', t(20), RULES)).flag).toBe('daily_cap');
    // Flagged again in the other order, the same.
    expect((await flagVote(d.db, b, 'voter-hash-a', 'cast', t(20), RULES)).flag).toBe('daily_cap');
    expect((await flagVote(d.db, a, 'voter-hash-a', 'cast', t(10), RULES)).flag).toBeNull();
  });
});
