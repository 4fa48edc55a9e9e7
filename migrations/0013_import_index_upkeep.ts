/**
 * Fewer indexes to keep up on every stored vote: three indexes that no query needs are dropped, so each inserted
 * battle updates three indexes less (a bulk `import battles` of 200,000 public votes spends about a third of the
 * server's time of its `battles` insert on index upkeep; docs/architecture.md, "Imports").
 * - `battles_source_idx (source, status)`: every query that filters on `source` (the board's, the export's, the
 *   skip scan of `sourceNames`) is served by `battles_number_idx (source, number)`, which leads with the same column
 *   and which the planner already chose for all of them; no query orders or ranges on `status` within a source.
 * - `battles_pair_idx (model_left_id, model_right_id)`: no query looks battles up by model pair (pair counts are
 *   kept in `arena_pair_load`, migration 0007; the board groups whole sources), and models are never deleted.
 * - `votes_live_idx (battle_id) WHERE retracted_at IS NULL`: a battle's votes are found through the unique
 *   `votes (battle_id, voter_hash)`, which leads with `battle_id` (a battle has a handful of votes: the retracted
 *   ones are filtered on the heap rows, as many as the partial index would have skipped).
 * The plans of the board, vote, export and source queries before and after are the same but for the index name.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS battles_source_idx, battles_pair_idx, votes_live_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS battles_source_idx ON battles (source, status)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS battles_pair_idx ON battles (model_left_id, model_right_id)`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS votes_live_idx ON votes (battle_id) WHERE retracted_at IS NULL`.execute(
    db,
  );
}
