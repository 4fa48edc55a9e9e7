/**
 * Bad input given to `zhujiu` where only the real binary shows the outcome: the start of `bot` and `worker` with a
 * log file that cannot be opened, and Ctrl-C during `zhujiu eval` (the in-process cases:
 * test/app/cli/robust.test.ts).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder } from '../../helpers/eval-fixtures.ts';
import { asProcess, startZhujiu } from '../../helpers/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-robust-start-'));
const env = { ZHUJIU_DATA_DIR: join(dir, 'pg') };
beforeAll(() => cpSync(inject('pgliteTemplate'), env.ZHUJIU_DATA_DIR, { recursive: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One error line, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(stderr).not.toContain('unexpected error');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
}

describe('a start that cannot work is refused up front', () => {
  it('a LOG_FILE that cannot be opened stops the start with an error naming LOG_FILE', async () => {
    const aFile = join(dir, 'plain-file');
    writeFileSync(aFile, '');
    for (const [cmd, logFile] of [
      ['bot', join(aFile, 'x.log')],
      ['worker', dir],
    ] as const) {
      const r = await asProcess([cmd], { env: { ...env, LOG_FILE: logFile } });
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr)).toContain(
        `error [env_invalid]: LOG_FILE: cannot open the log file ${logFile}`,
      );
      expect(r.stderr).toContain('set LOG_FILE to a writable file, or LOG_FILE=- to log to stderr');
    }
  });
});

describe('Ctrl-C during eval', () => {
  let fake: FakeOpenAi;
  let e: Record<string, string>;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ answer: () => ({ status: 500 }) });
    e = miniEvalFolder(join(dir, 'evals'), fake.baseUrl, inject('pgliteTemplate'));
  });
  afterAll(async () => fake.close());

  it('Ctrl-C exits 130 saying the run stays to resume', async () => {
    fake.setAnswer(() => ({ delayMs: 60_000, content: 'A' }));
    fake.reset();
    const p = startZhujiu(['eval', '--model', 'erry', '--suite', 'mini'], e);
    try {
      const t0 = Date.now();
      while (fake.callCount === 0 && p.alive() && Date.now() - t0 < 120_000) await sleep(100);
      p.child.kill('SIGINT');
      const { code } = await p.exited;
      expect(code, p.stderr()).toBe(130);
      expect(p.stderr()).toMatch(/stopped: run #\d+ stays active/);
    } finally {
      p.kill();
    }
  });
});
