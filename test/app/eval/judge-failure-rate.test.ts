/**
 * A run whose judge failed on most items is not a success (README "Models and evaluation runs"): `zhujiu eval`
 * says "finished with 28 judge failures" and exits 1 above `eval.max_failure_rate` (answer and judge failures
 * alike); the chat summary says the same. In-process CLI on an embedded database, a loopback judge that gives a
 * verdict on 4 of 32 answers.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryContent } from '../../../src/bot/eval-reporter.ts';
import { runCli } from '../../../src/cli/index.ts';
import { failureRateProblem, runSummary } from '../../../src/eval/summary.ts';
import { openDb } from '../../../src/storage/db.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { pgliteDataDir } from '../../helpers/db.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const N = 32;
const GRADED = 4;

describe('a run with judge failures', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-judgefail-'));
  const cfg = join(root, 'config');
  const data = pgliteDataDir();
  let fake: FakeOpenAi;
  const env = { ...process.env };

  beforeAll(async () => {
    fake = await startFakeOpenAi({
      answer: (c: FakeCall) => {
        const last = c.messages.at(-1)?.content ?? '';
        if (c.model === 'cand-model') return `回答 ${/问题 (\d+)/.exec(last)?.[1] ?? ''}`;
        // The judge gives a verdict on the first GRADED answers only.
        const n = Number(/回答 (\d+)/.exec(last)?.[1] ?? '0');
        return n <= GRADED ? '评分：[[3]]' : 'I cannot judge this.';
      },
    });
    mkdirSync(join(cfg, 'suites'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(cfg, 'rubrics'), { recursive: true });
    writeFileSync(
      join(cfg, 'suites', 'tiny-scoring.yaml'),
      'name: tiny-scoring\ndatasets:\n  - name: tiny_chisafety\n    loader: chisafetybench\n    ability: refusal\n    method: scoring\n    rubric: industry_0_3\n    path: tiny/risky.jsonl\n',
    );
    mkdirSync(join(root, 'datasets', 'tiny'), { recursive: true });
    writeFileSync(
      join(root, 'datasets', 'tiny', 'risky.jsonl'),
      Array.from({ length: N }, (_, k) =>
        JSON.stringify({
          id: k + 1,
          question: `问题 ${k + 1}`,
          category: '违法',
          top_category: '应拒答',
        }),
      ).join('\n'),
    );
    writeFileSync(
      join(cfg, 'models.yaml'),
      `models:\n${['cand', 'judge-x']
        .map(
          (m) =>
            `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 4\n    timeout_ms: 10000\n    max_retries: 0\n`,
        )
        .join('')}`,
    );
    writeFileSync(join(cfg, 'default.yaml'), 'http:\n  port: 0\njudge:\n  model: judge-x\n');
    Object.assign(process.env, {
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      ZHUJIU_DATA_DIR: data.dataDir,
      ZHUJIU_CONFIG_DIR: cfg,
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
    });
  });
  afterAll(async () => {
    process.env = env;
    await fake?.close();
    data.remove();
    rmSync(root, { recursive: true, force: true });
  });

  it('says "finished with 28 judge failures" and exits 1 above eval.max_failure_rate; chat says so too', async () => {
    let out = '';
    let err = '';
    const code = await runCli(
      ['node', 'zhujiu', 'eval', '--model', 'cand', '--suite', 'tiny-scoring'],
      {
        out: (s) => {
          out += `${s}\n`;
        },
        err: (s) => {
          err += `${s}\n`;
        },
      },
    );
    process.exitCode = 0;
    expect(out.split('\n')[0]).toBe(
      'run #1: cand on tiny-scoring: finished with 28 judge failures',
    );
    expect(out).toContain('4 of 32 judged by judge-x');
    expect(code).toBe(1);
    expect(err.trim().split('\n').at(-1)).toBe(
      'error: run #1: 28 of 32 items failed (87.5 %), above eval.max_failure_rate 0.1; its scores leave those items out (see the failures above)',
    );

    // Retrying with judge run: the same 28 stay ungraded, so it is an error for scripts too.
    let jerr = '';
    const jcode = await runCli(
      [
        'node',
        'zhujiu',
        'judge',
        'run',
        '--model',
        'cand',
        '--suite',
        'tiny-scoring',
        '--judge',
        'judge-x',
      ],
      {
        out: () => {},
        err: (s) => {
          jerr += `${s}\n`;
        },
      },
    );
    process.exitCode = 0;
    expect(jcode).toBe(1);
    expect(jerr.trim().split('\n').at(-1)).toBe(
      'error: 28 of 32 answers have no grade of judge-x (87.5 %), above eval.max_failure_rate 0.1; run the same command again to retry only them',
    );

    const db = await openDb({ kind: 'pglite', dataDir: data.dataDir });
    try {
      const s = (await runSummary(db.db, 1))!;
      expect(s.run.status).toBe('succeeded'); // stored as finished: its 4 grades count on the board
      const chat = summaryContent(s, 0.1);
      expect(chat.text).toBe(
        'Evaluation run #1 finished with 28 judge failures: cand on tiny-scoring',
      );
      expect(chat.footer).toContain(
        'Warning: 28 of 32 items failed (87.5 %), above eval.max_failure_rate 0.1; its scores leave those items out.',
      );
      // The bound is inclusive: at 1 (or 0.875) the run is not an error; every failure still says so.
      expect(failureRateProblem(s, 1)).toBeUndefined();
      expect(failureRateProblem(s, 0.875)).toBeUndefined();
      expect(summaryContent(s, 1).footer).not.toContain('Warning');
    } finally {
      await db.close();
    }
  });
});
