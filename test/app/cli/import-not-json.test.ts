/**
 * `zhujiu import judgments` (every format) and `zhujiu judge agree` given a CSV table or plain text: one error naming
 * the file, what it looks like and what the command takes, in both languages, instead of a JSON syntax error per
 * line (as `import battles` and `import outputs` do). Runs the real CLI in-process on one open embedded database.
 */
import { describe, expect, it } from 'vitest';
import { useCliFiles } from '../../helpers/cli-files.ts';

const ZH = { LANG: 'zh_CN.UTF-8' };

describe('import judgments and judge agree: a file that is not JSON', () => {
  const { zhujiu, file } = useCliFiles('zhujiu-notjson-');

  it('a CSV table is one error per command, naming the file and the format, in both languages', async () => {
    const csv = file('grades.csv', 'item,label\n1,3\n2,4\n3,1\n');
    const takes: [string[], string][] = [
      [
        ['import', 'judgments', csv, '--format', 'alpaca_eval', '--judge', 'j'],
        '`zhujiu import judgments --format alpaca_eval` takes JSON Lines of AlpacaEval annotations ({generator_1, generator_2, preference})',
      ],
      [
        ['import', 'judgments', csv, '--format', 'gaokao', '--judge', 'j'],
        '`zhujiu import judgments --format gaokao` takes GAOKAO-Bench judged result files (one JSON document each)',
      ],
      [
        ['import', 'judgments', csv, '--format', 'gaokao-human', '--judge', 'j'],
        '`zhujiu import judgments --format gaokao-human` takes GAOKAO-Bench teacher-graded files (one JSON document each)',
      ],
      [
        ['judge', 'agree', csv, csv],
        '`zhujiu judge agree` takes JSON Lines of {"item": ..., "label": ...}',
      ],
    ];
    for (const [args, format] of takes) {
      const r = await zhujiu(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toBe(
        `error [import_invalid]: ${csv}:1: this looks like a CSV table, not JSON; ${format}: convert the table first\n`,
      );
      const zh = await zhujiu(args, ZH);
      expect(zh.stderr).toContain(`${csv}:1：这看起来是 CSV 表格，不是 JSON；`);
      expect(zh.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('plain text is one error saying it is not JSON', async () => {
    const txt = file('notes.jsonl', 'the judge liked answer one\nand not answer two\n');
    const r = await zhujiu(['import', 'judgments', txt, '--format', 'alpaca_eval', '--judge', 'j']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error [import_invalid]: ${txt}:1: this is not JSON (it starts with neither an object nor an array); ` +
        '`zhujiu import judgments --format alpaca_eval` takes JSON Lines of AlpacaEval annotations ({generator_1, generator_2, preference})\n',
    );
    const agree = await zhujiu(['judge', 'agree', txt, txt], ZH);
    expect(agree.stderr).toBe(
      `错误 [import_invalid]：${txt}:1：这不是 JSON（它既不以对象开头，也不以数组开头）；\`zhujiu judge agree\` 读取每行一个 {"item": ..., "label": ...} 的 JSON Lines\n`,
    );
  });
});
