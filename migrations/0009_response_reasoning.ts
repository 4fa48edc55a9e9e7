/**
 * A response's reasoning, kept apart from its answer: `responses.reasoning` holds what the model reasoned
 * (`<think>` blocks, a `reasoning_content` field, `thinking` content parts; src/llm/reply.ts) and `output` holds the
 * answer alone, which is all that is scored or posted. `reasoning_tokens` counts the tokens spent reasoning when
 * the endpoint says (`usage.completion_tokens_details.reasoning_tokens`). Both are NULL for answers stored before,
 * for imported outputs and for models that do not reason.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE responses ADD COLUMN reasoning text, ADD COLUMN reasoning_tokens integer`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE responses DROP COLUMN IF EXISTS reasoning, DROP COLUMN IF EXISTS reasoning_tokens`.execute(
    db,
  );
}
