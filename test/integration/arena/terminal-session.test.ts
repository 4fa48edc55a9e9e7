/**
 * A terminal session: `zhujiu bot` with no tokens on a fresh data folder (the shell adapter with injected
 * streams), two models' AlpacaEval outputs imported, `/arena`, votes, `/leaderboard`, `quit`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';
import { counterSeeds, terminal, until } from './helpers.ts';

const OUT = ['outputs', 'alpaca_eval', 'model_outputs'];
const present = hasSharedData(...OUT, 'claude-2.json');
const dir = mkdtempSync(join(tmpdir(), 'zhujiu-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!present)('terminal session (no tokens, fresh data folder)', () => {
  it('imports outputs, posts a battle, takes votes and shows the leaderboard', async () => {
    const dataDir = join(dir, 'pg');
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const term = terminal();
    const svc = await startService('bot', {
      worker: true,
      dataDir,
      configDir: join(PROJECT_ROOT, 'config'),
      env: {},
      logger: silentLogger,
      httpPort: 0,
      loopIntervalMs: 0,
      seedSource: counterSeeds(),
      platforms: { shell: { input: term.input, output: term.output, sessionTag: 's1' } },
    });
    try {
      expect(svc.bot.arena.platformNames).toEqual(['shell']);
      for (const m of ['claude-2', 'alpaca-7b']) {
        const r = await importOutputs(svc.rt.db.db, {
          file: sharedData(...OUT, `${m}.json`),
          model: m,
        });
        expect(r.added).toBe(805);
      }
      term.input.write('/models\n');
      await until(() => /alpaca-7b\s+recorded\s+805/u.test(term.text()), '/models');
      term.input.write('/arena\n');
      await until(() => term.text().includes('(only you) Battle #1 posted'), 'battle posted');
      const shown = term.text().slice(term.text().indexOf('[m1-s1]'));
      expect(shown).toContain('== Arena battle #1 ==');
      expect(shown).toContain('[m1-s1] reactions: ⬅️ 🟰 ➡️');
      expect(shown).not.toMatch(/claude|alpaca/iu);
      term.input.write('vote 1 left\nas bob vote 1 right\nas carol vote 1 ⬅️\n/leaderboard\n');
      await until(() => term.text().includes('[chart written to '), '/leaderboard', 60_000);
      const text = term.text();
      expect(text).toContain('you voted ⬅️ (left) on battle #1');
      expect(text).toContain('ZhuJiu board: no scores yet');
      expect(text).toMatch(/—\s+claude-2\s+—.*\s3\s+\*/u);
      const png = /\[chart written to (.+\.png)\]/u.exec(text)?.[1];
      expect(png && readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
      term.input.write('quit\n');
      await svc.bot.done;
    } finally {
      await svc.stop();
    }
    process.stdout.write(
      `--- terminal transcript (last 30 lines) ---\n…\n${term.text().split('\n').slice(-30).join('\n')}\n`,
    );
  });
});
