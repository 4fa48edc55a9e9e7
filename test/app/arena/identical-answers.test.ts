/**
 * Identical answers never battle (docs/scoring.md §4.1): the pairs of the public AlpacaEval outputs whose two
 * answers are the same text once whitespace is normalised (52 among its six models) are each stored as the only
 * answers to an item, and selection posts none of them. Skipped, saying so, when the outputs are not on this
 * machine (../shared/data/outputs/alpaca_eval/model_outputs, or under ZHUJIU_SHARED_DATA).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityGuard } from '../../../src/arena/identity-guard.ts';
import { sameAnswer, selectBattle } from '../../../src/arena/selection.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createRng } from '../../../src/core/rng.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

const OUTPUTS = ['outputs', 'alpaca_eval', 'model_outputs'];
const DIR = sharedData(...OUTPUTS);
const present = hasSharedData(...OUTPUTS);

interface Pair {
  readonly instruction: string;
  readonly a: string;
  readonly b: string;
  readonly outputA: string;
  readonly outputB: string;
}

function identicalPairs(): Pair[] {
  const byModel = new Map<string, Map<string, string>>();
  for (const f of readdirSync(DIR)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const rows = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as {
      instruction: string;
      output: string;
    }[];
    byModel.set(f.replace(/\.json$/u, ''), new Map(rows.map((r) => [r.instruction, r.output])));
  }
  const models = [...byModel.keys()];
  const out: Pair[] = [];
  for (let i = 0; i < models.length; i++) {
    for (let j = i + 1; j < models.length; j++) {
      const a = models[i] as string;
      const b = models[j] as string;
      const ma = byModel.get(a) as Map<string, string>;
      const mb = byModel.get(b) as Map<string, string>;
      for (const [instruction, outputA] of ma) {
        const outputB = mb.get(instruction);
        if (outputB !== undefined && sameAnswer(outputA, outputB))
          out.push({ instruction, a, b, outputA, outputB });
      }
    }
  }
  return out;
}

describe.each(flowBackends())('identical answers (%s)', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it.skipIf(!present)('none of the 52 identical AlpacaEval pairs is posted', async () => {
    const pairs = identicalPairs();
    expect(pairs.length).toBe(52);
    const ds = await ensureDataset(d.db, {
      name: 'alpaca-identical',
      ability: 'language',
      method: 'comparative',
      language: 'en',
    });
    const items = await ensureItems(
      d.db,
      ds,
      pairs.map((p, k) => ({ key: `pair${k}`, prompt: p.instruction })),
    );
    const models = await ensureModels(
      d.db,
      [...new Set(pairs.flatMap((p) => [p.a, p.b]))],
      'recorded',
    );
    await insertResponses(
      d.db,
      pairs.flatMap((p, k) =>
        [
          [p.a, p.outputA],
          [p.b, p.outputB],
        ].map(([m, output]) => ({
          modelId: models.get(m as string) as number,
          itemId: items.get(`pair${k}`) as number,
          requestHash: 'recorded',
          output: output as string,
          source: 'import',
        })),
      ),
    );
    const stats = { refused: 0, examined: 0 };
    const sel = await selectBattle(
      d.db,
      new IdentityGuard({ words: [], patterns: [] }),
      createRng(7),
      silentLogger,
      {},
      stats,
    );
    expect(sel).toBeUndefined();
    expect(stats).toEqual({ refused: 0, examined: 52, identical: 52 });
  });
});
