/**
 * `zhujiu import battles` given the wrong input: a file that is not JSON Lines (a CSV table, plain text) is refused
 * once, naming the file and the format; a misspelt key (`winer`) is named as such with the key it stands for; an
 * import into a source whose stored battles have another ability is refused, naming the source, its ability and
 * the fix (before, it imported nothing and said so only as "skipped"). Runs the real CLI in-process on one open
 * embedded database.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportBattles } from '../../../src/import/export-battles.ts';
import { useCliFiles } from '../../helpers/cli-files.ts';

const ZH = { LANG: 'zh_CN.UTF-8' };

describe('zhujiu import battles: wrong input', () => {
  const cli = useCliFiles('zhujiu-ib-');
  const { zhujiu, file } = cli;

  it('a CSV table is one error naming the file and the expected format, in both languages', async () => {
    const csv = file(
      'votes.csv',
      'model_a,model_b,winner\ngpt-4,vicuna,model_a\nvicuna,gpt-4,tie\n',
    );
    const r = await zhujiu(['import', 'battles', csv, '--source', 'csv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error [import_invalid]: ${csv}:1: this looks like a CSV table, not JSON Lines; \`import battles\` takes JSON Lines, one {"model_a": "…", "model_b": "…", "winner": "model_a" | "model_b" | "tie" | "tie (bothbad)"} object per line: convert the table to one object per line\n`,
    );
    const zh = await zhujiu(['import', 'battles', csv, '--source', 'csv'], ZH);
    expect(zh.code).toBe(1);
    expect(zh.stderr).toContain(`${csv}:1：这看起来是 CSV 表格，不是 JSON Lines；`);
    expect(zh.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('another file whose first line is not JSON is one error saying it is not JSON Lines', async () => {
    const txt = file('notes.txt', 'gpt-4 beat vicuna\nvicuna tied gpt-4\nmore words\n');
    const r = await zhujiu(['import', 'battles', txt, '--source', 'txt']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error \\[import_invalid\\]: ${txt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1: ${txt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not JSON Lines \\(its first line is not JSON\\); \`import battles\` takes JSON Lines`,
      ),
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const zh = await zhujiu(['import', 'battles', txt, '--source', 'txt'], ZH);
    expect(zh.stderr).toContain(`${txt} 不是 JSON Lines 文件（它的第一行不是 JSON）`);
  });

  it('a misspelt key is named, with the key it stands for', async () => {
    const typo = file(
      'typo.jsonl',
      `${JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna', winer: 'model_a' })}\n`,
    );
    const r = await zhujiu(['import', 'battles', typo, '--source', 'typo']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${typo}:1: unknown key "winer" (did you mean "winner"?); rename it to "winner"`,
    );
    expect(r.stderr).not.toContain('missing "winner"');
    const zh = await zhujiu(['import', 'battles', typo, '--source', 'typo'], ZH);
    expect(zh.stderr).toContain('未知的键“winer”（你是不是想写“winner”？）');
  });

  it('an import into a source whose battles have another ability is refused with the fix', async () => {
    const lines = `${JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna', winner: 'model_a' })}\n${JSON.stringify({ model_a: 'vicuna', model_b: 'gpt-4', winner: 'tie' })}\n`;
    const votes = file('language.jsonl', lines);
    const first = await zhujiu([
      'import',
      'battles',
      votes,
      '--source',
      'abil',
      '--ability',
      'language',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const again = await zhujiu([
      'import',
      'battles',
      votes,
      '--source',
      'abil',
      '--ability',
      'reasoning',
    ]);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toBe(
      'error [import_invalid]: source "abil" already holds 2 imported battles of ability "language", but this import gives its battles of ability "reasoning"; a source keeps one ability and lines already stored would be skipped, so nothing would change. Import again with --ability language, or give these battles their own --source NAME\n',
    );
    const bare = await zhujiu(['import', 'battles', votes, '--source', 'abil']);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('but this import gives its battles without an ability');
    const zh = await zhujiu(['import', 'battles', votes, '--source', 'abil'], ZH);
    expect(zh.stderr).toContain('来源“abil”已存有 2 场导入的对战（能力为“语言”）');
    // The same ability re-imports as before: every line is already stored.
    const same = await zhujiu([
      'import',
      'battles',
      votes,
      '--source',
      'abil',
      '--ability',
      'language',
    ]);
    expect(same.code, same.stderr).toBe(0);
  });

  it('another file under a stored source, and an export of a source no battle carries, are said from the catalogue', async () => {
    const line = (w: string) =>
      `${JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna', winner: w })}\n`;
    const one = file('one.jsonl', line('model_a'));
    const two = file('two.jsonl', line('model_b'));
    expect((await zhujiu(['import', 'battles', one, '--source', 'pair'])).code).toBe(0);
    const en = await zhujiu(['import', 'battles', two, '--source', 'pair']);
    expect(en.code).toBe(1);
    expect(en.stderr).toBe(
      `error [import_invalid]: ${two}:1: source "pair" already holds a different battle at this line: this is another file (or an edited one) under the same source name; import it with its own --source NAME\n`,
    );
    const zh = await zhujiu(['import', 'battles', two, '--source', 'pair'], ZH);
    expect(zh.stderr).toContain(`${two}:1：来源“pair”在这一行已经存有另一场对战`);
    await expect(
      exportBattles(cli.runtime.rt.db.db, new PassThrough(), { source: 'nosuch' }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: `--source nosuch: no battles carry this source; check the name (the community's own votes are "arena", imports use their --source)`,
      said: { key: 'cli.export.noSource', params: { source: 'nosuch' } },
    });
  });
});
