/**
 * "Both bad" and vote hygiene (docs/scoring.md §4.1, §4.3), through the terminal and the real CLI on one embedded
 * database:
 * - `vote N bothbad` is stored apart from a tie, revealed in its own tally column, counted as a tie by ratings,
 *   exported as FastChat's `tie (bothbad)` and read back as both bad by `import battles` and `ratings --battles`;
 * - the per-voter daily cap and the reading time flag a vote with its reason; flagged votes are left out of
 *   ratings (and the board) unless `--include-flagged`, and listed by `zhujiu votes flagged` and `/arena flagged`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import type { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { getArenaBattle } from '../../../src/storage/battles.ts';
import { liveVotes, pairVoteCounts, tally } from '../../../src/storage/votes.ts';
import { clearRows } from '../../helpers/db.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { seedModels, terminal, terminalShell, testBot, testConfig } from './helpers.ts';

describe('both bad and vote hygiene', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-hygiene-'));
  let t: TestRuntime;
  let clock: ManualClock;
  let running: BotService[];
  const zhujiu = (...args: string[]) => inProcess(args, { rt: t.rt });
  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: join(tmp, 'config') });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await clearRows(t.rt.db);
    await seedModels(t.rt.db.db);
    clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
    running = [];
  });
  afterEach(async () => {
    for (const b of running) await b.stop();
  });

  async function session(hygiene: Record<string, number> = {}) {
    const term = terminal();
    const config = testConfig({
      arena: { window_hours: 1, identity_guard: { words: ['openai'], patterns: [] }, hygiene },
    });
    const shell: ShellAdapter = terminalShell(term, config, { sessionTag: 'h', clock });
    const bot = testBot({ db: t.rt.db.db, config, platforms: [shell], clock });
    await bot.start();
    running.push(bot);
    const answer = async (line: string): Promise<string> => {
      const before = term.text().length;
      await shell.say(line);
      return term.text().slice(before);
    };
    return { answer, term };
  }

  it('both bad is stored apart, revealed, exported as tie (bothbad), read back, and rated as a tie', async () => {
    const { answer, term } = await session();
    await answer('/arena');
    expect(term.text()).toContain('`vote 1 bothbad` (👎 both are bad)');
    expect(await answer('as a vote 1 bothbad')).toBe('a voted 👎 (bothbad) on battle #1\n');
    expect(await answer('as b vote 1 bad')).toBe('b voted 👎 (bothbad) on battle #1\n');
    expect(await answer('as c vote 1 left')).toBe('c voted ⬅️ (left) on battle #1\n');
    const b = await getArenaBattle(t.rt.db.db, 1);
    const id = b?.id as number;
    expect(await tally(t.rt.db.db, id)).toEqual({ left: 1, equal: 0, right: 0, bothbad: 2 });
    // Ratings count both bad as a tie.
    const pairs = await pairVoteCounts(t.rt.db.db);
    expect(pairs.map((p) => p.a_wins + p.b_wins)).toEqual([1]);
    expect(pairs.map((p) => p.ties)).toEqual([2]);

    const out = await zhujiu('export', 'battles', '--format', 'fastchat');
    expect(out.code, out.stderr).toBe(0);
    const winners = out.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { winner: string }).winner)
      .sort();
    expect(winners).toEqual(['model_a', 'tie (bothbad)', 'tie (bothbad)'].sort());
    const file = join(tmp, 'export.jsonl');
    writeFileSync(file, out.stdout);
    // Read back by ratings --battles (two ties and one win) and by import battles (both bad again).
    const rated = await zhujiu('ratings', '--battles', file, '--bootstrap', '0', '--json');
    expect(rated.code, rated.stderr).toBe(0);
    expect((JSON.parse(rated.stdout) as { models: unknown[] }).models).toHaveLength(2);
    const imp = await zhujiu('import', 'battles', file, '--source', 'reimport');
    expect(imp.code, imp.stderr).toBe(0);
    const back = await t.rt.db.db
      .selectFrom('votes as v')
      .innerJoin('battles as b', 'b.id', 'v.battle_id')
      .select('v.choice')
      .where('b.source', '=', 'reimport')
      .execute();
    expect(back.map((r) => r.choice).sort()).toEqual(['bothbad', 'bothbad', 'left']);
    // The reveal shows both bad in its own column.
    clock.advance(2 * 3_600_000);
    await running[0]?.tick();
    expect(term.text()).toContain('tally ⬅️ 1 🟰 0 ➡️ 0 👎 2');
  });

  it('the daily cap and the reading time flag votes with a reason; flagged votes are left out unless asked, and listed', async () => {
    // 2 votes a day count; each answer pair (~90 characters) takes 90 × 100 ms = 9 s to read.
    const { answer } = await session({ daily_vote_cap: 2, read_ms_per_char: 100 });
    for (let i = 0; i < 4; i++) await answer('/arena');
    clock.advance(60_000); // a minute to read
    for (const n of [1, 2, 3]) await answer(`as a vote ${n} left`);
    // b votes the moment battle #5 is posted: too fast.
    await answer('/arena');
    await answer('as b vote 5 right');
    const ids = await Promise.all(
      [1, 2, 3, 5].map(async (n) => (await getArenaBattle(t.rt.db.db, n))?.id as number),
    );
    const flagOf = async (id: number) =>
      (
        await t.rt.db.db
          .selectFrom('votes')
          .select(['flag', 'flag_detail'])
          .where('battle_id', '=', id)
          .executeTakeFirst()
      )?.flag ?? null;
    expect(await Promise.all(ids.map(flagOf))).toEqual([null, null, 'daily_cap', 'too_fast']);
    // Flagged votes stay live (the battle shows them) and are left out of ratings unless asked.
    expect((await liveVotes(t.rt.db.db, ids[2] as number)).length).toBe(1);
    const sum = (rows: Awaited<ReturnType<typeof pairVoteCounts>>) =>
      rows.reduce((n, r) => n + r.a_wins + r.b_wins + r.ties, 0);
    expect(sum(await pairVoteCounts(t.rt.db.db))).toBe(2);
    expect(
      sum(await pairVoteCounts(t.rt.db.db, undefined, undefined, { includeFlagged: true })),
    ).toBe(4);
    const plain = await zhujiu('ratings', '--bootstrap', '0', '--json');
    const all = await zhujiu('ratings', '--bootstrap', '0', '--json', '--include-flagged');
    expect(plain.code, plain.stderr).toBe(0);
    expect(all.code, all.stderr).toBe(0);
    expect(plain.stdout).not.toBe(all.stdout);

    // The listing, on the command line and in chat.
    const listed = await zhujiu('votes', 'flagged', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const json = JSON.parse(listed.stdout) as {
      votes: { battle: number; flag: string; choice: string; detail: string; voter: string }[];
    };
    expect(json.votes.map((v) => [v.battle, v.flag, v.choice])).toEqual([
      [5, 'too_fast', 'right'],
      [3, 'daily_cap', 'left'],
    ]);
    expect(json.votes[0]?.detail).toMatch(
      /^cast 0(\.0)? s after posting; reading \d+ characters takes \d+(\.\d)? s$/,
    );
    expect(json.votes[1]?.detail).toBe('vote 3 of the voter on 2026-12-01 UTC (cap 2)');
    expect(json.votes[0]?.voter).toMatch(/^[0-9a-f]{16,}$/);
    const table = await zhujiu('votes', 'flagged');
    expect(table.stdout).toContain('2 flagged votes, left out of ratings and the board');
    expect(table.stdout).toContain('cast too fast');
    expect(table.stdout).toContain('over the daily cap');
    expect(await answer('/arena flagged')).toContain('2 flagged votes');
    // A voter's change does not escape the daily cap.
    await answer('as a vote 3 right');
    expect(await flagOf(ids[2] as number)).toBe('daily_cap');
  });
});
