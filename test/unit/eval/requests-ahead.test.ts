/**
 * What a first `zhujiu eval` sends ahead (eval/requests-ahead): the run's single-request items in the run's order of
 * work, as the run sends them; and nothing at all unless the database is new and the configuration alone shows
 * the run can start.
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig, SuiteConfig } from '../../../src/config/schema.ts';
import { createLogger } from '../../../src/core/logger.ts';
import {
  type AheadOptions,
  requestsInWorkOrder,
  sendRequestsAhead,
} from '../../../src/eval/requests-ahead.ts';
import { planItems } from '../../../src/eval/run-plan.ts';
import { dataset } from './fakes.ts';

describe('requests in the order of work', () => {
  const a = dataset('a', ['a0', 'a1', 'a2', 'a3']);
  const b = dataset('b', ['b0', 'b1']);

  it('are the run’s planned items in plan order, with their messages and template version, no item id', () => {
    const ids = [a, b].map((ds, d) => new Map(ds.items.map((item, j) => [item.key, 10 * d + j])));
    const { planned, index } = planItems([a, b], [a.items, b.items], ids);
    const expected = planned.map((p) => `q-${index.get(p.itemId)?.item.key}`);
    const got = [...requestsInWorkOrder([a, b], null, 1000)];
    expect(got.map((r) => r.messages[0]?.content)).toEqual(expected);
    expect(got[0]).toEqual({
      messages: [{ role: 'user', content: 'q-a0' }],
      templateVersion: 't1',
    });
  });

  it('keep to the item limit, and leave out multi-request items and prompts too long to send', () => {
    const multi = dataset('m', ['m0'], {
      requests: () => ({ kind: 'follow_up', followUps: ['?'] }),
    });
    const long = dataset('l', ['l0'], {
      messages: () => [{ role: 'user', content: 'x'.repeat(11) }],
    });
    const got = [...requestsInWorkOrder([a, multi, long, b], 1, 10)];
    expect(got.map((r) => r.messages[0]?.content)).toEqual(['q-a0', 'q-b0']);
  });
});

describe('sending ahead', () => {
  const model = {
    name: 'm',
    provider: 'openai',
    base_url: 'http://127.0.0.1:9/v1',
    model: 'x',
  } as ModelConfig;
  const keyed = { ...model, name: 'keyed', api_key_env: 'KEYED_KEY' } as ModelConfig;
  const recorded = { name: 'rec', provider: 'recorded' } as ModelConfig;
  const metrics = { name: 'mini', datasets: [{ name: 'c3', method: 'metrics' }] } as SuiteConfig;
  const scoring = { name: 'judged', datasets: [{ name: 's', method: 'scoring' }] } as SuiteConfig;
  /** Options whose datasets never come: nothing is ever sent. */
  const options = (over: Partial<AheadOptions> = {}): AheadOptions => ({
    config: {
      models: [model, keyed, recorded],
      suites: new Map([
        ['mini', metrics],
        ['judged', scoring],
      ]),
      datasetsDir: '/nowhere',
      datasetsCacheDir: '/nowhere/cache',
      apiKeyFor: () => undefined,
    } as unknown as AheadOptions['config'],
    judgeModel: null,
    model: 'm',
    suite: 'mini',
    limit: null,
    datasets: new Promise(() => undefined),
    maxPromptChars: 1000,
    newDatabase: true,
    logger: createLogger('silent'),
    ...over,
  });

  it('makes the configured model’s client, for that configuration entry, on a new database', () => {
    const ahead = sendRequestsAhead(options());
    expect(ahead?.model).toBe(model);
    ahead?.stop();
  });

  it.each([
    ['a database that is not new', { newDatabase: false }],
    ['an unknown suite', { suite: 'nope' }],
    ['an unknown model', { model: 'nope' }],
    ['a recorded model', { model: 'rec' }],
    ['a model whose key variable is unset', { model: 'keyed' }],
    ['a scoring suite without judge.model', { suite: 'judged' }],
    ['a scoring suite whose judge is not configured', { suite: 'judged', judgeModel: 'ghost' }],
  ] as const)('sends nothing for %s', (_, over) => {
    expect(sendRequestsAhead(options(over))).toBeUndefined();
  });

  it('sends for a scoring suite whose judge is usable', () => {
    const ahead = sendRequestsAhead(options({ suite: 'judged', judgeModel: 'm' }));
    expect(ahead).toBeDefined();
    ahead?.stop();
  });
});
