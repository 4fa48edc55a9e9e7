/**
 * Run numbers (`eval_runs.id`) and submission numbers (`submissions.id`) are what people type (`zhujiu results
 * --run N`, `zhujiu eval --cancel N`, `zhujiu submissions approve N`), so they go 1, 2, 3, … without holes. They
 * came from sequences, which are not transactional and which PostgreSQL (and PGlite) write to the WAL 32 values
 * ahead of use: a process killed with `kill -9` (or any crash) restarted the numbering 32 further on (run 1, then
 * run 33), and a rolled-back or failed insert used a number up too (docs/architecture.md, "Where state lives").
 *
 * A row inserted without an id now gets the table's largest id plus one, from a `BEFORE INSERT` trigger that first
 * takes a transaction-scoped advisory lock of its own (src/core/advisory-locks.ts `RUN_NUMBER_LOCK`,
 * `SUBMISSION_NUMBER_LOCK`; the key is the trigger's argument), so concurrent creators on one server take numbers
 * one after another: the lock is held until the inserting transaction ends, and the next holder's `max(id)` (a
 * new snapshot, as every statement of a volatile function at READ COMMITTED) sees the row just committed. A
 * rolled-back insert or an `INSERT … ON CONFLICT DO NOTHING` that inserts nothing leaves no hole. Neither table
 * has its rows deleted, so a number is never given twice. Existing rows keep their ids; the sequences are
 * dropped (`down` creates them again, starting after the largest id).
 */
import { type Kysely, sql } from 'kysely';

/** Advisory lock keys (bigint), as src/core/advisory-locks.ts declares them. */
const TABLES = [
  { table: 'eval_runs', lock: '7315094121' },
  { table: 'submissions', lock: '7315094122' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
CREATE FUNCTION zj_next_number() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(TG_ARGV[0]::bigint);
  EXECUTE format('SELECT coalesce(max(id), 0) + 1 FROM %I.%I', TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO NEW.id;
  RETURN NEW;
END;
$fn$`.execute(db);
  for (const { table, lock } of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN id DROP DEFAULT`.execute(db);
    await sql`DROP SEQUENCE IF EXISTS ${sql.table(`${table}_id_seq`)}`.execute(db);
    await sql`CREATE TRIGGER ${sql.id(`zj_${table}_number`)} BEFORE INSERT ON ${sql.table(table)}
               FOR EACH ROW WHEN (NEW.id IS NULL) EXECUTE FUNCTION zj_next_number(${sql.lit(lock)})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of TABLES) {
    const seq = `${table}_id_seq`;
    await sql`DROP TRIGGER IF EXISTS ${sql.id(`zj_${table}_number`)} ON ${sql.table(table)}`.execute(
      db,
    );
    await sql`CREATE SEQUENCE ${sql.table(seq)} OWNED BY ${sql.table(table)}.id`.execute(db);
    await sql`SELECT setval(${sql.lit(seq)}::regclass, coalesce(max(id), 0) + 1, false) FROM ${sql.table(table)}`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN id SET DEFAULT nextval(${sql.lit(seq)}::regclass)`.execute(
      db,
    );
  }
  await sql`DROP FUNCTION IF EXISTS zj_next_number()`.execute(db);
}
