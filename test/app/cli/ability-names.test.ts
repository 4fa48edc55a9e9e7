/**
 * `--ability` takes an ability's id or its display name in either language (`--ability 知识`, `--ability Reasoning`)
 * and stores the id; a misspelling is a usage mistake (exit 2) naming the allowed ids and the close one, in the
 * command line's language (`知识x` is suggested as 知识 in Chinese output and as `knowledge` in English output, as
 * is `leaderboard --view ability 知识x`). Runs the real CLI in-process on one embedded database.
 */
import { describe, expect, it } from 'vitest';
import { useCliFiles } from '../../helpers/cli-files.ts';

const ZH = { LANG: 'zh_CN.UTF-8' };
const ALLOWED = 'knowledge, chinese_specific, language, reasoning, refusal, safety, robustness';

describe('zhujiu --ability by name', () => {
  const cli = useCliFiles('zhujiu-ability-');
  const { zhujiu, file } = cli;
  const battles = () =>
    file(
      'votes.jsonl',
      `${JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna', winner: 'model_a' })}\n`,
    );
  const abilityOf = async (source: string) =>
    (
      await cli.runtime.rt.db.db
        .selectFrom('battles')
        .select('ability')
        .where('source', '=', source)
        .executeTakeFirst()
    )?.ability;

  it('import battles --ability 知识 (zh) and --ability Reasoning (en) store the ids', async () => {
    const zh = await zhujiu(
      ['import', 'battles', battles(), '--source', 'zh-know', '--ability', '知识'],
      ZH,
    );
    expect(zh.code, zh.stderr).toBe(0);
    expect(await abilityOf('zh-know')).toBe('knowledge');
    const en = await zhujiu([
      'import',
      'battles',
      battles(),
      '--source',
      'en-reason',
      '--ability',
      'Reasoning',
    ]);
    expect(en.code, en.stderr).toBe(0);
    expect(await abilityOf('en-reason')).toBe('reasoning');
  });

  it('--ability knowlege is refused with the allowed abilities (by name in Chinese) and a did-you-mean, in both languages', async () => {
    const args = ['import', 'battles', battles(), '--source', 'typo', '--ability', 'knowlege'];
    const en = await zhujiu(args);
    expect(en.code).toBe(2);
    expect(en.stderr).toBe(
      `error: option '--ability <ability>' argument 'knowlege' is invalid. Allowed choices are ${ALLOWED}.\n` +
        '(Did you mean knowledge?)\n(run with --help for usage)\n',
    );
    const zh = await zhujiu(args, ZH);
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('（你是不是想输入 knowledge？）\n');
    expect(zh.stderr).toContain('可选值为 知识、中文特定、语言、推理、拒答、安全、鲁棒性。');
    expect(await abilityOf('typo')).toBeUndefined();
  });

  it('a misspelt Chinese name is suggested in the output language (知识 in Chinese, knowledge in English)', async () => {
    const args = ['ratings', '--ability', '知识x'];
    expect((await zhujiu(args)).stderr).toContain('\n(Did you mean knowledge?)\n');
    expect((await zhujiu(args, ZH)).stderr).toContain('\n（你是不是想输入 知识？）\n');
    const view = ['leaderboard', '--view', 'ability', '知识x'];
    const en = await zhujiu(view);
    expect(en.code).toBe(2);
    expect(en.stderr).toContain('Unknown ability "知识x".');
    expect(en.stderr).toContain(' Did you mean "knowledge"?');
    const zh = await zhujiu(view, ZH);
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('你是不是想输入“知识”？');
  });
});
