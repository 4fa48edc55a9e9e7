/**
 * A board snapshot built before new votes and runs says what it misses ("built before 412 newer votes and 2
 * runs") and starts a rebuild; a start builds a new board when the inputs changed; the results page builds the
 * first board instead of saying "No board yet" when scores exist (both backends).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type LeaderboardCommandDeps,
  leaderboardReply,
} from '../../../src/bot/commands/leaderboard.ts';
import { BotService } from '../../../src/bot/service.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createHttpApp } from '../../../src/http/server.ts';
import { LeaderboardService, staleText } from '../../../src/leaderboard/service.ts';
import { addBattles, addRun } from '../../helpers/board-data.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { testConfig } from '../arena/helpers.ts';

const clock = new ManualClock(new Date('2026-12-01T09:00:00Z'));
const service = (db: TestDb) =>
  new LeaderboardService({
    db: db.db,
    clock,
    logger: silentLogger,
    aggregation: { min_votes: 5, bootstrap: 20, seed: 1 },
    compute: 'inline',
    inlineChart: false,
  });
const run = (db: TestDb, model: string, day: number) =>
  addRun(db.db, {
    model,
    suite: 'smoke',
    dataset: 'obj',
    ability: 'knowledge',
    method: 'metrics',
    scores: [0, 1, 1].map((v, i) => ({ key: `q${i}`, raw: v, max: 1 })),
    finishedAt: new Date(Date.UTC(2026, 10, day)),
  });
/** n one-vote battles of m1 against m2. */
const votes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    a: 'm1',
    b: 'm2',
    choice: i % 3 === 0 ? ('right' as const) : ('left' as const),
  }));

describe.each(flowBackends())('stale board snapshots (%s)', (backend) => {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const x of open.splice(0)) await x.close();
  });

  it('after a restart, the old snapshot says "built before 412 newer votes and 2 runs", then is replaced', async () => {
    const db = await freshDb(backend);
    open.push({ close: () => db.destroy() });
    await run(db, 'm1', 1);
    await run(db, 'm2', 1);
    await addBattles(db.db, 'arena', 'reasoning', votes(10), 'a');
    const before = service(db);
    const first = await before.refresh();
    expect(await before.checkStale(first)).toBeUndefined();
    await before.close();

    // While the bot was down: 412 votes and two runs.
    await addBattles(db.db, 'arena', 'reasoning', votes(412), 'b');
    await run(db, 'm1', 2);
    await run(db, 'm2', 3);
    // Votes of a source the board does not count are not "missed".
    await addBattles(db.db, 'lmsys', null, votes(7), 'c');

    const after = service(db);
    open.push(after);
    expect((await after.latest())!.id).toBe(first.id);
    const deps: LeaderboardCommandDeps = { leaderboard: after, now: () => clock.now() };
    const reply = await leaderboardReply(deps, { ok: true, view: 'overall' });
    expect(reply.footer).toContain(
      'Board built 0 s ago (2026-12-01 09:00 UTC), built before 412 newer votes and 2 runs; a newer board is being built;',
    );
    // The rebuild it started: a new snapshot, current, from all the votes.
    await after.close();
    const latest = (await after.latest())!;
    expect(latest.id).toBeGreaterThan(first.id);
    expect(latest.inputs.votes).toBe(422);
    expect(await after.checkStale(latest)).toBeUndefined();
    const again = await leaderboardReply(deps, { ok: true, view: 'overall' });
    expect(again.footer).not.toContain('built before');
  });

  it('the bot, started after new votes came in, builds a new board at once (not one refresh interval later)', async () => {
    const db = await freshDb(backend);
    open.push({ close: () => db.destroy() });
    await run(db, 'm1', 1);
    await run(db, 'm2', 1);
    const svc = service(db);
    open.push(svc);
    const first = await svc.refresh();
    await addBattles(db.db, 'arena', 'reasoning', votes(30));
    const bot = new BotService({
      db: db.db,
      config: testConfig({ leaderboard: { refresh_seconds: 60 } }), // the start's first build is on
      platforms: [],
      logger: silentLogger,
      clock,
      voterSecret: 'test-secret-test-secret',
      loopIntervalMs: 0,
      leaderboard: svc,
    });
    await bot.start();
    await bot.stop();
    await svc.close(); // waits for the build the start began
    const latest = (await svc.latest())!;
    expect(latest.id).toBeGreaterThan(first.id);
    expect(latest.inputs.votes).toBe(30);
  });

  it('imported votes alone (no vote events) start the first build, and a later import makes it stale', async () => {
    const db = await freshDb(backend);
    open.push({ close: () => db.destroy() });
    const svc = service(db);
    open.push(svc);
    expect(await svc.startFirstBuild()).toBe(false);
    await addBattles(db.db, 'public', 'reasoning', votes(20), 'a');
    expect(await svc.startFirstBuild()).toBe(true);
    const snap = await svc.refresh(['public']);
    expect(snap.inputs.votes).toBe(20);
    expect(await svc.checkStale(snap)).toBeUndefined();
    await addBattles(db.db, 'public', 'reasoning', votes(5), 'b');
    expect(await svc.checkStale(snap)).toBe(
      'built before 5 newer votes; a newer board is being built',
    );
    await svc.close();
  });

  it('the page builds the first instead of "No board yet"', async () => {
    const db = await freshDb(backend);
    open.push({ close: () => db.destroy() });
    const svc = service(db);
    open.push(svc);
    const app = createHttpApp({
      registry: { contentType: 'text/plain', metrics: async () => '' } as never,
      checkDb: async () => {},
      board: {
        latest: () => svc.latest(),
        now: () => clock.now(),
        checkStale: (s) => svc.checkStale(s),
        startFirstBuild: () => svc.startFirstBuild(),
      },
    });
    // Nothing stored: nothing to build, the page says so.
    expect(await svc.startFirstBuild()).toBe(false);
    expect(await (await app.request('/board')).text()).toContain('No board yet');
    await run(db, 'm1', 1);
    await run(db, 'm2', 1);
    const page = await (await app.request('/board')).text();
    expect(page).toContain('The first board is being built from the stored scores and votes');
    await svc.close(); // waits for that build
    const built = await (await app.request('/board')).text();
    expect(built).toContain('<table id="board">');
    expect(built).not.toContain('id="behind"');
    await run(db, 'm1', 5);
    const stale = await (await app.request('/board')).text();
    expect(stale).toContain(
      '<span class="stale" id="behind">built before 1 run; a newer board is being built</span>',
    );
  });
});

describe('staleText', () => {
  it('names each kind of news, singular and plural, capped counts as "more than"', () => {
    const none = { votes: 0, voteChanges: 0, runs: 0, verdicts: 0, battleChanges: 0 };
    expect(staleText({ ...none, votes: 1 })).toBe('built before 1 newer vote');
    expect(staleText({ ...none, votes: 412, runs: 2 })).toBe(
      'built before 412 newer votes and 2 runs',
    );
    expect(staleText({ ...none, votes: 10_001, verdicts: 3, battleChanges: 1 })).toBe(
      'built before more than 10,000 newer votes, 3 judge verdicts and 1 void or ability change',
    );
    expect(staleText(none)).toBe('built before the inputs or settings changed');
  });
});
