/**
 * Evaluation runs end to end against the local fake OpenAI-compatible server, driven by the real `openai` client:
 * a 200-item smoke-style mix (C3, OCNLI, CMRC 2018 in their real formats, prepared and scored by the real loaders)
 * with scripted answers gives the scripted accuracy exactly; a 429 with Retry-After is waited out; a 500 is retried
 * and then recorded as that item's failure while the run goes on; the same run again makes zero calls; changing
 * only the temperature, the base URL or the model makes new calls. Plus: one active run per model + suite,
 * cancellation, and a recorded model with a missing answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelConfig, modelsFileSchema } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { EvalService } from '../../../src/eval/service.ts';
import { failureLine, runSummary, summaryJson } from '../../../src/eval/summary.ts';
import { getRun } from '../../../src/storage/eval-runs.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { backends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import {
  type FixtureItem,
  miniEvalConfig,
  scriptedAnswer,
  tagOf,
  writeSmokeFixture,
} from '../../helpers/eval-fixtures.ts';

const logger = createLogger('silent');

function openaiModel(
  name: string,
  baseUrl: string,
  extra: Record<string, unknown> = {},
): ModelConfig {
  return modelsFileSchema.parse({
    models: [
      {
        name,
        provider: 'openai',
        base_url: baseUrl,
        model: 'fake-model',
        params: { temperature: 0 },
        // Only a guard against a hang: the fake answers at once, but on a busy machine (the fake shares this
        // process with the runner and the database) a short per-attempt deadline turns pauses into SDK retries.
        timeout_ms: 120_000,
        max_concurrency: 8,
        ...extra,
      },
    ],
  }).models[0] as ModelConfig;
}

describe.each(backends())('evaluation runs on %s', (backend) => {
  let d: TestDb;
  let dir: string;
  let fake: FakeOpenAi;
  let fake2: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let service: EvalService;
  const isRight = (n: number) => n % 5 !== 0 && n % 7 !== 3;

  beforeAll(async () => {
    d = await freshDb(backend);
    dir = mkdtempSync(join(tmpdir(), 'zhujiu-eval-'));
    const fx = writeSmokeFixture(dir, { c3: 80, ocnli: 60, cmrc: 60 }, 'mini');
    items = fx.items;
    fake = await startFakeOpenAi();
    fake2 = await startFakeOpenAi();
    const models: ModelConfig[] = [
      openaiModel('m', fake.baseUrl),
      openaiModel('m-warm', fake.baseUrl, { params: { temperature: 0.5 } }),
      openaiModel('m-moved', fake2.baseUrl),
      openaiModel('m-other-id', fake.baseUrl, { model: 'fake-model-2' }),
      openaiModel('m-flaky', fake.baseUrl, { model: 'flaky' }),
      modelsFileSchema.parse({ models: [{ name: 'rec', provider: 'recorded' }] })
        .models[0] as ModelConfig,
    ];
    service = new EvalService({
      db: d.db,
      logger,
      config: miniEvalConfig(models, fx.suite, dir),
    });
  });
  afterAll(async () => {
    await fake?.close();
    await fake2?.close();
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  useCleanRows(() => d);

  /** Expected Σ earned per dataset when `isRight` decides and the `failed` tags are not scored. */
  function expected(failed: ReadonlySet<number> = new Set(), limit?: number) {
    const out = new Map<string, { n: number; earned: number }>();
    const perDataset = new Map<string, number>();
    for (const it of [...items.values()].sort((a, b) => a.n - b.n)) {
      const k = perDataset.get(it.dataset) ?? 0;
      perDataset.set(it.dataset, k + 1);
      if (limit !== undefined && k >= limit) continue;
      if (failed.has(it.n)) continue;
      const e = out.get(it.dataset) ?? { n: 0, earned: 0 };
      out.set(it.dataset, { n: e.n + 1, earned: e.earned + (isRight(it.n) ? 1 : 0) });
    }
    return out;
  }

  /** Distinct requests (first attempts): how many items were asked, whatever retries a busy machine adds. */
  const firstTries = (f: FakeOpenAi) => f.calls.filter((c) => c.attempt === 0);

  async function runToEnd(model: string, limit?: number) {
    const started = await service.start({ model, suite: 'mini', limit });
    if (!started.ok) throw new Error(started.reason);
    const outcome = await service.execute(started.run.id);
    expect(outcome).toBe('finished');
    const s = await runSummary(d.db, started.run.id);
    if (!s) throw new Error('no summary');
    return s;
  }

  it('200 items with scripted answers give the scripted accuracy exactly; a 429 is waited out; the same run again makes zero calls and gives the same scores', async () => {
    // Step: 200 items with scripted answers give the scripted accuracy exactly; a 429 is waited out
    {
      fake.reset();
      const script = scriptedAnswer(items, isRight);
      fake.setAnswer((call) =>
        tagOf(call) === 7 && call.attempt === 0
          ? { status: 429, headers: { 'retry-after': '1' } }
          : script(call),
      );
      const s = await runToEnd('m');
      expect(s.run.status).toBe('succeeded');
      expect(s.run.total).toBe(200);
      // Each of the 200 items was asked once (retries after a slow answer repeat the same body, so they are not
      // first tries), and item 7 was asked again after its 429 and then answered (no failures below).
      expect(firstTries(fake)).toHaveLength(200);
      expect(new Set(fake.calls.map(tagOf)).size).toBe(200);
      const seven = fake.calls.filter((c) => tagOf(c) === 7);
      expect(seven[0]?.attempt).toBe(0);
      expect(seven.map((c) => c.attempt)).toContain(1);
      const exp = expected();
      expect(s.datasets.map((x) => [x.dataset, x.n, x.earned, x.possible, x.failures])).toEqual(
        ['c3', 'ocnli', 'cmrc2018'].map((name) => {
          const e = exp.get(name) as { n: number; earned: number };
          return [name, e.n, e.earned, e.n, 0];
        }),
      );
      for (const x of s.datasets) {
        const e = exp.get(x.dataset) as { n: number; earned: number };
        expect(x.score).toBe(Math.round((10 * e.earned * 1e4) / e.n) / 1e4);
      }
      expect(summaryJson(s).datasets[2]).toMatchObject({
        dataset: 'cmrc2018',
        ability: 'language',
        method: 'metrics',
        metric: 'char_f1',
        profile: 'cmrc2018',
      });
      // A scripted CMRC answer is the gold (EM 1, F1 1) or 不知道 (0, 0): EM = F1 = AVERAGE = 100 × right / n.
      const cmrc = exp.get('cmrc2018') as { n: number; earned: number };
      const pct = Math.round((100 * cmrc.earned * 1e3) / cmrc.n) / 1e3;
      expect(summaryJson(s).datasets[2]).toMatchObject({ em: pct, f1: pct, average: pct });
      expect(summaryJson(s).datasets[0]).not.toHaveProperty('em');
      expect(s.promptTokens).toBeGreaterThan(0);
      const snap = s.run.config as { datasets: { template_version: string; seed: number }[] };
      expect(snap.datasets.map((x) => x.template_version)).toEqual([
        'c3-v1',
        'ocnli-v1',
        'span-zh-v1',
      ]);
    }
    // Step: the same run again makes zero calls and gives the same scores
    {
      fake.reset();
      const first = await runSummary(d.db, 1);
      const s = await runToEnd('m');
      expect(fake.callCount).toBe(0);
      expect(s.datasets).toEqual(first?.datasets);
      expect(s.promptTokens).toBe(0);
    }
  }, 60_000);

  it('changing only the temperature, the base URL or the model makes new calls', async () => {
    fake.reset();
    fake.setAnswer(scriptedAnswer(items, isRight));
    fake2.reset();
    fake2.setAnswer(scriptedAnswer(items, isRight));
    await runToEnd('m-warm', 10);
    expect(firstTries(fake)).toHaveLength(30);
    expect(fake.calls.every((c) => c.body.temperature === 0.5)).toBe(true);
    await runToEnd('m-moved', 10);
    expect(firstTries(fake2)).toHaveLength(30);
    const before = fake.callCount;
    await runToEnd('m-other-id', 10);
    expect(firstTries(fake)).toHaveLength(60);
    const third = fake.calls.slice(before);
    expect(third.length).toBeGreaterThanOrEqual(30);
    expect(third.every((c) => c.model === 'fake-model-2')).toBe(true);
  });

  it('a 500 is retried, then recorded as that item failure while the run goes on', async () => {
    fake.reset();
    const script = scriptedAnswer(items, isRight);
    fake.setAnswer((call) => (tagOf(call) === 3 ? { status: 500 } : script(call)));
    const s = await runToEnd('m-flaky', 10);
    expect(s.run.status).toBe('succeeded');
    // First try + 2 retries (max_retries), whether each attempt got its 500 or timed out.
    expect(fake.calls.filter((c) => tagOf(c) === 3)).toHaveLength(3);
    expect(firstTries(fake)).toHaveLength(30);
    const c3 = s.datasets.find((x) => x.dataset === 'c3');
    const e = expected(new Set([3]), 10).get('c3') as { n: number; earned: number };
    expect(c3).toMatchObject({ n: 9, failures: 1, earned: e.earned, possible: 9 });
    expect(s.failureReasons).toEqual([
      expect.objectContaining({
        code: 'http_error',
        n: 1,
        message: expect.stringMatching(/^HTTP 500 from 127\.0\.0\.1:\d+ after 3 attempts: /),
      }),
    ]);
    // Review #16: the item is named by dataset and key, never by its internal id.
    expect(failureLine(s.failureReasons[0]!)).toMatch(
      /^1 item × http_error: HTTP 500 .*; item c3 "/,
    );
    // The failure is not cached: a new run asks that item again, and only that one.
    fake.reset();
    fake.setAnswer(script);
    const again = await runToEnd('m-flaky', 10);
    expect(firstTries(fake).map(tagOf)).toEqual([3]);
    expect(new Set(fake.calls.map(tagOf))).toEqual(new Set([3]));
    expect(again.datasets.find((x) => x.dataset === 'c3')).toMatchObject({ n: 10, failures: 0 });
  });

  it('one active run per model and suite; cancel ends it; names are validated with the valid ones listed', async () => {
    const a = await service.start({ model: 'm', suite: 'mini' });
    expect(a.ok).toBe(true);
    const b = await service.start({ model: 'm', suite: 'mini' });
    expect(b).toMatchObject({ ok: false, reason: expect.stringMatching(/already queued/) });
    const id = a.ok ? a.run.id : 0;
    expect(await service.cancel(id)).toMatchObject({ ok: true });
    expect((await getRun(d.db, id))?.status).toBe('cancelled');
    expect(await service.execute(id)).toBe('inactive');
    expect(await service.cancel(id)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/already ended \(cancelled\)/),
    });
    expect(await service.validate('m', 'minii')).toEqual({
      ok: false,
      refusals: [
        {
          code: 'unknown_suite',
          suite: 'minii',
          valid: ['mini'],
          configFiles: expect.objectContaining({ models: expect.stringMatching(/models\.yaml$/) }),
        },
      ],
      reason: 'Unknown suite "minii". Valid suites: mini. Did you mean "mini"?',
    });
    const bad = await service.validate('mm', 'mini');
    expect(bad.ok ? '' : bad.reason).toMatch(/^Unknown model "mm"\. Valid models: m, /);
  });

  it('a recorded model with no answers fails every item as no_recorded_answer, without crashing', async () => {
    const s = await runToEnd('rec', 2);
    expect(s.run.status).toBe('failed');
    expect(s.datasets.every((x) => x.n === 0 && x.failures === 2)).toBe(true);
    expect(s.failureReasons[0]).toMatchObject({ code: 'no_recorded_answer', n: 6 });
    // Review #16: one cause for 6 items reads "6 items", with examples named by dataset and key: the first failed
    // items in the order of work, which mixes the datasets (eval/run-plan workOrder).
    expect(failureLine(s.failureReasons[0]!)).toBe(
      '6 items × no_recorded_answer: rec has no recorded answer (import its outputs with `zhujiu import outputs`); ' +
        'e.g. c3 "m/d0/0" ("材料： 材料第0段。 问题：问题 Q0 选哪个？ A. 甲0 B. 乙0 C. …"), ' +
        'ocnli "80" ("前提：前提 Q80。 假设：假设80。 问：根据前提，假设是否成立？ A. 蕴含…")',
    );
  });
});
