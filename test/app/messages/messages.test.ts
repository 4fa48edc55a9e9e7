/**
 * Messages that say what happened and what to do.
 * - `migrate` after `migrate --down --yes` says which migration it applied (it said "up to date").
 * - `vote 1 left` where only an imported battle is numbered 1 names no battle: numbers typed in chat are the
 *   community's own (it said "was never posted").
 * (The board's "rank 1, 970" under "mean 1000" moved with /leaderboard to the snapshot board.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { freshDb } from '../../helpers/db.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';
import { seedModels, terminal, terminalShell, testBot, testConfig } from '../arena/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-msg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('messages that say what happened', () => {
  it('migrate after migrate --down --yes names what it applied', async () => {
    const d = await freshDb('pglite');
    const rt = await runtimeOn(d, { ZHUJIU_CONFIG_DIR: tmp });
    /** What the command said (stdout and stderr); it must succeed. */
    const zhujiu = async (...args: string[]) => {
      const r = await inProcess(args, { rt });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.stdout + r.stderr;
    };
    try {
      const last = Object.keys(migrations).at(-1) as string;
      expect(await zhujiu('migrate')).toMatch(
        /^database is up to date \(PGlite.*\): nothing to apply\n$/,
      );
      expect(await zhujiu('migrate', '--down', '--yes')).toMatch(
        new RegExp(`^rolled back ${last} in PGlite.*; \`zhujiu migrate\` applies it again`),
      );
      expect(await zhujiu('migrate')).toMatch(
        new RegExp(`^applied ${last}; database is up to date \\(PGlite`),
      );
    } finally {
      await d.destroy();
    }
  });

  it('migrate on an empty data folder says it created the database, in both languages', async () => {
    const dataDir = join(tmp, 'new-db', 'pg');
    const env = { ZHUJIU_CONFIG_DIR: tmp, ZHUJIU_DATA_DIR: dataDir };
    const first = await inProcess(['migrate'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^created the database \(PGlite.*\); it is up to date\n$/u);
    const again = await inProcess(['migrate'], { env: { ...env, LANG: 'zh_CN.UTF-8' } });
    expect(again.stdout).toMatch(/^数据库已是最新（/u);
    rmSync(join(tmp, 'new-db'), { recursive: true, force: true });
    const zh = await inProcess(['migrate'], { env: { ...env, LANG: 'zh_CN.UTF-8' } });
    expect(zh.stdout).toMatch(/^已创建数据库（.*），已是最新\n$/u);
  }, 60_000);

  it("an imported battle's number names no battle of the community's arena", async () => {
    const db = await freshDb('pglite');
    try {
      await seedModels(db.db);
      const f = join(tmp, 'public.jsonl');
      writeFileSync(f, '{"model_a":"x","model_b":"y","winner":"tie"}\n');
      await importBattles(db.db, { file: f, source: 'lmsys' });
      const term = terminal();
      const clock = new ManualClock(new Date());
      const config = testConfig();
      const shell = terminalShell(term, config, { sessionTag: 't1', clock });
      const bot = testBot({ db: db.db, config, platforms: [shell], clock });
      await bot.start();
      try {
        const before = term.text().length;
        await shell.say('vote 1 left');
        expect(term.text().slice(before)).toBe("no battle #1 in this community's arena\n");
      } finally {
        await bot.stop();
      }
    } finally {
      await db.destroy();
    }
  });
});
