/**
 * The vote cap (`arena.vote_cap`) is enforced in SQL and named as the reason: the vote that reaches the cap closes
 * the battle in its own transaction, no vote beyond it is accepted even when votes arrive at once from several
 * connections, a voter cannot change or take back a vote once the cap closed the battle (closed is closed), a
 * battle that already held the cap when it was lowered takes no further vote, and a late vote is told "it reached
 * the vote cap of N votes" (it was told "its voting window ended"), as the reveal says.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ArenaService } from '../../../src/arena/service.ts';
import type { BotService } from '../../../src/bot/service.ts';
import type { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import {
  createBattle,
  getArenaBattle,
  getBattle,
  markPosted,
} from '../../../src/storage/battles.ts';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { applyVoteEvent, liveVotes, type VoteEventResult } from '../../../src/storage/votes.ts';
import { backends, clearRows, freshDb, type TestDb } from '../../helpers/db.ts';
import { SECRET, seedModels, terminal, terminalShell, testBot, testConfig } from './helpers.ts';

const minute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

describe.each(backends())('vote cap on %s', (backend) => {
  describe('in the terminal', () => {
    let d: TestDb;
    let clock: ManualClock;
    let running: { bot: BotService; shell: ShellAdapter; term: ReturnType<typeof terminal> }[];

    // One database for these tests, its rows cleared before each.
    beforeAll(async () => {
      d = await freshDb(backend);
    });
    afterAll(async () => d?.destroy());
    beforeEach(async () => {
      await clearRows(d);
      await seedModels(d.db);
      clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
      running = [];
    });
    afterEach(async () => {
      for (const r of running) await r.bot.stop();
    });

    async function session(cap: number, tag: string) {
      const term = terminal();
      const config = testConfig({
        arena: {
          window_hours: 1,
          vote_cap: cap,
          identity_guard: { words: ['openai'], patterns: [] },
        },
      });
      const shell = terminalShell(term, config, { sessionTag: tag, clock });
      const bot = testBot({ db: d.db, config, platforms: [shell], clock });
      await bot.start();
      running.push({ bot, shell, term });
      const answer = async (line: string): Promise<string> => {
        const before = term.text().length;
        await shell.say(line);
        return term.text().slice(before);
      };
      return { bot, shell, term, answer };
    }

    it('the vote that reaches the cap closes the battle; later votes and changes are told why', async () => {
      const { answer, term } = await session(2, 'c2');
      await answer('/arena');
      expect(await answer('as a vote 1 left')).toBe('a voted ⬅️ (left) on battle #1\n');
      // The reveal edit comes first: the vote that reached the cap closed and revealed the battle.
      expect(await answer('as b vote 1 right')).toMatch(
        /^\n\[m1-c2 edited\] [\s\S]*b voted ➡️ \(right\) on battle #1\n$/u,
      );
      const b = await getArenaBattle(d.db, 1);
      expect(b).toMatchObject({ status: 'closed', closeReason: 'vote_cap', closeCap: 2 });
      expect(b?.revealedAt).not.toBeNull();
      expect(term.text()).toContain('Voting is closed (it reached the vote cap of 2 votes).');

      const closed = `voting on battle #1 closed on ${minute(clock.now())} (it reached the vote cap of 2 votes and the models were revealed); type /arena for a new one\n`;
      expect(await answer('as c vote 1 left')).toBe(closed);
      // Closed is closed: a voter of the battle can neither change nor take back their vote.
      expect(await answer('as a vote 1 equal')).toBe(closed);
      expect(await answer('as b unvote 1')).toBe(closed);
      const live = await liveVotes(d.db, b?.id as number);
      expect(live.map((v) => v.choice).sort()).toEqual(['left', 'right']);

      // Below the cap a change is not a new vote: the battle stays open.
      await answer('/arena');
      expect(await answer('as a vote 2 left')).toBe('a voted ⬅️ (left) on battle #2\n');
      expect(await answer('as a vote 2 right')).toBe(
        'a changed the vote on battle #2 to ➡️ (right)\n',
      );
      expect((await getArenaBattle(d.db, 2))?.status).toBe('open');
    });

    it('with the cap lowered to 3, a battle holding 3 votes takes no 4th', async () => {
      const first = await session(0, 'nocap');
      await first.answer('/arena');
      for (const who of ['a', 'b', 'c']) await first.answer(`as ${who} vote 1 left`);
      expect((await getArenaBattle(d.db, 1))?.status).toBe('open');
      await first.bot.stop();
      running = [];

      // A restart with `arena.vote_cap: 3`: the 4th vote is refused and closes the battle, with that reason.
      const { answer } = await session(3, 'cap3');
      const b = (await getArenaBattle(d.db, 1)) as NonNullable<
        Awaited<ReturnType<typeof getArenaBattle>>
      >;
      // (the start's first tick may already have closed it: either way the 4th vote is not accepted)
      const reply = await answer('as d vote 1 right');
      expect(reply).toMatch(
        /^voting on battle #1 closed on .* \(it reached the vote cap of 3 votes and the models were revealed\); type \/arena for a new one\n$/,
      );
      expect((await liveVotes(d.db, b.id)).length).toBe(3);
      expect(await getBattle(d.db, b.id)).toMatchObject({
        status: 'closed',
        closeReason: 'vote_cap',
        closeCap: 3,
      });
    });

    it('a battle closed by its window still says its window ended', async () => {
      const { answer, bot } = await session(5, 'win');
      await answer('/arena');
      await answer('as a vote 1 left');
      clock.advance(2 * 3_600_000);
      expect(await bot.tick()).toMatchObject({ closed: [1] });
      expect(await answer('as b vote 1 left')).toBe(
        `voting on battle #1 closed on ${minute(clock.now())} (its voting window ended and the models were revealed); type /arena for a new one\n`,
      );
      expect((await getArenaBattle(d.db, 1))?.closeReason).toBe('window');
    });
  });

  it('accepts exactly the cap when 40 votes arrive at once from several connections', async () => {
    const d = await freshDb(backend);
    const extra: Db[] = [];
    try {
      const ids = await ensureModels(d.db, ['m1', 'm2'], 'recorded');
      const posted = new Date('2026-12-01T10:00:00Z');
      const open = async () => {
        const id = await createBattle(d.db, {
          itemId: null,
          ability: null,
          leftModelId: ids.get('m1') as number,
          rightModelId: ids.get('m2') as number,
          responseLeftId: null,
          responseRightId: null,
        });
        await markPosted(d.db, id, {
          platform: 'discord',
          channelId: 'c',
          messageId: `msg-${id}`,
          partIds: [],
          postedAt: posted,
          closesAt: new Date(posted.getTime() + 3_600_000),
        });
        return id;
      };
      if (backend === 'postgres' && d.url)
        for (let i = 0; i < 4; i++)
          extra.push(await openDb({ kind: 'postgres', url: d.url, poolSize: 5 }));
      const conns = [d.db, ...extra.map((x) => x.db)];
      const conn = (i: number) => conns[i % conns.length] as Db['db'];

      for (const cap of [3, 1]) {
        const battle = await open();
        // Two voters hold a vote below the cap... (cap 1: none)
        const early = cap > 1 ? ['early-0', 'early-1'].slice(0, cap - 1) : [];
        for (const [i, v] of early.entries())
          await applyVoteEvent(d.db, {
            battleId: battle,
            voterHash: `voter-${v}`,
            platform: 'discord',
            eventId: `${battle}-${v}-first`,
            kind: 'add',
            choice: 'left',
            at: new Date(posted.getTime() + 1000 + i),
            cap,
          });
        // ...then 40 new voters and the early voters' changes arrive at once.
        const at = new Date(posted.getTime() + 60_000);
        const results: Promise<VoteEventResult>[] = [];
        for (let i = 0; i < 40; i++)
          results.push(
            applyVoteEvent(conn(i), {
              battleId: battle,
              voterHash: `voter-new-${i}`,
              platform: 'discord',
              eventId: `${battle}-new-${i}`,
              kind: 'add',
              choice: i % 2 ? 'right' : 'equal',
              at,
              cap,
            }),
          );
        for (const [i, v] of early.entries())
          results.push(
            applyVoteEvent(conn(i + 1), {
              battleId: battle,
              voterHash: `voter-${v}`,
              platform: 'discord',
              eventId: `${battle}-${v}-change`,
              kind: 'add',
              choice: 'right',
              at,
              cap,
            }),
          );
        const done = await Promise.all(results);
        const casts = done.filter((r) => r.effect === 'cast').length;
        expect(casts).toBe(cap - early.length);
        expect(done.filter((r) => r.closedByCap).length).toBe(1);
        expect(done.every((r) => ['cast', 'changed', 'ignored_closed'].includes(r.effect))).toBe(
          true,
        );
        expect((await liveVotes(d.db, battle)).length).toBe(cap);
        expect(await getBattle(d.db, battle)).toMatchObject({
          status: 'closed',
          closeReason: 'vote_cap',
          closeCap: cap,
        });
        // Every event is in the audit log, the refused ones as `ignored_closed`.
        const events = await sql<{ effect: string; n: number }>`
          SELECT effect, count(*)::int AS n FROM vote_events WHERE battle_id = ${battle}
           GROUP BY effect ORDER BY effect`.execute(d.db);
        const byEffect: Record<string, number> = Object.fromEntries(
          events.rows.map((r) => [r.effect, Number(r.n)]),
        );
        expect(byEffect.cast).toBe(cap);
        expect(
          (byEffect.cast ?? 0) + (byEffect.changed ?? 0) + (byEffect.ignored_closed ?? 0),
        ).toBe(40 + 2 * early.length);
      }
    } finally {
      for (const x of extra) await x.close();
      await d.destroy();
    }
  });

  it('a battle holding the cap already (it was lowered) takes no vote and the close loop closes it', async () => {
    const d = await freshDb(backend);
    try {
      await seedModels(d.db);
      const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
      const config = testConfig();
      const term = terminal();
      const shell = terminalShell(term, config, { sessionTag: 'loop', clock });
      const bot = testBot({ db: d.db, config, platforms: [shell], clock });
      await bot.start();
      try {
        for (const n of [1, 2]) {
          await shell.say('/arena');
          for (const who of ['a', 'b', 'c']) await shell.say(`as ${who} vote ${n} left`);
        }
      } finally {
        await bot.stop();
      }
      const capped = new ArenaService({
        db: d.db,
        arena: testConfig({
          arena: { window_hours: 1, vote_cap: 3, identity_guard: { words: [], patterns: [] } },
        }).arena,
        clock,
        logger: silentLogger,
        voterSecret: SECRET,
      });
      const [one, two] = [
        (await getArenaBattle(d.db, 1))?.id as number,
        (await getArenaBattle(d.db, 2))?.id as number,
      ];
      // Battle #1: a 4th vote is refused, and closes the battle.
      const fourth = await applyVoteEvent(d.db, {
        battleId: one,
        voterHash: 'voter-fourth',
        platform: 'shell',
        eventId: 'fourth',
        kind: 'add',
        choice: 'right',
        at: clock.now(),
        cap: 3,
      });
      expect(fourth).toEqual({ effect: 'ignored_closed', liveChoice: null, closedByCap: true });
      expect((await liveVotes(d.db, one)).length).toBe(3);
      // Battle #2: no vote comes; the close loop closes it.
      expect((await capped.closeDue(clock.now())).closed).toEqual([two]);
      for (const id of [one, two])
        expect(await getBattle(d.db, id)).toMatchObject({
          status: 'closed',
          closeReason: 'vote_cap',
          closeCap: 3,
        });
    } finally {
      await d.destroy();
    }
  });
});
