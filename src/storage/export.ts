/**
 * @module storage/export
 * Reads the live votes of a source for `zhujiu export battles`, one row per vote, in vote-time order (ties in
 * import order), in pages read through one server-side cursor, so an export of millions of votes is one sort
 * and runs in bounded memory.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, VoteChoice, VoteFlag } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** One live vote with its battle, as exported. */
export interface ExportVoteRow {
  readonly voteId: number;
  /** Internal id (ordering, counting); never written out. */
  readonly battleId: number;
  /** The battle's number within its source (what chat shows, `#12`; migration 0008). */
  readonly battleNumber: number;
  readonly source: string;
  readonly kind: string;
  readonly ability: string | null;
  readonly platform: string | null;
  readonly leftModel: string;
  readonly rightModel: string;
  readonly choice: VoteChoice;
  /** The stored voter id (already an HMAC, or `import:<source>:<key>` for imported votes). */
  readonly voterHash: string;
  /** When the vote's current choice was made (the last applied event's time). */
  readonly votedAt: Date;
  /**
   * The same time in Unix seconds to the microsecond the database keeps (a `Date` keeps milliseconds), so an
   * imported FastChat `tstamp` (four decimals) is exported as it was read; absent: `votedAt`'s.
   */
  readonly votedTstamp?: number;
  readonly postedAt: Date | null;
  readonly closedAt: Date | null;
  readonly turns: number;
  /**
   * The original outcome label logged with a vote imported before imports stopped logging vote events (then
   * `tie (bothbad)` was stored as `equal` and survives a round trip through this label), else null: a later
   * import stores `bothbad` as its choice (storage/battles `insertImportedBattles`).
   */
  readonly importedWinner: string | null;
  /** The start of the first prompt (≤ 200 characters), for the language column; null when none is stored. */
  readonly promptStart: string | null;
  /**
   * Each side's answers, one per turn (a live battle's turns in order; a recorded battle's one stored response),
   * or null when that side's answer is not stored (imported votes).
   */
  readonly answersLeft: readonly string[] | null;
  readonly answersRight: readonly string[] | null;
  /** An imported vote cast with the models' names shown (`"anony": false`), kept through the export. */
  readonly named?: boolean;
  /** Why the vote is left out of ratings unless asked (vote hygiene, docs/scoring.md §4.3); null: it counts. */
  readonly flag?: VoteFlag | null;
}

/** Filters of an export. */
export interface ExportFilter {
  readonly source: string;
  /** Only votes made at or after this time. */
  readonly since?: Date;
  /** Rows per page handed to the caller (default 5,000). */
  readonly pageSize?: number;
}

type RawExportRow = {
  vote_id: number | string;
  battle_id: number | string;
  battle_number: number | string;
  source: string;
  kind: string;
  ability: string | null;
  platform: string | null;
  lm: string;
  rm: string;
  choice: VoteChoice;
  voter_hash: string;
  voted_at: Date | string;
  voted_epoch: string | number;
  posted_at: Date | string | null;
  closed_at: Date | string | null;
  turns: number;
  imported_winner: string | null;
  prompt_start: string | null;
  answers_left: string[] | string | null;
  answers_right: string[] | string | null;
  named: boolean;
  flag: VoteFlag | null;
};

/** A JSON array of strings as the driver hands it (parsed, or as text), or null. */
function answers(v: string[] | string | null): string[] | null {
  if (v === null) return null;
  return typeof v === 'string' ? (JSON.parse(v) as string[]) : v;
}

function toRow(x: RawExportRow): ExportVoteRow {
  return {
    voteId: Number(x.vote_id),
    battleId: Number(x.battle_id),
    battleNumber: Number(x.battle_number),
    source: x.source,
    kind: x.kind,
    ability: x.ability,
    platform: x.platform,
    leftModel: x.lm,
    rightModel: x.rm,
    choice: x.choice,
    voterHash: x.voter_hash,
    votedAt: new Date(x.voted_at),
    votedTstamp: Number(x.voted_epoch),
    postedAt: x.posted_at === null ? null : new Date(x.posted_at),
    closedAt: x.closed_at === null ? null : new Date(x.closed_at),
    turns: Number(x.turns),
    importedWinner: x.imported_winner,
    promptStart: x.prompt_start,
    answersLeft: answers(x.answers_left),
    answersRight: answers(x.answers_right),
    named: x.named === true,
    flag: x.flag ?? null,
  };
}

/**
 * Live votes (not retracted) on non-void battles of `filter.source`, handed to `onPage` in pages of
 * `filter.pageSize`, in one pass: one query read through a server-side cursor (DECLARE … FETCH, in a read-only
 * transaction on one connection), so the database sorts once and memory holds one page.
 *
 * Order: vote time, then battle id, then vote id, all numeric. Battle ids are given in the order of the imported
 * file (storage/battles `insertImportedBattles`), and an imported vote carries its line's own time (`tstamp`) or,
 * without one, the import's time, so an export of an imported source lists its votes in time order, as FastChat's
 * `elo_analysis` sorts battles by `tstamp`, and lines without a time in the file's order (online Elo of the
 * re-export then equals the file's); the community's own votes come in the order they were made. Void battles are left out, as every
 * rating leaves them out.
 * @param onPage awaited before the next page is read (back-pressure); what it throws ends the export.
 */
export async function exportVotePages(
  db: Kysely<Database>,
  filter: ExportFilter,
  onPage: (rows: readonly ExportVoteRow[]) => Promise<void>,
): Promise<void> {
  const page = Math.max(1, Math.floor(filter.pageSize ?? 5000));
  await db.transaction().execute(async (trx) => {
    await sql`SET TRANSACTION READ ONLY`.execute(trx);
    await sql`
      DECLARE zhujiu_export_votes NO SCROLL CURSOR FOR
      SELECT v.id AS vote_id, b.id AS battle_id, b.number AS battle_number, b.source, b.kind, b.ability, b.platform,
             ml.name AS lm, mr.name AS rm, v.choice, v.voter_hash, v.last_event_at AS voted_at,
             extract(epoch FROM v.last_event_at)::text AS voted_epoch,
             b.posted_at, b.closed_at, b.turns, b.named, v.flag,
             (SELECT e.payload->>'winner' FROM vote_events e
               WHERE e.battle_id = b.id AND e.kind = 'import' ORDER BY e.id LIMIT 1) AS imported_winner,
             left(coalesce(t.prompt, i.prompt), 200) AS prompt_start,
             coalesce((SELECT json_agg(t2.answer_left ORDER BY t2.turn) FROM battle_turns t2 WHERE t2.battle_id = b.id),
                      (SELECT json_build_array(r.output) FROM responses r WHERE r.id = b.response_left_id)) AS answers_left,
             coalesce((SELECT json_agg(t2.answer_right ORDER BY t2.turn) FROM battle_turns t2 WHERE t2.battle_id = b.id),
                      (SELECT json_build_array(r.output) FROM responses r WHERE r.id = b.response_right_id)) AS answers_right
        FROM votes v
        JOIN battles b ON b.id = v.battle_id
        JOIN models ml ON ml.id = b.model_left_id
        JOIN models mr ON mr.id = b.model_right_id
        LEFT JOIN battle_turns t ON t.battle_id = b.id AND t.turn = 1
        LEFT JOIN items i ON i.id = b.item_id
       WHERE v.retracted_at IS NULL AND b.status <> 'void' AND b.source = ${filter.source}
         AND ${filter.since ? sql`v.last_event_at >= ${filter.since.toISOString()}::timestamptz` : sql`true`}
       ORDER BY v.last_event_at, b.id, v.id`.execute(trx);
    for (;;) {
      const r =
        await sql<RawExportRow>`FETCH ${sql.raw(String(page))} FROM zhujiu_export_votes`.execute(
          trx,
        );
      if (r.rows.length > 0) await onPage(r.rows.map(toRow));
      if (r.rows.length < page) break;
    }
    await sql`CLOSE zhujiu_export_votes`.execute(trx);
  });
}

/** Whether any battle carries this source (to tell "no votes yet" from "no such source"). */
export async function sourceExists(db: Conn, source: string): Promise<boolean> {
  const r = await db
    .selectFrom('battles')
    .select('id')
    .where('source', '=', source)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
