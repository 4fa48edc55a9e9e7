/**
 * How a posted battle takes votes (`battles.voting`, docs/architecture.md "Arena battle"): `reactions` (emoji
 * reactions on its message), `buttons` (buttons on its message, each press answered privately) or `typed` (the
 * terminal). Stored when the battle is posted, because `arena.voting` may change while battles are open: the
 * re-reads read the reactions of reaction battles only (a button battle has nothing on the platform to read; its
 * votes in the database are the truth), and a reaction on a button battle is no vote. Null: posted before this
 * migration, when every battle took reactions (typed votes on the terminal were stored as reactions too).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE battles ADD COLUMN voting text CHECK (voting IN ('reactions','buttons','typed'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE battles DROP COLUMN IF EXISTS voting`.execute(db);
}
