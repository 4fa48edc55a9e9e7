/**
 * The arena end to end through the terminal adapter: post, three users vote, one changes, one retracts, the
 * database holds exactly the live votes and every event, closing reveals the models in an edit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { listVoteEvents, liveVotes } from '../../../src/storage/votes.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { counterSeeds, MODELS, SECRET, seedModels, terminal, testConfig } from './helpers.ts';

describe.each(backends())('arena through the terminal adapter (%s)', (backend) => {
  let db: TestDb;
  let bot: BotService;
  let shell: ShellAdapter;
  let term: ReturnType<typeof terminal>;
  let clock: ManualClock;

  beforeEach(async () => {
    db = await freshDb(backend);
    await seedModels(db.db);
    term = terminal();
    clock = new ManualClock(new Date());
    const config = testConfig();
    shell = new ShellAdapter({
      input: term.input,
      output: term.output,
      user: { id: 'local', name: 'you', maintainer: true },
      voteEmoji: config.arena.emoji.shell,
      logger: silentLogger,
      clock,
      sessionTag: 't1',
    });
    bot = new BotService({
      db: db.db,
      config,
      platforms: [shell],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      seedSource: counterSeeds(),
    });
    await bot.start();
  });

  afterEach(async () => {
    await bot.stop();
    await db.destroy();
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

    // A non-maintainer gets a polite refusal.
    await shell.say('as mallory /arena');
    expect(term.text()).toContain('(only you) Sorry, only arena maintainers');

    clock.advance(2 * 3_600_000);
    const tick = await bot.tick();
    expect(tick).toMatchObject({ closed: [1], revealed: [1] });
    const out = term.text();
    const edit = out.slice(out.indexOf('[m1-t1 edited]'));
    expect(edit).toMatch(
      /Left: model-(alpha|beta) · Right: model-(alpha|beta) · tally ⬅️ 2 🟰 0 ➡️ 1/u,
    );
    expect((await getBattle(db.db, 1))?.revealedAt).not.toBeNull();

    // Votes after closing are logged but change nothing.
    await shell.say('as dave vote 1 left');
    expect((await liveVotes(db.db, 1)).length).toBe(3);
    expect((await listVoteEvents(db.db, 1)).at(-1)?.effect).toBe('ignored_closed');

    await shell.say('/leaderboard');
    expect(term.text()).toContain('not enough votes');
    await shell.say('/models');
    expect(term.text()).toMatch(/model-alpha\s+recorded\s+6/u);
  });
});

describe.each(backends())('vote cap and schedule (%s)', (backend) => {
  it('closes and reveals a battle when it reaches the vote cap; posts scheduled battles once per interval', async () => {
    const db = await freshDb(backend);
    await seedModels(db.db);
    const term = terminal();
    const clock = new ManualClock(new Date());
    const config = testConfig({
      arena: {
        window_hours: 1,
        vote_cap: 2,
        schedule: { every_minutes: 10, channels: [{ platform: 'shell', channel_id: 'terminal' }] },
      },
    });
    const shell = new ShellAdapter({
      input: term.input,
      output: term.output,
      user: { id: 'local', name: 'you', maintainer: true },
      voteEmoji: config.arena.emoji.shell,
      logger: silentLogger,
      clock,
      sessionTag: 'cap',
    });
    const bot = new BotService({
      db: db.db,
      config,
      platforms: [shell],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      seedSource: counterSeeds(),
    });
    try {
      await bot.start(); // the first tick posts the scheduled battle #1
      expect(shell.posted).toHaveLength(1);
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
