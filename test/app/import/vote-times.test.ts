/**
 * `import battles` keeps each vote's own time and skips duplicate lines:
 * - FastChat battle lines with `tstamp` (four decimals, out of time order): the export in FastChat's format gives
 *   every `tstamp` back exactly, and `export battles --since` selects by those times (before, every imported vote
 *   carried the import's time, so `--since` kept all or nothing); the `jsonl` export's `voted_at` is read back too;
 * - a line without a time gets the import's time;
 * - a bad or implausible time (a string, milliseconds, before 2000, far in the future) is a `file:line:` error and
 *   nothing is written;
 * - the same vote (its `question_id`, `tstamp` and `judge`) twice in a file is stored once and counted in the summary;
 *   the same vote with opposite winners refuses the file naming both lines, and nothing is imported (before, both
 *   votes were stored without a word); outcome-only lines (`{"model_a","model_b","winner"}`) repeated are distinct
 *   votes and all kept; a file imported twice under one source adds nothing the second time ("already present").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-vote-times-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** FastChat battle records (`clean_battle_data.py` fields), tstamps out of order, four decimals as FastChat logs. */
const FASTCHAT = [
  {
    question_id: 'q1',
    model_a: 'gpt-4',
    model_b: 'claude-2',
    winner: 'model_a',
    tstamp: 1690000300.1322,
  },
  {
    question_id: 'q2',
    model_a: 'claude-2',
    model_b: 'vicuna-13b',
    winner: 'tie',
    tstamp: 1690000100.0431,
  },
  {
    question_id: 'q3',
    model_a: 'vicuna-13b',
    model_b: 'gpt-4',
    winner: 'model_b',
    tstamp: 1690000200.9999,
  },
  {
    question_id: 'q4',
    model_a: 'gpt-4',
    model_b: 'vicuna-13b',
    winner: 'tie (bothbad)',
    tstamp: 1700000000,
  },
].map((o) => ({ judge: 'arena_user_1', anony: true, language: 'English', turn: 1, ...o }));

function write(name: string, lines: readonly (object | string)[]): string {
  const f = join(dir, name);
  writeFileSync(
    f,
    `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`,
  );
  return f;
}

const parse = (jsonl: string) =>
  jsonl
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('imported vote times and duplicate lines', () => {
  let t: TestRuntime;
  const cli = (...args: string[]) => inProcess(args, { rt: t.rt });
  beforeAll(async () => {
    t = await openTestRuntime();
  });
  afterAll(async () => t?.close());

  it('FastChat → zhujiu → FastChat keeps every tstamp; --since selects by them', async () => {
    const file = write('fastchat.jsonl', FASTCHAT);
    const imp = await cli('import', 'battles', file, '--source', 'fc');
    expect(imp.code, imp.stderr).toBe(0);
    const all = await cli('export', 'battles', '--source', 'fc');
    const back = parse(all.stdout);
    // Exported in time order, as FastChat's elo_analysis sorts battles by tstamp.
    expect(back.map((o) => [o.model_a, o.model_b, o.winner, o.tstamp])).toEqual(
      [...FASTCHAT]
        .sort((x, y) => x.tstamp - y.tstamp)
        .map((o) => [o.model_a, o.model_b, o.winner, o.tstamp]),
    );
    const since = await cli(
      'export',
      'battles',
      '--source',
      'fc',
      '--since',
      '2023-07-22T04:31:00Z',
    );
    expect(parse(since.stdout).map((o) => o.tstamp)).toEqual([1690000300.1322, 1700000000]);
    // zhujiu's own jsonl export carries voted_at: read back as the same times.
    const jsonl = await cli('export', 'battles', '--source', 'fc', '--format', 'jsonl');
    const again = write('zhujiu.jsonl', jsonl.stdout.trim().split('\n'));
    expect((await cli('import', 'battles', again, '--source', 'fc-again')).code).toBe(0);
    const third = parse((await cli('export', 'battles', '--source', 'fc-again')).stdout);
    // voted_at is ISO 8601 to the millisecond (Date#toISOString truncates)
    expect(third.map((o) => Math.round((o.tstamp as number) * 1000))).toEqual(
      back.map((o) => Math.floor((o.tstamp as number) * 1000)),
    );
  });

  it('a line without a time gets the time of the import', async () => {
    const file = write('no-time.jsonl', [{ model_a: 'x', model_b: 'y', winner: 'model_a' }]);
    const at = new Date('2026-03-04T05:06:07.000Z');
    await importBattles(t.rt.db.db, { file, source: 'no-time', at });
    const out = parse((await cli('export', 'battles', '--source', 'no-time')).stdout);
    expect(out[0]?.tstamp).toBe(at.getTime() / 1000);
  });

  it('a bad or implausible time is a file:line error and nothing is written', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const ok = { model_a: 'a', model_b: 'b', winner: 'tie' };
    const cases: [object, RegExp][] = [
      [
        { ...ok, tstamp: '1690000000' },
        /:2: "tstamp" must be a number of Unix seconds \(as FastChat writes it\), got "1690000000"/,
      ],
      [
        { ...ok, tstamp: 1690000000123 },
        /:2: "tstamp" 1690000000123 \(.*\) is not a plausible vote time/,
      ],
      [
        { ...ok, tstamp: 86400 },
        /:2: "tstamp" 86400 \(1970-01-02T00:00:00.000Z\) is not a plausible vote time: it must lie between 2000-01-01 and 2026-01-02T00:00:00.000Z/,
      ],
      [
        { ...ok, tstamp: at.getTime() / 1000 + 2 * 86400 },
        /:2: "tstamp" \d+ \(2026-01-03T00:00:00.000Z\) is not a plausible/,
      ],
      [
        { ...ok, voted_at: 'yesterday' },
        /:2: "voted_at" must be an ISO 8601 time with a time zone/,
      ],
      [{ ...ok, voted_at: '2024-08-14 09:30' }, /:2: "voted_at" must be an ISO 8601 time/],
    ];
    for (const [line, re] of cases) {
      const file = write('bad-time.jsonl', [ok, line]);
      const e = await importBattles(t.rt.db.db, { file, source: 'bad-time', at }).catch((x) => x);
      expect(isAppError(e, 'import_invalid'), JSON.stringify(line)).toBe(true);
      expect((e as Error).message).toMatch(re);
    }
    const cliRun = await cli('import', 'battles', write('bad-cli.jsonl', [{ ...ok, tstamp: -5 }]));
    expect(cliRun.code).toBe(1);
    expect(cliRun.stderr).toMatch(/bad-cli\.jsonl:1: "tstamp" -5 /);
    const { stdout } = await cli('sources');
    expect(stdout).not.toMatch(/bad-time|bad-cli/);
  });

  it('duplicate lines are skipped and counted; outcome-only repeats are votes; a re-import adds nothing', async () => {
    const [q1, q2, q3] = FASTCHAT;
    const file = write('dups.jsonl', [
      q1 as object,
      q2 as object,
      q1 as object,
      q3 as object,
      q2 as object,
      q1 as object,
    ]);
    const first = await cli('import', 'battles', file, '--source', 'dups');
    expect(first.stdout).toMatch(
      /^imported 3 battles \(3 votes\) from source dups \(6 rows, 0 already present, skipped 3 duplicate lines \(the same vote, by its question_id, tstamp and judge, given again in the file\), 3 models\) in [\d.]+ s\n$/,
    );
    const second = await cli('import', 'battles', file, '--source', 'dups');
    expect(second.stdout).toMatch(
      /^imported 0 battles \(0 votes\) from source dups \(6 rows, 3 already present, skipped 3 duplicate lines/,
    );
    const zh = await inProcess(['import', 'battles', file, '--source', 'dups'], {
      rt: t.rt,
      env: { LANG: 'zh_CN.UTF-8' },
    });
    expect(zh.stdout).toContain('，跳过 3 行重复行');
    const plain = { model_a: 'p', model_b: 'q', winner: 'model_a' };
    const outcomes = await importBattles(t.rt.db.db, {
      file: write('outcomes.jsonl', [plain, plain, plain]),
      source: 'outcomes',
    });
    expect(outcomes).toMatchObject({ rows: 3, added: 3, duplicates: 0 });
  });

  it('the same vote with opposite winners refuses the file naming both lines; nothing is imported', async () => {
    const [q1, q2] = FASTCHAT;
    const flipped = { ...q1, winner: 'model_b' };
    const file = write('conflict.jsonl', [q1 as object, q2 as object, flipped]);
    const r = await cli('import', 'battles', file, '--source', 'conflict');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error [import_invalid]: ${file}:3: the vote \`{"question_id":"q1","tstamp":1690000300.1322,"judge":"arena_user_1"}\` is also line 1, with another outcome: \`{"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"}\` there, \`{"model_a":"gpt-4","model_b":"claude-2","winner":"model_b"}\` here. One vote has one outcome: delete the wrong line, then try again\n`,
    );
    expect((await cli('sources')).stdout).not.toContain('conflict');
  });
});
