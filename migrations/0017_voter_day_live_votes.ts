/**
 * The index of a voter's votes per day (`votes_voter_day_idx`, migration 0012) holds only the votes of people
 * voting through the bot: imported votes (voter `import:<source>:<key>`; a bot voter is a 32-digit hex HMAC,
 * core/voter-id.ts) are left out. Its one reader is the daily vote cap (storage/vote-flags `flagVote`), which
 * counts a live voter's own votes and says `voter_hash NOT LIKE 'import:%'` so the planner may use the partial
 * index. An imported vote's voter is a new long text key in random order, so keeping it in this index was the
 * dearest part of storing it: about 1.1 of the 2.5 CPU seconds of the `votes` insert of a 200,000-vote
 * `import battles` on PostgreSQL, and most of its WAL (bench/import-battles.ts; docs/architecture.md, "Imports").
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS votes_voter_day_idx`.execute(db);
  await sql`CREATE INDEX votes_voter_day_idx ON votes (voter_hash, cast_at)
             WHERE retracted_at IS NULL AND voter_hash NOT LIKE 'import:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS votes_voter_day_idx`.execute(db);
  await sql`CREATE INDEX votes_voter_day_idx ON votes (voter_hash, cast_at) WHERE retracted_at IS NULL`.execute(
    db,
  );
}
