import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { migrateDown, migrateToLatest } from '../../../src/storage/db.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const TABLES = [
  'battle_audit',
  'battle_turns',
  'battles',
  'datasets',
  'eval_runs',
  'item_scores',
  'items',
  'leaderboard_snapshots',
  'models',
  'posts',
  'responses',
  'schedules',
  'vote_events',
  'votes',
];

describe.each(backends())('migrations on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('creates every table of the architecture', async () => {
    const r = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
       where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(
      d.db,
    );
    expect(r.rows.map((x) => x.table_name)).toEqual(TABLES);
  });

  it('is a no-op the second time, and goes down and up again', async () => {
    const again = await migrateToLatest(d.db);
    expect(again.results).toEqual([]);
    // Down one migration at a time, to nothing.
    for (;;) {
      const down = await migrateDown(d.db);
      expect(down.error).toBeUndefined();
      if ((down.results ?? []).length === 0) break;
    }
    const left = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.tables
       where table_schema = 'public' and table_name = any(${TABLES})`.execute(d.db);
    expect(left.rows[0]?.n).toBe(0);
    const up = await migrateToLatest(d.db);
    expect(up.results?.map((x) => [x.migrationName, x.status])).toEqual(
      Object.keys(migrations).map((name) => [name, 'Success']),
    );
  });

  it('enforces constraints: enums, score ranges, self-battles, unique responses', async () => {
    await expect(
      sql`insert into models (name, provider) values ('m', 'nope')`.execute(d.db),
    ).rejects.toThrow(/check/i);
    await sql`insert into models (name, provider) values ('a', 'recorded'), ('b', 'recorded')`.execute(
      d.db,
    );
    await expect(
      sql`insert into battles (model_left_id, model_right_id) select id, id from models where name = 'a'`.execute(
        d.db,
      ),
    ).rejects.toThrow(/check/i);
    await sql`insert into datasets (name, ability, method) values ('ds', 'knowledge', 'metrics')`.execute(
      d.db,
    );
    await expect(
      sql`insert into datasets (name, ability, method) values ('ds2', 'wisdom', 'metrics')`.execute(
        d.db,
      ),
    ).rejects.toThrow(/check/i);
    await sql`insert into items (dataset_id, key, ability, method, prompt) select id, 'k', 'knowledge', 'metrics', 'p' from datasets`.execute(
      d.db,
    );
    await sql`insert into responses (model_id, item_id, request_hash, output) select m.id, i.id, 'h', 'o' from models m, items i where m.name = 'a'`.execute(
      d.db,
    );
    await expect(
      sql`insert into responses (model_id, item_id, request_hash, output) select m.id, i.id, 'h', 'o2' from models m, items i where m.name = 'a'`.execute(
        d.db,
      ),
    ).rejects.toThrow(/unique|duplicate/i);
    await sql`insert into eval_runs (model_id, suite) select id, 's' from models where name = 'a'`.execute(
      d.db,
    );
    await expect(
      sql`insert into item_scores (run_id, item_id, method, metric, raw_score, max_score)
          select r.id, i.id, 'metrics', 'accuracy', 11, 10 from eval_runs r, items i`.execute(d.db),
    ).rejects.toThrow(/check/i);
  });
});
