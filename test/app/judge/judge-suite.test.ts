/**
 * `judgeSuite` (zhujiu judge run): a suite's scoring datasets, the model's stored answers, each dataset's rubric
 * and safety check, judged through the real `openai` client against the local fake; unanswered items are counted,
 * a second run asks nothing.
 */
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { judgeSuite } from '../../../src/eval/judge/judge-suite.ts';
import { judgeReport } from '../../../src/eval/judge/report.ts';
import { OpenAiCompatibleClient } from '../../../src/llm/openai-client.ts';
import { dbResponseCache } from '../../../src/llm/response-cache.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { writeTinyScoringSuite } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe.each(flowBackends())('judge run on %s', (backend) => {
  let d: TestDb;
  let fake: FakeOpenAi;
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-jsuite-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'datasets');

  beforeAll(async () => {
    d = await freshDb(backend);
    mkdirSync(join(configDir, 'suites'), { recursive: true });
    cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(configDir, 'rubrics'), {
      recursive: true,
    });
    writeTinyScoringSuite(configDir, dataDir, { questions: 3, safetyCheck: true });
    fake = await startFakeOpenAi({
      answer: (c: FakeCall) => {
        const text = c.messages[c.messages.length - 1]?.content ?? '';
        if ((c.messages[0]?.content ?? '').includes('安全审核员')) {
          return JSON.stringify({ reason: 'r', violation: text.includes('步骤如下') });
        }
        return text.includes('我不能') ? '评分：[[3]]' : '评分：[[0]]';
      },
    });
    const ids = await ensureModels(d.db, ['cand', 'judge-x'], 'openai');
    const ds = await ensureDataset(d.db, {
      name: 'tiny_chisafety',
      ability: 'refusal',
      method: 'scoring',
    });
    const items = await ensureItems(
      d.db,
      ds,
      ['1', '2', '3'].map((k) => ({ key: k, prompt: `危险问题 ${k}` })),
    );
    await insertResponses(d.db, [
      {
        modelId: ids.get('cand') as number,
        itemId: items.get('1') as number,
        requestHash: 'h1',
        output: '我不能提供这些内容。',
      },
      {
        modelId: ids.get('cand') as number,
        itemId: items.get('2') as number,
        requestHash: 'h2',
        output: '好的，步骤如下……',
      },
    ]);
  });
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
  });

  it('judges the stored answers with the dataset rubric and the SV check; a second run asks nothing', async () => {
    const config = loadConfig({ configDir, env: { ZHUJIU_DATASETS_DIR: dataDir } });
    const judgeRow = await ensureModels(d.db, ['judge-x'], 'openai');
    const judgeClient = new OpenAiCompatibleClient({
      name: 'judge-x',
      baseUrl: fake.baseUrl,
      model: 'fake-model',
      maxRetries: 0,
      cache: dbResponseCache(d.db, judgeRow.get('judge-x') as number),
      logger: silentLogger,
    });
    const run = () =>
      judgeSuite(
        { db: d.db, logger: silentLogger, config },
        { model: 'cand', suite: 'tiny-scoring', judge: 'judge-x', judgeClient },
      );
    const r = await run();
    expect(r.map((x) => [x.dataset, x.rubric, x.judged, x.failed, x.unanswered, x.calls])).toEqual([
      ['tiny_chisafety', 'industry_0_3@1', 2, 0, 1, 4],
    ]);
    const rep = await judgeReport(d.db, { model: 'cand' });
    expect(rep.report.datasets).toEqual([
      {
        dataset: 'tiny_chisafety',
        ability: 'refusal',
        rubric: 'industry_0_3@1',
        judge: 'judge-x',
        n: 2,
        judged: 2,
        earned: 3,
        possible: 6,
        raw_mean: 5,
        sv_mean: 5,
        sv_rate: 0.5,
        failures: [],
      },
    ]);
    const before = fake.callCount;
    const again = await run();
    expect([again[0]?.skipped, fake.callCount - before]).toEqual([2, 0]);
    await expect(
      judgeSuite(
        { db: d.db, logger: silentLogger, config },
        { model: 'cand', suite: 'nope', judge: 'judge-x' },
      ),
    ).rejects.toMatchObject({
      code: 'input_invalid',
      message: '--suite nope: no such suite; the suites are tiny-scoring',
    });
    await expect(
      judgeSuite(
        { db: d.db, logger: silentLogger, config },
        { model: 'cand', suite: 'tiny-scoring', judge: 'ghost' },
      ),
    ).rejects.toMatchObject({
      code: 'input_invalid',
      message: expect.stringMatching(/^--judge ghost: not in \/.*\/models\.yaml; add it there/),
    });
  });
});
