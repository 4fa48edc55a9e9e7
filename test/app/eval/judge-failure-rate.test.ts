/**
 * A run whose judge failed on most items is not a success (README "Models and evaluation runs"): `zhujiu eval`
 * says "finished with 28 judge failures" and exits 1 above `eval.max_failure_rate` (answer and judge failures
 * alike); the chat summary says the same. In-process CLI on one open embedded database, a loopback judge that gives a
 * verdict on 4 of 32 answers.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryContent } from '../../../src/bot/eval-reporter.ts';
import { failureRateProblem, runSummary } from '../../../src/eval/summary.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const N = 32;
const GRADED = 4;

describe('a run with judge failures', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-judgefail-'));
  const cfg = join(root, 'config');
  let fake: FakeOpenAi;
  let t: TestRuntime;

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
    t = await openTestRuntime({
      ZHUJIU_CONFIG_DIR: cfg,
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('says "finished with 28 judge failures" and exits 1 above eval.max_failure_rate; chat says so too', async () => {
    const r = await inProcess(['eval', '--model', 'cand', '--suite', 'tiny-scoring'], { rt: t.rt });
    expect(r.stdout.split('\n')[0]).toBe(
      'run #1: cand on tiny-scoring: finished with 28 judge failures',
    );
    expect(r.stdout).toContain('4 of 32 judged by judge-x');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      'error: run #1: 28 of 32 items failed (87.5 %), above eval.max_failure_rate 0.1; its scores leave those items out (see the failures above)',
    );

    // Retrying with judge run: the same 28 stay ungraded, so it is an error for scripts too.
    const j = await inProcess(
      ['judge', 'run', '--model', 'cand', '--suite', 'tiny-scoring', '--judge', 'judge-x'],
      { rt: t.rt },
    );
    expect(j.code).toBe(1);
    expect(j.stderr.trim().split('\n').at(-1)).toBe(
      'error: 28 of 32 answers have no grade of judge-x (87.5 %), above eval.max_failure_rate 0.1; run the same command again to retry only them',
    );

    {
      const s = (await runSummary(t.rt.db.db, 1))!;
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
    }

    // Step: the judge's reason is stored in English and said in the reader's language where it is shown.
    expect(j.stdout).toMatch(
      /^ {2}28 items × refused after \d+ attempts: the judge declined to give a verdict; e\.g\. /mu,
    );
    const zh = await inProcess(
      ['judge', 'run', '--model', 'cand', '--suite', 'tiny-scoring', '--judge', 'judge-x'],
      { rt: t.rt, env: { LANG: 'zh_CN.UTF-8' } },
    );
    expect(zh.stdout).toMatch(/^ {2}28 道题 × refused（尝试 \d+ 次后）：评审拒绝给出评判；/mu);
    expect(zh.stdout).not.toContain('declined');
    const s = (await runSummary(t.rt.db.db, 1))!;
    const cause = s.failureReasons.find((f) => f.code === 'judge_refused');
    expect(cause?.message).toMatch(
      /^judge judge-x: the judge declined to give a verdict \(after \d+ attempts?; retry with zhujiu judge run\)$/u,
    );
    expect(JSON.stringify(summaryContent(s, 0.1, 'zh-CN'))).toMatch(
      /评审 judge-x：评审拒绝给出评判（已尝试 \d+ 次；请用 zhujiu judge run 重试）/u,
    );
  });

  it('judge run: an unknown --model is a usage mistake (exit 2) with the known names and a "did you mean"', async () => {
    const args = [
      'judge',
      'run',
      '--model',
      'cnad',
      '--suite',
      'tiny-scoring',
      '--judge',
      'judge-x',
    ];
    const r = await inProcess(args, { rt: t.rt });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error \[input_invalid\]: --model cnad: no such model: \S*models\.yaml does not list it and no answers of it are stored; the models are cand, judge-x \(did you mean "cand"\?\)\. Give one of them/,
    );
    const zh = await inProcess(args, { rt: t.rt, env: { LANG: 'zh_CN.UTF-8' } });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('--model cnad：没有这个模型：');
    expect(zh.stderr).toContain('已有的模型：cand、judge-x（你是不是想写“cand”？）。');
    // A misspelt suite gets its "did you mean" too.
    const suite = await inProcess(
      ['judge', 'run', '--model', 'cand', '--suite', 'tiny-scorng', '--judge', 'judge-x'],
      { rt: t.rt },
    );
    expect(suite.code).toBe(2);
    expect(suite.stderr).toContain(
      '--suite tiny-scorng: no such suite; the suites are tiny-scoring (did you mean "tiny-scoring"?)',
    );
  });
});
