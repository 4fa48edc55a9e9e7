/**
 * Bad input given to `zhujiu` as a user runs it (a child process through bin/zhujiu.js): one line naming the input
 * and the fix, exit 1 for errors and 2 for usage mistakes, never a stack trace, nothing written.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ZHUJIU_BIN } from '../../helpers/cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'zhujiu-robust-'));
const env = { ZHUJIU_DATA_DIR: join(dir, 'pg') };

async function zhujiu(args: string[], extra: Record<string, string> = {}) {
  try {
    const r = await run(process.execPath, [ZHUJIU_BIN, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: '', ...env, ...extra },
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

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
  });

  it('leaderboard --png FOLDER is refused before the board is built, exit 1', async () => {
    const r = await zhujiu(['leaderboard', '--png', folder]);
    expect(r.code, r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toContain(`--png ${folder}: cannot write (${folder} is a folder`);
    expect(r.stdout).toBe('');
    expect(readdirSync(folder)).toEqual([]);
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
    const a = await zhujiu(['ratings', '--battles', 'x', '--anchor', 'm=0x10']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--anchor must be MODEL=RATING');
  });
});

it('leaves no stray files', () => {
  expect(existsSync(join(dir, 'nope'))).toBe(false);
});
