/**
 * Ctrl-C (SIGINT, as SIGTERM and SIGHUP) in the first moments of a first `zhujiu eval`, before its database is
 * open: the command stops sending ahead (eval/requests-ahead), aborts what is on its way, and, no answer having
 * come, ends with exit 130 and makes no run (docs/architecture.md, "A first eval"). In-process, on an empty
 * embedded data folder; the signal is given to the command's own listener alone (the test runner has its own).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder } from '../../helpers/eval-fixtures.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a signal before a first zhujiu eval has its database', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-stop-early-'));
  let fake: FakeOpenAi;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    const folder = miniEvalFolder(root, fake.baseUrl, undefined, { maxConcurrency: 2 });
    env = {
      DATABASE_URL: '',
      ZHUJIU_CONFIG_DIR: folder.ZHUJIU_CONFIG_DIR as string,
      ZHUJIU_DATASETS_DIR: folder.ZHUJIU_DATASETS_DIR as string,
    };
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /**
   * `zhujiu eval` on the empty folder `data`, given SIGINT once `ready()` holds; the command's result and the
   * requests the endpoint received by 100 ms after its end.
   */
  async function stoppedWhen(data: string, ready: () => boolean) {
    const before = new Set(process.listeners('SIGINT'));
    const run = inProcess(['eval', '--model', 'erry', '--suite', 'mini', '--json'], {
      env: { ...env, ZHUJIU_DATA_DIR: data },
    });
    let ended = false;
    void run.finally(() => {
      ended = true;
    });
    let mine: ((signal: NodeJS.Signals) => void) | undefined;
    while (!ended && (mine === undefined || !ready())) {
      mine ??= process.listeners('SIGINT').find((l) => !before.has(l)) as typeof mine;
      await sleep(1);
    }
    mine?.('SIGINT');
    const r = await run;
    await sleep(100);
    return { ...r, calls: fake.callCount };
  }

  it('at once: nothing is sent, exit 130, no run; the next command makes run #1', async () => {
    fake.reset();
    const data = join(root, 'at-once', 'pg');
    const r = await stoppedWhen(data, () => true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('stopped before the run started: no run was made');
    expect(r.calls).toBe(0);
    const next = await inProcess(['eval', '--model', 'erry', '--suite', 'mini', '--json'], {
      env: { ...env, ZHUJIU_DATA_DIR: data },
    });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ run: 1 });
  });

  it('with requests on their way and no answer yet: they are aborted, nothing more is sent, no run', async () => {
    fake.reset();
    fake.setAnswer(() => ({ content: '答案：A', delayMs: 60_000 }));
    try {
      const data = join(root, 'on-their-way', 'pg');
      const r = await stoppedWhen(data, () => fake.callCount >= 2);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('stopped before the run started: no run was made');
      expect(r.calls).toBe(2);
    } finally {
      fake.setAnswer(() => '答案：A');
    }
  });
});
