import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBattles } from '../../../src/import/battles.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

/** What an import stored for a source, in id order, without the ids themselves. */
async function stored(d: TestDb, source: string) {
  const r = await sql<Record<string, unknown>>`
    SELECT b.number, ml.name AS a, mr.name AS b, b.status, b.close_reason, b.import_key,
           v.voter_hash, v.choice, v.retracted_at, v.flag
      FROM battles b JOIN models ml ON ml.id = b.model_left_id JOIN models mr ON mr.id = b.model_right_id
      JOIN votes v ON v.battle_id = b.id
     WHERE b.source = ${source} ORDER BY b.id`.execute(d.db);
  return r.rows;
}

describe.each(backends())('bulk import path on %s', (backend) => {
  let d: TestDb;
  let file: string;
  beforeAll(async () => {
    d = await freshDb(backend);
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        model_a: `m${i % 7}`,
        model_b: `m${(i % 7) + 1}`,
        winner: ['model_a', 'model_b', 'tie', 'tie (bothbad)'][i % 4],
      }),
    );
    file = join(mkdtempSync(join(tmpdir(), 'zhujiu-bulk-')), 'votes.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(async () => d?.destroy());

  it('stores what the per-row path stores, leaves the arena counters as a recount has them', async () => {
    await importBattles(d.db, { file, source: 'bulk' });
    // A trigger of its own on votes: the import must then take the per-row path (a trigger it does not know is
    // never skipped), and this one sees every vote.
    for (const stmt of [
      'CREATE TABLE seen_votes (battle_id bigint)',
      `CREATE FUNCTION seen_vote() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN INSERT INTO seen_votes VALUES (NEW.battle_id); RETURN NULL; END $$`,
      'CREATE TRIGGER seen_vote AFTER INSERT ON votes FOR EACH ROW EXECUTE FUNCTION seen_vote()',
    ])
      await sql.raw(stmt).execute(d.db);
    await importBattles(d.db, { file, source: 'rowwise' });
    const seen = await sql<{ n: number }>`SELECT count(*)::int AS n FROM seen_votes`.execute(d.db);
    expect(seen.rows[0]?.n).toBe(300);
    const strip = (rows: Record<string, unknown>[], source: string) =>
      rows.map((r) => ({
        ...r,
        voter_hash: String(r.voter_hash).replace(`:${source}:`, ':S:'),
      }));
    const bulk = strip(await stored(d, 'bulk'), 'bulk');
    expect(bulk).toHaveLength(300);
    // The file's outcome is the stored choice (both bad apart from ties), so an import logs no vote events.
    expect((await stored(d, 'bulk')).map((r) => r.choice).slice(0, 4)).toEqual([
      'left',
      'right',
      'equal',
      'bothbad',
    ]);
    const events = await sql<{ n: number }>`SELECT count(*)::int AS n FROM vote_events`.execute(
      d.db,
    );
    expect(events.rows[0]?.n).toBe(0);
    expect(bulk).toEqual(strip(await stored(d, 'rowwise'), 'rowwise'));
    const counters = async () =>
      (
        await sql`SELECT model_low, model_high, battles, votes FROM arena_pair_load ORDER BY 1, 2`.execute(
          d.db,
        )
      ).rows;
    const before = await counters();
    await sql`SELECT zj_recount_arena_counts()`.execute(d.db);
    expect(await counters()).toEqual(before);
    const numbers = await sql<{ source: string; last_number: string | number }>`
      SELECT source, last_number FROM battle_numbers ORDER BY source`.execute(d.db);
    expect(numbers.rows.map((r) => [r.source, Number(r.last_number)])).toEqual([
      ['bulk', 300],
      ['rowwise', 300],
    ]);
    // The triggers fire again after an import in the same session (the role is set back).
    await sql`INSERT INTO votes (battle_id, voter_hash, choice, last_event_at)
              SELECT min(id), 'someone-else', 'left', now() FROM battles WHERE source = 'bulk'`.execute(
      d.db,
    );
    const seen2 = await sql<{ n: number }>`SELECT count(*)::int AS n FROM seen_votes`.execute(d.db);
    expect(seen2.rows[0]?.n).toBe(301);
  });
});
