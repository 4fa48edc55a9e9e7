/**
 * A first `zhujiu eval` on an empty data folder, as the real binary runs it: its first requests leave while the
 * database is created (eval/requests-ahead), and the run takes them as its own, so the endpoint is asked each item
 * once; a signal at any moment keeps the answers that came (the same command then asks only the rest); two such
 * commands started at once on one empty folder still ask each item once in all, since only the process that holds
 * the folder sends ahead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder } from '../../helpers/eval-fixtures.ts';
import { startZhujiu } from '../../helpers/run-cli.ts';

const ITEMS = { c3: 30, ocnli: 20, cmrc: 10 };
const TOTAL = ITEMS.c3 + ITEMS.ocnli + ITEMS.cmrc;

describe('a first zhujiu eval on an empty data folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-first-eval-'));
  let fake: FakeOpenAi;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ answer: () => ({ content: '答案：A', delayMs: 20 }) });
    const folder = miniEvalFolder(root, fake.baseUrl, undefined, {
      counts: ITEMS,
      maxConcurrency: 4,
    });
    env = {
      ZHUJIU_CONFIG_DIR: folder.ZHUJIU_CONFIG_DIR as string,
      ZHUJIU_DATASETS_DIR: folder.ZHUJIU_DATASETS_DIR as string,
    };
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** `zhujiu eval --json` processes started at once on the empty folder `data`; their exits and outputs. */
  async function evals(data: string, n: number) {
    fake.reset();
    const ps = Array.from({ length: n }, () =>
      startZhujiu(['eval', '--model', 'erry', '--suite', 'mini', '--json'], {
        ...env,
        ZHUJIU_DATA_DIR: data,
      }),
    );
    try {
      return await Promise.all(
        ps.map(async (p) => ({ ...(await p.exited), stdout: p.stdout(), stderr: p.stderr() })),
      );
    } finally {
      for (const p of ps) p.kill();
    }
  }
  const asked = () => fake.calls.map((c) => c.messages.at(-1)?.content);

  it('asks each item once and scores every item', async () => {
    const [r] = await evals(join(root, 'one', 'pg'), 1);
    expect(r?.code, r?.stderr).toBe(0);
    const summary = JSON.parse(r?.stdout ?? '') as { datasets: { n: number }[] };
    expect(summary.datasets.reduce((s, d) => s + d.n, 0)).toBe(TOTAL);
    expect(fake.callCount).toBe(TOTAL);
    expect(new Set(asked()).size).toBe(TOTAL);
  });

  // Early: the database is most likely still being created (every request so far was sent ahead); later: the
  // run most likely asks. Either way nothing that came is asked again: only requests on their way at the signal.
  for (const [signal, answered] of [
    ['SIGINT', 4],
    ['SIGTERM', 40],
  ] as const)
    it(`${signal} after ${answered} answers keeps every answer that came; the same command asks only the rest`, async () => {
      const data = join(root, `stopped-${signal}`, 'pg');
      fake.reset();
      fake.setAnswer(() => ({ content: '答案：A', delayMs: 50 }));
      const p = startZhujiu(['eval', '--model', 'erry', '--suite', 'mini', '--json'], {
        ...env,
        ZHUJIU_DATA_DIR: data,
      });
      try {
        while (p.alive() && fake.answered < answered) await new Promise((r) => setTimeout(r, 2));
        p.child.kill(signal);
        const end = await p.exited;
        expect(end.code, p.stderr()).toBe(130);
        // No run is made only when no answer had been read yet (the fake may have sent some the client had not).
        expect(p.stderr()).toMatch(
          /^(stopped: run #1 stays active|stopped before the run started: no run was made)/mu,
        );
      } finally {
        p.kill();
      }
      const again = startZhujiu(['eval', '--model', 'erry', '--suite', 'mini', '--json'], {
        ...env,
        ZHUJIU_DATA_DIR: data,
      });
      const end = await again.exited;
      expect(end.code, again.stderr()).toBe(0);
      const summary = JSON.parse(again.stdout()) as { datasets: { n: number }[] };
      expect(summary.datasets.reduce((s, d) => s + d.n, 0)).toBe(TOTAL);
      expect(new Set(asked()).size).toBe(TOTAL);
      // Asked twice: at most the requests on their way at the signal (max_concurrency 4).
      expect(fake.callCount - TOTAL).toBeLessThanOrEqual(4);
      fake.setAnswer(() => ({ content: '答案：A', delayMs: 20 }));
    });

  it('two at once on one empty folder ask each item once in all', async () => {
    const rs = await evals(join(root, 'two', 'pg'), 2);
    expect(rs.some((r) => r.code === 0)).toBe(true);
    for (const r of rs) expect([0, 1], r.stderr).toContain(r.code);
    expect(fake.callCount).toBe(TOTAL);
    expect(new Set(asked()).size).toBe(TOTAL);
  });
});
