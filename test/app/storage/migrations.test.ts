import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { migrateDown, migrateToLatest, migrationStatus } from '../../../src/storage/db.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';

const TABLES = [
  'arena_pair_load',
  'battle_audit',
  'battle_judgments',
  'battle_numbers',
  'battle_turns',
  'battles',
  'board_history',
  'datasets',
  'eval_run_items',
  'eval_runs',
  'item_battle_counts',
  'item_scores',
  'items',
  'judge_scores',
  'leaderboard_snapshots',
  'models',
  'posts',
  'responses',
  'schedules',
  'submissions',
  'task_leases',
  'vote_events',
  'vote_reactions',
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
    // Down one migration at a time, newest first, until none is left.
    const downs: string[] = [];
    for (;;) {
      const down = await migrateDown(d.db);
      expect(down.error).toBeUndefined();
      const names = (down.results ?? []).map((x) => x.migrationName);
      if (names.length === 0) break;
      downs.push(...names);
    }
    expect(downs).toEqual(Object.keys(migrations).reverse());
    const left = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.tables
       where table_schema = 'public' and table_name = any(${TABLES})`.execute(d.db);
    expect(left.rows[0]?.n).toBe(0);
    const up = await migrateToLatest(d.db);
    expect(up.results?.map((x) => [x.migrationName, x.status])).toEqual(
      Object.keys(migrations).map((name) => [name, 'Success']),
    );
  }, 120_000); // every migration down and up again: a fixed amount of work that grows with each migration

  it('keeps on the vote tables only the indexes a query or a constraint uses (each is upkeep on every stored vote)', async () => {
    const r = await sql<{ indexname: string }>`
      select indexname from pg_indexes
       where schemaname = 'public' and tablename in ('battles', 'votes', 'vote_events') order by indexname`.execute(
      d.db,
    );
    expect(r.rows.map((x) => x.indexname)).toEqual([
      'battles_asker_idx',
      'battles_import_key_idx',
      'battles_item_idx',
      'battles_message_idx',
      'battles_number_idx',
      'battles_open_idx',
      'battles_pkey',
      'battles_unclassified_idx',
      'battles_unrevealed_idx',
      'vote_events_battle_idx',
      'vote_events_pkey',
      'vote_events_platform_platform_event_id_key',
      'votes_battle_id_voter_hash_key',
      'votes_flagged_idx',
      'votes_pkey',
      'votes_voter_day_idx',
    ]);
  });

  it('a database with a migration this version does not know is refused as newer (migrate and migrate --down); one missing is applied', async () => {
    // The quick "nothing to do" check must not hide the migrator's own answers.
    const extra = { ...migrations, '9999_future': { up: async () => {} } };
    const ahead = await migrateToLatest(d.db, extra);
    expect(ahead.results?.map((x) => [x.migrationName, x.status])).toEqual([
      ['9999_future', 'Success'],
    ]);
    // This version refuses it, naming what it lacks and the fix, instead of Kysely's "corrupted migrations".
    const last = Object.keys(migrations).at(-1) as string;
    const newer = new RegExp(
      `^the database was migrated by a newer version \\(it has migration 9999_future; this zhujiu knows up to ${last}\\); upgrade zhujiu`,
    );
    await expect(migrateToLatest(d.db)).rejects.toMatchObject({
      code: 'db_newer',
      message: expect.stringMatching(newer),
    });
    await expect(migrateDown(d.db)).rejects.toMatchObject({ code: 'db_newer' });
    expect(await migrationStatus(d.db)).toMatchObject({ unknown: ['9999_future'], pending: [] });
    await sql`delete from kysely_migration where name = '9999_future'`.execute(d.db);
    expect((await migrateToLatest(d.db)).results).toEqual([]);
  });

  it('enforces constraints: enums, score ranges, self-battles, unique responses; judge scores: a failure carries no score, pairwise needs a baseline, one row per key', async () => {
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
    // Step: judge scores: a failure carries no score, pairwise needs a baseline, one row per key
    {
      const ins = (cols: string, vals: string) =>
        sql
          .raw(
            `insert into judge_scores (model_id, item_id, judge, rubric, rubric_version, ${cols})
           select m.id, i.id, 'j', 'ten_point', 'v1', ${vals} from models m, items i where m.name = 'a'`,
          )
          .execute(d.db);
      await expect(
        ins(
          'kind, status, failure_code, raw_score, max_score',
          `'single','failed','unparseable',0,10`,
        ),
      ).rejects.toThrow(/check/i);
      await expect(
        ins('kind, status, raw_score, max_score', `'single','judged',11,10`),
      ).rejects.toThrow(/check/i);
      await expect(ins('kind, status, preference', `'pairwise','judged',2`)).rejects.toThrow(
        /check/i,
      );
      await ins('kind, status, failure_code', `'single','failed','unparseable'`);
      await expect(
        ins('kind, status, raw_score, max_score', `'single','judged',7,10`),
      ).rejects.toThrow(/unique|duplicate/i);
      await expect(
        sql`insert into battle_judgments (battle_id, judge, rubric_version, status) values (1, 'j', 'v1', 'judged')`.execute(
          d.db,
        ),
      ).rejects.toThrow(/check|foreign/i);
    }
  }, 60_000);
});
