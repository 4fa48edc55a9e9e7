/**
 * Flagged votes (vote hygiene, docs/scoring.md §4.3) are left out of the style-controlled ratings (§4.6) as of
 * every other rating unless `--include-flagged`: `zhujiu ratings --style-control` and the board's
 * `/leaderboard style` read the votes through leaderboard/style `loadStyleBattles`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { loadStyleBattles } from '../../../src/leaderboard/style.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { seedModels, terminal, terminalShell, testBot, testConfig } from './helpers.ts';

describe('flagged votes and style control', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-style-hygiene-'));
  let t: TestRuntime;
  let bot: BotService | undefined;
  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: join(tmp, 'config') });
    await seedModels(t.rt.db.db);
  });
  afterAll(async () => {
    await bot?.stop();
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a vote flagged too fast is left out of style control unless --include-flagged', async () => {
    const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
    const term = terminal();
    const config = testConfig({
      arena: {
        window_hours: 1,
        identity_guard: { words: ['openai'], patterns: [] },
        hygiene: { read_ms_per_char: 100 },
      },
    });
    const shell = terminalShell(term, config, { sessionTag: 's', clock });
    bot = testBot({ db: t.rt.db.db, config, platforms: [shell], clock });
    await bot.start();
    await shell.say('/arena');
    await shell.say('as b vote 1 right'); // the moment it is posted: too fast
    clock.advance(10 * 60_000); // ten minutes to read
    await shell.say('as a vote 1 left');
    const flags = await t.rt.db.db.selectFrom('votes').select('flag').orderBy('id').execute();
    expect(flags.map((f) => f.flag)).toEqual(['too_fast', null]);

    expect((await loadStyleBattles(t.rt.db.db, ['arena'])).battles).toHaveLength(1);
    expect(
      (await loadStyleBattles(t.rt.db.db, ['arena'], undefined, { includeFlagged: true })).battles,
    ).toHaveLength(2);

    const run = (...extra: string[]) =>
      inProcess(['ratings', '--style-control', '--bootstrap', '0', '--json', ...extra], {
        rt: t.rt,
      });
    const battlesOf = (stdout: string) =>
      (JSON.parse(stdout) as { models: { num_battles: number }[] }).models.reduce(
        (n, m) => n + m.num_battles,
        0,
      );
    const plain = await run();
    const all = await run('--include-flagged');
    expect(plain.code, plain.stderr).toBe(0);
    expect(all.code, all.stderr).toBe(0);
    expect(battlesOf(plain.stdout)).toBe(2); // one vote, two models
    expect(battlesOf(all.stdout)).toBe(4);
  });
});
