/**
 * Through the command line: `zhujiu ratings` rates the community's own votes unless an imported
 * source is asked for (`--source NAME`, repeatable, or `ratings.include_sources` in the config), and says whose
 * votes it rated. Runs the real CLI in-process on one open embedded database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';

describe('zhujiu ratings and vote sources', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-rs-'));
  let t: TestRuntime;
  const zhujiu = (...args: string[]) => inProcess(args, { rt: t.rt });
  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: join(tmp, 'config') });
    const lines: string[] = [];
    for (let i = 0; i < 10; i++) {
      lines.push(JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna-13b', winner: 'model_a' }));
      lines.push(JSON.stringify({ model_a: 'vicuna-13b', model_b: 'gpt-4', winner: 'model_a' }));
      lines.push(JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna-13b', winner: 'tie' }));
    }
    lines.push(JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna-13b', winner: 'model_a' }));
    writeFileSync(join(tmp, 'public.jsonl'), `${lines.join('\n')}\n`);
    const r = await zhujiu('import', 'battles', join(tmp, 'public.jsonl'), '--source', 'lmsys');
    expect(r.stderr).toBe('');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('without --source the imported votes are not rated, and the error says how to count them', async () => {
    const r = await zhujiu('ratings');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error \[rating_input_invalid\]: no votes from arena in the database \(PGlite.*\): imported votes are counted only when asked: add --source lmsys \(or list the source in ratings\.include_sources of \/.*\/default\.yaml\)/,
    );
  });

  it('--source NAME rates them and says whose votes were rated', async () => {
    const r = await zhujiu('ratings', '--source', 'lmsys', '--bootstrap', '0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^rank\s+model\s+rating/);
    expect(r.stdout).toMatch(/\n\s+1\s+gpt-4\s+1005\.6/);
    expect(r.stdout).toContain("Votes: the community's own (arena) plus imported lmsys.");
    const json = await zhujiu('ratings', '--source', 'lmsys', '--json', '--bootstrap', '0');
    expect(
      (JSON.parse(json.stdout) as { models: { model: string }[] }).models.map((m) => m.model),
    ).toEqual(['gpt-4', 'vicuna-13b']);
  });

  it('an unknown --source is refused, listing the stored sources; --source with --battles is a usage error', async () => {
    const r = await zhujiu('ratings', '--source', 'lmsis');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--source lmsis: no battles of that source are stored in .*; stored sources: lmsys \(31 votes\)\. Import them first/,
    );
    const both = await zhujiu('ratings', '--battles', join(tmp, 'public.jsonl'), '--source', 'x');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--source picks stored votes; with --battles FILE');
  });

  it('leaderboard and export battles with only imported votes say where the votes are and how to see them', async () => {
    const note =
      'no votes from arena; another source holds votes: lmsys (31 votes). See them with `zhujiu leaderboard --source lmsys`\n';
    const board = await zhujiu('leaderboard');
    expect(board.code, board.stderr).toBe(0);
    expect(board.stderr).toBe(note);
    const json = await zhujiu('leaderboard', '--json');
    expect(json.stderr).toBe(note);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    const counted = await zhujiu('leaderboard', '--source', 'lmsys');
    expect(counted.stderr).toBe('');
    const zh = await inProcess(['leaderboard'], { rt: t.rt, env: { LANG: 'zh_CN.UTF-8' } });
    expect(zh.stderr).toBe(
      'arena 没有投票；其他来源有投票：lmsys（31 票）。可以用 `zhujiu leaderboard --source lmsys` 查看\n',
    );
    // export battles: stdout stays the data (none), the note goes to stderr after the summary.
    const ex = await zhujiu('export', 'battles');
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toBe('');
    expect(ex.stderr).toBe(
      'exported 0 votes of 0 battles from source arena (fastchat)\n' +
        'no votes from arena; another source holds votes: lmsys (31 votes). See them with `zhujiu export battles --source lmsys`\n',
    );
    const lmsys = await zhujiu('export', 'battles', '--source', 'lmsys');
    expect(lmsys.stderr).toBe('exported 31 votes of 31 battles from source lmsys (fastchat)\n');
  });

  it('leaderboard refuses an unknown --source the same way, before building the board', async () => {
    for (const args of [['leaderboard'], ['leaderboard', '--json']]) {
      const r = await zhujiu(...args, '--source', 'nosuch');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^error \[input_invalid\]: --source nosuch: no battles of that source are stored in .*; stored sources: lmsys \(31 votes\)\. Import them first/,
      );
    }
    const ok = await zhujiu('leaderboard', '--source', 'lmsys');
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('ratings.include_sources in the config counts a source for every rating', async () => {
    writeFileSync(
      join(tmp, 'config', 'default.yaml'),
      'ratings:\n  include_sources: [lmsys]\n  bootstrap: 0\n',
    );
    try {
      // The same database with the configuration read again.
      const rt = { ...t.rt, config: loadConfig({ env: t.env }) };
      const r = await inProcess(['ratings'], { rt });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('no bootstrap (rank from point ratings)');
      expect(r.stdout).toContain("Votes: the community's own (arena) plus imported lmsys.");
    } finally {
      rmSync(join(tmp, 'config', 'default.yaml'));
    }
  });
});
