/**
 * A real closed pipe, as `zhujiu export battles --source battles | head -2` makes one: the reader takes two lines
 * and closes its end; `zhujiu` (a child process running bin/zhujiu.js) then gets EPIPE on stdout and must end with
 * exit 0 and nothing on stderr, both for the export's own stream and for a command writing lines through
 * `io.out` (`ratings --battles FILE`, whose 1,500-model table is larger than a pipe's buffer). The in-process
 * cases are in closed-stdout.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDataDir } from '../../helpers/db.ts';
import { inProcess, startZhujiu } from '../../helpers/run-cli.ts';

/** Runs `zhujiu ARGS` and closes its stdout after `lines` lines, as `| head -N` does. */
async function headOf(args: string[], env: Record<string, string>, lines: number) {
  const p = startZhujiu(args, env);
  let seen = '';
  p.child.stdout.on('data', (b: Buffer) => {
    seen += b.toString();
    if (seen.split('\n').length > lines) p.child.stdout.destroy();
  });
  try {
    const exit = await p.exited;
    return { ...exit, stderr: p.stderr(), lines: seen.split('\n').length - 1 };
  } finally {
    p.kill();
  }
}

describe('a closed pipe on stdout', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-pipe-'));
  const d = pgliteDataDir();
  const env = {
    ZHUJIU_DATA_DIR: d.dataDir,
    ZHUJIU_CONFIG_DIR: join(tmp, 'config'),
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
  };
  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    const votes: string[] = [];
    for (let i = 0; i < 12_000; i++) {
      votes.push(
        JSON.stringify({ model_a: `m-${i % 7}`, model_b: `m-${(i + 3) % 7}`, winner: 'tie' }),
      );
    }
    writeFileSync(join(tmp, 'battles.jsonl'), `${votes.join('\n')}\n`);
    // Stored in-process (the embedded folder is closed again before the processes below open it).
    const imported = await inProcess(['import', 'battles', join(tmp, 'battles.jsonl')], { env });
    expect(imported.code, imported.stderr).toBe(0);
    const ring: string[] = [];
    for (let i = 0; i < 1500; i++) {
      for (const winner of ['model_a', 'model_b'])
        ring.push(
          JSON.stringify({ model_a: `model-${i}`, model_b: `model-${(i + 1) % 1500}`, winner }),
        );
    }
    writeFileSync(join(tmp, 'ring.jsonl'), `${ring.join('\n')}\n`);
  });
  afterAll(() => {
    d.remove();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('export battles | head -2: exit 0, no EPIPE stack on stderr', async () => {
    const r = await headOf(['export', 'battles', '--source', 'battles'], env, 2);
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, signal: null });
    expect(r.lines).toBeGreaterThanOrEqual(2);
  });

  it('ratings --battles FILE | head -2 (lines through io.out): exit 0, nothing on stderr', async () => {
    const r = await headOf(
      ['ratings', '--battles', join(tmp, 'ring.jsonl'), '--bootstrap', '0'],
      env,
      2,
    );
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, signal: null });
  });
});
