/**
 * A terminal session: `zhujiu bot` with no tokens on a fresh data folder (the shell adapter with injected
 * streams), two models' recorded outputs imported, `/arena`, votes, `/leaderboard`, `/metrics` scraped, `quit`. The transcript goes
 * to the test's own stream and is printed only when the test fails.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it, onTestFailed } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { counterSeeds, terminal, until } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('terminal session (no tokens, fresh data folder)', () => {
  it('imports outputs, posts a battle, takes votes and shows the leaderboard', async () => {
    const dataDir = join(dir, 'pg');
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
    const term = terminal();
    onTestFailed(() => {
      process.stderr.write(
        `--- terminal transcript (last 40 lines) ---\n${term.text().split('\n').slice(-40).join('\n')}\n`,
      );
    });
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
        const file = join(dir, `${m}.json`);
        const rows = Array.from({ length: 5 }, (_, i) => ({
          instruction: `Question ${i}: how do tides work?`,
          output: `Answer ${i}: the Moon's gravity pulls the oceans (${m.length} words).`,
        }));
        writeFileSync(file, JSON.stringify(rows));
        const r = await importOutputs(svc.rt.db.db, { file, model: m });
        expect(r.added).toBe(5);
      }
      term.input.write('/models\n');
      await until(() => /alpaca-7b\s+recorded\s+5/u.test(term.text()), '/models');
      term.input.write('/arena\n');
      // The shipped config's locale is zh-CN: the terminal, the command replies and the battle are in Chinese.
      await until(() => term.text().includes('（仅你可见） 对战 #1 已发布'), 'battle posted');
      const shown = term.text().slice(term.text().indexOf('[m1-s1]'));
      expect(shown).toContain('== 竞技场对战 #1 ==');
      expect(shown).toContain('[m1-s1] 表情回应：⬅️ 🟰 ➡️ 👎');
      expect(shown).not.toMatch(/claude|alpaca/iu);
      term.input.write('vote 1 left\nas bob vote 1 right\nas carol vote 1 ⬅️\n/leaderboard\n');
      // The board is built in a worker thread: wait for its chart with until's hang guard (a bound far above any
      // real wait on a busy machine), not a shorter one of our own.
      await until(() => term.text().includes('[图表已写入 '), '/leaderboard');
      const text = term.text();
      expect(text).toContain('你在对战 #1 中投了 ⬅️（左边更好）');
      expect(text).toContain('煮酒排行榜：还没有得分');
      // Three votes give no score in any method: the rows are left out, and counted.
      expect(text).toContain('2 个在任何评估方法下都没有得分的模型未列出');
      const png = /\[图表已写入 (.+\.png)\]/u.exec(text)?.[1];
      expect(png && readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
      // The application metrics moved with it (README "Metrics"): three votes, one battle, one board build.
      const metrics = await (await fetch(`http://127.0.0.1:${svc.http.httpPort}/metrics`)).text();
      expect(metrics).toContain('zhujiu_votes_total{platform="shell",kind="cast"} 3');
      expect(metrics).toContain('zhujiu_battles_posted_total{platform="shell",origin="command"} 1');
      expect(metrics).toMatch(/^zhujiu_board_build_seconds_count [1-9]/mu);
      expect(metrics).toMatch(
        /^zhujiu_shared_tasks_total\{task="board\.build",outcome="ran"\} [1-9]/mu,
      );
      expect(metrics).toContain('zhujiu_eval_runs{status="queued"} 0');
      term.input.write('quit\n');
      await svc.bot.done;
    } finally {
      await svc.stop();
    }
    // A whole bot on a fresh data folder (the embedded database in its thread, the HTTP server, the in-process
    // worker) and a board built and charted in a worker thread: some 25–30 s on a quiet 2-core machine, so the
    // default 30 s would make the outcome depend on the machine's speed.
  }, 120_000);
});
