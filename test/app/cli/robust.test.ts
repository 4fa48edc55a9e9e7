/**
 * Bad input given to `zhujiu`: one line naming the input and the fix, exit 1 for errors and 2 for usage mistakes,
 * never a stack trace, nothing written. In-process through `runCli` (on one open copy of the migrated template, or
 * on the environment a case names); what needs the real binary is in test/process/cli/robust-start.test.ts (the
 * start of `bot` and `worker`, and Ctrl-C).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder } from '../../helpers/eval-fixtures.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-robust-'));
const env = { ZHUJIU_DATA_DIR: join(dir, 'pg') };
let t: TestRuntime;
// A copy of the migrated template (creating an embedded database costs ~6 s of CPU; no test here is about that)
// for the cases that name their own variables, and one open database for the others.
beforeAll(async () => {
  cpSync(inject('pgliteTemplate'), env.ZHUJIU_DATA_DIR, { recursive: true });
  t = await openTestRuntime();
});
afterAll(() => t?.close());

/**
 * `zhujiu ARGS…` in-process: on the file's open database, or, given variables, opening its own from the file's
 * data folder and them.
 */
const zhujiu = (args: string[], extra?: Record<string, string>) =>
  extra ? inProcess(args, { env: { ...env, ...extra } }) : inProcess(args, { rt: t.rt });

/** One error line, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(stderr).not.toContain('unexpected error');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('output paths (export battles --out, leaderboard --png)', () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder);
  const aFile = join(dir, 'a-file.txt');
  writeFileSync(aFile, 'x');

  it('export battles --out: a folder, a missing folder, a path under a file: one line, exit 1, nothing written', async () => {
    const cases: [string, string][] = [
      [folder, `--out ${folder}: cannot write (${folder} is a folder; give a file path inside it`],
      [
        join(dir, 'nope', 'x.jsonl'),
        `--out ${join(dir, 'nope', 'x.jsonl')}: cannot write (the folder ${join(dir, 'nope')} does not exist`,
      ],
      [join(aFile, 'x.jsonl'), `cannot write (${aFile} is a file, not a folder`],
    ];
    for (const [out, msg] of cases) {
      const r = await zhujiu(['export', 'battles', '--out', out]);
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toContain(
        `error [file_unwritable]: ${msg.startsWith('--') ? msg : ''}`,
      );
      expect(r.stderr).toContain(msg);
    }
    expect(readdirSync(folder)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // No stray files: the missing folder was not made.
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('a folder named out gets a file name that fits the command in it, never out/out', async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    const cases: [string[], string][] = [
      [['results', '--run', '1', '--out', out], 'results.jsonl'],
      [['results', '--run', '1', '--format', 'csv', '--out', out], 'results.csv'],
      [['export', 'battles', '--out', out], 'battles.jsonl'],
      [['judge', 'export', '--judge', 'j', '--out', out], 'labels.jsonl'],
      [['leaderboard', '--png', out], 'board.png'],
    ];
    for (const [args, name] of cases) {
      const r = await zhujiu(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(oneLine(r.stderr)).toContain(
        `${out} is a folder; give a file path inside it, e.g. ${join(out, name)})`,
      );
    }
  });

  it('leaderboard --png FOLDER is refused before the board is built, exit 1', async () => {
    const r = await zhujiu(['leaderboard', '--png', folder]);
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toContain(`--png ${folder}: cannot write (${folder} is a folder`);
    expect(r.stdout).toBe('');
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('folders named by the environment', () => {
  it('ZHUJIU_DATA_DIR under a file, ZHUJIU_CONFIG_DIR that is a file: one line, exit 1', async () => {
    const aFile = join(dir, 'env-file');
    writeFileSync(aFile, '');
    const d = await zhujiu(['export', 'battles'], { ZHUJIU_DATA_DIR: join(aFile, 'pg') });
    expect(d.code).toBe(1);
    expect(oneLine(d.stderr)).toContain(
      `error [db_unavailable]: cannot use ${join(aFile, 'pg')} as the embedded database folder: ${aFile} is a file, not a folder (a file is in the path, ENOTDIR). Set ZHUJIU_DATA_DIR`,
    );
    const c = await zhujiu(['suites'], { ZHUJIU_CONFIG_DIR: aFile });
    expect(c.code).toBe(1);
    expect(oneLine(c.stderr)).toContain(`config folder ${aFile} is a file, not a folder`);
  });
});

describe('input files', () => {
  it('ratings --battles FOLDER or a missing file is an error (exit 1), not a usage mistake', async () => {
    const r = await zhujiu(['ratings', '--battles', dir]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toContain(`--battles ${dir}: cannot read (a folder, not a file)`);
    const m = await zhujiu(['ratings', '--battles', join(dir, 'missing.jsonl')]);
    expect(m.code).toBe(1);
    expect(oneLine(m.stderr)).toContain('missing.jsonl: cannot read (no such file)');
  });
});

describe('names and sizes the database would refuse are refused by the import parsers, naming file:line', () => {
  it('eval --model with an outer space is refused by the name rule, as import outputs --model is (exit 2)', async () => {
    const e = await zhujiu(['eval', '--model', ' gpt-4', '--suite', 'smoke']);
    const o = await zhujiu(['import', 'outputs', join(dir, 'x.json'), '--model', ' gpt-4']);
    for (const r of [e, o]) {
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toBe(
        'error [input_invalid]: --model " gpt-4" starts or ends with a space; remove it',
      );
    }
  });

  it('import battles: a model name over 200 characters, blank, or with a space; nothing is written', async () => {
    const f = join(dir, 'names.jsonl');
    const long = 'x'.repeat(300);
    writeFileSync(
      f,
      [
        JSON.stringify({ model_a: 'ok-a', model_b: 'ok-b', winner: 'model_a' }),
        JSON.stringify({ model_a: long, model_b: 'b', winner: 'model_a' }),
        JSON.stringify({ model_a: '  ', model_b: 'b', winner: 'tie' }),
        JSON.stringify({ model_a: 'a', model_b: ' gpt 4', winner: 'model_b' }),
        JSON.stringify({ model_a: 'GPT 3.5 Turbo (16k)', model_b: 'line\nbreak', winner: 'tie' }),
      ].join('\n'),
    );
    const r = await zhujiu(['import', 'battles', f, '--source', 'names']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('unexpected error');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe(
      `error [import_invalid]: ${f}:2: "model_a" "${'x'.repeat(39)}…" is 300 characters long, over 200; use a shorter name; fix the model name in the file (or drop the line)`,
    );
    expect(lines[1]).toBe(
      `${f}:3: "model_a" "  " is blank; give the model a name; fix the model name in the file (or drop the line)`,
    );
    expect(lines[2]).toContain(`${f}:4: "model_b" " gpt 4" starts or ends with a space; remove it`);
    // A public name with spaces and parentheses is fine; a line break is not.
    expect(lines[3]).toContain(`${f}:5: "model_b" `);
    expect(lines[3]).toContain('holds U+000A, a control, format or line-break character');
    expect(lines[3]).not.toContain('"model_a"');
    // Nothing was imported: the valid first line is not stored either.
    const ratings = await zhujiu(['ratings', '--source', 'names']);
    expect(ratings.stderr).toContain('--source names: no battles of that source are stored');
  });

  it('import battles: a binary file is "not a text file", like import outputs', async () => {
    const f = join(dir, 'binary.jsonl');
    writeFileSync(f, Buffer.from([0x7b, 0x22, 0x00, 0xff, 0xfe, 0x0a]));
    const r = await zhujiu(['import', 'battles', f]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toContain(
      `${f}:1: not a text file (it contains NUL bytes, the first NUL at byte offset 2)`,
    );
  });

  it('a bad import file is refused before the database opens: no embedded database folder is created', async () => {
    // Each case would fail the same way against a stored database; here the folder does not exist, and the
    // import must not create it (the file is read and checked first, so the refusal costs no database start).
    const fresh = join(dir, 'never-created', 'pg');
    const missing = join(dir, 'missing.jsonl');
    const outputs = join(dir, 'self-battle.jsonl');
    writeFileSync(outputs, `${JSON.stringify({ model_a: 'a', model_b: 'a', winner: 'tie' })}\n`);
    const jsonArray = join(dir, 'array.json');
    writeFileSync(jsonArray, '[{"instruction": "i", "output": "o", "generator": "g"}]\n');
    const cases: [string[], string][] = [
      [['import', 'battles', missing], `${missing}: cannot read (no such file); check the path`],
      [['import', 'battles', outputs], `${outputs}:1: self-battle`],
      [
        ['import', 'outputs', missing, '--model', 'm', '--format', 'jsonl'],
        `${missing}: cannot read`,
      ],
      [['import', 'outputs', jsonArray, '--model', 'm'], `"generator" is "g" but --model is "m"`],
    ];
    for (const [args, message] of cases) {
      const r = await zhujiu(args, { ZHUJIU_DATA_DIR: fresh });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(existsSync(fresh), args.join(' ')).toBe(false);
    }
  });

  it('import outputs --format jsonl: a prompt over 200,000 characters and an item key over 500 are refused', async () => {
    const f = join(dir, 'long.jsonl');
    writeFileSync(
      f,
      [
        JSON.stringify({ item: 'a', prompt: 'p'.repeat(200_001), output: 'o' }),
        JSON.stringify({ item: 'k'.repeat(501), prompt: 'p', output: 'o' }),
      ].join('\n'),
    );
    const r = await zhujiu(['import', 'outputs', f, '--model', 'm', '--format', 'jsonl']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `${f}:1: "prompt" is longer than 200,000 characters; shorten it or drop the row`,
    );
    expect(r.stderr).toContain(`${f}:2: "item" `);
    expect(r.stderr).not.toContain('unexpected error');
    const m = await zhujiu(['import', 'outputs', f, '--model', ' ', '--format', 'jsonl']);
    expect(m.code).toBe(2);
    expect(oneLine(m.stderr)).toContain('--model " " is blank; give the model a name');
  });

  it('import judgments --format alpaca_eval: a generator name with a tab names file:line', async () => {
    const f = join(dir, 'annotations.jsonl');
    writeFileSync(
      f,
      `${JSON.stringify({ instruction: 'hi', generator_1: 'base', generator_2: 'my\tmodel', annotator: 'j', preference: 2 })}\n`,
    );
    const r = await zhujiu(['import', 'judgments', f, '--format', 'alpaca_eval', '--judge', 'j']);
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toContain(`${f}:1: "generator_2" "my\\tmodel" holds U+0009`);
  });
});

describe('a configuration that cannot work is refused up front', () => {
  it('eval of a suite that needs the judge, with judge.model naming no model: exit 1, no run created', async () => {
    const cfg = join(dir, 'cfg');
    cpSync(join(PROJECT_ROOT, 'config'), cfg, { recursive: true });
    const dflt = join(cfg, 'default.yaml');
    writeFileSync(
      dflt,
      readFileSync(dflt, 'utf8').replace(/^ {2}model: null/m, '  model: nosuchjudge'),
    );
    writeFileSync(
      join(cfg, 'models.yaml'),
      'models:\n  - name: fakey\n    provider: openai\n    base_url: http://127.0.0.1:9/v1\n    model: f\n',
    );
    const e = { ZHUJIU_CONFIG_DIR: cfg };
    const r = await zhujiu(
      ['eval', '--model', 'fakey', '--suite', 'zhujiu-scoring', '--limit', '1'],
      e,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toContain(
      `judge.model "nosuchjudge" (${dflt}) is not an OpenAI-compatible model of ${join(cfg, 'models.yaml')}`,
    );
    const none = await zhujiu(['eval', '--cancel', '1'], e);
    expect(none.stderr).toContain('there is no run #1; recent runs: (none)');
    const c = await zhujiu(['config', 'check', '--no-connect'], e);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain(`${dflt}:`);
    expect(c.stderr).toContain(
      `judge.model: "nosuchjudge" is not a model of ${join(cfg, 'models.yaml')}`,
    );
  });
});

describe('exit codes of eval: 1 when every item failed, 130 after Ctrl-C', () => {
  let fake: FakeOpenAi;
  let e: Record<string, string>;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ answer: () => ({ status: 500 }) });
    e = miniEvalFolder(join(dir, 'evals'), fake.baseUrl, inject('pgliteTemplate'));
  });
  afterAll(async () => fake.close());

  it('every item failing exits 1 and says so on the last line (table and --json)', async () => {
    fake.setAnswer(() => ({ status: 500 }));
    const r = await zhujiu(['eval', '--model', 'erry', '--suite', 'mini'], e);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('failures: ');
    const j = await zhujiu(['eval', '--model', 'erry', '--suite', 'mini', '--json'], e);
    expect(j.code, j.stderr).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ model: 'erry', suite: 'mini' });
    expect(j.stderr.trim().split('\n').at(-1)).toMatch(/^error: run #2 failed: every item failed/);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^error: run #1 failed: every item failed/);
  });
});

describe('numbers in flags are plain decimal integers (usage mistake, exit 2)', () => {
  it('refuses 1e3, 0x10, 1.5, -1 and an empty value', async () => {
    const cases: [string[], string][] = [
      [['eval', '--model', 'm', '--suite', 's', '--limit', '1e3'], '--limit'],
      [['eval', '--model', 'm', '--suite', 's', '--limit', '0'], '--limit'],
      [['ratings', '--battles', 'x', '--bootstrap', '0x10'], '--bootstrap'],
      [['ratings', '--battles', 'x', '--seed', '1.5'], '--seed'],
      [['ratings', '--battles', 'x', '--seed', '-1'], '--seed'],
      [
        ['judge', 'run', '--model', 'm', '--suite', 's', '--judge', 'j', '--attempts', ''],
        '--attempts',
      ],
    ];
    for (const [args, flag] of cases) {
      const r = await zhujiu(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`${flag} must be an integer ≥ \\d in plain decimal digits, got`),
      );
    }
    // Plain digits, too large to be any number it counts: the limit is named.
    const big = await zhujiu(['results', '--run', '99999999999999999999']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(
      '--run must be at most 9007199254740991, got "99999999999999999999"',
    );
    const a = await zhujiu(['ratings', '--battles', 'x', '--anchor', 'm=0x10']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--anchor must be MODEL=RATING');
  });
});
