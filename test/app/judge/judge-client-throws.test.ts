/**
 * A judge client that throws (a reply it could not read) costs an attempt with its cause, like a request that
 * failed: the item becomes a judge failure naming the error after its attempts, and the other items are judged.
 * Before, the throw ended the whole judging (and, in an evaluation run, the run).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeAnswers } from '../../../src/eval/judge/judge.ts';
import { loadRubric } from '../../../src/eval/judge/rubrics.ts';
import type { CompletionRequest, LlmClient } from '../../../src/llm/types.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { flowBackends, freshDb } from '../../helpers/db.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe.each(flowBackends())('a judge client that throws (%s)', (backend) => {
  it('fails that item with the cause after its attempts; the others are judged', async () => {
    const d = await freshDb(backend);
    try {
      const ids = await ensureModels(d.db, ['cand'], 'recorded');
      const ds = await ensureDataset(d.db, {
        name: 'open_qa',
        ability: 'knowledge',
        method: 'scoring',
      });
      const items = await ensureItems(
        d.db,
        ds,
        ['a', 'b'].map((key) => ({ key, prompt: `问题 ${key}` })),
      );
      let asked = 0;
      const judge: LlmClient = {
        name: 'judge-x',
        maxConcurrency: 1,
        complete: async (req: CompletionRequest) => {
          asked += 1;
          if (JSON.stringify(req.messages).includes('回答 a'))
            throw new TypeError("Cannot read properties of undefined (reading 'trim')");
          return { ok: true, text: '评分：[[8]]', cached: false, latencyMs: 1 };
        },
      };
      const r = await judgeAnswers({
        db: d.db,
        judge,
        rubric: loadRubric(join(PROJECT_ROOT, 'config'), 'ten_point'),
        modelId: ids.get('cand') as number,
        maxAttempts: 3,
        targets: ['a', 'b'].map((key) => ({
          itemId: items.get(key) as number,
          question: `问题 ${key}`,
          answer: `回答 ${key}`,
        })),
      });
      expect(r.judged).toBe(1);
      expect(r.failures).toEqual([
        {
          itemId: items.get('a'),
          code: 'request_failed',
          message: "the judge client failed: Cannot read properties of undefined (reading 'trim')",
          attempts: 3,
        },
      ]);
      expect(asked).toBe(4);
    } finally {
      await d.destroy();
    }
  });
});
