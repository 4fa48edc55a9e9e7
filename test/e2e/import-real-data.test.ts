/**
 * Imports of the full real data sets, on every backend: the six AlpacaEval models' recorded outputs (805
 * instructions each) and the 200,000 public Chatbot Arena votes. Heavy (minutes on a busy machine), so they run
 * with `npm run test:e2e`; `npm test` checks the same rules on small files (test/app/import/).
 * Skipped (with a message) when ../shared/data is absent.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBattles } from '../../src/import/battles.ts';
import { importOutputs } from '../../src/import/outputs.ts';
import { findModel } from '../../src/storage/models.ts';
import { countResponses } from '../../src/storage/responses.ts';
import { pairVoteCounts } from '../../src/storage/votes.ts';
import { backends, countRows, freshDb, type TestDb } from '../helpers/db.ts';
import { hasSharedData, sharedData } from '../helpers/shared-data.ts';

const DIR = ['outputs', 'alpaca_eval', 'model_outputs'] as const;

describe.skipIf(!hasSharedData(...DIR)).each(backends())(
  'import outputs: the six real AlpacaEval files on %s',
  (backend) => {
    let d: TestDb;
    beforeAll(async () => {
      d = await freshDb(backend);
    });
    afterAll(async () => d?.destroy());

    it('stores exactly 805 responses per model, and a second run adds none', async () => {
      const files = readdirSync(sharedData(...DIR))
        .filter((f) => f.endsWith('.json'))
        .sort();
      expect(files.length).toBe(6);
      for (const f of files) {
        const model = f.replace(/\.json$/, '');
        const r = await importOutputs(d.db, { file: sharedData(...DIR, f), model });
        expect(r).toMatchObject({
          model,
          rows: 805,
          added: 805,
          skipped: 0,
          dataset: 'alpaca_eval',
        });
        const m = await findModel(d.db, model);
        expect(await countResponses(d.db, m?.id as number)).toBe(805);
      }
      // The instructions are shared: 805 items in all, not 6 × 805.
      expect(await countRows(d, 'items')).toBe(805);
      for (const f of files) {
        const r = await importOutputs(d.db, {
          file: sharedData(...DIR, f),
          model: f.replace(/\.json$/, ''),
        });
        expect(r.added).toBe(0);
      }
      expect(await countRows(d, 'responses')).toBe(6 * 805);
    });
  },
);

describe.skipIf(!hasSharedData('arena', 'battles.jsonl')).each(backends())(
  'import battles: the 200,000 real votes on %s',
  (backend) => {
    let d: TestDb;
    beforeAll(async () => {
      d = await freshDb(backend);
    });
    afterAll(async () => d?.destroy());

    it('stores the 200,000 real votes once, with the pair counts intact', async () => {
      const file = sharedData('arena', 'battles.jsonl');
      const r = await importBattles(d.db, { file, source: 'arena-2024-08' });
      expect(r).toEqual({
        source: 'arena-2024-08',
        rows: 200_000,
        added: 200_000,
        skipped: 0,
        duplicates: 0,
        models: 129,
      });
      expect(await countRows(d, 'votes')).toBe(200_000);
      // An imported vote is stored whole in `votes`: no vote event is logged for it.
      expect(await countRows(d, 'vote_events')).toBe(0);
      // Imported votes count only when their source is asked for.
      expect(await pairVoteCounts(d.db)).toEqual([]);
      const totals = (await pairVoteCounts(d.db, undefined, ['arena-2024-08'])).reduce(
        (acc, p) => ({ a: acc.a + p.a_wins, b: acc.b + p.b_wins, t: acc.t + p.ties }),
        { a: 0, b: 0, t: 0 },
      );
      // README of the data: 65,485 model_a, 65,436 model_b, 33,768 tie + 35,311 tie (bothbad).
      expect(totals).toEqual({ a: 65_485, b: 65_436, t: 33_768 + 35_311 });
      const again = await importBattles(d.db, { file, source: 'arena-2024-08' });
      expect(again.added).toBe(0);
      expect(await countRows(d, 'votes')).toBe(200_000);
    });
  },
);
