/**
 * @module leaderboard/inputs
 * Reads what the board is built from (docs/scoring.md §4–5): every model, the item scores of the latest
 * finished run per model and suite, and the arena battles of the chosen sources, grouped by ability.
 */
import type { Kysely } from 'kysely';
import {
  type BattleType,
  BOARD_ABILITIES,
  type BoardAbility,
  type BoardInput,
  type DatasetScores,
  robustnessDrops,
} from '../aggregate/index.ts';
import {
  boardBattleTypes,
  boardModels,
  itemScoresOfRuns,
  itemScoresOfRunsByModel,
  judgeGrades,
  latestFinishedRuns,
  liveBattlesWithoutAbility,
  robustnessLinks,
  singleAnswerJudges,
} from '../storage/leaderboard.ts';
import type { Database } from '../storage/schema.ts';
import type { VoteFilter } from '../storage/vote-flags.ts';

/** What a snapshot records about its inputs. */
export interface BoardInputSummary {
  readonly sources: readonly string[];
  readonly models: number;
  /** The runs that count: model, suite, run id. */
  readonly runs: readonly {
    model: string;
    suite: string;
    runId: number;
    finishedAt: string | null;
    /** The run's seed, zhujiu version and prompt-template versions (absent in snapshots stored before). */
    seed?: number;
    version?: string | null;
    templates?: readonly string[];
  }[];
  readonly itemScores: number;
  readonly battles: number;
  readonly votes: number;
  /** Battles with votes but no ability (in the votes column, in no comparative score). */
  readonly battlesWithoutAbility: number;
  /**
   * Of those, live battles (`/ask`, fixed with `/arena ability`; the others were imported without `--ability`).
   * Absent in snapshots stored before it was recorded.
   */
  readonly liveBattlesWithoutAbility?: number;
  /**
   * The one judge whose grades make the Scoring method ({@link resolveScoringJudge}); null when none could be
   * chosen (absent in snapshots stored before boards named their judge).
   */
  readonly scoringJudge?: string | null;
  /** Every judge with stored single-answer grades, by name (those but `scoringJudge` are left off this board). */
  readonly judges?: readonly string[];
}

/** The canonical key of a set of sources (sorted, comma-joined). */
export function sourcesKey(sources: readonly string[]): string {
  return [...new Set(sources)].sort().join(',');
}

const isAbility = (a: string): a is BoardAbility =>
  (BOARD_ABILITIES as readonly string[]).includes(a);

/**
 * The judge of the board's Scoring method (docs/scoring.md §3): one judge only, so that trying another judge
 * (`zhujiu judge run --judge NAME`) never moves the board. `asked` is the judge named by `--judge NAME` or, by
 * default, config `judge.model`; with neither, the only judge with stored grades (`stored`), or null when there
 * are none or several (then the Scoring method stays empty until one is named).
 */
export function resolveScoringJudge(
  asked: string | null | undefined,
  stored: readonly string[],
): string | null {
  if (asked) return asked;
  const distinct = [...new Set(stored)];
  return distinct.length === 1 ? distinct[0]! : null;
}

/** Battles with an ability, and those without one (in the votes column only) with their count. */
function splitBattles(rows: Awaited<ReturnType<typeof boardBattleTypes>>): {
  battles: BattleType[];
  unassigned: Omit<BattleType, 'ability'>[];
  noAbility: number;
} {
  const battles: BattleType[] = [];
  const unassigned: Omit<BattleType, 'ability'>[] = [];
  let noAbility = 0;
  for (const b of rows) {
    if (b.ability !== null && isAbility(b.ability)) {
      battles.push({ ...b, ability: b.ability });
      continue;
    }
    noAbility += b.count;
    const { ability: _, ...rest } = b;
    unassigned.push(rest);
  }
  return { battles, unassigned, noAbility };
}

/** The distinct items of robustness datasets among `scores` (the ones that may have a base item). */
function robustnessItems(scores: readonly { ability: string; itemId: number }[]): number[] {
  return [...new Set(scores.filter((s) => s.ability === 'robustness').map((s) => s.itemId))];
}

/**
 * Loads the board's inputs.
 * @param sources battle sources whose votes count (`['arena']` by default in the service).
 * @param opts.chunkVotes read the votes in chunks of about this many (0: one query; see
 *   {@link boardBattleTypes}) and the item scores one model at a time ({@link itemScoresOfRunsByModel}), so that
 *   on PGlite no single query holds the event loop for long.
 * @param opts.onChunk called once per chunk of votes read (for tests).
 */
export async function loadBoardInput(
  db: Kysely<Database>,
  sources: readonly string[],
  opts: {
    readonly chunkVotes?: number;
    readonly onChunk?: () => void;
    /** The Scoring judge asked for (`--judge NAME`, else config `judge.model`); see {@link resolveScoringJudge}. */
    readonly judge?: string | null;
    /** Named and flagged votes, left out unless included (docs/scoring.md §4.3). */
    readonly votes?: VoteFilter;
  } = {},
): Promise<{ input: BoardInput; summary: BoardInputSummary }> {
  const [models, runs, battleRows, liveNoAbility] = await Promise.all([
    boardModels(db),
    latestFinishedRuns(db),
    boardBattleTypes(db, sources, opts),
    liveBattlesWithoutAbility(db, sources),
  ]);
  // With chunked votes the item scores are read one model at a time too (each a short query).
  const fromRuns = opts.chunkVotes
    ? await itemScoresOfRunsByModel(db, runs)
    : await itemScoresOfRuns(
        db,
        runs.map((r) => r.runId),
      );
  // The Scoring method is one judge's: a counted run's grade when that run was judged by it, else its latest
  // stored verdict; its failures stay failures (another judge's grade never fills them).
  const judges = new Set(await singleAnswerJudges(db));
  for (const s of fromRuns) if (s.method === 'scoring' && s.judge !== null) judges.add(s.judge);
  const judge = resolveScoringJudge(opts.judge, [...judges]);
  const judged = judge
    ? await judgeGrades(db, judge)
    : { grades: [], failures: [] as { model: string; dataset: string; failures: number }[] };
  const ofJudge = fromRuns.filter((s) => s.method !== 'scoring' || s.judge === judge);
  const seen = new Set(ofJudge.map((s) => `${s.model}\u0000${s.method}\u0000${s.itemId}`));
  const scores = [
    ...ofJudge,
    ...judged.grades.filter((g) => !seen.has(`${g.model}\u0000${g.method}\u0000${g.itemId}`)),
  ];
  const judgeFailures = new Map<string, Map<string, number>>();
  for (const f of judged.failures) {
    const m = judgeFailures.get(f.dataset) ?? new Map<string, number>();
    m.set(f.model, f.failures);
    judgeFailures.set(f.dataset, m);
  }
  // Group by dataset and method; items aligned across models by item id (the pairing of the bootstrap).
  const groups = new Map<
    string,
    {
      dataset: string;
      ability: BoardAbility;
      method: 'metrics' | 'scoring';
      items: Map<number, number>;
      rows: typeof scores;
    }
  >();
  for (const s of scores) {
    if (!isAbility(s.ability) || (s.method !== 'metrics' && s.method !== 'scoring')) continue;
    const key = `${s.dataset}\u0000${s.method}`;
    let g = groups.get(key);
    if (!g) {
      g = { dataset: s.dataset, ability: s.ability, method: s.method, items: new Map(), rows: [] };
      groups.set(key, g);
    }
    if (!g.items.has(s.itemId)) g.items.set(s.itemId, g.items.size);
    g.rows.push(s);
  }
  const datasets: DatasetScores[] = [];
  for (const g of groups.values()) {
    const n = g.items.size;
    const per = new Map<string, Float64Array>();
    const violations = new Map<string, number>();
    // Raw scores (before the SV adjustment) only for models with a flagged item: elsewhere they equal the scores.
    const raw = new Map<string, Float64Array>();
    for (const r of g.rows) {
      let arr = per.get(r.model);
      if (!arr) {
        arr = new Float64Array(n).fill(Number.NaN);
        per.set(r.model, arr);
      }
      arr[g.items.get(r.itemId)!] = r.score;
      if (r.violation) violations.set(r.model, (violations.get(r.model) ?? 0) + 1);
    }
    for (const r of g.rows) {
      if (!violations.has(r.model)) continue;
      let arr = raw.get(r.model);
      if (!arr) {
        arr = new Float64Array(n).fill(Number.NaN);
        raw.set(r.model, arr);
      }
      arr[g.items.get(r.itemId)!] = Math.min(10, Math.max(0, r.raw));
    }
    datasets.push({
      dataset: g.dataset,
      ability: g.ability,
      method: g.method,
      items: n,
      scores: per,
      violations,
      ...(raw.size > 0 ? { raw } : {}),
      ...(g.method === 'scoring' && judgeFailures.has(g.dataset)
        ? { failures: judgeFailures.get(g.dataset)! }
        : {}),
    });
  }
  datasets.sort((a, b) => a.dataset.localeCompare(b.dataset) || a.method.localeCompare(b.method));
  const { battles, unassigned, noAbility } = splitBattles(battleRows);
  const robustness = robustnessDrops(scores, await robustnessLinks(db, robustnessItems(scores)));
  // Models known only from counted votes join the board too.
  const known = new Set(models);
  for (const b of battleRows) {
    for (const m of [b.modelA, b.modelB]) {
      if (!known.has(m)) {
        known.add(m);
        models.push(m);
      }
    }
  }
  models.sort();
  let votes = 0;
  let nBattles = 0;
  for (const b of battles) {
    votes += (b.aWins + b.bWins + b.ties) * b.count;
    nBattles += b.count;
  }
  return {
    input: { models, datasets, battles, unassignedBattles: unassigned, robustness },
    summary: {
      sources: [...new Set(sources)].sort(),
      models: models.length,
      runs: runs.map((r) => ({
        model: r.model,
        suite: r.suite,
        runId: r.runId,
        finishedAt: r.finishedAt?.toISOString() ?? null,
        seed: r.seed,
        version: r.version,
        templates: r.templates,
      })),
      itemScores: scores.length,
      battles: nBattles,
      votes,
      battlesWithoutAbility: noAbility,
      liveBattlesWithoutAbility: liveNoAbility,
      scoringJudge: judge,
      judges: [...judges].sort(),
    },
  };
}
