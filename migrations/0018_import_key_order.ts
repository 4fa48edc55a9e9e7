/**
 * The unique index of imported battles' keys, `battles_import_key_idx`, is kept in the order imports add the keys.
 * An import key is `line:content hash` (import/battles.ts), the line a decimal number without leading zeros, and a
 * file's lines go in in ascending order; as text, `(source, import_key)` puts them out of that order (`10:…` before
 * `9:…`), so every stored vote went into a random place of the index: a page split at a random place, half-empty
 * pages, about a quarter of the server's time of the `battles` insert of a 200,000-vote `import battles` and 25 MB
 * of WAL (bench/import-battles.ts; docs/architecture.md, "Imports").
 *
 * The index now leads, after the source, with the number of characters before the first `:` (the line number's
 * digits), then the key: decimal numbers of one length sort as text as they do as numbers, so the keys of a file
 * come in ascending order and each goes at the end of its source's part of the index. What it refuses is the same:
 * the added column is a function of the key, so two rows share (source, length, key) exactly when they share
 * (source, key); keys of any other form (no `:`) are indexed and refused alike. Its one reader, the keys of a
 * source (storage/battles `importKeysOfSource`: `source = … AND import_key IS NOT NULL`), reads it as before.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS battles_import_key_idx`.execute(db);
  await sql`CREATE UNIQUE INDEX battles_import_key_idx
             ON battles (source, length(split_part(import_key, ':', 1)), import_key)
             WHERE import_key IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS battles_import_key_idx`.execute(db);
  await sql`CREATE UNIQUE INDEX battles_import_key_idx ON battles (source, import_key)
             WHERE import_key IS NOT NULL`.execute(db);
}
