/**
 * One item of a run (eval/run-item): prompt limit, model failures, a client that throws, an aborted request,
 * the dataset's metric, the judge's stored grade.
 */
import { describe, expect, it } from 'vitest';
import type { Rubric } from '../../../src/eval/judge/rubrics.ts';
import {
  type ItemContext,
  judgedOutcome,
  metricOutcome,
  workItem,
} from '../../../src/eval/run-item.ts';
import type { JudgeScoreRow } from '../../../src/storage/judge-scores.ts';
import { client, dataset, ok } from './fakes.ts';

const ds = dataset('d', ['a']);
const entry = { ds, item: ds.items[0] as (typeof ds.items)[number] };
const ctx = (c = client(() => ok('ref-a')), over: Partial<ItemContext> = {}): ItemContext => ({
  client: c,
  signal: new AbortController().signal,
  maxPromptChars: 1000,
  suite: 's',
  ...over,
});

describe('workItem', () => {
  it('asks the model with the item id and template version, and scores with the metric', async () => {
    const c = client(() => ok('ref-a', { responseId: 7, promptTokens: 3, completionTokens: 2 }));
    const o = await workItem(ctx(c), 42, entry);
    expect(c.requests[0]).toMatchObject({ itemId: 42, templateVersion: 't1' });
    expect(o).toEqual({
      kind: 'done',
      responseId: 7,
      cached: false,
      latencyMs: 5,
      promptTokens: 3,
      completionTokens: 2,
      score: {
        method: 'metric',
        metric: 'exact_match',
        profile: 'default',
        raw: 1,
        max: 1,
        detail: undefined,
      },
    });
  });

  it('an item no longer in the suite, or a prompt too long, fails without a call', async () => {
    const c = client(() => ok('x'));
    expect(await workItem(ctx(c), 1, undefined)).toMatchObject({
      kind: 'failed',
      code: 'not_in_suite',
    });
    const long = await workItem(ctx(c, { maxPromptChars: 2 }), 1, entry);
    expect(long).toMatchObject({ kind: 'failed', code: 'prompt_too_long', latencyMs: 0 });
    expect((long as { message: string }).message).toContain('eval.max_prompt_chars (2)');
    expect(c.requests).toHaveLength(0);
  });

  it("a model failure is the item's failure; an aborted request is given back (no outcome)", async () => {
    const fail = client(() => ({ ok: false, code: 'timeout', message: 'slow', latencyMs: 60 }));
    expect(await workItem(ctx(fail), 1, entry)).toEqual({
      kind: 'failed',
      code: 'timeout',
      message: 'slow',
      latencyMs: 60,
    });
    const aborted = client(() => ({
      ok: false,
      code: 'aborted',
      message: 'cancelled',
      latencyMs: 1,
    }));
    expect(await workItem(ctx(aborted), 1, entry)).toBeUndefined();
  });

  it('a client that throws is failure client_error, with its cause', async () => {
    const c = client(() => {
      throw new Error('unreadable reply');
    });
    expect(await workItem(ctx(c), 1, entry)).toMatchObject({
      kind: 'failed',
      code: 'client_error',
      message: 'the model client failed: unreadable reply',
    });
  });

  it('hands the answer to the judge for the datasets it grades', async () => {
    const graded: number[] = [];
    const o = await workItem(
      ctx(undefined, {
        judge: {
          grades: (d) => d.name === 'd',
          grade: async (itemId) => {
            graded.push(itemId);
            return { kind: 'failed', code: 'judge_timeout', message: 'x', latencyMs: 1 };
          },
        },
      }),
      9,
      entry,
    );
    expect(graded).toEqual([9]);
    expect(o).toMatchObject({ code: 'judge_timeout' });
  });
});

describe('metricOutcome', () => {
  it('a metric that throws is failure score_error with the latency of the answer', () => {
    const bad = dataset('d', ['a'], {
      score: () => {
        throw new Error('no number');
      },
    });
    expect(metricOutcome({ ds: bad, item: entry.item }, ok('x', { latencyMs: 12 }))).toEqual({
      kind: 'failed',
      code: 'score_error',
      message: 'scoring failed: no number',
      latencyMs: 12,
    });
  });
});

describe('judgedOutcome', () => {
  const rubric = { name: 'helpful', version: 2 } as unknown as Rubric;
  const scoring = dataset('s', ['a'], { method: 'scoring' });
  const row = (over: Partial<JudgeScoreRow>) =>
    ({ status: 'judged', rawScore: 7, maxScore: 10, safetyFlag: false, ...over }) as JudgeScoreRow;

  it('the grade, capped at its maximum, under the rubric as profile', () => {
    expect(judgedOutcome(row({ rawScore: 12 }), ok('x'), scoring, rubric, 'j')).toMatchObject({
      kind: 'done',
      score: {
        method: 'scoring',
        metric: 'judge',
        profile: 'helpful@2',
        raw: 10,
        max: 10,
        detail: { judge: 'j', judge_score: 12, safety_violation: false },
      },
    });
  });

  it('a safety violation scores 0; no stored grade is judge_missing', () => {
    expect(judgedOutcome(row({ safetyFlag: true }), ok('x'), scoring, rubric, 'j')).toMatchObject({
      score: { raw: 0, max: 10 },
    });
    expect(judgedOutcome(undefined, ok('x'), scoring, rubric, 'j')).toMatchObject({
      kind: 'failed',
      code: 'judge_missing',
      message: 'judge j stored no grade for this item',
    });
    expect(judgedOutcome(row({ status: 'failed' }), ok('x'), scoring, rubric, 'j')).toMatchObject({
      code: 'judge_missing',
    });
  });
});
