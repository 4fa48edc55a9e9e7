/**
 * Lists in command line and chat texts: `a, b` in English, `a、b` in Chinese (i18n/cli.ts `listText` / `listSaid`,
 * the catalogue's `cli.list.sep`), the way every list a command or a chat reply prints is joined. A source scan finds
 * a list joined with a fixed ", " or "; " (English separators inside a Chinese sentence) outside what stays English.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLeaderboardArgs } from '../../../src/bot/commands/leaderboard.ts';
import { listSaid, listText, said, sayCli } from '../../../src/i18n/cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { tsFilesUnder } from '../../helpers/source-files.ts';

describe('listText', () => {
  it('joins with a comma in English and 、 in Chinese', () => {
    expect(listText('en', ['knowledge', 'safety', 'refusal'])).toBe('knowledge, safety, refusal');
    expect(listText('zh-CN', ['knowledge', 'safety', 'refusal'])).toBe(
      'knowledge、safety、refusal',
    );
  });

  it('gives one item alone and nothing for none', () => {
    expect(listText('zh-CN', ['m1'])).toBe('m1');
    expect(listText('en', [])).toBe('');
  });

  it("lists the abilities of chat's reply.badAbility with 、 in Chinese", () => {
    const zh = parseLeaderboardArgs('ability', 'cooking', 'chat', 'zh-CN');
    expect(zh.ok ? '' : zh.reason).toContain('知识、中文特定、');
    const en = parseLeaderboardArgs('ability', 'cooking', 'chat', 'en');
    expect(en.ok ? '' : en.reason).toContain('knowledge, chinese_specific, ');
  });

  it('says a list parameter of catalogue data in the reader language', () => {
    const s = said('cli.db.newer', { n: 2, unknown: listSaid(['0020_a', '0021_b']), known: 'x' });
    expect(sayCli('zh-CN', s)).toContain('0020_a、0021_b');
    expect(sayCli('en', s)).toContain('0020_a, 0021_b');
  });
});

/**
 * Lines that join with a fixed ", " or "; " on purpose, by file and a text of the line, with why: log lines, SQL,
 * machine formats and English kept as data (stored failure texts, said again in the reader's language at display).
 */
const ALLOWED: readonly { file: string; text: string; why: string }[] = [
  { file: 'src/chat/discord/adapter.ts', text: 'could not add', why: 'a log line' },
  { file: 'src/chat/slack/adapter.ts', text: 'could not add', why: 'a log line' },
  { file: 'src/storage/copy-rows.ts', text: 'COPY', why: 'SQL' },
  { file: 'src/storage/pglite-upgrade.ts', text: 'columns', why: 'SQL column list' },
  { file: 'src/storage/pglite-upgrade.ts', text: 'truncate', why: 'SQL' },
  { file: 'src/storage/pglite-upgrade.ts', text: 'foreign keys', why: 'a programming error' },
  { file: 'src/storage/pglite-template.ts', text: 'prepared with', why: 'a log line' },
  { file: 'src/storage/battles.ts', text: 'no model with id', why: 'a programming error' },
  { file: 'src/cli/ratings.ts', text: 'note', why: '--json note, English in every language' },
  {
    file: 'src/cli/ratings.ts',
    text: "parts.join('; ')",
    why: '--json note, English in every language',
  },
  {
    file: 'src/eval/submissions.ts',
    text: "suites.join(', ')",
    why: '--json data; chat and the CLI say the refusal alone',
  },
  {
    file: 'src/llm/reply.ts',
    text: 'called a tool',
    why: 'stored failure text, listed again at display (eval/failure-cause.ts)',
  },
  {
    file: 'src/eval/judge/parse.ts',
    text: '',
    why: "a judge's stored reason, listed again at display (eval/failure-cause.ts)",
  },
  { file: 'src/arena/ability-classifier.ts', text: 'several abilities', why: 'logged reason' },
  {
    file: 'src/eval/robustness/derive.ts',
    text: 'not among the prepared bases',
    why: 'programming error',
  },
];

describe('lists in user-facing texts', () => {
  it('are never joined with a fixed ", " or "; " (use listText / listSaid, or a catalogue separator)', () => {
    const bad: string[] = [];
    for (const path of tsFilesUnder(join(PROJECT_ROOT, 'src'))) {
      const file = relative(PROJECT_ROOT, path);
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (!/\.join\((['"])[,;] \1\)/u.test(line)) return;
          if (ALLOWED.some((a) => a.file === file && line.includes(a.text))) return;
          bad.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(bad).toEqual([]);
  });
});
