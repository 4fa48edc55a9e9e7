/**
 * One vote given twice in a battles file (src/import/formats/vote-identity.ts), read the same way by the three
 * readers of battle files: `import battles` (readBattlesFile), `ratings --battles` (the arena line parser) and
 * `ratings --style-control --battles` (parseStyleLines). Two lines with the same `question_id`, `tstamp` and `judge`:
 * with the same outcome, however else the line differs, the second is a duplicate (left out, counted); with
 * another outcome the file is refused naming both lines (before, `import battles` kept both votes without a word,
 * and the ratings readers counted every repeat).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { readBattlesFile } from '../../../src/import/battles.ts';
import { parseStyleLines } from '../../../src/import/formats/arena-style.ts';
import { createArenaLineParser } from '../../../src/import/formats/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-vote-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const META = {
  sum_assistant_a_tokens: 10,
  header_count_a: 0,
  list_count_a: 0,
  bold_count_a: 0,
  sum_assistant_b_tokens: 12,
  header_count_b: 1,
  list_count_b: 0,
  bold_count_b: 0,
};
const vote = (o: Record<string, unknown>) =>
  JSON.stringify({ question_id: 'q1', tstamp: 1690000300.1322, conv_metadata: META, ...o });

const A_WINS = vote({ model_a: 'gpt-4', model_b: 'claude-2', winner: 'model_a' });
const B_WINS = vote({ model_a: 'gpt-4', model_b: 'claude-2', winner: 'model_b' });
/** The same vote as A_WINS, written otherwise: keys in another order, another field, spaces. */
const A_WINS_AGAIN = `{ "winner": "model_a", "model_b": "claude-2", "model_a": "gpt-4", "language": "English", "tstamp": 1690000300.1322, "question_id": "q1", "conv_metadata": ${JSON.stringify(META)} }`;
const OTHER = vote({ question_id: 'q2', model_a: 'claude-2', model_b: 'gpt-4', winner: 'tie' });
/** Outcome rows without an identity: the same text twice is two votes. */
const PLAIN = JSON.stringify({ model_a: 'gpt-4', model_b: 'claude-2', winner: 'model_b' });

const CONFLICT =
  'the vote `{"question_id":"q1","tstamp":1690000300.1322}` is also line 1, with another outcome: ' +
  '`{"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"}` there, ' +
  '`{"model_a":"gpt-4","model_b":"claude-2","winner":"model_b"}` here. ' +
  'One vote has one outcome: delete the wrong line, then try again';

function file(name: string, lines: readonly string[]): string {
  const p = join(dir, name);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

/** The three readers on one file: what each kept and left out, or the error each threw. */
async function readAll(lines: readonly string[]) {
  const path = file('votes.jsonl', lines);
  const settle = async <T>(f: () => T | Promise<T>): Promise<T | AppError> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof AppError) return e;
      throw e;
    }
  };
  const imported = await settle(() => readBattlesFile({ file: path, source: 's' }));
  const rated = await settle(() => {
    const p = createArenaLineParser(path);
    for (const l of lines) p.push(l);
    return { votes: p.finish().totalVotes, duplicates: p.duplicates };
  });
  const styled = await settle(() => parseStyleLines(lines, path));
  return { path, imported, rated, styled };
}

describe('a vote given twice in a battles file', () => {
  it('with the same outcome, however the line is written, is left out and counted by every reader', async () => {
    const r = await readAll([A_WINS, OTHER, A_WINS_AGAIN, A_WINS, PLAIN, PLAIN]);
    expect(r.imported).toMatchObject({ duplicates: 2 });
    expect((r.imported as { rows: readonly unknown[] }).rows).toHaveLength(4);
    expect(r.rated).toEqual({ votes: 4, duplicates: 2 });
    expect(r.styled).toMatchObject({ duplicates: 2, withoutMetadata: 2 });
    expect((r.styled as { battles: readonly unknown[] }).battles).toHaveLength(2);
  });

  it('with another outcome is refused by every reader, naming both lines', async () => {
    const r = await readAll([A_WINS, OTHER, B_WINS]);
    expect(r.imported).toBeInstanceOf(AppError);
    expect((r.imported as AppError).code).toBe('import_invalid');
    expect((r.imported as AppError).message).toBe(`${r.path}:3: ${CONFLICT}`);
    for (const e of [r.rated, r.styled]) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).code).toBe('rating_input_invalid');
      expect((e as AppError).message).toBe(`${r.path}:3: ${CONFLICT}`);
    }
    // In the command line's other language (the ratings readers carry the message as catalogue data).
    expect(sayCli('zh-CN', (r.rated as AppError).said!)).toBe(
      `${r.path}:3：投票 \`{"question_id":"q1","tstamp":1690000300.1322}\` 也出现在第 1 行，但结果不同：` +
        '那里是 `{"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"}`，' +
        '这里是 `{"model_a":"gpt-4","model_b":"claude-2","winner":"model_b"}`。一票只有一个结果：请删除错误的那一行，然后重试',
    );
  });

  it('is the vote of its question_id, tstamp and judge together: another tstamp or voter is another vote', async () => {
    const later = vote({
      tstamp: 1690000999,
      model_a: 'gpt-4',
      model_b: 'claude-2',
      winner: 'model_b',
    });
    // Two voters of one battle at one instant, as `zhujiu export battles` writes them (each with its judge).
    const voter = (judge: string, winner: string) =>
      vote({ judge, model_a: 'gpt-4', model_b: 'claude-2', winner });
    const r = await readAll([
      A_WINS,
      later,
      voter('arena_user_1', 'model_a'),
      voter('arena_user_2', 'model_b'),
    ]);
    expect(r.imported).toMatchObject({ duplicates: 0 });
    expect(r.rated).toEqual({ votes: 4, duplicates: 0 });
    // One voter's vote given twice with opposite winners is a conflict.
    const again = await readAll([
      voter('arena_user_1', 'model_a'),
      voter('arena_user_1', 'model_b'),
    ]);
    expect((again.imported as AppError).message).toContain(
      ':2: the vote `{"question_id":"q1","tstamp":1690000300.1322,"judge":"arena_user_1"}` is also line 1',
    );
  });
});
