/**
 * An output file name whose ending names another format than the command writes there is refused before any work
 * (cli/out-format.ts), for every flag of the kind: `leaderboard --png`, `results --out` (by `--format`), `export
 * battles --out`, `judge export --out`. Before, `--png x.jpg` wrote PNG data into a `.jpg` file.
 */
import { describe, expect, it } from 'vitest';
import { checkOutputFormat } from '../../../src/cli/out-format.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const EN = { LANG: 'C.UTF-8' };
const ZH = { LANG: 'zh_CN.UTF-8' };

describe('an output name of another format', () => {
  it('each flag of the kind refuses it naming the flag, the name and the fix (exit 2, nothing opened)', async () => {
    const cases: [string[], string][] = [
      [
        ['leaderboard', '--png', 'x.jpg'],
        'error [input_invalid]: --png x.jpg: the name ends in .jpg, a JPEG file, but --png writes PNG; name the file x.png\n',
      ],
      [
        ['results', '--run', '1', '--out', 'r.csv'],
        'error [input_invalid]: --out r.csv: the name ends in .csv, a CSV file, but --format jsonl writes JSON Lines; name the file r.jsonl, or add --format csv\n',
      ],
      [
        ['results', '--run', '1', '--format', 'csv', '--out', 'r.jsonl'],
        'error [input_invalid]: --out r.jsonl: the name ends in .jsonl, a JSON Lines file, but --format csv writes CSV; name the file r.csv, or add --format jsonl\n',
      ],
      [
        ['export', 'battles', '--out', 'b.csv'],
        'error [input_invalid]: --out b.csv: the name ends in .csv, a CSV file, but --format fastchat writes JSON Lines; name the file b.jsonl\n',
      ],
      [
        ['judge', 'export', '--judge', 'j', '--out', 'g.png'],
        'error [input_invalid]: --out g.png: the name ends in .png, a PNG file, but zhujiu judge export writes JSON Lines; name the file g.jsonl\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const r = await inProcess(args, { env: EN });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(stderr);
    }
    const zh = await inProcess(['leaderboard', '--png', 'board.JPEG'], { env: ZH });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toBe(
      '错误 [input_invalid]：--png board.JPEG：文件名以 .jpeg 结尾，是 JPEG 文件，但 --png 写出的是 PNG；请把文件命名为 board.png\n',
    );
  });

  it("a fitting ending, no ending, or one that names no format is the user's choice", () => {
    const ok = (path: string, format: 'png' | 'csv' | 'jsonl') =>
      expect(() => checkOutputFormat({ flag: '--out', path, format, by: 'x' }, 'en')).not.toThrow();
    ok('board.png', 'png');
    ok('board.PNG', 'png');
    ok('board', 'png');
    ok('dir.v2/board', 'png');
    ok('r.csv', 'csv');
    ok('r.txt', 'csv');
    ok('b.jsonl', 'jsonl');
    ok('b.json', 'jsonl');
    ok('b.ndjson', 'jsonl');
    ok('b.out', 'jsonl');
    expect(() =>
      checkOutputFormat({ flag: '--png', path: 'a.svg', format: 'png', by: '--png' }, 'en'),
    ).toThrow(
      '--png a.svg: the name ends in .svg, a SVG file, but --png writes PNG; name the file a.png',
    );
  });
});
