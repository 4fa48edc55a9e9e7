/**
 * "Both bad" as a fourth vote choice, and flagged votes (docs/scoring.md §4.1, §4.3).
 *
 * - `bothbad`: Chatbot Arena's 👎 "both are bad". It is stored apart from `equal` (a vote, a reaction state and a
 *   logged event may hold it), counted as a tie by every rating (FastChat's `tie (bothbad)`), and exported as
 *   `tie (bothbad)`.
 * - `votes.flag`: why a live vote is left out of ratings and the board unless asked (`--include-flagged`):
 *   `daily_cap` (the voter had already cast `arena.hygiene.daily_vote_cap` votes that UTC day) or `too_fast`
 *   (cast sooner after posting than `arena.hygiene.read_ms_per_char` times the characters of the two answers).
 *   `flag_detail` says it in words for the maintainers' listing. Null: the vote counts.
 */
import { type Kysely, sql } from 'kysely';

const CHOICES_4 = `('left','equal','right','bothbad')`;
const CHOICES_3 = `('left','equal','right')`;

async function setChoiceChecks(db: Kysely<unknown>, choices: string): Promise<void> {
  await sql.raw(`ALTER TABLE votes DROP CONSTRAINT votes_choice_check`).execute(db);
  await sql
    .raw(`ALTER TABLE votes ADD CONSTRAINT votes_choice_check CHECK (choice IN ${choices})`)
    .execute(db);
  await sql.raw(`ALTER TABLE vote_events DROP CONSTRAINT vote_events_choice_check`).execute(db);
  await sql
    .raw(
      `ALTER TABLE vote_events ADD CONSTRAINT vote_events_choice_check CHECK (choice IN ${choices})`,
    )
    .execute(db);
  await sql
    .raw(`ALTER TABLE vote_reactions DROP CONSTRAINT vote_reactions_choice_check`)
    .execute(db);
  await sql
    .raw(
      `ALTER TABLE vote_reactions ADD CONSTRAINT vote_reactions_choice_check CHECK (choice IN ${choices})`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await setChoiceChecks(db, CHOICES_4);
  await sql`ALTER TABLE votes ADD COLUMN flag text CHECK (flag IN ('daily_cap','too_fast'))`.execute(
    db,
  );
  await sql`ALTER TABLE votes ADD COLUMN flag_detail text`.execute(db);
  await sql`CREATE INDEX votes_voter_day_idx ON votes (voter_hash, cast_at) WHERE retracted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX votes_flagged_idx ON votes (cast_at) WHERE flag IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS votes_flagged_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS votes_voter_day_idx`.execute(db);
  await sql`ALTER TABLE votes DROP COLUMN IF EXISTS flag_detail`.execute(db);
  await sql`ALTER TABLE votes DROP COLUMN IF EXISTS flag`.execute(db);
  // Both-bad votes become ties (as every rating counted them) so the narrower checks hold.
  await sql`UPDATE votes SET choice = 'equal' WHERE choice = 'bothbad'`.execute(db);
  await sql`UPDATE vote_events SET choice = 'equal' WHERE choice = 'bothbad'`.execute(db);
  await sql`DELETE FROM vote_reactions WHERE choice = 'bothbad'`.execute(db);
  await setChoiceChecks(db, CHOICES_3);
}
