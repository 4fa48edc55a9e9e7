/**
 * `/leaderboard style` and the stored style battles (docs/scoring.md §4.6): votes on live battles whose answers are
 * stored are rated with style control; imported votes (no answers) are left out and counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaderboardReply, parseLeaderboardArgs } from '../../../src/bot/commands/leaderboard.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { loadStyleBattles } from '../../../src/leaderboard/style.ts';
import { markPosted } from '../../../src/storage/battles.ts';
import { createLiveBattle } from '../../../src/storage/live-battles.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { applyVoteEvent } from '../../../src/storage/votes.ts';
import { addBattles } from '../../helpers/board-data.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';

const clock = new ManualClock(new Date('2026-12-01T09:00:00Z'));
let db: TestDb;

beforeAll(async () => {
  db = await freshDb('pglite');
  const ids = await ensureModels(db.db, ['long', 'short', 'mid'], 'external');
  const pairs: [string, string][] = [
    ['long', 'short'],
    ['short', 'mid'],
    ['mid', 'long'],
  ];
  for (let i = 0; i < 12; i++) {
    const [l, r] = pairs[i % 3]!;
    const answer = (m: string) =>
      m === 'long'
        ? `## Plan\n- a\n- b\n**Note** ${'word '.repeat(20 + i)}`
        : m === 'mid'
          ? 'x '.repeat(8 + i)
          : 'ok';
    const b = await createLiveBattle(db.db, {
      leftModelId: ids.get(l)!,
      rightModelId: ids.get(r)!,
      askerHash: 'asker-hash-0001',
      seed: i,
      ability: 'reasoning',
      abilitySource: 'classifier',
      prompt: `question ${i}`,
      answerLeft: answer(l),
      answerRight: answer(r),
      latencyLeftMs: 1,
      latencyRightMs: 1,
      askedAt: new Date(Date.UTC(2026, 10, 1, 0, i)),
      answeredAt: new Date(Date.UTC(2026, 10, 1, 0, i)),
    });
    await markPosted(db.db, b.id, {
      platform: 'shell',
      channelId: 'c',
      messageId: `m${i}`,
      partIds: [],
      postedAt: new Date(Date.UTC(2026, 10, 1, 0, i)),
      closesAt: new Date(Date.UTC(2026, 10, 2)),
    });
    await applyVoteEvent(db.db, {
      battleId: b.id,
      voterHash: `voter-hash-${i}`,
      platform: 'shell',
      eventId: `e${i}`,
      kind: 'add',
      choice: i % 4 === 0 ? 'equal' : i % 2 === 0 ? 'left' : 'right',
      at: new Date(Date.UTC(2026, 10, 1, 1, i)),
    });
  }
  await addBattles(db.db, 'arena', 'reasoning', [{ a: 'long', b: 'short', choice: 'left' }], 'imp');
});
afterAll(async () => db?.destroy());

describe('style control on stored votes', () => {
  it('loads the votes whose answers are stored, with FastChat style metadata', async () => {
    const r = await loadStyleBattles(db.db, ['arena']);
    expect(r.battles).toHaveLength(12);
    expect(r.withoutMetadata).toBe(1);
    const first = r.battles[0]!;
    expect(first.model_a).toBe('long');
    expect(first.conv_metadata.header_count_a.h2).toBe(1);
    expect(first.conv_metadata.list_count_a.unordered).toBe(2);
    expect(first.conv_metadata.bold_count_a['**']).toBe(1);
    expect(first.conv_metadata.sum_assistant_b_tokens).toBe(1);
  });

  it('/leaderboard style shows the style-controlled table and coefficients', async () => {
    const svc = new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 20, seed: 1 },
      compute: 'inline',
      inlineChart: false,
    });
    const req = parseLeaderboardArgs('style', '');
    expect(req).toEqual({ ok: true, view: 'style' });
    const c = await leaderboardReply({ leaderboard: svc, now: () => clock.now() }, req);
    expect(c.table?.columns).toEqual(['rank', 'model', 'rating', '95% CI', 'votes']);
    expect(c.table?.rows.map((r) => r[1]).sort()).toEqual(['long', 'mid', 'short']);
    expect(c.footer).toContain('style coefficients');
    expect(c.footer).toContain('1 vote without stored answers left out');
    await svc.close();
  });

  it('computes the style-controlled ratings in the board worker thread, the same as inline', async () => {
    const make = (compute: 'inline' | 'thread') =>
      new LeaderboardService({
        db: db.db,
        clock,
        logger: silentLogger,
        aggregation: { min_votes: 5, bootstrap: 20, seed: 1 },
        compute,
        inlineChart: false,
      });
    const inline = make('inline');
    const thread = make('thread');
    try {
      const a = await inline.styleControl();
      const b = await thread.styleControl();
      expect(b.result).not.toBeNull();
      expect(b).toEqual(a);
    } finally {
      await inline.close();
      await thread.close();
    }
  });
});
