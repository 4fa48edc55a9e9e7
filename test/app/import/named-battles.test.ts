/**
 * Imported votes cast with the models' names shown (`"anony": false`) are kept and left out of ratings unless
 * asked (docs/scoring.md §4.3; FastChat's elo_analysis keeps anonymous votes only).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBattles } from '../../../src/import/battles.ts';
import { createArenaLineParser } from '../../../src/import/formats/arena-battles.ts';
import { exportLine } from '../../../src/import/formats/arena-export.ts';
import { battleVoteTypes } from '../../../src/storage/arena-queries.ts';
import { exportVotePages } from '../../../src/storage/export.ts';
import { boardBattleTypes } from '../../../src/storage/leaderboard.ts';
import { pairVoteCounts } from '../../../src/storage/votes.ts';
import { backends, countRows, freshDb, type TestDb } from '../../helpers/db.ts';

describe.each(backends())('named imported votes on %s', (backend) => {
  let d: TestDb;
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-named-'));
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('named battles are stored, counted only with includeNamed, and keep "anony": false through export battles', async () => {
    // Step 1: are stored, and counted only with includeNamed
    {
      const file = join(dir, 'pub.jsonl');
      const line = (winner: string, anony?: boolean) =>
        JSON.stringify({
          model_a: 'm-one',
          model_b: 'm-two',
          winner,
          ...(anony === undefined ? {} : { anony }),
        });
      writeFileSync(
        file,
        `${[line('model_a', true), line('model_a'), line('model_b', false), line('model_b', false)].join('\n')}\n`,
      );
      const r = await importBattles(d.db, { file, source: 'pub' });
      expect(r.added).toBe(4);
      expect(await countRows(d, 'votes')).toBe(4);
      expect(await pairVoteCounts(d.db, undefined, ['pub'])).toEqual([
        { model_a: 'm-one', model_b: 'm-two', a_wins: 2, b_wins: 0, ties: 0 },
      ]);
      expect(await pairVoteCounts(d.db, undefined, ['pub'], true)).toEqual([
        { model_a: 'm-one', model_b: 'm-two', a_wins: 2, b_wins: 2, ties: 0 },
      ]);
      const types = (named: boolean) =>
        battleVoteTypes(d.db, undefined, ['pub'], named).then((ts) =>
          ts.reduce((n, t) => n + t.count, 0),
        );
      expect([await types(false), await types(true)]).toEqual([2, 4]);
      // The board leaves them out too.
      const board = await boardBattleTypes(d.db, ['pub']);
      expect(board.reduce((n, t) => n + t.count, 0)).toBe(2);
    }

    // Step 2: keep "anony": false through export battles, in both formats
    for (const format of ['fastchat', 'jsonl'] as const) {
      const lines: string[] = [];
      await exportVotePages(d.db, { source: 'pub' }, async (rows) => {
        for (const row of rows) lines.push(exportLine(row, format));
      });
      const anony = lines.map((l) => (JSON.parse(l) as { anony?: boolean }).anony);
      expect(anony, format).toEqual(
        format === 'fastchat' ? [true, true, false, false] : [undefined, undefined, false, false],
      );
      // Read back, the export rates as the file did: the two named votes are left out again.
      const parser = createArenaLineParser(`export.${format}`);
      for (const l of lines) parser.push(l);
      expect(parser.named, format).toBe(2);
    }
  });
});
