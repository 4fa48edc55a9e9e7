/**
 * Each model's board history, kept apart from the snapshots so that it outlives their pruning (config
 * `leaderboard.keep`; docs/architecture.md "Board snapshots"):
 * - `board_history`: one row per source set, UTC day and model: the rank and ranking-key score (overall or final,
 *   `rank_by`) on that day's newest board, with the snapshot it came from (no foreign key: the snapshot may be
 *   pruned). A newer board of the same day replaces the day's row. About 130 rows a day for a board of 130 models.
 * - Filled from the stored snapshots here (each day's newest), so a database migrated with snapshots has its
 *   history at once.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
CREATE TABLE board_history (
  sources      text NOT NULL CHECK (length(sources) BETWEEN 1 AND 2000),
  day          date NOT NULL,
  model        text NOT NULL CHECK (length(model) BETWEEN 1 AND 200),
  snapshot_id  bigint NOT NULL,
  built_at     timestamptz NOT NULL,
  rank_by      text NOT NULL CHECK (rank_by IN ('overall', 'final')),
  rank         integer CHECK (rank >= 1),
  score        double precision,
  score_lo     double precision,
  score_hi     double precision,
  votes        integer NOT NULL DEFAULT 0 CHECK (votes >= 0),
  PRIMARY KEY (sources, model, day)
)`.execute(db);
  // Backfill: each source set's newest snapshot of each UTC day, every row with a score under some method.
  await sql`
INSERT INTO board_history (sources, day, model, snapshot_id, built_at, rank_by, rank, score, score_lo, score_hi, votes)
SELECT s.sources, s.day, r->>'model', s.id, s.created_at, s.rank_by,
       (r->>'rank')::integer,
       (CASE WHEN s.rank_by = 'overall' THEN r->>'overall' ELSE r->>'final' END)::double precision,
       (CASE WHEN s.rank_by = 'overall' THEN r->>'overallLo' ELSE r->>'finalLo' END)::double precision,
       (CASE WHEN s.rank_by = 'overall' THEN r->>'overallHi' ELSE r->>'finalHi' END)::double precision,
       coalesce((r->>'votes')::integer, 0)
  FROM (SELECT DISTINCT ON (sources, (created_at AT TIME ZONE 'UTC')::date)
               id, sources, created_at, (created_at AT TIME ZONE 'UTC')::date AS day,
               coalesce(board->>'rankBy', 'final') AS rank_by, board
          FROM leaderboard_snapshots
         ORDER BY sources, (created_at AT TIME ZONE 'UTC')::date, id DESC) s,
       jsonb_array_elements(s.board->'rows') r
 WHERE r->'methods' IS NOT NULL
   AND EXISTS (SELECT 1 FROM jsonb_each(r->'methods') m WHERE jsonb_typeof(m.value) = 'number')
ON CONFLICT DO NOTHING`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS board_history`.execute(db);
}
