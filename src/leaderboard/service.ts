/**
 * @module leaderboard/service
 * The one board service: every view (chat `/leaderboard`, the CLI, the results page, the daily post) reads the
 * latest stored snapshot; a new snapshot is built (off the event loop, in a worker thread) when the board's
 * inputs changed (a cheap fingerprint query) or on demand, and stored in Postgres with what it was built from.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Board, computeBoard, type RankBy } from '../aggregate/index.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import { type AppMetrics, noMetrics } from '../core/metrics.ts';
import { createRng } from '../core/rng.ts';
import { installBrokenError } from '../i18n/cli.ts';
import { type Locale, type MessageKey, t } from '../i18n/index.ts';
import type { SharedWork } from '../jobs/shared-work.ts';
import { bootstrapStyleControl, type StyleControlResult } from '../rating/index.ts';
import {
  type BoardHistoryPoint,
  type BoardInputMarks,
  type BoardInputsSince,
  boardInputMarks,
  boardInputMarksKey,
  boardInputsSince,
  insertSnapshot,
  latestSnapshot,
  latestSnapshotFingerprint,
  modelHistory,
  pruneSnapshots,
  recordBoardHistory,
  SINCE_CAP,
  type SnapshotKeep,
  type SnapshotRow,
  setSnapshotChart,
  snapshotById,
} from '../storage/leaderboard.ts';
import type { Database } from '../storage/schema.ts';
import { type SourceSummary, votesOutside } from '../storage/sources.ts';
import type { VoteFilter } from '../storage/vote-flags.ts';
import { type BoardInputSummary, loadBoardInput, sourcesKey } from './inputs.ts';
import { BoardWorker } from './off-thread.ts';
import {
  type RoundThreadOptions,
  spawnRoundThreads,
  startRoundThreads,
  THREADED_ROUNDS_MIN,
} from './round-threads.ts';
import { loadStyleBattles } from './style.ts';
import { chartNotes, chartRows, historyEntries, rankKey } from './views.ts';

/** The community's own votes: the default (and always included) source. */
export const ARENA_SOURCE = 'arena';

/** Board options from config `aggregation`. */
export interface AggregationSettings {
  readonly min_votes: number;
  readonly bootstrap: number;
  readonly seed: number;
  /** The ranking key (docs/scoring.md §5 "Ranking"); default `overall`, as config `aggregation.rank_by`. */
  readonly rank_by?: RankBy;
}

/** A stored board. */
export interface Snapshot {
  readonly id: number;
  readonly createdAt: Date;
  readonly sources: readonly string[];
  /** The fingerprint of the inputs and options it was built from. */
  readonly fingerprint: string;
  readonly board: Board;
  /**
   * What it was built from; `marks`, the input marks read before the build (absent in snapshots stored before
   * they were recorded), let a reader say what the snapshot misses ({@link LeaderboardService.checkStale}).
   */
  readonly inputs: BoardInputSummary & {
    readonly seed: number;
    readonly rounds: number;
    readonly marks?: BoardInputMarks;
  };
  readonly buildMs: number;
  /** The board's chart (PNG), when it was rendered. */
  readonly chart: Uint8Array | null;
}

/** Votes read per chunk when loading the board's inputs (see {@link LeaderboardServiceOptions.inputChunkVotes}). */
export const DEFAULT_INPUT_CHUNK_VOTES = 5_000;

/** The board's title in `locale` ("ZhuJiu board"), the stored chart's title. */
export function boardTitle(locale: Locale): string {
  return t(locale, 'site.title');
}

/** Options of {@link LeaderboardService}. */
export interface LeaderboardServiceOptions {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly aggregation: AggregationSettings;
  /**
   * Where boards are computed: `'thread'` (default; a worker thread, for processes with a chat event loop) or
   * `'inline'` (one-shot CLI commands).
   */
  readonly compute?: 'thread' | 'inline';
  /** Imported sources whose votes always count (config `ratings.include_sources`). */
  readonly includeSources?: readonly string[];
  /**
   * Read the votes in chunks of about this many when rebuilding (default {@link DEFAULT_INPUT_CHUNK_VOTES}; 0: one
   * query). On PGlite every query runs on the bot's thread: one aggregation over a million votes held the event
   * loop for seconds, a chunk of this size takes tens of milliseconds (the item scores
   * are then read one model at a time too).
   */
  readonly inputChunkVotes?: number;
  /** Render the stored chart when computing inline (default true). */
  readonly inlineChart?: boolean;
  /**
   * The judge of the Scoring method (config `judge.model`; see `resolveScoringJudge` in `./inputs.ts`): the stored
   * board uses this one judge's grades only.
   */
  readonly judge?: string | null;
  /**
   * Which snapshots are kept after each new one (config `leaderboard.keep`; storage `pruneSnapshots`); absent:
   * none is deleted.
   */
  readonly keep?: SnapshotKeep;
  /** Most models drawn in the stored chart (config `leaderboard.chart_rows`; default chart.ts DEFAULT_CHART_ROWS). */
  readonly chartRows?: number;
  /**
   * Claims of shared work (jobs/shared-work.ts): with it, one process of all those on the database builds each
   * change of the inputs (task `board.build:SOURCES`, keyed by the inputs' fingerprint) and the others wait for its
   * snapshot; without it (one-shot commands), this service builds whenever it finds the snapshot out of date.
   */
  readonly shared?: SharedWork;
  /** Lease of a build claim, ms (default 120,000; renewed while the build runs). */
  readonly buildLeaseMs?: number;
  /** Where board build times go (default nowhere). */
  readonly metrics?: AppMetrics;
  /** How often a process waiting for another's build looks for its snapshot, ms (default 250). */
  readonly waitPollMs?: number;
  /** The language of the stored chart's title, axes and notes (config `locale`; default English). */
  readonly locale?: Locale;
}

function toSnapshot(row: SnapshotRow): Snapshot {
  const stored = row.board as Board;
  const inputs = row.inputs as Snapshot['inputs'];
  return {
    id: row.id,
    createdAt: row.createdAt,
    sources: inputs.sources,
    fingerprint: row.fingerprint,
    board: stored,
    inputs,
    buildMs: row.buildMs,
    chart: row.chart,
  };
}

/** The settings a one-shot command's board reads from the loaded config (`config/default.yaml`). */
export interface OneShotBoardConfig {
  readonly aggregation: AggregationSettings;
  readonly ratings: { readonly include_sources: readonly string[] };
  readonly judge: { readonly model: string | null };
  /** Snapshot pruning and the chart's row cap (absent: nothing pruned, the default cap). */
  readonly leaderboard?: { readonly keep: SnapshotKeep; readonly chart_rows: number };
  /** The language of the stored chart (config `locale`; absent: English). */
  readonly locale?: Locale;
}

/**
 * The board service of a one-shot command (`zhujiu leaderboard`, `zhujiu judge report`): the configured sources and
 * judge, computed inline (no event loop to keep free) from one input query. `inlineChart: false` skips the PNG.
 */
export function oneShotBoardService(
  db: Kysely<Database>,
  logger: Logger,
  app: OneShotBoardConfig,
  o: { readonly inlineChart?: boolean; readonly clock?: Clock } = {},
): LeaderboardService {
  return new LeaderboardService({
    db,
    clock: o.clock ?? systemClock,
    logger,
    aggregation: app.aggregation,
    includeSources: app.ratings.include_sources,
    judge: app.judge.model,
    compute: 'inline',
    inputChunkVotes: 0,
    ...(app.leaderboard
      ? { keep: app.leaderboard.keep, chartRows: app.leaderboard.chart_rows }
      : {}),
    ...(o.inlineChart === undefined ? {} : { inlineChart: o.inlineChart }),
    ...(app.locale ? { locale: app.locale } : {}),
  });
}

/** The board service. */
export class LeaderboardService {
  readonly #o: LeaderboardServiceOptions;
  readonly #log: Logger;
  readonly #worker: BoardWorker | undefined;
  readonly #building = new Map<string, Promise<Snapshot>>();

  constructor(o: LeaderboardServiceOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'leaderboard' });
    this.#worker = (o.compute ?? 'thread') === 'thread' ? new BoardWorker() : undefined;
  }

  /**
   * The sources of a board: always `arena`, plus the configured imported sources (`ratings.include_sources`),
   * plus those asked for (`--source`).
   */
  sources(extra: readonly string[] = []): string[] {
    return [...new Set([ARENA_SOURCE, ...(this.#o.includeSources ?? []), ...extra])].sort();
  }

  /** The latest stored snapshot for these sources (default: the community's votes only), or undefined. */
  async latest(extra: readonly string[] = []): Promise<Snapshot | undefined> {
    const row = await latestSnapshot(this.#o.db, sourcesKey(this.sources(extra)));
    return row ? toSnapshot(row) : undefined;
  }

  /**
   * The stored sources whose votes this board (its `sources(extra)`) does not count and that hold live votes, with
   * their battle and vote counts, `arena` first then by name; empty when none. A skip scan of the source names
   * first (storage/sources `votesOutside`), so the usual case, no other source, does not read the votes; the counts
   * read every battle, so call it only where the board is empty (chat `/leaderboard`).
   */
  async votesElsewhere(extra: readonly string[] = []): Promise<SourceSummary[]> {
    return votesOutside(this.#o.db, this.sources(extra));
  }

  /** A snapshot by id. */
  async byId(id: number): Promise<Snapshot | undefined> {
    const row = await snapshotById(this.#o.db, id);
    return row ? toSnapshot(row) : undefined;
  }

  /**
   * One model's history on the boards of these sources (default: the community's): the rank and ranking-key score
   * of each UTC day's newest board, oldest first, at most `days` days (`board_history`, kept apart from the pruned
   * snapshots).
   */
  async history(
    model: string,
    extra: readonly string[] = [],
    days = 365,
  ): Promise<BoardHistoryPoint[]> {
    return modelHistory(this.#o.db, sourcesKey(this.sources(extra)), model, days);
  }

  /** The fingerprint of the inputs (as `marks`) and options. */
  #fingerprint(
    key: string,
    marks: BoardInputMarks,
    judge: string | null | undefined = this.#o.judge,
  ): string {
    const state = boardInputMarksKey(marks);
    const a = this.#o.aggregation;
    return createHash('sha256')
      .update(
        `${state}|${key}|${a.min_votes}|${a.bootstrap}|${a.seed}|judge=${judge ?? ''}|rank=${a.rank_by ?? 'overall'}|v2`,
      )
      .digest('hex')
      .slice(0, 40);
  }

  /**
   * The latest snapshot, rebuilt first when the inputs changed since it was built (or none exists). Concurrent
   * calls in one process share one build; two processes building the same inputs store one snapshot.
   */
  async refresh(extra: readonly string[] = []): Promise<Snapshot> {
    const sources = this.sources(extra);
    const key = sourcesKey(sources);
    const running = this.#building.get(key);
    if (running) return running;
    const job = this.#refresh(sources, key).finally(() => this.#building.delete(key));
    this.#building.set(key, job);
    return job;
  }

  async #refresh(sources: string[], key: string): Promise<Snapshot> {
    const marks = await boardInputMarks(this.#o.db);
    const fp = this.#fingerprint(key, marks);
    if ((await latestSnapshotFingerprint(this.#o.db, key)) === fp) {
      const row = await latestSnapshot(this.#o.db, key);
      if (row) return this.#withChart(toSnapshot(row));
    }
    const shared = this.#o.shared;
    if (!shared) return this.#buildAndStore(sources, key, fp, marks);
    const task = `board.build:${key}`;
    for (;;) {
      const got = await shared.once(task, fp, this.#o.buildLeaseMs ?? 120_000, () =>
        this.#buildAndStore(sources, key, fp, marks),
      );
      if (got.ran) return got.value;
      // Another process builds (or built) this change: wait for its snapshot rather than compute it again.
      while (await shared.busy(task))
        await new Promise((r) => setTimeout(r, this.#o.waitPollMs ?? 250));
      const row = await latestSnapshot(this.#o.db, key);
      const claim = await shared.claimOf(task);
      // Its snapshot; or a newer change's (the task moved on to another key and that build finished); otherwise
      // the build of this change was given back (it failed or its process died): claim it on the next pass.
      if (row && (row.fingerprint === fp || claim?.key !== fp || claim.doneAt !== null))
        return this.#withChart(toSnapshot(row));
      // Finished, yet no snapshot to show (it was deleted since): build it here rather than wait for nothing.
      if (!row && claim?.key === fp && claim.doneAt !== null)
        return this.#buildAndStore(sources, key, fp, marks);
      // Given back, or still ours from a pass whose release failed (its lease runs out): try again shortly.
      await new Promise((r) => setTimeout(r, this.#o.waitPollMs ?? 250));
    }
  }

  /** Builds the board of `sources` (inputs as of `marks`, fingerprint `fp`) and stores it. */
  async #buildAndStore(
    sources: string[],
    key: string,
    fp: string,
    marks: BoardInputMarks,
  ): Promise<Snapshot> {
    const built = await this.#build(sources, this.#o.judge, marks);
    // The snapshot and its day's history rows together: the history never names a snapshot that was not stored.
    const row = await this.#o.db.transaction().execute(async (trx) => {
      const stored = await insertSnapshot(trx, {
        fingerprint: fp,
        sources: key,
        inputs: built.inputs,
        board: built.board,
        chart: built.chart,
        buildMs: built.buildMs,
        createdAt: this.#o.clock.now(),
      });
      await recordBoardHistory(trx, {
        snapshotId: stored.id,
        sources: key,
        builtAt: stored.createdAt,
        rankBy: rankKey(built.board),
        rows: historyEntries(built.board),
      });
      return stored;
    });
    if (this.#o.keep) {
      const keep = this.#o.keep;
      const pruned = await pruneSnapshots(this.#o.db, key, keep, this.#o.clock.now()).catch(
        (err: unknown) => {
          this.#log.error({ err }, 'pruning board snapshots failed');
          return 0;
        },
      );
      if (pruned > 0) this.#log.info({ pruned, sources: key, keep }, 'board snapshots pruned');
    }
    this.#log.info(
      {
        snapshot: row.id,
        sources: key,
        ms: Math.round(built.buildMs),
        models: built.inputs.models,
      },
      'board snapshot stored',
    );
    return toSnapshot(row);
  }

  /**
   * `snap` with its chart: a snapshot stored without one (one-shot commands store none) gets it rendered in the
   * worker thread and stored, when this service has one; otherwise `snap` as it is.
   */
  async #withChart(snap: Snapshot): Promise<Snapshot> {
    if (snap.chart !== null || !this.#worker) return snap;
    const chart = await this.chart(snap.board, boardTitle(this.#locale));
    await setSnapshotChart(this.#o.db, snap.id, chart);
    return { ...snap, chart };
  }

  /**
   * What a stored snapshot misses, in words ("built before 412 newer votes and 2 runs; a newer board is being
   * built"), or undefined when its inputs and options are those of now; when it misses anything, a rebuild of its
   * sources starts in the background (errors logged). Cheap: one query of input marks, and when they moved one
   * query counting what is newer than the snapshot's marks (bounded ranges, see storage `boardInputsSince`); never
   * the board's inputs themselves. Said in `locale` (default config `locale`).
   */
  async checkStale(snap: Snapshot, locale: Locale = this.#locale): Promise<string | undefined> {
    const marks = await boardInputMarks(this.#o.db);
    const key = sourcesKey(this.sources(snap.sources));
    if (this.#fingerprint(key, marks) === snap.fingerprint) return undefined;
    void this.refresh(snap.sources).catch((err: unknown) =>
      this.#log.error({ err }, 'building the board failed'),
    );
    const was = snap.inputs.marks;
    const since = was ? await boardInputsSince(this.#o.db, was, snap.sources) : undefined;
    return t(locale, 'board.stale.rebuilding', {
      what: since ? staleText(since, locale) : t(locale, 'board.stale.changed'),
    });
  }

  /**
   * Starts {@link refreshIfChanged} in the background when there is anything to build a board from (votes, item
   * scores, runs or judge verdicts; one query of input marks), and says whether it did. Used at start (a snapshot
   * built before a restart may miss what came in since) and by the results page with no snapshot yet (which would
   * otherwise say "No board yet" until the first refresh interval passed).
   */
  async startFirstBuild(): Promise<boolean> {
    const m = await boardInputMarks(this.#o.db);
    if (
      m.voteEvent === null &&
      m.battle === null &&
      m.itemScore === null &&
      m.run === null &&
      m.judged === null
    )
      return false;
    void this.refreshIfChanged();
    return true;
  }

  /** The round threads' failures, logged (an incomplete installation said as such); the board goes on without. */
  readonly #roundThreads: RoundThreadOptions = {
    onError: (err) =>
      this.#log.warn(
        { err: installBrokenError(err) ?? err },
        'a board round thread failed; its rounds were computed on this thread',
      ),
  };

  /**
   * Computes a board (and its chart) from the current inputs, with `judge` for the Scoring method; `marks` are the
   * input marks read before the inputs (stored with the snapshot, so a later check can say what it misses).
   */
  async #build(
    sources: string[],
    judge: string | null | undefined,
    marks: BoardInputMarks,
    votes: VoteFilter = {},
  ): Promise<Pick<Snapshot, 'board' | 'inputs' | 'chart' | 'buildMs'>> {
    const t0 = performance.now();
    const a = this.#o.aggregation;
    // A one-shot command may block: a share of the rounds goes to each other core (./round-threads.ts). The threads
    // start before the inputs are read (they load their modules meanwhile) when the stored models promise a board
    // large enough for them; the inputs decide (`use`).
    const spawned =
      this.#worker === undefined && a.bootstrap * marks.models >= THREADED_ROUNDS_MIN
        ? spawnRoundThreads(undefined, this.#roundThreads)
        : undefined;
    let loaded: Awaited<ReturnType<typeof loadBoardInput>>;
    try {
      loaded = await loadBoardInput(this.#o.db, sources, {
        chunkVotes: this.#o.inputChunkVotes ?? DEFAULT_INPUT_CHUNK_VOTES,
        judge,
        votes,
      });
    } catch (err) {
      await spawned?.close();
      throw err;
    }
    const { input, summary } = loaded;
    const opts = { minVotes: a.min_votes, rounds: a.bootstrap, rankBy: a.rank_by ?? 'overall' };
    let computed: Board;
    let chart: Uint8Array | null;
    if (this.#worker) {
      ({ board: computed, png: chart } = await this.#worker.compute(
        input,
        a.seed,
        opts,
        boardTitle(this.#locale),
        this.#o.chartRows,
        this.#locale,
      ));
    } else {
      const threads = spawned
        ? spawned.use(input, opts)
        : startRoundThreads(input, opts, undefined, undefined, this.#roundThreads);
      try {
        computed = computeBoard(input, createRng(a.seed), opts, threads.helpers);
      } finally {
        await threads.close();
      }
      chart =
        this.#o.inlineChart === false ? null : await this.chart(computed, boardTitle(this.#locale));
    }
    // Every scoring figure names its judge (docs/scoring.md §3).
    // ... and the model cards show each robustness dataset's drop against its clean base items (scoring.md §2.7).
    const board: Board = {
      ...computed,
      scoringJudge: summary.scoringJudge ?? null,
      robustness: input.robustness ?? [],
    };
    const buildMs = performance.now() - t0;
    (this.#o.metrics ?? noMetrics).boardBuilt(buildMs / 1000);
    return {
      board,
      chart,
      inputs: { ...summary, seed: a.seed, rounds: a.bootstrap, marks },
      buildMs,
    };
  }

  /**
   * A board whose Scoring method is `judge`'s grades instead of the configured judge's (`zhujiu leaderboard
   * --judge NAME`): built from the current inputs and NOT stored, so the community's stored board (what
   * `/leaderboard`, the page and the daily post show) is unchanged. Its id is 0 (no stored snapshot).
   * `judge` null or undefined: the configured judge's grades. `votes` also counts named and flagged votes
   * (`zhujiu leaderboard --include-named / --include-flagged`, docs/scoring.md §4.3), also not stored.
   */
  async withJudge(
    judge: string | null | undefined,
    extra: readonly string[] = [],
    votes: VoteFilter = {},
  ): Promise<Snapshot> {
    const sources = this.sources(extra);
    const marks = await boardInputMarks(this.#o.db);
    const built = await this.#build(sources, judge, marks, votes);
    const fingerprint = this.#fingerprint(sourcesKey(sources), marks, judge);
    return { id: 0, createdAt: this.#o.clock.now(), sources, fingerprint, ...built };
  }

  /** Rebuilds the default board when its inputs changed; errors are logged, never thrown. */
  async refreshIfChanged(): Promise<Snapshot | undefined> {
    try {
      return await this.refresh();
    } catch (err) {
      this.#log.error({ err }, 'building the board failed');
      return undefined;
    }
  }

  /** The language of the charts' own words (option `locale`; default English). */
  get #locale(): Locale {
    return this.#o.locale ?? 'en';
  }

  /**
   * Renders a chart of `board` titled `title`, its own words in the service's language (in the worker thread when
   * there is one, so the event loop stays free).
   */
  async chart(board: Board, title: string): Promise<Uint8Array> {
    const locale = this.#locale;
    const rows = chartRows(board, false, locale);
    const notes = chartNotes(board, locale);
    if (this.#worker) return this.#worker.chart(rows, title, notes, this.#o.chartRows, locale);
    const { renderBoardPng } = await import('./chart.ts');
    return renderBoardPng(rows, {
      title,
      notes,
      locale,
      ...(this.#o.chartRows !== undefined ? { maxRows: this.#o.chartRows } : {}),
    });
  }

  /**
   * Style-controlled ratings of the counted sources' votes whose answers are stored (docs/scoring.md §4.6), for
   * `/leaderboard style`: FastChat's fit with min(`aggregation.bootstrap`, 100) bootstrap rounds (FastChat's
   * default is 100), seeded with `aggregation.seed`. Computed on each call, on this thread (not stored).
   * @returns `result` null when no vote has stored answers; `votes` per model; `leftOut` votes without answers.
   */
  async styleControl(extra: readonly string[] = []): Promise<{
    result: StyleControlResult | null;
    votes: Map<string, number>;
    leftOut: number;
  }> {
    const { battles, withoutMetadata } = await loadStyleBattles(this.#o.db, this.sources(extra));
    const votes = new Map<string, number>();
    for (const b of battles) {
      votes.set(b.model_a, (votes.get(b.model_a) ?? 0) + 1);
      votes.set(b.model_b, (votes.get(b.model_b) ?? 0) + 1);
    }
    if (battles.length === 0) return { result: null, votes, leftOut: withoutMetadata };
    const agg = this.#o.aggregation;
    const rounds = Math.min(agg.bootstrap, 100);
    // Off the event loop like every board (a fit of 20,000 votes with 100 rounds takes ~2 s).
    const result = this.#worker
      ? await this.#worker.styleControl(battles, agg.seed, rounds)
      : bootstrapStyleControl(battles, createRng(agg.seed), rounds);
    return { result, votes, leftOut: withoutMetadata };
  }

  /** Waits for running builds, then stops the worker thread. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#building.values()]);
    await this.#worker?.close();
  }
}

/**
 * "built before 412 newer votes and 2 runs" from what the inputs gained since a snapshot's marks, in `locale`
 * (default English); a count above `SINCE_CAP` is said as "more than" the cap.
 */
export function staleText(x: BoardInputsSince, locale: Locale = 'en'): string {
  const n = (k: number, key: MessageKey) =>
    t(locale, key, {
      n: Math.min(k, SINCE_CAP + 1),
      count:
        k > SINCE_CAP
          ? t(locale, 'board.stale.over', { n: SINCE_CAP.toLocaleString('en-US') })
          : String(k),
    });
  const parts = [
    x.votes > 0 ? n(x.votes, 'board.stale.votes') : '',
    x.voteChanges > 0 ? n(x.voteChanges, 'board.stale.voteChanges') : '',
    x.runs > 0 ? n(x.runs, 'board.stale.runs') : '',
    x.verdicts > 0 ? n(x.verdicts, 'board.stale.verdicts') : '',
    x.battleChanges > 0 ? n(x.battleChanges, 'board.stale.battleChanges') : '',
  ].filter((p) => p !== '');
  if (parts.length === 0) return t(locale, 'board.stale.changed');
  const list =
    parts.length === 1
      ? parts[0]!
      : `${parts.slice(0, -1).join(t(locale, 'board.list.sep'))}${t(locale, 'board.stale.and')}${parts.at(-1)!}`;
  return t(locale, 'board.stale.before', { list });
}
