/**
 * Chinese punctuation of the zh-CN catalogue (src/i18n/zh-CN.ts, zh-CN-cli.ts): next to a Chinese character a
 * bracket, comma or colon is full-width （），：, and two bracketed remarks are one bracket (`（2000 票；2000 行）`,
 * not `（2000 票）（2000 行）`), a percentage has no space before %, and no two punctuation marks follow each other.
 * A name put into a sentence is quoted “x”, as chat says it (`未知的能力“知识x”`), never "x" or 'x'; what the user
 * copies as it is (a command, a JSON key) is in backticks. Code, formulas and flags keep their ASCII: the allow-lists
 * name them.
 */
import { describe, expect, it } from 'vitest';
import { unknownKeyHint } from '../../../src/config/loader.ts';
import { tc } from '../../../src/i18n/cli.ts';
import { zhCN } from '../../../src/i18n/zh-CN.ts';
import { zhCNCli } from '../../../src/i18n/zh-CN-cli.ts';

/** A Chinese character or full-width punctuation. */
const CJK = String.raw`[\p{Script=Han}\u3000-\u303f\uff00-\uffef]`;
/** A half-width `(`, `)`, `,` or `:` beside such a character (one space between allowed). */
const HALF_WIDTH_BESIDE_CJK = new RegExp(`${CJK} ?[(),:]|[(),:] ?${CJK}`, 'u');

/** Keys whose ASCII next to Chinese is code or a formula, with why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'submitProblem.url.notHttp': 'http(s) and the scheme are URL syntax',
  'cli.ratings.style.coefficients': '(a − b) / (a + b + 1) is a formula',
};

const entries = Object.entries({ ...zhCN, ...zhCNCli });

/** Two punctuation marks in a row (`？；`, `。；`); a closing bracket before a mark (`）。`) is fine. */
const DOUBLED = /[？。；，：][；，。：]/u;

/** A placeholder in straight quotes: `"{name}"` or `'{name}'`. */
const STRAIGHT_QUOTED_PLACEHOLDER = /"\{[\w.]+\}"|'\{[\w.]+\}'/u;
/** Text in straight double quotes outside backticks (`输入 "help"`): a command to type goes in backticks. */
const STRAIGHT_QUOTED = (v: string) => /"[^"]*"/u.test(v.replace(/`[^`]*`/gu, ''));
/** Keys that quote a placeholder straight, with why. */
const STRAIGHT_QUOTES_ALLOWED = (key: string) =>
  // The JSON reader's syntax errors quote one character of JSON syntax (`'"'`, `'}'`), as JSON tools do.
  key.startsWith('cli.json.');

describe('zh-CN punctuation', () => {
  it('uses full-width brackets, commas and colons next to Chinese', () => {
    const bad = entries
      .filter(([k, v]) => !(k in ALLOWED) && HALF_WIDTH_BESIDE_CJK.test(v))
      .map(([k, v]) => `${k}: ${v}`);
    expect(bad).toEqual([]);
  });

  it('merges two bracketed remarks into one', () => {
    expect(entries.filter(([, v]) => v.includes('）（')).map(([k]) => k)).toEqual([]);
  });

  it('counts votes in 票, never 张', () => {
    expect(entries.filter(([, v]) => /\} 张(?!表)/u.test(v)).map(([k]) => k)).toEqual([]);
  });

  it('writes a percentage with no space before % (10.0%), and no doubled punctuation (？；, 。）。)', () => {
    expect(entries.filter(([, v]) => /[\d}] %/u.test(v)).map(([k]) => k)).toEqual([]);
    expect(entries.filter(([, v]) => DOUBLED.test(v)).map(([k]) => k)).toEqual([]);
  });

  it('calls the judge 评审 throughout', () => {
    expect(entries.filter(([, v]) => v.includes('裁判')).map(([k]) => k)).toEqual([]);
  });

  it('calls tokens 词元, prompt tokens 提示 and completion tokens 生成 throughout, the CLI as chat', () => {
    // A name typed as it is (max_tokens, SLACK_BOT_TOKEN) is not the word.
    const word = /(?<![\w])tokens?(?![\w])/iu;
    expect(entries.filter(([, v]) => word.test(v) || /补全|耗时/u.test(v)).map(([k]) => k)).toEqual(
      [],
    );
    expect(zhCNCli['cli.eval.tokens']).toMatch(
      /^词元：提示 \{prompt\} \+ 生成 \{completion\}；用时/u,
    );
    expect(zhCN['evalReport.tokens']).toMatch(
      /^词元：提示 \{prompt\} \+ 生成 \{completion\}；用时/u,
    );
  });

  it('quotes names “x”: no placeholder in straight quotes, no space between Chinese and “ ”', () => {
    expect(
      entries
        .filter(([k, v]) => !STRAIGHT_QUOTES_ALLOWED(k) && STRAIGHT_QUOTED_PLACEHOLDER.test(v))
        .map(([k, v]) => `${k}: ${v}`),
    ).toEqual([]);
    expect(
      entries
        .filter(([, v]) => /\p{Script=Han} “|” \p{Script=Han}/u.test(v))
        .map(([k, v]) => `${k}: ${v}`),
    ).toEqual([]);
    expect(STRAIGHT_QUOTED_PLACEHOLDER.test('未知的能力 "{ability}"')).toBe(true);
    expect(STRAIGHT_QUOTED_PLACEHOLDER.test("选项 '{flag}' 的值")).toBe(true);
    expect(STRAIGHT_QUOTED_PLACEHOLDER.test('未知的能力“{ability}”')).toBe(false);
  });

  it('puts a command or value to type in backticks, never in straight quotes', () => {
    expect(
      entries
        .filter(([k, v]) => !STRAIGHT_QUOTES_ALLOWED(k) && STRAIGHT_QUOTED(v))
        .map(([k, v]) => `${k}: ${v}`),
    ).toEqual([]);
    expect(STRAIGHT_QUOTED('输入 "help" 查看命令。')).toBe(true);
    expect(STRAIGHT_QUOTED('输入 `help` 查看命令。')).toBe(false);
    expect(STRAIGHT_QUOTED('标记为 `"anony": false` 的对战')).toBe(false);
  });

  it('no doubled punctuation where messages are composed: the hint after an unknown config key', () => {
    const near = unknownKeyHint('votecap', ['vote_cap', 'voting_hours'], 'zh-CN');
    const composed = tc('zh-CN', 'cli.configFile.unknownKey', {
      at: 'default.yaml:6:3',
      path: 'arena.votecap',
      key: 'votecap',
      near,
    });
    expect(composed).toBe(
      'default.yaml:6:3 arena.votecap：未知的键“votecap”：请删除它或修正拼写；你是不是想写“vote_cap”？此处可用的键有 vote_cap、voting_hours',
    );
    expect(composed).not.toMatch(DOUBLED);
  });

  it('uses full-width brackets throughout, not only beside Chinese (`{key}（{n} 票）`, not `{key} ({n} votes)`)', () => {
    // Code, a formula or a value typed as it is goes in backticks; these keys hold other ASCII brackets on purpose.
    const bare = (v: string) => v.replace(/`[^`]*`/gu, '');
    expect(
      entries
        .filter(([k, v]) => !(k in ALLOWED) && /[()]/u.test(bare(v)))
        .map(([k, v]) => `${k}: ${v}`),
    ).toEqual([]);
  });

  it('the scan catches the kind', () => {
    expect(HALF_WIDTH_BESIDE_CJK.test('投票时间 (UTC)')).toBe(true);
    expect(HALF_WIDTH_BESIDE_CJK.test('得分（95%）')).toBe(false);
  });
});
