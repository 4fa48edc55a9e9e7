/**
 * Votes by source, and a chat path whose cost does not grow with imported votes (issue 7).
 * - `battles (source, status)`: ratings and arena selection read only the sources they count (the community's
 *   `arena` by default), so an import of a million public votes is never scanned by `/arena` or `/leaderboard`.
 * - `battles (item_id)`: how often an item was battled, per candidate item, when `/arena` picks one.
 * - closed battles whose reveal edit is pending: the bot's loop looks for them every 30 s; imported battles are
 *   closed but have no message, so without this partial index every tick read every imported battle.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX battles_source_idx ON battles (source, status)`.execute(db);
  await sql`CREATE INDEX battles_item_idx ON battles (item_id) WHERE item_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX battles_unrevealed_idx ON battles (id)
              WHERE status = 'closed' AND revealed_at IS NULL AND message_id IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS battles_unrevealed_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS battles_item_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS battles_source_idx`.execute(db);
}
