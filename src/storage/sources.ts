/**
 * @module storage/sources
 * Where votes come from. Every battle carries a `source` (`battles.source`), and a vote's source is the source of
 * its battle (a vote belongs to exactly one battle): `arena` for battles posted by the bot and voted on in chat,
 * the import's `--source` name for public votes brought in with `zhujiu import battles`.
 *
 * Ratings, the leaderboard and `zhujiu ratings` count the community's own `arena` votes by default; an imported
 * source counts only when asked for (`ratings.include_sources` in `config/default.yaml`, or `--source NAME` on a
 * command), so importing public votes never changes the community's ratings by itself (docs/scoring.md §4).
 * Every storage query that reads votes for ratings takes a {@link VoteSources} list and filters in SQL.
 */
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** The source of battles posted by the bot and of the votes cast on them in chat. */
export const ARENA_SOURCE = 'arena';

/** A non-empty list of source names whose votes a query counts. */
export type VoteSources = readonly string[];

/** The default: the community's own votes only. */
export const DEFAULT_SOURCES: VoteSources = Object.freeze([ARENA_SOURCE]);

/**
 * The sources a rating counts: `arena`, then the configured imported sources, then those asked for on the command
 * (each once, in that order).
 * @param configured `ratings.include_sources` from the config.
 * @param requested e.g. the values of a repeated `--source` flag.
 */
export function ratedSources(
  configured: readonly string[] = [],
  requested: readonly string[] = [],
): VoteSources {
  return Object.freeze([...new Set([ARENA_SOURCE, ...configured, ...requested])]);
}

/**
 * SQL condition `column = ANY(sources)` for a battles source column (e.g. `b.source`).
 * @throws TypeError when `sources` is empty (a query over no source is a bug, not "everything").
 */
export function sourceCondition(column: string, sources: VoteSources): RawBuilder<boolean> {
  if (sources.length === 0) throw new TypeError('sourceCondition: no sources given');
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(column))
    throw new TypeError(`sourceCondition: bad column ${column}`);
  return sources.length === 1
    ? sql<boolean>`${sql.ref(column)} = ${sources[0]}`
    : sql<boolean>`${sql.ref(column)} = ANY(${[...sources]}::text[])`;
}

/** One stored source with its battles and live votes. */
export interface SourceSummary {
  readonly source: string;
  readonly battles: number;
  readonly votes: number;
}

/**
 * Every source with stored (non-void) battles, `arena` first then by name, with battle and live-vote counts.
 * Reads every battle: for commands and error messages, not for the chat path.
 */
export async function listSources(db: Conn): Promise<SourceSummary[]> {
  const r = await sql<{ source: string; battles: number; votes: number }>`
    SELECT b.source, count(DISTINCT b.id) AS battles, count(v.id) AS votes
      FROM battles b LEFT JOIN votes v ON v.battle_id = b.id AND v.retracted_at IS NULL
     WHERE b.status <> 'void'
     GROUP BY b.source
     ORDER BY (b.source <> ${ARENA_SOURCE}), b.source`.execute(db);
  return r.rows.map((x) => ({
    source: x.source,
    battles: Number(x.battles),
    votes: Number(x.votes),
  }));
}

/**
 * Which of `names` have stored (non-void) battles: one probe of `battles_number_idx (source, number)` per name,
 * stopping at its first battle that is not void, so the cost does not grow with the number of stored votes.
 */
export async function sourcesWithBattles(db: Conn, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const r = await sql<{ source: string }>`
    SELECT n.source FROM unnest(${[...names]}::text[]) AS n(source)
     CROSS JOIN LATERAL (SELECT 1 FROM battles b WHERE b.source = n.source AND b.status <> 'void' LIMIT 1) x`.execute(
    db,
  );
  return new Set(r.rows.map((x) => x.source));
}

/**
 * The names of the stored sources, `arena` first then by name. A skip scan over `battles_number_idx (source, number)` (one index
 * probe per source), so its cost does not grow with the number of stored votes: safe on the chat path.
 */
export async function sourceNames(db: Conn): Promise<string[]> {
  const r = await sql<{ source: string }>`
    WITH RECURSIVE s(source) AS (
      (SELECT source FROM battles ORDER BY source LIMIT 1)
      UNION ALL
      SELECT (SELECT b.source FROM battles b WHERE b.source > s.source ORDER BY b.source LIMIT 1)
        FROM s WHERE s.source IS NOT NULL
    )
    SELECT source FROM s WHERE source IS NOT NULL`.execute(db);
  const names = r.rows.map((x) => x.source);
  return [...names.filter((n) => n === ARENA_SOURCE), ...names.filter((n) => n !== ARENA_SOURCE)];
}

/**
 * The stored sources outside `counted` that hold live votes, with their counts ({@link listSources}), for the note
 * of a board or export that read nothing. When every stored source is counted it answers from {@link sourceNames}
 * alone, without reading the votes.
 */
export async function votesOutside(db: Conn, counted: readonly string[]): Promise<SourceSummary[]> {
  if ((await sourceNames(db)).every((n) => counted.includes(n))) return [];
  return (await listSources(db)).filter((s) => !counted.includes(s.source) && s.votes > 0);
}
