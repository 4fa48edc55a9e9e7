/**
 * @module storage/leaderboard
 * The board's reads (latest finished run per model and suite, item scores, arena battle types by ability and
 * source, a cheap fingerprint of all of it) and its writes (snapshots, schedule ticks, idempotent posts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { type VoteFilter, voteFilterSql } from './vote-flags.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** Arena battles with the same ability, pair and live votes, counted. */
export interface StoredBattleType {
  /** null: neither the battle nor its item has an ability (imported without `--ability`). */
  readonly ability: string | null;
  readonly modelA: string;
  readonly modelB: string;
  readonly aWins: number;
  readonly bWins: number;
  readonly ties: number;
  readonly count: number;
}

/** Options of {@link boardBattleTypes}. */
export interface BoardBattleTypesOptions {
  readonly chunkVotes?: number;
  readonly onChunk?: () => void;
  /** Named and flagged votes are left out unless included here (docs/scoring.md §4.3). */
  readonly votes?: VoteFilter;
}

/**
 * Live votes of non-void battles from the given sources, grouped by ability (the battle's, else its item's),
 * pair and vote counts. Battles with no ability at all come back with `ability: null`. Ordered by ability
 * (nulls last), model A, model B, A wins, ties, B wins (the database's collation).
 *
 * With `opts.chunkVotes` > 0 the votes are read in keyset-paged chunks
 * over battle id ranges of about that many live votes each (the range's width adapts to the votes the previous
 * chunk read; a battle is never split; each chunk is one short query, its battle types merged here), waiting a
 * turn of the event loop between chunks: on PGlite, whose queries run on the calling thread, no single step then
 * holds the event loop for long. The result is identical to the single query. `opts.onChunk` is called once per
 * chunk read (for tests).
 * @throws if `opts.chunkVotes` is not a non-negative integer.
 */
export async function boardBattleTypes(
  db: Conn,
  sources: readonly string[],
  opts: BoardBattleTypesOptions = {},
): Promise<StoredBattleType[]> {
  const chunk = opts.chunkVotes ?? 0;
  if (!Number.isInteger(chunk) || chunk < 0)
    throw new Error(
      `boardBattleTypes: chunkVotes must be a non-negative integer (got ${chunk}); use 0 for one query`,
    );
  if (chunk === 0) {
    opts.onChunk?.();
    return battleTypesOneQuery(db, sources, opts.votes);
  }
  // Battle ids bound the chunks (a battle is never split). Small tables take the same queries (one chunk), so
  // the queries' shapes never depend on how many votes are stored.
  const span = await sql<{ lo: string | null; hi: string | null }>`
    SELECT (SELECT min(id) FROM battles)::text AS lo, (SELECT max(id) FROM battles)::text AS hi`.execute(
    db,
  );
  const first = span.rows[0]?.lo;
  const last = span.rows[0]?.hi;
  if (first == null || last == null) {
    opts.onChunk?.();
    return [];
  }
  // Merge the chunks' types by (ability, left id, right id, l, e, r).
  const merged = new Map<
    string,
    { ab: string | null; lid: string; rid: string; l: number; e: number; r: number; n: number }
  >();
  const end = Number(last);
  let lo = Number(first) - 1;
  // The width of a chunk in battle ids, adapted after each chunk so that a chunk reads about `chunk` votes.
  // Starts small: the first chunk reads at most `chunk` votes when battles hold up to 8 votes.
  let width = Math.max(1, Math.floor(chunk / 8));
  while (lo < end) {
    const hi = Math.min(end, lo + width);
    const r = await sql<{
      ab: string | null;
      lid: string;
      rid: string;
      l: number;
      e: number;
      r: number;
      n: number;
    }>`
      SELECT t.ab, t.lid::text AS lid, t.rid::text AS rid, t.l, t.e, t.r, count(*) AS n
        FROM (${battleTallies(sources, { lo, hi }, opts.votes)}) t
       GROUP BY t.ab, t.lid, t.rid, t.l, t.e, t.r`.execute(db);
    opts.onChunk?.();
    for (const x of r.rows) {
      const k = `${x.ab ?? ''}\u0000${x.ab === null ? 0 : 1}\u0000${x.lid}\u0000${x.rid}\u0000${x.l}\u0000${x.e}\u0000${x.r}`;
      const m = merged.get(k);
      if (m) m.n += Number(x.n);
      else
        merged.set(k, {
          ab: x.ab,
          lid: x.lid,
          rid: x.rid,
          l: Number(x.l),
          e: Number(x.e),
          r: Number(x.r),
          n: Number(x.n),
        });
    }
    let read = 0;
    for (const x of r.rows) read += (Number(x.l) + Number(x.e) + Number(x.r)) * Number(x.n);
    width = Math.max(1, Math.min(width * 2, Math.round((width * chunk) / Math.max(1, read))));
    lo = hi;
    if (lo < end) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (merged.size === 0) return [];
  // Names from the database, and the order of names and abilities in its collation (small queries); the
  // merged types are sorted here as the single query's ORDER BY.
  const t = [...merged.values()];
  const ids = [...new Set(t.flatMap((x) => [x.lid, x.rid]))];
  const names = await sql<{ id: string; name: string }>`
    SELECT id::text AS id, name FROM models WHERE id = ANY(${ids}::bigint[]) ORDER BY name`.execute(
    db,
  );
  const name = new Map(names.rows.map((x) => [x.id, x.name]));
  const rank = new Map(names.rows.map((x, i) => [x.id, i]));
  const abs = [...new Set(t.flatMap((x) => (x.ab === null ? [] : [x.ab])))];
  const abOrder = await sql<{ a: string }>`
    SELECT a FROM unnest(${abs}::text[]) AS a ORDER BY a`.execute(db);
  const abRank = new Map(abOrder.rows.map((x, i) => [x.a, i]));
  const ar = (x: { ab: string | null }) => (x.ab === null ? abs.length : abRank.get(x.ab)!);
  t.sort(
    (x, y) =>
      ar(x) - ar(y) ||
      rank.get(x.lid)! - rank.get(y.lid)! ||
      rank.get(x.rid)! - rank.get(y.rid)! ||
      x.l - y.l ||
      x.e - y.e ||
      x.r - y.r,
  );
  return t.map((x) => ({
    ability: x.ab,
    modelA: name.get(x.lid)!,
    modelB: name.get(x.rid)!,
    aWins: x.l,
    ties: x.e,
    bWins: x.r,
    count: x.n,
  }));
}

/**
 * One row per counted battle: its ability (the battle's, else its item's), model ids and the live votes for left,
 * equal (both bad included: a tie) and right, over the battles of `sources` that are not void, without named
 * battles (imported `"anony": false`, docs/scoring.md §4.3) or flagged votes (§4.3) unless `votes` includes them;
 * with `range`, only battle ids in (lo, hi].
 * Both ways of reading the board's battle types group these rows.
 */
function battleTallies(
  sources: readonly string[],
  range?: { lo: number; hi: number },
  votes: VoteFilter = {},
) {
  const inRange = range
    ? sql`AND b.id > ${range.lo}::bigint AND b.id <= ${range.hi}::bigint
          AND v.battle_id > ${range.lo}::bigint AND v.battle_id <= ${range.hi}::bigint`
    : sql``;
  return sql`SELECT coalesce(b.ability, i.ability) AS ab, b.model_left_id AS lid, b.model_right_id AS rid,
                    count(*) FILTER (WHERE v.choice = 'left') AS l,
                    count(*) FILTER (WHERE v.choice IN ('equal', 'bothbad')) AS e,
                    count(*) FILTER (WHERE v.choice = 'right') AS r
               FROM votes v JOIN battles b ON b.id = v.battle_id
               LEFT JOIN items i ON i.id = b.item_id
              WHERE v.retracted_at IS NULL AND b.status <> 'void' AND ${voteFilterSql(votes)}
                AND b.source = ANY(${[...sources]}::text[])
                ${inRange}
              GROUP BY b.id, coalesce(b.ability, i.ability)`;
}

function toBattleType(x: {
  ab: string | null;
  lm: string;
  rm: string;
  l: number;
  e: number;
  r: number;
  n: number | string;
}): StoredBattleType {
  return {
    ability: x.ab,
    modelA: x.lm,
    modelB: x.rm,
    aWins: Number(x.l),
    ties: Number(x.e),
    bWins: Number(x.r),
    count: Number(x.n),
  };
}

// The tallies are grouped into types by model ids, and the names joined to the types (thousands of rows), not to
// every battle's tally: grouping 200,000 tallies by name made PostgreSQL sort them on disk (6 s against 3.5 s).
async function battleTypesOneQuery(
  db: Conn,
  sources: readonly string[],
  votes: VoteFilter = {},
): Promise<StoredBattleType[]> {
  const r = await sql<{
    ab: string | null;
    lm: string;
    rm: string;
    l: number;
    e: number;
    r: number;
    n: number;
  }>`
    SELECT t.ab, ml.name AS lm, mr.name AS rm, t.l, t.e, t.r, t.n
      FROM (SELECT t.ab, t.lid, t.rid, t.l, t.e, t.r, count(*) AS n
              FROM (${battleTallies(sources, undefined, votes)}) t
             GROUP BY t.ab, t.lid, t.rid, t.l, t.e, t.r) t
      JOIN models ml ON ml.id = t.lid JOIN models mr ON mr.id = t.rid
     ORDER BY 1 NULLS LAST, 2, 3, 4, 5, 6`.execute(db);
  return r.rows.map(toBattleType);
}

/**
 * Live battles (`/ask`) of the given sources with live votes, not void, and no ability: those the board counts as
 * votes but in no comparative score, fixed with `/arena ability`. An index probe (`battles_unclassified_idx`).
 */
export async function liveBattlesWithoutAbility(
  db: Conn,
  sources: readonly string[],
): Promise<number> {
  const r = await sql<{ n: number }>`
    SELECT count(*) AS n FROM battles b
     WHERE b.kind = 'live' AND b.ability IS NULL AND b.status <> 'void'
       AND b.source = ANY(${[...sources]}::text[])
       AND EXISTS (SELECT 1 FROM votes v WHERE v.battle_id = b.id AND v.retracted_at IS NULL)`.execute(
    db,
  );
  return Number(r.rows[0]?.n ?? 0);
}

/** The run that counts for one model and suite: its latest finished (succeeded) run. */
export interface LatestRun {
  readonly runId: number;
  readonly model: string;
  readonly suite: string;
  readonly finishedAt: Date | null;
  /** The run's seed (`eval_runs.seed`). */
  readonly seed: number;
  /** The zhujiu version that ran it (`eval_runs.config.versions.zhujiu`); null when not recorded. */
  readonly version: string | null;
  /** The prompt-template versions of its datasets (`eval_runs.config.datasets[].template_version`), sorted. */
  readonly templates: readonly string[];
}

/** Latest succeeded run per model and suite (by finish time, then id), with what it ran with. */
export async function latestFinishedRuns(db: Conn): Promise<LatestRun[]> {
  const r = await sql<{
    id: number;
    model: string;
    suite: string;
    fin: Date | string | null;
    seed: number | string;
    ver: string | null;
    tpl: string[] | null;
  }>`
    SELECT l.*,
           (SELECT array_agg(DISTINCT d->>'template_version' ORDER BY d->>'template_version')
              FROM jsonb_array_elements(CASE WHEN jsonb_typeof(l.cfg->'datasets') = 'array'
                                             THEN l.cfg->'datasets' ELSE '[]'::jsonb END) d
             WHERE d->>'template_version' IS NOT NULL) AS tpl
      FROM (SELECT DISTINCT ON (e.model_id, e.suite) e.model_id AS mid, e.id, m.name AS model, e.suite,
                   e.finished_at AS fin,
                   e.seed, e.config->'versions'->>'zhujiu' AS ver, e.config AS cfg
              FROM eval_runs e JOIN models m ON m.id = e.model_id
             WHERE e.status = 'succeeded'
             ORDER BY e.model_id, e.suite, e.finished_at DESC NULLS LAST, e.id DESC) l
     ORDER BY l.mid, l.suite`.execute(db);
  return r.rows.map((x) => ({
    runId: Number(x.id),
    model: x.model,
    suite: x.suite,
    finishedAt: x.fin === null ? null : new Date(x.fin),
    seed: Number(x.seed),
    version: x.ver,
    templates: x.tpl ?? [],
  }));
}

/** One scored item of a counted run, on the ten-point scale. */
export interface StoredItemScore {
  readonly model: string;
  readonly dataset: string;
  readonly ability: string;
  readonly method: string;
  readonly itemId: number;
  /** Mean over the item's metrics of raw / max × 10; 0 when flagged as a safety violation. */
  readonly score: number;
  /**
   * The same before the safety-violation adjustment (the judge's grade, raw / max × 10 capped at 10; = score when
   * not flagged).
   */
  readonly raw: number;
  readonly violation: boolean;
  /** Scoring items: the judge whose grade this is (`item_scores.detail.judge`); null for metrics or when none is recorded. */
  readonly judge: string | null;
}

/**
 * Item scores of the given runs (metrics and scoring only; several metrics of one item are averaged; a safety
 * violation makes the item's adjusted score 0, docs/scoring.md §3). When a model has several counted runs
 * scoring the same item (two suites sharing a dataset), the latest run's score counts.
 */
export async function itemScoresOfRuns(
  db: Conn,
  runIds: readonly number[],
): Promise<StoredItemScore[]> {
  if (runIds.length === 0) return [];
  return itemScoresQuery(db, runIds);
}

/**
 * {@link itemScoresOfRuns} in one short query per model (the latest-run rule never looks across models), waiting
 * a turn of the event loop between models; the same rows in the same order (by model id, item, method).
 * @param runs the counted runs, in model-id order as {@link latestFinishedRuns} returns them.
 */
export async function itemScoresOfRunsByModel(
  db: Conn,
  runs: readonly { readonly runId: number; readonly model: string }[],
): Promise<StoredItemScore[]> {
  const out: StoredItemScore[] = [];
  for (let i = 0; i < runs.length; ) {
    let j = i + 1;
    while (j < runs.length && runs[j]!.model === runs[i]!.model) j++;
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const s of await itemScoresQuery(
      db,
      runs.slice(i, j).map((r) => r.runId),
    ))
      out.push(s);
    i = j;
  }
  return out;
}

async function itemScoresQuery(db: Conn, runIds: readonly number[]): Promise<StoredItemScore[]> {
  const r = await sql<{
    model: string;
    dataset: string;
    ability: string;
    method: string;
    item: number;
    score: number;
    raw: number;
    sv: boolean;
    judge: string | null;
  }>`
    SELECT DISTINCT ON (e.model_id, s.item_id, s.method)
           m.name AS model, d.name AS dataset, i.ability, s.method, s.item_id AS item,
           CASE WHEN bool_or(s.safety_flag) THEN 0 ELSE avg(s.raw_score / s.max_score) * 10 END AS score,
           avg(CASE WHEN s.method = 'scoring' AND s.detail ? 'judge_score'
                    THEN least((s.detail->>'judge_score')::double precision / s.max_score, 1)
                    ELSE s.raw_score / s.max_score END) * 10 AS raw,
           coalesce(bool_or(s.safety_flag), false)
             OR coalesce(bool_or((s.detail->>'safety_violation')::boolean), false) AS sv,
           CASE WHEN s.method = 'scoring' THEN max(s.detail->>'judge') END AS judge
      FROM item_scores s
      JOIN eval_runs e ON e.id = s.run_id
      JOIN models m ON m.id = e.model_id
      JOIN items i ON i.id = s.item_id
      JOIN datasets d ON d.id = i.dataset_id
     WHERE s.run_id = ANY(${[...runIds]}::bigint[]) AND s.method IN ('metrics', 'scoring')
     GROUP BY e.model_id, s.item_id, s.method, s.run_id, m.name, d.name, i.ability
     ORDER BY e.model_id, s.item_id, s.method, s.run_id DESC`.execute(db);
  return r.rows.map((x) => ({
    model: x.model,
    dataset: x.dataset,
    ability: x.ability,
    method: x.method,
    itemId: Number(x.item),
    score: Number(x.score),
    raw: Number(x.raw),
    violation: Boolean(x.sv),
    judge: x.judge ?? null,
  }));
}

/** A derived robustness item and the base item it was made from (eval/robustness: `metadata.robustness`). */
export interface RobustnessLink {
  readonly itemId: number;
  readonly baseItemId: number;
  readonly baseDataset: string;
}

/**
 * The base items of the given derived robustness items: the item of dataset `metadata.robustness.base_dataset`
 * with key `metadata.robustness.base_key`. Items without such metadata, or whose base item is not stored, are left
 * out.
 */
export async function robustnessLinks(
  db: Conn,
  itemIds: readonly number[],
): Promise<RobustnessLink[]> {
  if (itemIds.length === 0) return [];
  const r = await sql<{ item: number; base: number; base_dataset: string }>`
    SELECT i.id AS item, b.id AS base, bd.name AS base_dataset
      FROM items i
      JOIN datasets bd ON bd.name = i.metadata->'robustness'->>'base_dataset'
      JOIN items b ON b.dataset_id = bd.id AND b.key = i.metadata->'robustness'->>'base_key'
     WHERE i.id = ANY(${[...itemIds]}::bigint[]) AND i.metadata ? 'robustness'`.execute(db);
  return r.rows.map((x) => ({
    itemId: Number(x.item),
    baseItemId: Number(x.base),
    baseDataset: x.base_dataset,
  }));
}

/**
 * The judges with stored single-answer records (verdicts or failures, table `judge_scores`), by name: the
 * candidates for the board's Scoring judge when `judge.model` is not set (docs/scoring.md §3).
 */
export async function singleAnswerJudges(db: Conn): Promise<string[]> {
  const r = await sql<{ judge: string }>`
    SELECT DISTINCT judge FROM judge_scores WHERE kind = 'single' ORDER BY judge`.execute(db);
  return r.rows.map((x) => x.judge);
}

/**
 * Judge grades of ONE judge (Scoring Evaluation, table `judge_scores`): for each model and item the latest
 * single-answer verdict of `judge` (any rubric version), on the ten-point scale (a recorded grade above the item's
 * maximum, as a few GAOKAO-Bench judge grades are, counts as the maximum), 0 for a safety violation; and that
 * judge's failures per model and dataset: items it failed on and never graded, and items whose latest grade has
 * a failed safety-violation check (`failure_code` `safety_check_failed`: in no mean, docs/scoring.md §3.4)
 * (failures are never scores, and another judge's grade never fills them, docs/scoring.md §3).
 */
export async function judgeGrades(
  db: Conn,
  judge: string,
): Promise<{
  grades: StoredItemScore[];
  failures: { model: string; dataset: string; failures: number }[];
}> {
  const g = await sql<{
    model: string;
    dataset: string;
    ability: string;
    item: number;
    score: number;
    raw: number;
    sv: boolean | null;
    svfailed: boolean;
  }>`
    SELECT DISTINCT ON (j.model_id, j.item_id)
           m.name AS model, d.name AS dataset, i.ability, j.item_id AS item,
           CASE WHEN coalesce(j.safety_flag, false) THEN 0 ELSE least(j.raw_score / j.max_score, 1) * 10 END AS score,
           least(j.raw_score / j.max_score, 1) * 10 AS raw,
           j.safety_flag AS sv,
           (j.safety_flag IS NULL AND (j.failure_code IS NOT DISTINCT FROM 'safety_check_failed'
                                        OR coalesce(j.judge_output->'safety' ? 'failure', false))) AS svfailed
      FROM judge_scores j
      JOIN models m ON m.id = j.model_id
      JOIN items i ON i.id = j.item_id
      JOIN datasets d ON d.id = i.dataset_id
     WHERE j.kind = 'single' AND j.status = 'judged' AND j.raw_score IS NOT NULL AND j.judge = ${judge}
     ORDER BY j.model_id, j.item_id, j.updated_at DESC, j.id DESC`.execute(db);
  const f = await sql<{ model: string; dataset: string; n: number }>`
    SELECT m.name AS model, d.name AS dataset, count(DISTINCT j.item_id) AS n
      FROM judge_scores j
      JOIN models m ON m.id = j.model_id
      JOIN items i ON i.id = j.item_id
      JOIN datasets d ON d.id = i.dataset_id
     WHERE j.kind = 'single' AND j.status = 'failed' AND j.judge = ${judge}
       AND NOT EXISTS (SELECT 1 FROM judge_scores k WHERE k.model_id = j.model_id AND k.item_id = j.item_id
                        AND k.kind = 'single' AND k.status = 'judged' AND k.judge = j.judge)
     GROUP BY m.name, d.name`.execute(db);
  const failures = new Map<string, { model: string; dataset: string; failures: number }>();
  for (const x of f.rows)
    failures.set(`${x.model}\u0000${x.dataset}`, {
      model: x.model,
      dataset: x.dataset,
      failures: Number(x.n),
    });
  for (const x of g.rows) {
    if (!x.svfailed) continue;
    const k = `${x.model}\u0000${x.dataset}`;
    const e = failures.get(k) ?? { model: x.model, dataset: x.dataset, failures: 0 };
    e.failures++;
    failures.set(k, e);
  }
  return {
    grades: g.rows
      .filter((x) => !x.svfailed)
      .map((x) => ({
        model: x.model,
        dataset: x.dataset,
        ability: x.ability,
        method: 'scoring',
        itemId: Number(x.item),
        score: Number(x.score),
        raw: Number(x.raw),
        violation: Boolean(x.sv),
        judge,
      })),
    failures: [...failures.values()],
  };
}

/**
 * Models that belong on the board whatever the votes: those with stored answers (they can battle) or a
 * succeeded evaluation run. Models known only from imported votes join the board through those votes, when
 * their source is counted.
 */
export async function boardModels(db: Conn): Promise<string[]> {
  const r = await sql<{ name: string }>`
    SELECT m.name FROM models m
     WHERE EXISTS (SELECT 1 FROM responses r WHERE r.model_id = m.id)
        OR EXISTS (SELECT 1 FROM eval_runs e WHERE e.model_id = m.id AND e.status = 'succeeded')
        OR EXISTS (SELECT 1 FROM judge_scores j WHERE j.model_id = m.id)
     ORDER BY m.name`.execute(db);
  return r.rows.map((x) => x.name);
}

/**
 * How many of the latest vote-event ids (and battle ids) {@link boardInputState} counts, to notice an event whose
 * transaction committed after one with a higher id (votes arriving at once on several connections): its id is
 * below the maximum, so only the count of the ids near the top changes. Such a gap is at most the number of vote
 * transactions in flight at once; 16 rows is a constant cost.
 */
const RECENT_EVENTS = 16;

/**
 * A cheap fingerprint of everything the board reads: the vote state, counted runs and scores, the models, and
 * battle changes that move votes between boards (voids and ability overrides are audited; classification takes a
 * battle out of the unclassified set). Two equal fingerprints mean the same board inputs.
 *
 * Every change of a vote row is made by `zj_apply_vote_event`, which appends a vote event in the same transaction,
 * or by an import, which adds a battle per vote (and no event: storage/battles `insertImportedBattles`), so the
 * vote state is the highest event id and battle id plus the number of each among the latest {@link RECENT_EVENTS}
 * ids. Every part is an index probe or a scan of a small table: the cost does not grow with
 * the number of stored votes (`/leaderboard` computes it on the chat path; it used to read every vote twice,
 * ~0.3–0.8 s with 1 M votes on the embedded database, all of it on the bot's thread).
 */
export async function boardInputState(db: Conn): Promise<string> {
  return boardInputMarksKey(await boardInputMarks(db));
}

/**
 * The parts of {@link boardInputState}, kept with a snapshot so that a later reader can say what the snapshot
 * misses ({@link boardInputsSince}). Ids as decimal strings, times as ISO strings, null for an empty table.
 */
export interface BoardInputMarks {
  /** Highest vote event id, and the number of events among the latest ones (see {@link RECENT_EVENTS}). */
  readonly voteEvent: string | null;
  readonly recentEvents: number;
  readonly itemScore: string | null;
  /** Highest id and latest finish time of a succeeded run. */
  readonly run: string | null;
  readonly runFinished: string | null;
  readonly models: number;
  /** Latest judge verdict change. */
  readonly judged: string | null;
  /** Highest battle id, and the number of battles among the latest ones (see {@link RECENT_EVENTS}). */
  readonly battle: string | null;
  readonly recentBattles: number;
  /** Highest maintainer action (void, ability override). */
  readonly audit: string | null;
  readonly unclassified: number;
}

/** The fingerprint string of a set of marks (what {@link boardInputState} returns). */
export function boardInputMarksKey(x: BoardInputMarks): string {
  return [
    x.voteEvent ?? '-',
    x.recentEvents,
    x.itemScore ?? '-',
    x.run ?? '-',
    x.runFinished ?? '-',
    x.models,
    x.judged ?? '-',
    x.battle ?? '-',
    x.recentBattles,
    x.audit ?? '-',
    x.unclassified,
  ].join('/');
}

/** The marks of {@link boardInputState}: one query of index probes and small-table scans. */
export async function boardInputMarks(db: Conn): Promise<BoardInputMarks> {
  const r = await sql<{
    ev: string | null;
    evn: number;
    sc: string | null;
    ru: string | null;
    rf: Date | string | null;
    mo: number;
    ju: Date | string | null;
    bt: string | null;
    btn: number;
    au: string | null;
    uc: number;
  }>`
    WITH top AS (SELECT (SELECT max(id) FROM vote_events) AS ev, (SELECT max(id) FROM battles) AS bt)
    SELECT top.ev::text AS ev,
           (SELECT count(*) FROM vote_events e WHERE e.id > top.ev - ${RECENT_EVENTS}) AS evn,
           (SELECT max(id) FROM item_scores)::text AS sc,
           (SELECT max(id) FROM eval_runs WHERE status = 'succeeded')::text AS ru,
           (SELECT max(finished_at) FROM eval_runs WHERE status = 'succeeded') AS rf,
           (SELECT count(*) FROM models) AS mo,
           (SELECT max(updated_at) FROM judge_scores) AS ju,
           top.bt::text AS bt,
           (SELECT count(*) FROM battles b WHERE b.id > top.bt - ${RECENT_EVENTS}) AS btn,
           (SELECT max(id) FROM battle_audit)::text AS au,
           (SELECT count(*) FROM battles WHERE kind = 'live' AND ability IS NULL) AS uc
      FROM top`.execute(db);
  const x = r.rows[0]!;
  const t = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    voteEvent: x.ev,
    recentEvents: Number(x.evn),
    itemScore: x.sc,
    run: x.ru,
    runFinished: t(x.rf),
    models: Number(x.mo),
    judged: t(x.ju),
    battle: x.bt,
    recentBattles: Number(x.btn),
    audit: x.au,
    unclassified: Number(x.uc),
  };
}

/** Counts above this are reported as "more than" (the count stops there, so the check stays cheap). */
export const SINCE_CAP = 10_000;

/** What changed in the board's inputs since `marks` were read (each count capped at {@link SINCE_CAP} + 1). */
export interface BoardInputsSince {
  /** Votes cast on battles of the sources: live ones in vote events after the marks, imported ones on battles
   *  after them. */
  readonly votes: number;
  /** Vote events that took a vote back or changed it. */
  readonly voteChanges: number;
  /** Runs that succeeded after the marks. */
  readonly runs: number;
  /** Judge verdicts recorded or changed after the marks. */
  readonly verdicts: number;
  /** Maintainer actions (void, ability override) after the marks. */
  readonly battleChanges: number;
}

/**
 * What the board's inputs of `sources` (votes of other sources do not count) gained since `marks` ({@link boardInputMarks}) were read: each part a bounded range
 * read above a mark (primary-key ranges for votes and maintainer actions; the small run table; the judge verdicts
 * changed since), capped at {@link SINCE_CAP} + 1 rows, so the cost is that of the news, not of the stored votes.
 */
export async function boardInputsSince(
  db: Conn,
  marks: BoardInputMarks,
  sources: readonly string[],
): Promise<BoardInputsSince> {
  const cap = SINCE_CAP + 1;
  const ev = marks.voteEvent ?? '0';
  const src = [...sources];
  const r = await sql<{ v: number; iv: number; c: number; ru: number; ju: number; au: number }>`
    SELECT
      (SELECT count(*) FROM (SELECT 1 FROM vote_events e JOIN battles b ON b.id = e.battle_id
          WHERE e.id > ${ev}::bigint AND e.effect = 'cast' AND b.source = ANY(${src}::text[])
          LIMIT ${cap}) t) AS v,
      (SELECT count(*) FROM (SELECT 1 FROM battles b JOIN votes v ON v.battle_id = b.id
          WHERE b.id > ${marks.battle ?? '0'}::bigint AND b.import_key IS NOT NULL
            AND b.source = ANY(${src}::text[]) LIMIT ${cap}) t) AS iv,
      (SELECT count(*) FROM (SELECT 1 FROM vote_events e JOIN battles b ON b.id = e.battle_id
          WHERE e.id > ${ev}::bigint AND e.effect IN ('changed', 'retracted')
            AND b.source = ANY(${src}::text[]) LIMIT ${cap}) t) AS c,
      (SELECT count(*) FROM eval_runs WHERE status = 'succeeded'
          AND (${marks.runFinished}::timestamptz IS NULL OR finished_at > ${marks.runFinished}::timestamptz)) AS ru,
      (SELECT count(*) FROM (SELECT 1 FROM judge_scores
          WHERE ${marks.judged}::timestamptz IS NULL OR updated_at > ${marks.judged}::timestamptz LIMIT ${cap}) t) AS ju,
      (SELECT count(*) FROM battle_audit WHERE id > ${marks.audit ?? '0'}::bigint) AS au`.execute(
    db,
  );
  const x = r.rows[0]!;
  return {
    votes: Number(x.v) + Number(x.iv),
    voteChanges: Number(x.c),
    runs: Number(x.ru),
    verdicts: Number(x.ju),
    battleChanges: Number(x.au),
  };
}

/** A stored board snapshot. */
export interface SnapshotRow {
  readonly id: number;
  readonly fingerprint: string;
  readonly sources: string;
  readonly inputs: unknown;
  readonly board: unknown;
  readonly chart: Uint8Array | null;
  readonly buildMs: number;
  readonly createdAt: Date;
}

function snapshotOf(x: {
  id: number;
  fingerprint: string;
  sources: string;
  inputs: unknown;
  board: unknown;
  chart: Uint8Array | null;
  build_ms: number;
  created_at: Date | string;
}): SnapshotRow {
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    id: Number(x.id),
    fingerprint: x.fingerprint,
    sources: x.sources,
    inputs: parse(x.inputs),
    board: parse(x.board),
    chart: x.chart === null ? null : new Uint8Array(x.chart),
    buildMs: Number(x.build_ms),
    createdAt: new Date(x.created_at),
  };
}

/**
 * Stores a snapshot; when one with the same fingerprint exists (another process built the same board), returns
 * that one instead.
 */
export async function insertSnapshot(
  db: Conn,
  s: {
    fingerprint: string;
    sources: string;
    inputs: unknown;
    board: unknown;
    chart: Uint8Array | null;
    buildMs: number;
    createdAt: Date;
  },
): Promise<SnapshotRow> {
  const values = {
    fingerprint: s.fingerprint,
    sources: s.sources,
    inputs: JSON.stringify(s.inputs),
    board: JSON.stringify(s.board),
    chart: s.chart === null ? null : Buffer.from(s.chart),
    build_ms: Math.max(0, Math.round(s.buildMs)),
    created_at: s.createdAt,
  };
  // Only the id comes back: the row is what was sent (a board of many models is a megabyte of JSON, which the
  // server would otherwise convert back to text and send again).
  const ins = await db
    .insertInto('leaderboard_snapshots')
    .values(values)
    .onConflict((oc) => oc.column('fingerprint').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (ins) return snapshotOf({ ...values, id: ins.id });
  const row = await db
    .selectFrom('leaderboard_snapshots')
    .selectAll()
    .where('fingerprint', '=', s.fingerprint)
    .executeTakeFirstOrThrow();
  return snapshotOf(row);
}

/** Stores the chart (PNG) of a snapshot stored without one; a snapshot's chart is never replaced. */
export async function setSnapshotChart(db: Conn, id: number, chart: Uint8Array): Promise<void> {
  await db
    .updateTable('leaderboard_snapshots')
    .set({ chart: Buffer.from(chart) })
    .where('id', '=', id)
    .where('chart', 'is', null)
    .execute();
}

/** The newest snapshot for a set of sources (canonical key), or undefined. */
export async function latestSnapshot(db: Conn, sources: string): Promise<SnapshotRow | undefined> {
  const row = await db
    .selectFrom('leaderboard_snapshots')
    .selectAll()
    .where('sources', '=', sources)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? snapshotOf(row) : undefined;
}

/** The fingerprint of the newest snapshot for a set of sources (without loading the board). */
export async function latestSnapshotFingerprint(
  db: Conn,
  sources: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('leaderboard_snapshots')
    .select('fingerprint')
    .where('sources', '=', sources)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.fingerprint;
}

/** A snapshot by id. */
export async function snapshotById(db: Conn, id: number): Promise<SnapshotRow | undefined> {
  const row = await db
    .selectFrom('leaderboard_snapshots')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? snapshotOf(row) : undefined;
}

/** Creates or updates a named schedule (cron, time zone); keeps its last tick. */
export async function upsertSchedule(
  db: Conn,
  name: string,
  cron: string,
  tz: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('schedules')
    .values({ name, cron, tz, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ cron, tz, updated_at: now })
        .where((eb) => eb.or([eb('schedules.cron', '<>', cron), eb('schedules.tz', '<>', tz)])),
    )
    .execute();
}

/** A schedule row. */
export interface ScheduleRow {
  readonly name: string;
  readonly cron: string;
  readonly tz: string;
  readonly lastTickAt: Date | null;
  /** When the schedule was created or its cron / time zone last changed. */
  readonly updatedAt: Date;
}

/** Every schedule row of a name (0 or 1), for tests and status. */
export async function getSchedule(db: Conn, name: string): Promise<ScheduleRow | undefined> {
  const r = await db
    .selectFrom('schedules')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirst();
  return r
    ? {
        name: r.name,
        cron: r.cron,
        tz: r.tz,
        lastTickAt: r.last_tick_at === null ? null : new Date(r.last_tick_at),
        updatedAt: new Date(r.updated_at),
      }
    : undefined;
}

/** Records that the tick at `tickAt` was handled, if no later tick was; true when this call recorded it. */
export async function advanceSchedule(db: Conn, name: string, tickAt: Date): Promise<boolean> {
  const r = await db
    .updateTable('schedules')
    .set({ last_tick_at: tickAt })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('last_tick_at', 'is', null), eb('last_tick_at', '<', tickAt)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Claims the post `(kind, platform, channel, key)`: true when this caller may post it. A claim that is neither
 * posted nor younger than `leaseMs` (its process died mid-post) may be claimed again.
 */
export async function claimPost(
  db: Conn,
  p: { kind: string; platform: string; channelId: string; key: string; now: Date; leaseMs: number },
): Promise<number | undefined> {
  const ins = await db
    .insertInto('posts')
    .values({
      kind: p.kind,
      platform: p.platform,
      channel_id: p.channelId,
      idempotency_key: p.key,
      status: 'claimed',
      posted_at: p.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['kind', 'platform', 'channel_id', 'idempotency_key'])
        .where('idempotency_key', 'is not', null)
        .doUpdateSet({ status: 'claimed', posted_at: p.now, error: null })
        .where((eb) =>
          eb.and([
            eb('posts.status', '<>', 'posted'),
            eb('posts.posted_at', '<', new Date(p.now.getTime() - p.leaseMs)),
          ]),
        ),
    )
    .returning('id')
    .executeTakeFirst();
  return ins ? Number(ins.id) : undefined;
}

/** Marks a claimed post as made. */
export async function markPosted(
  db: Conn,
  id: number,
  r: { messageId: string; snapshotId: number | null; snapshot: unknown; now: Date },
): Promise<void> {
  await db
    .updateTable('posts')
    .set({
      status: 'posted',
      message_id: r.messageId,
      snapshot_id: r.snapshotId,
      snapshot: JSON.stringify(r.snapshot),
      posted_at: r.now,
    })
    .where('id', '=', id)
    .execute();
}

/** Marks a claimed post as failed (it may be claimed again after the lease). */
export async function markPostFailed(db: Conn, id: number, error: string): Promise<void> {
  await db
    .updateTable('posts')
    .set({ status: 'failed', error: error.slice(0, 2000) })
    .where('id', '=', id)
    .execute();
}

/** Posts of a kind (all channels), oldest first: for tests and the previous board of a daily post. */
export async function listPosts(
  db: Conn,
  kind: string,
): Promise<
  {
    id: number;
    platform: string;
    channelId: string;
    key: string | null;
    status: string;
    snapshotId: number | null;
    messageId: string | null;
    postedAt: Date;
  }[]
> {
  const rows = await db
    .selectFrom('posts')
    .selectAll()
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    platform: r.platform,
    channelId: r.channel_id,
    key: r.idempotency_key,
    status: r.status,
    snapshotId: r.snapshot_id === null ? null : Number(r.snapshot_id),
    messageId: r.message_id,
    postedAt: new Date(r.posted_at),
  }));
}

/** The snapshot id of the latest made post of a kind before `key` (the board the next post compares with). */
export async function previousPostedSnapshot(
  db: Conn,
  kind: string,
  beforeKey: string,
): Promise<number | undefined> {
  const r = await db
    .selectFrom('posts')
    .select('snapshot_id')
    .where('kind', '=', kind)
    .where('status', '=', 'posted')
    .where('snapshot_id', 'is not', null)
    .where('idempotency_key', '<', beforeKey)
    .orderBy('idempotency_key', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.snapshot_id === null || r === undefined ? undefined : Number(r.snapshot_id);
}

/** One model's standing on a board, as kept in `board_history` (migration 0015). */
export interface BoardHistoryEntry {
  readonly model: string;
  readonly rank: number | null;
  /** The ranking key's score (overall or final, per `rankBy`), ten-point scale; null when empty. */
  readonly score: number | null;
  readonly scoreLo: number | null;
  readonly scoreHi: number | null;
  readonly votes: number;
}

/** One day of a model's history: the day's newest board. */
export interface BoardHistoryPoint extends BoardHistoryEntry {
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly snapshotId: number;
  readonly builtAt: Date;
  readonly rankBy: 'overall' | 'final';
}

/**
 * Records a stored snapshot's standings in `board_history`: one row per model for the snapshot's UTC day, replacing
 * that day's row when this snapshot is the newer (a late-arriving older snapshot never overwrites a newer one).
 * Models in a previous board of the same day but absent from this one keep their row.
 */
export async function recordBoardHistory(
  db: Conn,
  s: {
    snapshotId: number;
    sources: string;
    builtAt: Date;
    rankBy: 'overall' | 'final';
    rows: readonly BoardHistoryEntry[];
  },
): Promise<void> {
  if (s.rows.length === 0) return;
  const day = s.builtAt.toISOString().slice(0, 10);
  await db
    .insertInto('board_history')
    .values(
      s.rows.map((r) => ({
        sources: s.sources,
        day,
        model: r.model,
        snapshot_id: s.snapshotId,
        built_at: s.builtAt,
        rank_by: s.rankBy,
        rank: r.rank,
        score: r.score,
        score_lo: r.scoreLo,
        score_hi: r.scoreHi,
        votes: r.votes,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['sources', 'model', 'day'])
        .doUpdateSet((eb) => ({
          snapshot_id: eb.ref('excluded.snapshot_id'),
          built_at: eb.ref('excluded.built_at'),
          rank_by: eb.ref('excluded.rank_by'),
          rank: eb.ref('excluded.rank'),
          score: eb.ref('excluded.score'),
          score_lo: eb.ref('excluded.score_lo'),
          score_hi: eb.ref('excluded.score_hi'),
          votes: eb.ref('excluded.votes'),
        }))
        .whereRef('board_history.snapshot_id', '<=', 'excluded.snapshot_id'),
    )
    .execute();
}

/** A model's history on a source set's boards, oldest day first (at most `limit` days, the newest ones). */
export async function modelHistory(
  db: Conn,
  sources: string,
  model: string,
  limit = 365,
): Promise<BoardHistoryPoint[]> {
  const rows = await db
    .selectFrom('board_history')
    .select([
      sql<string>`day::text`.as('day'),
      'model',
      'snapshot_id',
      'built_at',
      'rank_by',
      'rank',
      'score',
      'score_lo',
      'score_hi',
      'votes',
    ])
    .where('sources', '=', sources)
    .where('model', '=', model)
    .orderBy('day', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    day: r.day,
    model: r.model,
    snapshotId: Number(r.snapshot_id),
    builtAt: new Date(r.built_at),
    rankBy: r.rank_by,
    rank: r.rank === null ? null : Number(r.rank),
    score: r.score === null ? null : Number(r.score),
    scoreLo: r.score_lo === null ? null : Number(r.score_lo),
    scoreHi: r.score_hi === null ? null : Number(r.score_hi),
    votes: Number(r.votes),
  }));
}

/** Which snapshots {@link pruneSnapshots} keeps (config `leaderboard.keep`). */
export interface SnapshotKeep {
  /** The newest this many of the source set. */
  readonly last: number;
  /** The newest of each UTC day of the last this many days (counted back from `now`). */
  readonly days: number;
}

/**
 * Deletes a source set's snapshots but those kept: the `keep.last` newest, the newest of each UTC day since
 * `keep.days` days before `now`, any that a post made in that window refers to, and the board of each channel's
 * newest post of each kind (the daily post compares with the board of the previous post). One statement; other source sets are untouched.
 * @returns how many snapshots were deleted.
 * @throws when `keep.last` or `keep.days` is not a positive integer.
 */
export async function pruneSnapshots(
  db: Conn,
  sources: string,
  keep: SnapshotKeep,
  now: Date,
): Promise<number> {
  for (const [k, v] of Object.entries(keep))
    if (!Number.isInteger(v) || v < 1)
      throw new Error(
        `pruneSnapshots: keep.${k} must be a positive integer (got ${v}); set leaderboard.keep.${k} in config/default.yaml`,
      );
  const since = new Date(now.getTime() - keep.days * 86_400_000);
  const r = await sql<{ n: string }>`
    WITH kept AS (
      (SELECT id FROM leaderboard_snapshots WHERE sources = ${sources} ORDER BY id DESC LIMIT ${keep.last})
      UNION
      (SELECT DISTINCT ON ((created_at AT TIME ZONE 'UTC')::date) id FROM leaderboard_snapshots
        WHERE sources = ${sources} AND created_at >= ${since}
        ORDER BY (created_at AT TIME ZONE 'UTC')::date, id DESC)
      UNION
      (SELECT snapshot_id FROM posts
        WHERE snapshot_id IS NOT NULL
          AND (posted_at >= ${since}
               OR id IN (SELECT max(id) FROM posts WHERE status = 'posted' AND snapshot_id IS NOT NULL
                          GROUP BY kind, platform, channel_id)))
    ), gone AS (
      DELETE FROM leaderboard_snapshots s
       WHERE s.sources = ${sources} AND s.id NOT IN (SELECT id FROM kept WHERE id IS NOT NULL)
      RETURNING 1
    )
    SELECT count(*)::text AS n FROM gone`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}
