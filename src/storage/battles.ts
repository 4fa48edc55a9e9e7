/**
 * @module storage/battles
 * Battles: two models' answers to one item, posted to a chat channel, voted on, closed and revealed.
 * Also the bulk import of existing public votes (one closed battle with one vote per row).
 */
import { setImmediate } from 'node:timers/promises';
import { type Kysely, sql, type Transaction } from 'kysely';
import { copyField, copyTextSql } from './copy-rows.ts';
import type { BattleStatus, BattleVoting, CloseReason, Database, VoteChoice } from './schema.ts';
import { ARENA_SOURCE } from './sources.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** A stored battle with its models' names. */
export interface BattleRow {
  /** Internal id (storage, logs); never shown to people. */
  readonly id: number;
  /** The battle's number within its source, what chat shows and takes (`#12`; migration 0008). */
  readonly number: number;
  readonly itemId: number | null;
  readonly ability: string | null;
  readonly leftModelId: number;
  readonly rightModelId: number;
  readonly leftModel: string;
  readonly rightModel: string;
  readonly responseLeftId: number | null;
  readonly responseRightId: number | null;
  readonly source: string;
  readonly platform: string | null;
  readonly channelId: string | null;
  readonly messageId: string | null;
  readonly partIds: readonly string[];
  readonly status: BattleStatus;
  readonly postedAt: Date | null;
  readonly closesAt: Date | null;
  readonly closedAt: Date | null;
  readonly revealedAt: Date | null;
  /** Why voting ended (closed and void battles), null while it takes votes. */
  readonly closeReason: CloseReason | null;
  /** The vote cap reached, when `closeReason` is `vote_cap`. */
  readonly closeCap: number | null;
  /**
   * How the posted battle takes votes (migration 0014): `reactions`, `buttons` or `typed`; `reactions` for a
   * battle posted before it was stored; null while it is not posted.
   */
  readonly voting: BattleVoting | null;
}

function battleQuery(db: Conn) {
  return db
    .selectFrom('battles as b')
    .innerJoin('models as ml', 'ml.id', 'b.model_left_id')
    .innerJoin('models as mr', 'mr.id', 'b.model_right_id')
    .select([
      'b.id',
      'b.number',
      'b.item_id',
      'b.ability',
      'b.model_left_id',
      'b.model_right_id',
      'ml.name as left_model',
      'mr.name as right_model',
      'b.response_left_id',
      'b.response_right_id',
      'b.source',
      'b.platform',
      'b.channel_id',
      'b.message_id',
      'b.part_ids',
      'b.status',
      'b.posted_at',
      'b.closes_at',
      'b.closed_at',
      'b.revealed_at',
      'b.close_reason',
      'b.close_cap',
      'b.voting',
    ]);
}

type RawBattle = Awaited<ReturnType<ReturnType<typeof battleQuery>['executeTakeFirstOrThrow']>>;

const d = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

function toRow(r: RawBattle): BattleRow {
  return {
    id: r.id,
    number: Number(r.number),
    itemId: r.item_id,
    ability: r.ability,
    leftModelId: r.model_left_id,
    rightModelId: r.model_right_id,
    leftModel: r.left_model,
    rightModel: r.right_model,
    responseLeftId: r.response_left_id,
    responseRightId: r.response_right_id,
    source: r.source,
    platform: r.platform,
    channelId: r.channel_id,
    messageId: r.message_id,
    partIds: r.part_ids,
    status: r.status,
    postedAt: d(r.posted_at),
    closesAt: d(r.closes_at),
    closedAt: d(r.closed_at),
    revealedAt: d(r.revealed_at),
    closeReason: r.close_reason,
    closeCap: r.close_cap === null ? null : Number(r.close_cap),
    voting: r.voting ?? (r.message_id === null ? null : 'reactions'),
  };
}

/** A battle to create (status `pending` until it is posted). */
export interface NewBattle {
  readonly itemId: number | null;
  readonly ability: string | null;
  readonly leftModelId: number;
  readonly rightModelId: number;
  readonly responseLeftId: number | null;
  readonly responseRightId: number | null;
  readonly seed?: number | null;
  readonly source?: string;
}

/** A battle's internal id and its number within its source (what people see: `#number`). */
export interface BattleKey {
  readonly id: number;
  readonly number: number;
}

/** Creates a pending battle and returns its id. */
export async function createBattle(db: Conn, b: NewBattle): Promise<number> {
  return (await createNumberedBattle(db, b)).id;
}

/**
 * Creates a pending battle and returns its id and its number within its source (the next one, given by the
 * database at insert: consecutive and unique per source however many processes insert; migration 0008).
 */
export async function createNumberedBattle(db: Conn, b: NewBattle): Promise<BattleKey> {
  const row = await db
    .insertInto('battles')
    .values({
      item_id: b.itemId,
      ability: b.ability,
      model_left_id: b.leftModelId,
      model_right_id: b.rightModelId,
      response_left_id: b.responseLeftId,
      response_right_id: b.responseRightId,
      seed: b.seed ?? null,
      source: b.source ?? 'arena',
    })
    .returning(['id', 'number'])
    .executeTakeFirstOrThrow();
  return { id: row.id, number: Number(row.number) };
}

/**
 * Records where a battle was posted and opens it for votes until `closesAt`; `voting`: how it takes votes (the
 * posting platform's `capabilities.voting`; default `reactions`).
 */
export async function markPosted(
  db: Conn,
  id: number,
  where: {
    platform: string;
    channelId: string;
    messageId: string;
    partIds: readonly string[];
    postedAt: Date;
    closesAt: Date;
    voting?: BattleVoting;
  },
): Promise<void> {
  await db
    .updateTable('battles')
    .set({
      platform: where.platform,
      channel_id: where.channelId,
      message_id: where.messageId,
      part_ids: JSON.stringify(where.partIds),
      posted_at: where.postedAt,
      closes_at: where.closesAt,
      voting: where.voting ?? 'reactions',
      status: 'open',
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Marks a pending battle void (posting failed, or the identity guard refused it after creation). */
export async function voidBattle(db: Conn, id: number): Promise<void> {
  await db
    .updateTable('battles')
    .set({ status: 'void', close_reason: 'post_failed' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Withdraws a battle whose message is gone (deleted on the platform) before its reveal, open or closed: status
 * `void`, so it is neither voted on, closed, revealed nor rated. Its vote events stay for the audit. No-op for
 * other statuses and for revealed battles (their tally was shown).
 * @returns whether this call withdrew it (false: it already was, or is not withdrawable), so it is logged once.
 */
export async function withdrawBattle(db: Conn, id: number): Promise<boolean> {
  const r = await db
    .updateTable('battles')
    .set({ status: 'void', close_reason: 'withdrawn' })
    .where('id', '=', id)
    .where((w) =>
      w.or([
        w('status', '=', 'open'),
        w.and([w('status', '=', 'closed'), w('revealed_at', 'is', null)]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** One battle by id. */
export async function getBattle(db: Conn, id: number): Promise<BattleRow | undefined> {
  const r = await battleQuery(db).where('b.id', '=', id).executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/**
 * The community's own (`arena`) battle numbered `number`, the one a number typed in chat names (`/arena void 12`,
 * `vote 12 left`). Imported battles have numbers of their own source and are never found here.
 */
export async function getArenaBattle(db: Conn, number: number): Promise<BattleRow | undefined> {
  const r = await battleQuery(db)
    .where('b.source', '=', ARENA_SOURCE)
    .where('b.number', '=', number)
    .executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** The battle posted as `messageId` on `platform` (primary message only). */
export async function findBattleByMessage(
  db: Conn,
  platform: string,
  channelId: string,
  messageId: string,
): Promise<BattleRow | undefined> {
  const r = await battleQuery(db)
    .where('b.platform', '=', platform)
    .where('b.channel_id', '=', channelId)
    .where('b.message_id', '=', messageId)
    .executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** Open battles, optionally only those whose window ended at or before `dueBy`. */
export async function listOpenBattles(db: Conn, dueBy?: Date): Promise<BattleRow[]> {
  let q = battleQuery(db).where('b.status', '=', 'open');
  if (dueBy) q = q.where('b.closes_at', '<=', dueBy);
  const rows = await q.orderBy('b.id').execute();
  return rows.map(toRow);
}

/**
 * Closes an open battle whose voting window ended (`close_reason` `window`). Idempotent: returns false when it was
 * not open (already closed by another process, or by its vote cap).
 */
export async function closeBattle(db: Conn, id: number, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('battles')
    .set({ status: 'closed', closed_at: at, close_reason: 'window' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Closes every open battle that already holds `cap` live votes or more (the cap was lowered after they opened):
 * `close_reason` `vote_cap`. The vote that reaches the cap closes its battle itself (storage/votes
 * `applyVoteEvent`); this catches those that no vote reached. Each battle's row is locked as the vote function
 * locks it, so a vote arriving meanwhile waits and then finds the battle closed.
 * @param cap `arena.vote_cap` (≥ 1; 0 means no cap and closes nothing).
 * @returns the ids of the battles closed.
 */
export async function closeBattlesAtCap(db: Conn, cap: number, at: Date): Promise<number[]> {
  if (cap <= 0) return [];
  const r = await sql<{ id: number }>`
    UPDATE battles b SET status = 'closed', closed_at = ${at.toISOString()}::timestamptz,
           close_reason = 'vote_cap', close_cap = ${cap}::integer
     WHERE b.status = 'open'
       AND (SELECT count(*) FROM votes v WHERE v.battle_id = b.id AND v.retracted_at IS NULL) >= ${cap}
    RETURNING b.id`.execute(db);
  return r.rows.map((x) => Number(x.id)).sort((x, y) => x - y);
}

/** Records that the closing edit revealing the models was made. */
export async function markRevealed(db: Conn, id: number, at: Date): Promise<void> {
  await db.updateTable('battles').set({ revealed_at: at }).where('id', '=', id).execute();
}

/**
 * The community's own (`arena`) battles per unordered model pair (not void) with the live votes on them, for
 * sampling the pairs with the fewest votes. Imported votes are left out: they neither need nor steer the
 * community's voting. Read from `arena_pair_load` (migration 0007: kept up to date by triggers), one row per pair,
 * so `/arena` costs the same however many votes are stored, the community's own included.
 * @returns rows with the two model ids in ascending order, the number of those battles (≥ 1) and their live votes.
 */
export async function pairLiveVoteCounts(
  db: Conn,
): Promise<{ modelLow: number; modelHigh: number; votes: number; battles: number }[]> {
  const rows = await sql<{ lo: number; hi: number; votes: number; battles: number }>`
    SELECT model_low AS lo, model_high AS hi, votes, battles FROM arena_pair_load WHERE battles > 0`.execute(
    db,
  );
  return rows.rows.map((r) => ({
    modelLow: Number(r.lo),
    modelHigh: Number(r.hi),
    votes: Number(r.votes),
    battles: Number(r.battles),
  }));
}

/** One imported public vote. */
export interface ImportedBattle {
  readonly importKey: string;
  readonly leftModelId: number;
  readonly rightModelId: number;
  /** The vote: the file's outcome label follows from it (`bothbad` is "tie (bothbad)", import/battles). */
  readonly choice: VoteChoice;
  /** The voter saw the models' names (`"anony": false`): kept, left out of ratings unless asked. */
  readonly named?: boolean;
  /**
   * When the vote was cast, in Unix seconds (stored to the microsecond: `to_timestamp`); absent: the import's time
   * `at`. The battle's creation and closing times are the vote's.
   */
  readonly votedAt?: number;
}

/**
 * Inserts imported votes as closed battles with one vote each, battle ids in the order of `rows` (the file's order:
 * an export lists them back in it). Rows whose (source, import key) exists already are skipped, so re-running an
 * import adds nothing. Call inside a transaction.
 *
 * No `vote_events` row is written: the event log records what voters did on the platforms (storage/votes), and an
 * imported vote is stored whole in `votes` (its choice is the file's outcome, "both bad" apart from ties). What
 * reads the log for every vote finds imports through `battles` instead: the board's input marks count the latest
 * battle ids as they count the latest event ids (storage/leaderboard `boardInputMarks`).
 *
 * Battle ids (internal: never shown) come from the one sequence all battles use (`battles_id_seq`). A sequence is
 * not transactional: ids drawn by an import that is rolled back or killed are lost. With
 * `exclusive` (the embedded database, which this process holds alone: no other writer can draw ids meanwhile) the
 * ids are assigned here, after the last one drawn, and the sequence is moved past them only as the last statement
 * before the commit: an aborted import draws none. On a shared Postgres other processes draw ids at the same time,
 * so each staged row draws its id from the sequence as it is staged (`nextval`, the column default of the staging
 * table), in the order of `rows`: ascending, unique whatever other processes draw meanwhile (an aborted import
 * leaves a gap).
 *
 * Battle numbers (what people see, per source; migration 0008) are given here in the same order: the source's
 * counter row in `battle_numbers` is locked first (so a concurrent import or insert of that source waits for this
 * transaction), rows already stored are left out, each new battle gets the next number, and the counter is moved
 * once at the end. An aborted import gives its numbers back with its rollback. Imports never draw the community's
 * (`arena`) numbers: `arena` is not an import source.
 * @returns how many battles were added.
 */
export async function insertImportedBattles(
  trx: Transaction<Database>,
  source: string,
  ability: string | null,
  rows: readonly ImportedBattle[],
  at: Date,
  opts: { readonly exclusive?: boolean; readonly signal?: AbortSignal } = {},
): Promise<number> {
  // Locks the source's counter row until the commit (see above) and reads the last number given.
  const counter = await sql<{ last: string | number }>`
    INSERT INTO battle_numbers AS c (source, last_number) VALUES (${source}, 0)
    ON CONFLICT (source) DO UPDATE SET last_number = c.last_number
    RETURNING c.last_number AS last`.execute(trx);
  const lastNumber = Number(counter.rows[0]?.last ?? 0);
  if (rows.length === 0) return 0;
  // Rows already stored (same source and import key) are left out. Read after the lock: no other transaction
  // adds battles of this source until the commit.
  const stored = new Set(await importKeysOfSource(trx, source));
  const fresh = stored.size === 0 ? rows : rows.filter((r) => !stored.has(r.importKey));
  const added = fresh.length;
  opts.signal?.throwIfAborted();
  if (added === 0) return 0;
  const base = opts.exclusive === true ? await lastBattleId(trx) : null;
  const modelIds = new Set<number>();
  for (const r of fresh) {
    modelIds.add(r.leftModelId);
    modelIds.add(r.rightModelId);
  }
  // The rows go first to a staging table without indexes, constraints or triggers, with COPY (storage/copy-rows:
  // COPY FROM STDIN on PostgreSQL, from PGlite's /dev/blob on PGlite); then the two tables get them in one
  // set-based statement, chunk by chunk (PostgreSQL manual, "Populating a Database", §14.4: COPY, and few large
  // statements instead of many small ones).
  await sql`CREATE TEMP TABLE zj_import_input (
      number bigint NOT NULL, import_key text NOT NULL, l bigint NOT NULL, r bigint NOT NULL, choice text NOT NULL,
      named boolean NOT NULL, t double precision, id bigint ${base === null ? sql`NOT NULL DEFAULT nextval('battles_id_seq')` : sql``})
      ON COMMIT DROP`.execute(trx);
  const bulk = await withoutRowTriggers(trx, source, modelIds);
  // Every staged row carries its number, and its id (or, with `base`, the id follows from the number), so the
  // order the rows are written in changes nothing stored but the internal vote ids, which nothing orders imported
  // votes by (storage/export orders them by battle id).
  const id = base === null ? sql`id` : sql`${base - lastNumber}::bigint + number`;
  const iso = at.toISOString();
  const time = sql`coalesce(to_timestamp(t), ${iso}::timestamptz)`;
  await stageInChunks(trx, fresh, lastNumber, opts.signal, async () => {
    // One statement for both tables, so the connection waits for the client once per chunk. The votes name the
    // battles of the same statement: checked (when they are) at its end, after both inserts.
    await sql`
      WITH b AS (
        INSERT INTO battles (id, number, ability, model_left_id, model_right_id, source, import_key, status,
                             close_reason, created_at, closed_at, named)
        SELECT ${id}, number, ${ability}::text, l, r, ${source}::text, import_key, 'closed', 'import',
               ${time}, ${time}, named
          FROM zj_import_input)
      INSERT INTO votes (battle_id, voter_hash, choice, cast_at, updated_at, last_event_at)
      SELECT ${id}, 'import:' || ${source}::text || ':' || import_key, choice, ${time}, ${time}, ${time}
        FROM zj_import_input`.execute(trx);
    await sql`TRUNCATE zj_import_input`.execute(trx);
  });
  if (bulk) await sql`SET LOCAL session_replication_role = origin`.execute(trx);
  await sql`UPDATE battle_numbers SET last_number = ${lastNumber + added}::bigint WHERE source = ${source}`.execute(
    trx,
  );
  await sql`DROP TABLE zj_import_input`.execute(trx); // (a second import in the same transaction makes its own)
  if (base !== null) {
    // The last statement before the commit: until here an abort leaves the sequence untouched.
    await sql`SELECT setval('battles_id_seq', ${base + added}::bigint)`.execute(trx);
  }
  return added;
}

/**
 * The last battle id drawn or stored, for an import into a database this process holds alone
 * ({@link insertImportedBattles} with `exclusive`: its ids follow it, and the sequence is moved at the end).
 */
async function lastBattleId(trx: Transaction<Database>): Promise<number> {
  const r = await sql<{ base: string | number }>`
      SELECT greatest((SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM battles_id_seq),
                      (SELECT coalesce(max(id), 0) FROM battles)) AS base`.execute(trx);
  return Number(r.rows[0]?.base ?? 0);
}

/** Rows staged and written per round of {@link stageInChunks}. */
const STAGE_CHUNK_ROWS = 25_000;
/** Rows of the first chunk of {@link stageInChunks}: fewer, so the database starts writing sooner. */
const FIRST_CHUNK_ROWS = 5_000;
/** Rows written to COPY text between two turns of the event loop in {@link stageInChunks}. */
const TEXT_SLICE_ROWS = 1_000;

/**
 * Stages `rows` (numbered after `lastNumber`, in order) in `zj_import_input` in chunks of {@link STAGE_CHUNK_ROWS}
 * (the first of {@link FIRST_CHUNK_ROWS}) with one COPY each, and calls `write` after each COPY to move the staged chunk on (and empty the table). The next
 * chunk's COPY text is written while the database runs the previous chunk's `write`: the text is written in slices
 * with a turn of the event loop between them, so that the connection meanwhile reads each result and sends the
 * next statement (one connection runs one statement at a time; on PostgreSQL the two run on separate processes).
 * The signal is checked before each COPY, when no statement runs: an abort then rolls the transaction back.
 */
async function stageInChunks(
  trx: Transaction<Database>,
  rows: readonly ImportedBattle[],
  lastNumber: number,
  signal: AbortSignal | undefined,
  write: () => Promise<void>,
): Promise<void> {
  let writing: Promise<void> | undefined;
  for (let from = 0, to = 0; from < rows.length; from = to) {
    to = Math.min(from + (from === 0 ? FIRST_CHUNK_ROWS : STAGE_CHUNK_ROWS), rows.length);
    const chunks: string[] = [];
    for (let s = from; s < to; s += TEXT_SLICE_ROWS) {
      if (writing !== undefined) await setImmediate();
      chunks.push(importLines(rows, s, Math.min(s + TEXT_SLICE_ROWS, to), lastNumber));
    }
    await writing;
    signal?.throwIfAborted(); // an interrupted import throws here, inside its transaction, which rolls back
    await copyTextSql(
      'zj_import_input',
      ['number', 'import_key', 'l', 'r', 'choice', 'named', 't'],
      chunks,
    ).execute(trx);
    writing = write();
    writing.catch(() => {}); // (awaited above or below: a failure is thrown there, not reported as unhandled)
  }
  await writing;
}

/** `rows[from..to)` as COPY text lines of `zj_import_input` (number, import_key, l, r, choice, named, t). */
function importLines(
  rows: readonly ImportedBattle[],
  from: number,
  to: number,
  lastNumber: number,
): string {
  let text = '';
  for (let i = from; i < to; i++) {
    const r = rows[i] as ImportedBattle;
    text += `${lastNumber + i + 1}\t${copyField(r.importKey)}\t${r.leftModelId}\t${r.rightModelId}\t${r.choice}\t${r.named === true ? 't' : 'f'}\t${r.votedAt === undefined ? '\\N' : r.votedAt}\n`;
  }
  return text;
}

/** The triggers of battles and votes (migrations 0007, 0008) {@link withoutRowTriggers} accounts for. */
const KNOWN_TRIGGERS = [
  'zj_battle_number',
  'zj_battles_deleted',
  'zj_battles_inserted',
  'zj_battles_updated',
  'zj_votes_deleted',
  'zj_votes_inserted',
  'zj_votes_updated',
].join(',');

/**
 * Switches the rest of the import's inserts to `session_replication_role = replica` (PostgreSQL manual,
 * "Client Connection Defaults", and `ALTER TABLE … DISABLE TRIGGER`), which skips the per-row work a bulk load
 * does not need: the foreign-key checks (one lookup per row and key) and the triggers. Each is done here in one
 * pass instead, so the rows stored are the same:
 * - the models the rows name (`modelIds`) are locked `FOR KEY SHARE` and must all exist, as each row's foreign-key
 *   check would lock and check them; the votes name the battles the same import inserts just before them;
 * - `zj_battle_number` (migration 0008) numbers only battles inserted without a number: imports give them all;
 * - the counter triggers (migration 0007) count only the community's (`arena`) battles and battles of an item:
 *   imported battles are neither (`arena` is refused here and as an import source), so they add nothing.
 * Used only when the role may set it (a superuser: always so on the embedded database) and when the two tables
 * carry no trigger but those of {@link KNOWN_TRIGGERS} (a trigger added later is never skipped unawares); else
 * the rows are inserted with every check and trigger as usual, which is slower and stores the same.
 * @returns whether the switch was made (the caller sets the role back to `origin` after its inserts).
 * @throws Error naming the model ids missing (a caller's bug: they come from `ensureModels` in the transaction).
 */
async function withoutRowTriggers(
  trx: Transaction<Database>,
  source: string,
  modelIds: ReadonlySet<number>,
): Promise<boolean> {
  if (source === ARENA_SOURCE) return false;
  const r = await sql<{ su: string; unknown: number }>`
    SELECT current_setting('is_superuser') AS su,
           (SELECT count(*)::int FROM pg_trigger t
             WHERE t.tgrelid IN ('battles'::regclass, 'votes'::regclass)
               AND NOT t.tgisinternal
               AND t.tgname <> ALL (string_to_array(${KNOWN_TRIGGERS}, ','))) AS unknown`.execute(
    trx,
  );
  if (r.rows[0]?.su !== 'on' || Number(r.rows[0]?.unknown) !== 0) return false;
  const wanted = [...modelIds].sort((x, y) => x - y);
  const locked = await sql<{ id: string | number }>`
    SELECT m.id FROM models m WHERE m.id = ANY(${wanted.map(String)}::bigint[]) FOR KEY SHARE OF m`.execute(
    trx,
  );
  const found = new Set(locked.rows.map((x) => Number(x.id)));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new Error(
      `insertImportedBattles: no model with id ${missing.join(', ')}; create the models first (storage/models ensureModels)`,
    );
  }
  await sql`SET LOCAL session_replication_role = replica`.execute(trx);
  return true;
}

/** Import keys already stored for a source (to tell "already imported" from "another file, same source"). */
export async function importKeysOfSource(db: Conn, source: string): Promise<string[]> {
  const rows = await db
    .selectFrom('battles')
    .select('import_key')
    .where('source', '=', source)
    .where('import_key', 'is not', null)
    .execute();
  return rows.map((r) => r.import_key as string);
}

/**
 * The abilities of the imported battles of `source` (`null`: battles imported without `--ability`), with how many
 * battles have each, most first; empty when the source has no imported battle.
 */
export async function importedAbilitiesOfSource(
  db: Conn,
  source: string,
): Promise<{ readonly ability: string | null; readonly battles: number }[]> {
  const rows = await db
    .selectFrom('battles')
    .select(['ability', (eb) => eb.fn.countAll<string>().as('n')])
    .where('source', '=', source)
    .where('import_key', 'is not', null)
    .groupBy('ability')
    .orderBy('n', 'desc')
    .execute();
  return rows.map((r) => ({ ability: r.ability, battles: Number(r.n) }));
}

/** The statistics target of {@link analyzeVoteTables}'s import scope (PostgreSQL's default is 100). */
const IMPORT_STATISTICS_TARGET = 10;

/**
 * Refreshes the planner's statistics of the vote tables, so queries that read one source pick the source index at
 * once (the embedded database has no autovacuum to do it later).
 * - `scope: 'all'` (the default): every column of `battles`, `votes` and `vote_events`.
 * - `scope: 'import'`, after a bulk import (storage/battles `insertImportedBattles`, which writes `battles` and
 *   `votes` only): the columns of those two tables that the queries reading many battles filter, join or group on
 *   (the board's tallies and input marks, storage/leaderboard.ts; the export, storage/export.ts): `battles` id,
 *   source, status, named, kind, ability, item_id, import_key and `votes` battle_id, retracted_at, flag. Their
 *   other columns keep the statistics they had: each is read only through a unique index (a battle's message, a
 *   source's number, a voter's vote on a battle) or a partial one that holds no imported row (the per-voter day
 *   index, migration 0017), which the planner picks whatever the statistics say. This is about 40% cheaper: most
 *   of an ANALYZE is its sample of each table, the rest is per column, dearest for the long distinct texts
 *   (`voter_hash`). Its sample is 3,000 rows (PostgreSQL samples 300 rows per unit of the statistics target,
 *   {@link IMPORT_STATISTICS_TARGET}) instead of 30,000: the row counts and the few values of source, status,
 *   named, kind and ability that those queries' plans rest on come out the same, and the ANALYZE after importing
 *   200,000 votes took 42 ms on PostgreSQL instead of 268 ms (bench/import-battles.ts). Inside a transaction `db`,
 *   the lower target holds until it ends.
 */
export async function analyzeVoteTables(
  db: Conn,
  opts: { readonly scope?: 'all' | 'import' } = {},
): Promise<void> {
  if (opts.scope === 'import') {
    const analyze = async (trx: Conn) => {
      await sql`SET LOCAL default_statistics_target = ${sql.lit(IMPORT_STATISTICS_TARGET)}`.execute(
        trx,
      );
      await sql`ANALYZE battles (id, source, status, named, kind, ability, item_id, import_key),
                        votes (battle_id, retracted_at, flag)`.execute(trx);
    };
    if (db.isTransaction) await analyze(db);
    else await db.transaction().execute(analyze);
  } else await sql`ANALYZE battles, votes, vote_events`.execute(db);
}

/** Who voided a battle, when and why (`voidedBy` null: withdrawn by the platform, e.g. its message deleted). */
export interface BattleVoiding {
  readonly voidedAt: Date | null;
  /** The voter hash of the maintainer who voided it; null when nobody did (a deleted message). */
  readonly voidedBy: string | null;
  readonly reason: string | null;
}

/** The voiding record of battle `battleId` (by row id); undefined when no such battle exists. */
export async function battleVoiding(
  db: Conn,
  battleId: number,
): Promise<BattleVoiding | undefined> {
  const r = await db
    .selectFrom('battles')
    .select(['voided_at', 'voided_by', 'void_reason'])
    .where('id', '=', battleId)
    .executeTakeFirst();
  return r && { voidedAt: r.voided_at, voidedBy: r.voided_by, reason: r.void_reason };
}
