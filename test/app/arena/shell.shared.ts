/**
 * The arena end to end through the terminal adapter: post, three users vote, one changes, one retracts, the
 * database holds exactly the live votes and every event, closing reveals the models in an edit.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { DISCORD_CAPABILITIES } from '../../../src/chat/discord/adapter.ts';
import type { ChatPlatform } from '../../../src/chat/port.ts';
import type { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { SLACK_CAPABILITIES } from '../../../src/chat/slack/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { createLogger, type Logger, silentLogger } from '../../../src/core/logger.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, liveVotes } from '../../../src/storage/votes.ts';
import { type Backend, clearRows, freshDb, type TestDb } from '../../helpers/db.ts';
import {
  MODELS,
  SECRET,
  seedModels,
  terminal,
  terminalShell,
  testBot,
  testConfig,
} from './helpers.ts';

/** A chat platform that only records posts (a battle posted elsewhere than the terminal). */
function elsewhere(name: 'discord' | 'slack'): ChatPlatform {
  let n = 0;
  return {
    name,
    capabilities: name === 'slack' ? SLACK_CAPABILITIES : DISCORD_CAPABILITIES,
    botUserId: 'bot',
    start: async () => {},
    stop: async () => {},
    post: async (channelId) => ({ platform: name, channelId, messageId: `x${++n}`, partIds: [] }),
    edit: async () => {},
    addReactions: async () => {},
    listReactions: async () => [],
  };
}

/** The terminal arena's tests on one backend (shell.pglite.test.ts, shell.postgres.test.ts run side by side). */
export function shellTests(backend: Backend): void {
  describe(`arena through the terminal adapter (${backend})`, () => {
    let db: TestDb;
    let bot: BotService;
    let shell: ShellAdapter;
    let term: ReturnType<typeof terminal>;
    let clock: ManualClock;

    // One database for the describe, its rows cleared before each test.
    beforeAll(async () => {
      db = await freshDb(backend);
    });
    afterAll(async () => db?.destroy());

    beforeEach(async () => {
      await clearRows(db);
      await seedModels(db.db);
      term = terminal();
      clock = new ManualClock(new Date());
      const config = testConfig();
      shell = terminalShell(term, config, { sessionTag: 't1', clock });
      bot = testBot({
        db: db.db,
        config,
        platforms: [shell],
        clock,
      });
      await bot.start();
    });

    afterEach(async () => {
      await bot.stop();
    });

    it('posts, records votes, changes and retractions, and reveals on close', async () => {
      await shell.say('/arena');
      const posted = shell.posted[0];
      expect(posted?.ref.messageId).toBe('m1-t1');
      expect(term.text()).toContain('Arena battle #1');
      for (const m of MODELS) expect(term.text()).not.toContain(m);
      const battle = await getBattle(db.db, 1);
      expect(battle).toMatchObject({ status: 'open', platform: 'shell', messageId: 'm1-t1' });

      await shell.say('as alice vote 1 left');
      await shell.say('as bob vote 1 right');
      await shell.say('as carol vote 1 🟰');
      await shell.say('as bob vote 1 left'); // change
      await shell.say('as carol unvote 1'); // retract
      await shell.say('vote 1 ➡️');

      const h = (u: string) => hashVoterId(SECRET, 'shell', u);
      const live = await liveVotes(db.db, 1);
      expect(new Map(live.map((v) => [v.voterHash, v.choice]))).toEqual(
        new Map([
          [h('alice'), 'left'],
          [h('bob'), 'left'],
          [h('local'), 'right'],
        ]),
      );
      const events = await listVoteEvents(db.db, 1);
      expect(
        events.map((e) => [
          e.voterHash === h('bob')
            ? 'bob'
            : e.voterHash === h('alice')
              ? 'alice'
              : e.voterHash === h('carol')
                ? 'carol'
                : 'local',
          e.kind,
          e.choice,
          e.effect,
        ]),
      ).toEqual([
        ['alice', 'add', 'left', 'cast'],
        ['bob', 'add', 'right', 'cast'],
        ['carol', 'add', 'equal', 'cast'],
        ['bob', 'add', 'left', 'changed'],
        ['bob', 'remove', 'right', 'ignored_not_live'],
        ['carol', 'remove', 'equal', 'retracted'],
        ['local', 'add', 'right', 'cast'],
      ]);

      // A non-maintainer gets a polite refusal, which does not promise scheduled battles (the schedule is off).
      await shell.say('as mallory /arena');
      expect(term.text()).toContain('(only you) Sorry, only arena maintainers');
      expect(term.text()).not.toContain('schedule');

      clock.advance(2 * 3_600_000);
      const tick = await bot.tick();
      expect(tick).toMatchObject({ closed: [1], revealed: [1] });
      const out = term.text();
      const edit = out.slice(out.indexOf('[m1-t1 edited]'));
      expect(edit).toMatch(
        /Left: model-(alpha|beta) · Right: model-(alpha|beta) · tally ⬅️ 2 🟰 0 ➡️ 1/u,
      );
      expect((await getBattle(db.db, 1))?.revealedAt).not.toBeNull();

      // Votes after closing are logged but change nothing, and the terminal says so.
      const before = term.text().length;
      await shell.say('as dave vote 1 left');
      expect((await liveVotes(db.db, 1)).length).toBe(3);
      expect((await listVoteEvents(db.db, 1)).at(-1)?.effect).toBe('ignored_closed');
      expect(term.text().slice(before)).toMatch(
        /^voting on battle #1 closed on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(its voting window ended and the models were revealed\); type \/arena for a new one\n$/,
      );

      await shell.say('/leaderboard');
      expect(term.text()).toContain(
        'ZhuJiu board: no scores yet (a comparative score needs 20 arena votes',
      );
      // Three votes give no score in any method: the rows are left out, and counted.
      expect(term.text()).toContain('2 models with no score in any method left out');
      await shell.say('/models');
      expect(term.text()).toMatch(/model-alpha\s+recorded\s+6/u);
    });
  });

  describe(`vote cap and schedule (${backend})`, () => {
    it('closes and reveals a battle when it reaches the vote cap; posts scheduled battles once per interval', async () => {
      const db = await freshDb(backend);
      await seedModels(db.db);
      const term = terminal();
      const clock = new ManualClock(new Date());
      const config = testConfig({
        arena: {
          window_hours: 1,
          vote_cap: 2,
          schedule: {
            every_minutes: 10,
            channels: [{ platform: 'shell', channel_id: 'terminal' }],
          },
        },
      });
      const shell = terminalShell(term, config, { sessionTag: 'cap', clock });
      const bot = testBot({
        db: db.db,
        config,
        platforms: [shell],
        clock,
      });
      try {
        await bot.start(); // the first tick posts the scheduled battle #1
        expect(shell.posted).toHaveLength(1);
        await shell.say('as mallory /arena');
        expect(term.text()).toContain(
          'Battles are also posted on a schedule; react to one to vote!',
        );
        expect((await bot.tick()).posted).toEqual([]); // not due yet
        clock.advance(11 * 60_000);
        expect((await bot.tick()).posted).toEqual([2]);
        await shell.say('as a vote 1 left');
        expect((await getBattle(db.db, 1))?.status).toBe('open');
        await shell.say('as b vote 1 right');
        const b = await getBattle(db.db, 1);
        expect(b?.status).toBe('closed');
        expect(b?.revealedAt).not.toBeNull();
        expect(term.text()).toMatch(/\[m1-cap edited\][\s\S]*tally ⬅️ 1 🟰 0 ➡️ 1/u);
      } finally {
        await bot.stop();
        await db.destroy();
      }
    });
  });

  describe(`terminal vote answers (${backend})`, () => {
    let db: TestDb;
    let term: ReturnType<typeof terminal>;
    let clock: ManualClock;
    let running: { bot: BotService; shell: ShellAdapter }[];
    const h = (u: string) => hashVoterId(SECRET, 'shell', u);

    async function session(
      tag: string,
      logger: Logger = silentLogger,
      opts: { interactive?: boolean; logLevel?: string } = {},
    ) {
      const config = testConfig(opts.logLevel ? { log: { level: opts.logLevel } } : {});
      const shell = terminalShell(term, config, {
        sessionTag: tag,
        clock,
        logger,
        ...(opts.interactive !== undefined ? { interactive: opts.interactive } : {}),
      });
      const bot = testBot({
        db: db.db,
        config,
        platforms: [shell],
        clock,
        logger,
      });
      await bot.start();
      running.push({ bot, shell });
      return { bot, shell };
    }

    /** What the terminal printed while `line` ran. */
    async function answer(shell: ShellAdapter, line: string): Promise<string> {
      const before = term.text().length;
      await shell.say(line);
      return term.text().slice(before);
    }

    beforeAll(async () => {
      db = await freshDb(backend);
    });
    afterAll(async () => db?.destroy());

    beforeEach(async () => {
      await clearRows(db);
      await seedModels(db.db);
      term = terminal();
      clock = new ManualClock(new Date());
      running = [];
    });

    afterEach(async () => {
      for (const r of running) await r.bot.stop();
    });

    it('refuses a mistyped or foreign choice without touching the vote', async () => {
      const { shell } = await session('typo');
      await shell.say('/arena');
      const cast = await answer(shell, 'vote 1 left');
      const typo = await answer(shell, 'vote 1 lfet');
      const thumb = await answer(shell, 'vote 1 👍');
      // The vote stands and nothing but the cast was logged.
      const live = await liveVotes(db.db, 1);
      expect(live.map((v) => [v.voterHash, v.choice])).toEqual([[h('local'), 'left']]);
      const events = await listVoteEvents(db.db, 1);
      expect(events.map((e) => [e.kind, e.effect])).toEqual([['add', 'cast']]);
      expect(typo).toBe(
        'unknown choice "lfet": use left, equal, right or bothbad (or ⬅️ 🟰 ➡️ 👎)\n',
      );
      expect(thumb).toBe('unknown choice "👍": use left, equal, right or bothbad (or ⬅️ 🟰 ➡️ 👎)\n');
      expect(cast).toBe('you voted ⬅️ (left) on battle #1\n');
      // The emoji without its variation selector is the same choice; words are case-insensitive.
      expect(await answer(shell, 'vote 1 ⬅')).toBe(
        'you already voted ⬅️ (left) on battle #1; nothing changed\n',
      );
      expect(await answer(shell, 'vote 1 RIGHT')).toBe(
        'you changed the vote on battle #1 to ➡️ (right)\n',
      );
      expect((await liveVotes(db.db, 1)).map((v) => v.choice)).toEqual(['right']);
      expect(await answer(shell, 'vote 1')).toBe('usage: vote <battle> left|equal|right|bothbad\n');
      // Battle numbers are plain decimal: 1e3 is not battle #1000, nor 0x1 battle #1.
      for (const id of ['1e3', '0x1', '1.0', '-1', '+1', '0', '１']) {
        expect(await answer(shell, `vote ${id} left`), id).toBe(
          'usage: vote <battle> left|equal|right|bothbad\n',
        );
      }
      expect(await answer(shell, 'unvote 1e0')).toBe('usage: unvote <battle>\n');
      expect(await answer(shell, 'reply 0x1 more please')).toBe('usage: reply <battle> <text>\n');
      expect((await liveVotes(db.db, 1)).map((v) => v.choice)).toEqual(['right']);
    });

    it('tells a missing battle from a battle posted on another platform', async () => {
      const { bot, shell } = await session('where');
      expect(await answer(shell, 'vote 999 left')).toBe(
        "no battle #999 in this community's arena\n",
      );
      expect(await answer(shell, 'unvote 999')).toBe("no battle #999 in this community's arena\n");
      // A number too large to be any battle's is still a number: the same answer, not the usage line.
      const huge = '12345678901234567890';
      const none = `no battle #${huge} in this community's arena\n`;
      expect(await answer(shell, `vote ${huge} left`)).toBe(none);
      expect(await answer(shell, `unvote #${huge}`)).toBe(none);
      expect(await answer(shell, `reply ${huge} hello`)).toBe(none);
      bot.arena.addPlatform(elsewhere('discord'));
      const res = await bot.arena.postBattle('discord', 'general');
      expect(res.ok).toBe(true);
      expect(await answer(shell, 'vote 1 left')).toBe(
        'battle #1 was posted on discord; vote there\n',
      );
      expect(await listVoteEvents(db.db, 1)).toEqual([]);
    });

    it('says what a vote really did: closed battles, nothing to take back', async () => {
      const { bot, shell } = await session('closed');
      await shell.say('/arena');
      await shell.say('as carol vote 1 left');
      await shell.say('vote 1 right');
      clock.advance(2 * 3_600_000);
      expect(await bot.tick()).toMatchObject({ closed: [1] });
      const closedAt = `${clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      const closed = `voting on battle #1 closed on ${closedAt} (its voting window ended and the models were revealed); type /arena for a new one\n`;
      expect(await answer(shell, 'as carol vote 1 equal')).toBe(closed);
      expect(await answer(shell, 'unvote 1')).toBe(closed);
      const live = await liveVotes(db.db, 1);
      expect(new Map(live.map((v) => [v.voterHash, v.choice]))).toEqual(
        new Map([
          [h('carol'), 'left'],
          [h('local'), 'right'],
        ]),
      );
      // Logged for the audit (carol's swap takes ⬅️ away too), counted for nothing.
      expect((await listVoteEvents(db.db, 1)).slice(2).map((e) => [e.kind, e.effect])).toEqual([
        ['add', 'ignored_closed'],
        ['remove', 'ignored_closed'],
        ['remove', 'ignored_closed'],
      ]);
      expect(await answer(shell, 'as zed unvote 1')).toBe('no vote on battle #1 to take back\n');
      // On an open battle too.
      await shell.say('/arena');
      expect(await answer(shell, 'as zed unvote 2')).toBe('no vote on battle #2 to take back\n');
      expect(await answer(shell, 'as carol vote 2 equal')).toBe(
        'carol voted 🟰 (equal) on battle #2\n',
      );
      expect(await answer(shell, 'as carol unvote 2')).toBe('vote on battle #2 taken back\n');
    });

    it('the terminal says how to vote there and why a voided battle takes no vote', async () => {
      const { shell } = await session('void');
      const posted = await answer(shell, '/arena');
      expect(posted).toContain(
        'Battle #1 posted. Vote by typing `vote 1 left|equal|right|bothbad`.',
      );
      expect(posted).toContain(
        'Vote by typing: `vote 1 left` (⬅️ left is better) · `vote 1 equal` (🟰) · `vote 1 right` (➡️ right is better) · ' +
          '`vote 1 bothbad` (👎 both are bad). Your latest vote counts; `unvote 1` takes it back.',
      );
      expect(posted).not.toMatch(/React to vote|Vote by reacting/u);
      await shell.say('/arena void 1 spam');
      const at = `${clock.now().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      expect(await answer(shell, 'vote 1 left')).toBe(
        `battle #1 was voided by you on ${at} (reason: spam): it takes no votes and counts in no rating; type /arena for a new one\n`,
      );
      expect(await answer(shell, 'as carol vote 1 left')).toBe(
        `battle #1 was voided by a maintainer (/arena void) on ${at} (reason: spam): it takes no votes and counts in no rating; type /arena for a new one\n`,
      );
    });

    it('an interactive terminal keeps info lines out of the conversation unless a level is configured', async () => {
      const capture = () => {
        const lines: { level: number; msg: string }[] = [];
        const logger = createLogger('info', {
          write: (line: string) => {
            lines.push(JSON.parse(line) as { level: number; msg: string });
          },
        });
        return { lines, logger };
      };
      const quiet = capture();
      const a = await session('quiet', quiet.logger, { interactive: true });
      await a.shell.say('/arena');
      expect(quiet.lines.map((l) => l.msg)).not.toContain('battle posted');
      expect(quiet.lines.filter((l) => l.level < 40)).toEqual([]);
      const chatty = capture();
      const b = await session('chatty', chatty.logger.child({}, { level: 'debug' }), {
        interactive: true,
        logLevel: 'debug',
      });
      await b.shell.say('/arena');
      expect(chatty.lines.map((l) => l.msg)).toContain('battle posted');
      expect(b.shell.interactive).toBe(true);
    });

    it('after a restart: one info line for the earlier battles, and their stored votes can be taken back', async () => {
      const first = await session('run1');
      await first.shell.say('/arena');
      await first.shell.say('/arena');
      await first.shell.say('vote 1 left');
      await first.bot.stop();
      running = [];
      const lines: { level: number; msg: string }[] = [];
      const logger = createLogger('info', {
        write: (line: string) => {
          lines.push(JSON.parse(line) as { level: number; msg: string });
        },
      });
      // A restart takes time: the second run's events come after the first run's (vote order, scoring.md §4.1).
      clock.advance(1000);
      const second = await session('run2', logger);
      const about = lines.filter((l) => /earlier run/u.test(l.msg));
      expect(about).toEqual([
        expect.objectContaining({
          level: 30,
          msg: '2 open terminal battles from an earlier run keep their stored votes',
        }),
      ]);
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
      expect(await answer(second.shell, 'vote 1 right')).toBe(
        'you changed the vote on battle #1 to ➡️ (right)\n',
      );
      expect(await answer(second.shell, 'unvote 1')).toBe('vote on battle #1 taken back\n');
      expect(await liveVotes(db.db, 1)).toEqual([]);
      expect(await answer(second.shell, 'unvote 2')).toBe('no vote on battle #2 to take back\n');
    });
  });
}
