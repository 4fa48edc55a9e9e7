/**
 * Live judging through the real `openai` client against the local OpenAI-compatible fake, with a scripted judge:
 * the safety-violation check zeroes a flagged answer and counts in the SV rate; a pairwise verdict that flips with
 * the order is a tie; a judge answering 500 on one item until retries run out leaves exactly that item failed, and
 * running again calls the judge for that item only.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { judgeAnswers, judgePairs } from '../../../src/eval/judge/judge.ts';
import { judgeReport } from '../../../src/eval/judge/report.ts';
import { loadRubric } from '../../../src/eval/judge/rubrics.ts';
import { OpenAiCompatibleClient } from '../../../src/llm/openai-client.ts';
import { dbResponseCache } from '../../../src/llm/response-cache.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { listJudgeScores } from '../../../src/storage/judge-scores.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const CONFIG = join(PROJECT_ROOT, 'config');
const logger = createLogger('silent');

const last = (c: FakeCall) => c.messages[c.messages.length - 1]?.content ?? '';
const isSafety = (c: FakeCall) => (c.messages[0]?.content ?? '').includes('安全审核员');
const isPairwise = (c: FakeCall) => (c.messages[0]?.content ?? '').includes('compare the two');

/** The scripted judge: scores read from the answer ("score=N"), "DANGER" is a violation, "BROKEN" answers 500. */
function scripted(c: FakeCall) {
  const text = last(c);
  const answer = text.split('[回答 / Answer')[1] ?? text;
  if (isSafety(c)) {
    if (answer.includes('NOVERDICT')) return 'I am not sure about this one.';
    return JSON.stringify({ reason: 'checked', violation: answer.includes('DANGER') });
  }
  if (isPairwise(c)) {
    const a = text.split("[The start of Assistant A's answer]")[1]?.split('[The end')[0] ?? '';
    if (text.includes('BIASED')) return 'Assistant A is better. [[A]]'; // position bias: always the first
    return a.includes('GOOD')
      ? '{"reason":"A is right","winner":"A"}'
      : '{"reason":"B","winner":"B"}';
  }
  if (answer.includes('BROKEN')) return { status: 500, content: 'upstream exploded' };
  // A reasoning judge: draft verdicts inside <think>, the verdict after it.
  if (answer.includes('THINKER'))
    return '<think>Rating: [[3]]? No, maybe [[5]].</think>The answer is fine. Rating: [[7]]';
  const m = /score=(\d+)/.exec(answer);
  return m ? `The answer is fine. Rating: [[${m[1]}]]` : 'I cannot judge this.';
}

describe.each(flowBackends())('live judge against the fake endpoint on %s', (backend) => {
  let d: TestDb;
  let fake: FakeOpenAi;
  let judge: OpenAiCompatibleClient;
  let modelId: number;
  let baselineId: number;
  let items: Map<string, number>;

  beforeAll(async () => {
    d = await freshDb(backend);
    fake = await startFakeOpenAi({ answer: scripted });
  });
  // Each test: an empty database with the three models, the dataset and its items; a judge client whose cache
  // is the new judge row; the fake's calls forgotten and its scripted answers back.
  useCleanRows(
    () => d,
    async () => {
      fake.reset();
      fake.setAnswer(scripted);
      const ids = await ensureModels(d.db, ['judge-m', 'cand', 'base'], 'openai');
      modelId = ids.get('cand') as number;
      baselineId = ids.get('base') as number;
      judge = new OpenAiCompatibleClient({
        name: 'judge-m',
        baseUrl: fake.baseUrl,
        model: 'fake-model',
        params: { temperature: 0 },
        maxRetries: 0,
        cache: dbResponseCache(d.db, ids.get('judge-m') as number),
        logger,
      });
      const ds = await ensureDataset(d.db, {
        name: 'open_qa',
        ability: 'safety',
        method: 'scoring',
      });
      items = await ensureItems(
        d.db,
        ds,
        ['q1', 'q2', 'q3', 'q4', 'p1', 'p2', 'r1'].map((k) => ({
          key: k,
          prompt: `question ${k}`,
          reference: 'ref',
        })),
      );
    },
  );
  afterAll(async () => {
    await fake?.close();
    await d?.destroy();
  });

  const target = (key: string, answer: string) => ({
    itemId: items.get(key) as number,
    question: `question ${key}`,
    reference: 'ref',
    answer,
  });

  it("a reasoning judge's verdict is read from its answer, not from the drafts in its reasoning", async () => {
    const thinkerCand = (await ensureModels(d.db, ['think-cand'], 'openai')).get(
      'think-cand',
    ) as number;
    const r = await judgeAnswers({
      db: d.db,
      judge,
      rubric: loadRubric(CONFIG, 'ten_point'),
      modelId: thinkerCand,
      targets: [target('r1', 'THINKER')],
    });
    expect({ judged: r.judged, failed: r.failed }).toEqual({ judged: 1, failed: 0 });
    const rows = await listJudgeScores(d.db, { modelId: thinkerCand });
    expect(rows.filter((x) => x.itemKey === 'r1').map((x) => x.rawScore)).toEqual([7]);
  });

  it('an SV-flagged answer scores 0 adjusted and counts in the SV rate', async () => {
    const rubric = loadRubric(CONFIG, 'ten_point');
    const safety = loadRubric(CONFIG, 'safety_violation');
    const r = await judgeAnswers({
      db: d.db,
      judge,
      rubric,
      safety,
      modelId,
      targets: [target('q1', 'score=9 DANGER'), target('q2', 'score=8'), target('q3', 'score=6')],
    });
    expect({ judged: r.judged, failed: r.failed, calls: r.calls }).toEqual({
      judged: 3,
      failed: 0,
      calls: 6,
    });
    // the rubric's version and the judge model travel with the request (cache key) and the stored score
    const scoring = fake.calls.filter((c) => !isSafety(c));
    expect(scoring[0]?.body.response_format).toMatchObject({ type: 'json_schema' });
    const rows = await listJudgeScores(d.db, { modelId });
    expect(
      rows.map((x) => [x.itemKey, x.judge, x.rubric, x.rubricVersion, x.rawScore, x.safetyFlag]),
    ).toEqual([
      ['q1', 'judge-m', 'ten_point', '1', 9, true],
      ['q2', 'judge-m', 'ten_point', '1', 8, false],
      ['q3', 'judge-m', 'ten_point', '1', 6, false],
    ]);
    const rep = await judgeReport(d.db, { model: 'cand' });
    expect(rep.report.datasets).toEqual([
      {
        dataset: 'open_qa',
        ability: 'safety',
        rubric: 'ten_point@1',
        judge: 'judge-m',
        n: 3,
        judged: 3,
        earned: 23,
        possible: 30,
        raw_mean: Number((23 / 3).toFixed(6)),
        sv_mean: Number((14 / 3).toFixed(6)),
        sv_rate: Number((1 / 3).toFixed(6)),
        failures: [],
      },
    ]);
    expect(rep.summaries[0]?.delta).toBeCloseTo(-3, 12);
    // judged again: nothing is asked
    const before = fake.callCount;
    const again = await judgeAnswers({
      db: d.db,
      judge,
      rubric,
      safety,
      modelId,
      targets: [target('q1', 'score=9 DANGER'), target('q2', 'score=8'), target('q3', 'score=6')],
    });
    expect([again.skipped, fake.callCount - before]).toEqual([3, 0]);
  });

  it('a failed SV check is a judge failure for the raw and the SV mean alike, listed; raw + Δ = SV', async () => {
    const svCand = (await ensureModels(d.db, ['sv-cand'], 'openai')).get('sv-cand') as number;
    const rubric = loadRubric(CONFIG, 'ten_point');
    const safety = loadRubric(CONFIG, 'safety_violation');
    const targets = [
      target('q1', 'score=9 DANGER'),
      target('q2', 'score=8'),
      target('q3', 'score=2 NOVERDICT'),
    ];
    const r = await judgeAnswers({ db: d.db, judge, rubric, safety, modelId: svCand, targets });
    expect({ judged: r.judged, failed: r.failed }).toEqual({ judged: 2, failed: 1 });
    expect(r.failures).toEqual([
      {
        itemId: items.get('q3'),
        code: 'safety_check_failed',
        message: expect.stringContaining('unparseable'),
        attempts: 3,
      },
    ]);
    const rep = await judgeReport(d.db, { model: 'sv-cand' });
    // q3's grade (2) is kept in storage but is in neither mean: raw (9 + 8) / 2, SV (0 + 8) / 2
    expect(rep.report.datasets).toEqual([
      expect.objectContaining({
        n: 3,
        judged: 2,
        earned: 17,
        possible: 20,
        raw_mean: 8.5,
        sv_mean: 4,
        sv_rate: 0.5,
        failures: [{ item: 'q3', reason: 'safety_check' }],
      }),
    ]);
    const s = rep.summaries[0]!;
    expect(s.label).toBe('2 of 3 judged');
    expect(s.rawMean! + s.delta!).toBeCloseTo(s.svMean!, 12);
    // the check recovers: only q3's SV check is asked again, its stored grade reused
    fake.reset();
    fake.setAnswer((c) =>
      isSafety(c) && last(c).includes('NOVERDICT')
        ? '{"reason":"fine","violation":false}'
        : scripted(c),
    );
    const again = await judgeAnswers({ db: d.db, judge, rubric, safety, modelId: svCand, targets });
    expect({ judged: again.judged, failed: again.failed, calls: fake.callCount }).toEqual({
      judged: 3,
      failed: 0,
      calls: 1,
    });
    expect(fake.calls.every(isSafety)).toBe(true);
    fake.setAnswer(scripted);
    const rep2 = await judgeReport(d.db, { model: 'sv-cand' });
    expect(rep2.report.datasets[0]).toMatchObject({
      judged: 3,
      raw_mean: Number((19 / 3).toFixed(6)),
      failures: [],
    });
  });

  it('a 500 on one item until retries run out leaves exactly that item failed; running again asks only it', async () => {
    const rubric = loadRubric(CONFIG, 'industry_0_3');
    const targets = [
      target('q1', 'score=3'),
      target('q4', 'score=2 BROKEN'),
      target('q2', 'score=1'),
    ];
    fake.reset();
    const r = await judgeAnswers({ db: d.db, judge, rubric, modelId, targets, maxAttempts: 3 });
    expect({ judged: r.judged, failed: r.failed }).toEqual({ judged: 2, failed: 1 });
    expect(r.failures).toEqual([
      {
        itemId: items.get('q4'),
        code: 'request_failed',
        message: expect.stringContaining('500'),
        attempts: 3,
      },
    ]);
    expect(fake.calls.filter((c) => last(c).includes('BROKEN'))).toHaveLength(3);
    let rep = await judgeReport(d.db, { model: 'cand', judge: 'judge-m' });
    const row = rep.report.datasets.find((x) => x.rubric === 'industry_0_3@1');
    expect(row).toMatchObject({ n: 3, judged: 2, earned: 4, possible: 6, raw_mean: 6.666667 });
    expect(rep.summaries.find((s) => s.key.includes('industry_0_3'))?.label).toBe('2 of 3 judged');

    // the endpoint recovers: only the failed item is asked again
    fake.reset();
    fake.setAnswer((c) =>
      last(c).includes('BROKEN') ? '{"reason":"ok now","score":2}' : scripted(c),
    );
    const again = await judgeAnswers({ db: d.db, judge, rubric, modelId, targets, maxAttempts: 3 });
    expect({ judged: again.judged, failed: again.failed, skipped: again.skipped }).toEqual({
      judged: 3,
      failed: 0,
      skipped: 2,
    });
    expect(fake.callCount).toBe(1);
    expect(last(fake.calls[0] as FakeCall)).toContain('BROKEN');
    fake.setAnswer(scripted);
    rep = await judgeReport(d.db, { model: 'cand', judge: 'judge-m' });
    expect(rep.report.datasets.find((x) => x.rubric === 'industry_0_3@1')).toMatchObject({
      n: 3,
      judged: 3,
      earned: 6,
    });
  });

  it('unparseable replies are retried as new requests (not served from the cache), then stored as failures', async () => {
    const rubric = loadRubric(CONFIG, 'ten_point');
    fake.reset();
    const r = await judgeAnswers({
      db: d.db,
      judge,
      rubric,
      modelId: baselineId,
      targets: [target('q1', 'no score marker here')],
      maxAttempts: 2,
    });
    expect(r.failures).toEqual([
      {
        itemId: items.get('q1'),
        code: 'refused',
        message: 'the judge declined to give a verdict',
        attempts: 2,
      },
    ]);
    expect(fake.callCount).toBe(2);
    const rep = await judgeReport(d.db, { model: 'base' });
    expect(rep.report.datasets[0]).toMatchObject({ n: 1, judged: 0, raw_mean: null, earned: 0 });
  });

  it('a pairwise verdict that flips with the order is a tie', async () => {
    const rubric = loadRubric(CONFIG, 'pairwise');
    fake.reset();
    const r = await judgePairs({
      db: d.db,
      judge,
      rubric,
      modelId,
      baselineModelId: baselineId,
      targets: [
        { ...target('p1', 'BIASED answer one'), baselineAnswer: 'BIASED answer two' },
        { ...target('p2', 'GOOD answer'), baselineAnswer: 'weak answer' },
      ],
    });
    expect({ judged: r.judged, failed: r.failed }).toEqual({ judged: 2, failed: 0 });
    expect(fake.callCount).toBe(4); // both orders of both items
    const rows = await listJudgeScores(d.db, { modelId, baselineModelId: baselineId });
    expect(rows.map((x) => [x.itemKey, x.preference])).toEqual([
      ['p1', 1.5],
      ['p2', 2],
    ]);
    const rep = await judgeReport(d.db, { model: 'cand', baseline: 'base' });
    expect(rep.report.pairwise).toEqual([
      {
        baseline: 'base',
        judge: 'judge-m',
        n: 2,
        win_rate: 75,
        standard_error: 25,
        discrete_win_rate: 75,
      },
    ]);
  });
});
