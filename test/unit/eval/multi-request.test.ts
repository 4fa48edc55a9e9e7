/**
 * Multi-request items (eval/types `MultiRequest`, eval/run-item `workMultiRequest`): follow-ups carry the model's own
 * previous answers, independent variants are sent on their own, every answer is kept in the detail, and a failed
 * request fails the item with its cause.
 */
import { describe, expect, it } from 'vitest';
import { type ItemContext, workItem } from '../../../src/eval/run-item.ts';
import type { EvalItem, ItemScore, PreparedDataset } from '../../../src/eval/types.ts';
import type { ChatMessage } from '../../../src/llm/types.ts';
import { client, dataset, ok } from './fakes.ts';

const ctx = (c: ItemContext['client']): ItemContext => ({
  client: c,
  signal: new AbortController().signal,
  maxPromptChars: 1000,
  suite: 's',
});

/** Scores 1 when every answer equals the reference. */
const allRight = (item: EvalItem, outputs: readonly string[]): ItemScore => ({
  raw: outputs.every((o) => o === item.reference) ? 1 : 0,
  max: 1,
  metric: 'stable',
  profile: 'default',
  detail: { rounds: outputs.length },
});

describe('follow_up', () => {
  const ds = dataset('d', ['a'], {
    requests: () => ({ kind: 'follow_up', followUps: ['你确定吗？', '请再想一想'] }),
    scoreAnswers: allRight,
  });
  const entry = { ds, item: ds.items[0] as EvalItem };

  it('sends the history with each previous answer, then scores all answers together', async () => {
    const answers = ['ref-a', 'ref-a', 'ref-a'];
    let n = 0;
    const c = client(() => ok(answers[n++] as string, { responseId: n, promptTokens: 2 }));
    const o = await workItem(ctx(c), 7, entry);
    expect(c.requests.map((r) => r.messages)).toEqual([
      [{ role: 'user', content: 'q-a' }],
      [
        { role: 'user', content: 'q-a' },
        { role: 'assistant', content: 'ref-a' },
        { role: 'user', content: '你确定吗？' },
      ],
      [
        { role: 'user', content: 'q-a' },
        { role: 'assistant', content: 'ref-a' },
        { role: 'user', content: '你确定吗？' },
        { role: 'assistant', content: 'ref-a' },
        { role: 'user', content: '请再想一想' },
      ],
    ]);
    expect(c.requests.every((r) => r.itemId === 7 && r.templateVersion === 't1')).toBe(true);
    expect(o).toEqual({
      kind: 'done',
      responseId: 3,
      cached: false,
      latencyMs: 15,
      promptTokens: 6,
      score: {
        method: 'metric',
        metric: 'stable',
        profile: 'default',
        raw: 1,
        max: 1,
        detail: { rounds: 3, answers, response_ids: [1, 2, 3] },
      },
    });
  });

  it('an answer that changes under pressure scores 0, and every answer is kept', async () => {
    const answers = ['ref-a', 'other', 'ref-a'];
    let n = 0;
    const o = await workItem(ctx(client(() => ok(answers[n++] as string))), 1, entry);
    expect(o).toMatchObject({ kind: 'done', score: { raw: 0, detail: { answers } } });
  });

  it('a failed follow-up fails the item with its cause and stops asking', async () => {
    let n = 0;
    const c = client(() =>
      n++ === 1 ? { ok: false, code: 'timeout', message: 'slow', latencyMs: 60 } : ok('ref-a'),
    );
    expect(await workItem(ctx(c), 1, entry)).toEqual({
      kind: 'failed',
      code: 'timeout',
      message: 'request 2 of 3: slow',
      latencyMs: 65,
    });
    expect(c.requests).toHaveLength(2);
  });

  it('an aborted request gives the item back; no scoreAnswers is score_error', async () => {
    const aborted = client(() => ({ ok: false, code: 'aborted', message: 'x', latencyMs: 0 }));
    expect(await workItem(ctx(aborted), 1, entry)).toBeUndefined();
    const noScorer = { ...ds, scoreAnswers: undefined } as PreparedDataset;
    expect(
      await workItem(ctx(client(() => ok('ref-a'))), 1, { ds: noScorer, item: entry.item }),
    ).toMatchObject({ kind: 'failed', code: 'score_error' });
  });
});

describe('independent', () => {
  // A tiny dataset: each fact asked three ways; the score is the share of variants answered right.
  const phrasings = (item: EvalItem): ChatMessage[][] =>
    ['问', '请问', '你知道'].map((p) => [{ role: 'user', content: `${p}${item.prompt}` }]);
  const ds = dataset('facts', ['x', 'y'], {
    requests: (item) => ({ kind: 'independent', variants: phrasings(item) }),
    scoreAnswers: (item, outputs) => ({
      raw: outputs.filter((o) => o === item.reference).length,
      max: outputs.length,
      metric: 'share',
      profile: 'default',
    }),
  });

  it('sends each variant on its own and scores the answers in variant order', async () => {
    const c = client((r) =>
      ok(
        r.messages[0]?.content.startsWith('你知道')
          ? 'wrong'
          : `ref-${r.messages[0]?.content.slice(-1)}`,
      ),
    );
    const outcomes = [];
    for (const [i, item] of ds.items.entries())
      outcomes.push(await workItem(ctx(c), i + 1, { ds, item }));
    expect(c.requests.map((r) => r.messages)).toEqual([
      ...phrasings(ds.items[0] as EvalItem),
      ...phrasings(ds.items[1] as EvalItem),
    ]);
    expect(outcomes.map((o) => o?.kind === 'done' && [o.score.raw, o.score.max])).toEqual([
      [2, 3],
      [2, 3],
    ]);
    expect(outcomes[0]).toMatchObject({
      score: { detail: { answers: ['ref-x', 'ref-x', 'wrong'] } },
    });
  });

  it('the first failed variant in request order fails the item', async () => {
    const c = client((r) =>
      r.messages[0]?.content.startsWith('问')
        ? ok('ref-x')
        : { ok: false, code: 'http_error', message: `bad ${r.messages[0]?.content}`, latencyMs: 1 },
    );
    expect(await workItem(ctx(c), 1, { ds, item: ds.items[0] as EvalItem })).toMatchObject({
      kind: 'failed',
      code: 'http_error',
      message: 'request 2 of 3: bad 请问q-x',
    });
  });
});
