/**
 * `export battles` lists an imported source in the file's order, and imports use up no battle numbers they do not
 * keep:
 * - 1,200 votes imported at one time (every vote has the same timestamp): the export, read in pages of 7 through
 *   the cursor, gives the file's lines back in order (before the fix, equal timestamps came out sorted by id as
 *   text, `1001…1010, 101, 1011…`), so online Elo of the re-export equals the file's exactly;
 * - an import that fails halfway (as one stopped or killed halfway) on the embedded database leaves the battle
 *   sequence where it was:
 *   the next battle is numbered right after the last stored one (before: after every id the aborted import drew);
 *   a kept import's battles are numbered in file order and the next battle continues after them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBattles } from '../../../src/import/battles.ts';
import { exportBattles } from '../../../src/import/export-battles.ts';
import { arenaFromBattles } from '../../../src/rating/arena-data.ts';
import { computeOnlineElo } from '../../../src/rating/online-elo.ts';
import type { BattleRecord, Winner } from '../../../src/rating/types.ts';
import { createBattle, insertImportedBattles } from '../../../src/storage/battles.ts';
import { exportVotePages } from '../../../src/storage/export.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';

const WINNERS: Winner[] = ['model_a', 'model_b', 'tie', 'tie (bothbad)'];

/** 1,200 battles among 6 models, outcomes varied so that the order changes online Elo. */
function battleLines(): BattleRecord[] {
  const models = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'];
  const out: BattleRecord[] = [];
  for (let i = 0; i < 1200; i++) {
    const a = i % 6;
    const b = (a + 1 + ((i * 7) % 5)) % 6;
    out.push({
      model_a: models[a] as string,
      model_b: models[b] as string,
      winner: WINNERS[(i * 13 + (i >> 4)) % 4] as Winner,
    });
  }
  return out;
}

function collect(): { out: Writable; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { out, text: () => chunks.join('') };
}

describe.each(flowBackends())('export order and battle numbers on %s', (backend) => {
  let d: TestDb;
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-export-order-'));
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it("re-exports 1,200 votes with one timestamp in the file's order; online Elo is identical", async () => {
    const rows = battleLines();
    const file = join(dir, 'same-time.jsonl');
    writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await importBattles(d.db, {
      file,
      source: 'same-time',
      at: new Date('2026-01-01T00:00:00Z'),
      exclusiveDb: backend === 'pglite',
    });

    const pages: number[] = [];
    const keys: string[] = [];
    await exportVotePages(d.db, { source: 'same-time', pageSize: 7 }, async (page) => {
      pages.push(page.length);
      for (const v of page) keys.push(`${v.leftModel}>${v.rightModel}`);
    });
    expect(pages.length).toBe(Math.ceil(1200 / 7));
    expect(keys).toEqual(rows.map((r) => `${r.model_a}>${r.model_b}`));

    const sink = collect();
    const r = await exportBattles(d.db, sink.out, { source: 'same-time' });
    expect(r.votes).toBe(1200);
    const back = sink
      .text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as BattleRecord & { question_id: string });
    expect(back.map(({ model_a, model_b, winner }) => ({ model_a, model_b, winner }))).toEqual(
      rows,
    );
    const ids = back.map((x) => Number(x.question_id.slice('same-time-'.length)));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));

    const elo = (battles: BattleRecord[]) => {
      const data = arenaFromBattles(battles);
      const e = computeOnlineElo(data) as Float64Array;
      return Object.fromEntries(data.models.map((m, i) => [m, e[i]]));
    };
    expect(elo(back)).toEqual(elo(rows));
  });

  it.runIf(backend === 'pglite')(
    'an aborted import on the embedded database draws no battle numbers',
    async () => {
      const ids = await ensureModels(d.db, ['x1', 'x2'], 'external');
      const battle = () =>
        createBattle(d.db, {
          itemId: null,
          ability: null,
          leftModelId: ids.get('x1') as number,
          rightModelId: ids.get('x2') as number,
          responseLeftId: null,
          responseRightId: null,
        });
      const before = await battle();
      const many = Array.from({ length: 12_000 }, (_, i) => ({
        importKey: `${i + 1}:k`,
        leftModelId: ids.get('x1') as number,
        rightModelId: ids.get('x2') as number,
        choice: 'left' as const,
      }));
      // The import fails in its third chunk of 5,000 (a model that does not exist): the first two chunks were
      // written and are rolled back, as when an import is stopped or killed halfway.
      const broken = many.map((r, i) => (i === 11_000 ? { ...r, leftModelId: 987_654_321 } : r));
      const aborted = await d.db
        .transaction()
        .execute((trx) =>
          insertImportedBattles(trx, 'aborted', null, broken, new Date(), { exclusive: true }),
        )
        .catch((e: unknown) => e);
      expect(aborted).toBeInstanceOf(Error);
      expect(await battle()).toBe(before + 1);

      const kept = await d.db.transaction().execute((trx) =>
        insertImportedBattles(trx, 'kept', null, many.slice(0, 50), new Date(), {
          exclusive: true,
        }),
      );
      expect(kept).toBe(50);
      expect(await battle()).toBe(before + 2 + 50);
    },
  );
});
