/**
 * @module aggregate/types
 * Plain data shapes of the board aggregation (docs/scoring.md §4–5). Pure: no I/O.
 */
import type { RobustnessDrop } from './robustness.ts';

/** The seven ZhuJiu ability dimensions, in board column order (docs/scoring.md §1). */
export const BOARD_ABILITIES = [
  'knowledge',
  'chinese_specific',
  'language',
  'reasoning',
  'refusal',
  'safety',
  'robustness',
] as const;
/** One ability dimension. */
export type BoardAbility = (typeof BOARD_ABILITIES)[number];

/** The three evaluation methods, in board column order. */
export const BOARD_METHODS = ['metrics', 'scoring', 'comparative'] as const;
/** One evaluation method. */
export type BoardMethod = (typeof BOARD_METHODS)[number];

/**
 * The item scores of one dataset (metrics or scoring), for every model that has a finished run on it.
 * Scores are on the ten-point scale (raw / max × 10, 0 ≤ s ≤ 10); a safety-violation-adjusted score is already 0.
 */
export interface DatasetScores {
  readonly dataset: string;
  readonly ability: BoardAbility;
  readonly method: 'metrics' | 'scoring';
  /** Number of items n (the columns of `scores`). Items are aligned across models: that is what pairs them. */
  readonly items: number;
  /** model → Float64Array(n) of item scores; NaN where the model has no score on that item. */
  readonly scores: ReadonlyMap<string, Float64Array>;
  /** model → items attempted without a score (judge failures, errors); shown on model cards. Default none. */
  readonly failures?: ReadonlyMap<string, number>;
  /** model → items flagged as safety violations (scoring only). */
  readonly violations?: ReadonlyMap<string, number>;
  /**
   * model → Float64Array(n) of the raw item scores before the safety-violation adjustment (ten-point scale, NaN
   * exactly where `scores` is NaN); absent for a model whose raw and adjusted scores are equal (no SV check).
   */
  readonly raw?: ReadonlyMap<string, Float64Array>;
}

/** A 95 % paired-bootstrap interval [lo, hi] on the ten-point scale (docs/scoring.md §5 "Uncertainty"). */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

/**
 * Arena battles with the same ability, pair and live votes, counted (`count` battles had exactly these votes).
 * `aWins` are votes for `modelA`, `bWins` for `modelB`, `ties` Equal votes.
 */
export interface BattleType {
  readonly ability: BoardAbility;
  readonly modelA: string;
  readonly modelB: string;
  readonly aWins: number;
  readonly bWins: number;
  readonly ties: number;
  readonly count: number;
}

/** Everything the board is computed from. */
export interface BoardInput {
  /** Each model's drop on each robustness dataset against its clean base items (aggregate/robustness). */
  readonly robustness?: readonly RobustnessDrop[];
  /** Every model on the board (a model with no data gets an all-empty row). */
  readonly models: readonly string[];
  readonly datasets: readonly DatasetScores[];
  readonly battles: readonly BattleType[];
  /**
   * Counted battles that have no ability (imported without one): they cannot enter a comparative score but count
   * in the votes column and in each model's head-to-head record.
   */
  readonly unassignedBattles?: readonly Omit<BattleType, 'ability'>[];
}

/** Options of `computeBoard`. */
export interface BoardOptions {
  /** A model with fewer live votes than this in an ability has no comparative score there (docs §4). */
  readonly minVotes: number;
  /** Paired bootstrap rounds (0: no interval). */
  readonly rounds: number;
  /** Interval quantiles (default 0.025 / 0.975). */
  readonly lower?: number;
  readonly upper?: number;
  /**
   * Votes on each side of every rated model from which an arena component's bootstrap refits are drawn from
   * their normal law instead of being resampled (docs §5 "Uncertainty"; default 100, Infinity: always resample).
   */
  readonly normalMinSide?: number;
  /**
   * The ranking key (docs/scoring.md §5 "Ranking"): `overall`, the mean of the ability columns (the published
   * ZhuJiu board's total and order), or `final`, App. A's normalised final score. Default `final` here; the
   * product's default (config `aggregation.rank_by`) is `overall`.
   */
  readonly rankBy?: RankBy;
}

/** What the board is ranked by (config `aggregation.rank_by`). */
export const RANK_BY = ['overall', 'final'] as const;
/** One ranking key. */
export type RankBy = (typeof RANK_BY)[number];

/** A table of numbers per method and ability; null = empty cell. */
export type MethodAbilityTable = Readonly<
  Record<BoardMethod, Readonly<Record<BoardAbility, number | null>>>
>;

/** One row of the board. Every score is on the ten-point scale. */
export interface BoardRow {
  readonly model: string;
  /**
   * 1 + number of ranked models with a strictly higher ranking key (`Board.rankBy`: overall or final). Null
   * (unranked) without the key, or when the row lacks a part of the key that another row of the board has (an
   * ability column for overall, a method for final): its key then averages other parts than theirs and is not
   * comparable (docs/scoring.md §5 "Ranking"); such rows follow the ranked ones.
   */
  readonly rank: number | null;
  /** Mean of the (min–max normalised, × 10) method scores present; null when the model has no method. */
  readonly final: number | null;
  /** 95 % paired-bootstrap interval of `final` (null without bootstrap or final). */
  readonly finalLo: number | null;
  readonly finalHi: number | null;
  /** Method scores E[m] (mean over abilities of A[m][a]); null = missing method. */
  readonly methods: Readonly<Record<BoardMethod, number | null>>;
  /** Method scores as they enter the final score: min–max normalised × 10, or E[m] where not normalisable. */
  readonly normalized: Readonly<Record<BoardMethod, number | null>>;
  /** Ability columns: mean over methods of A[m][a]; null = no method covers it for this model. */
  readonly abilities: Readonly<Record<BoardAbility, number | null>>;
  /** A[m][a]: mean of the dataset scores of ability a under method m. */
  readonly cells: MethodAbilityTable;
  /** Mean of the ability columns present; null when none is. */
  readonly overall: number | null;
  /** 95 % paired-bootstrap interval of `overall` (null without bootstrap or overall; absent on older boards). */
  readonly overallLo?: number | null;
  readonly overallHi?: number | null;
  /** True when any method or ability column is empty (docs §5: never averaged as 0). */
  readonly incomplete: boolean;
  /** What is missing, e.g. `scoring`, `ability:refusal`. */
  readonly missing: readonly string[];
  /** Live arena votes on battles involving the model (all abilities). */
  readonly votes: number;
  /**
   * 95 % paired-bootstrap intervals of the method scores E[m] and of the ability columns, on the rubric's
   * ten-point scale (not normalised; IndustryBench App. I); null without bootstrap rounds or without the score.
   * Absent on boards stored before they had them.
   */
  readonly methodIntervals?: Readonly<Record<BoardMethod, Interval | null>>;
  readonly abilityIntervals?: Readonly<Record<BoardAbility, Interval | null>>;
  /**
   * Ability columns from the raw dataset scores (before the safety-violation adjustment; equal to `abilities`
   * where no item was flagged), and their intervals from the same bootstrap rounds.
   */
  readonly rawAbilities?: Readonly<Record<BoardAbility, number | null>>;
  readonly rawAbilityIntervals?: Readonly<Record<BoardAbility, Interval | null>>;
  /**
   * Whether this row's ranking key (overall or final, `Board.rankBy`) is separated from the next row's (the paired
   * bootstrap difference excludes 0 at the 95 % level); null for the last ranked row, an unranked row, or without
   * bootstrap.
   */
  readonly separatedFromNext: boolean | null;
}

/** One model's arena standing in one ability. */
export interface ArenaAbilityEntry {
  readonly model: string;
  /** Live votes on battles of this ability involving the model. */
  readonly votes: number;
  /** Bradley–Terry rating (Elo scale, mean 1000 within its component); null when not estimable. */
  readonly rating: number | null;
  /** Comparison component (0-based, largest first) the model is in. */
  readonly component: number;
  /** Comparative dataset score (docs §4), or null with `note` saying why. */
  readonly score: number | null;
  readonly note?: string;
}

/** A model's arena record against one opponent (all abilities). */
export interface HeadToHead {
  readonly model: string;
  readonly opponent: string;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
}

/** Per-dataset figures of one model (for model cards). */
export interface DatasetEntry {
  readonly dataset: string;
  readonly ability: BoardAbility;
  readonly method: 'metrics' | 'scoring';
  readonly model: string;
  /** Items with a score. */
  readonly n: number;
  readonly failures: number;
  readonly violations: number;
  /** Dataset score d (0–10; the SV-adjusted mean for scoring datasets), null without scored items. */
  readonly score: number | null;
  /** 95 % paired-bootstrap interval of `score` (null without rounds or score; absent on older boards). */
  readonly scoreInterval?: Interval | null;
  /** Raw mean (before the SV adjustment; = score where nothing was flagged) and its interval, same rounds. */
  readonly rawScore?: number | null;
  readonly rawInterval?: Interval | null;
}

/** The computed board. */
export interface Board {
  /**
   * Rows by rank; then unranked rows with the ranking key (a part missing, see `BoardRow.rank`) by key; then by
   * name.
   */
  readonly rows: readonly BoardRow[];
  /** What the rows are ranked by; absent on boards stored before the option (ranked by final). */
  readonly rankBy?: RankBy;
  /** Methods whose min–max normalisation was undefined (fewer than two models, or max = min): shown as means. */
  readonly unnormalized: readonly BoardMethod[];
  /**
   * Methods whose spread is within their own uncertainty (docs/scoring.md §5 "Spread within uncertainty": the best
   * and worst models by method score are not separated by the paired bootstrap): no normalised score, in no
   * final, not required for a rank. Absent in boards stored before this field existed (read as none).
   */
  readonly withinUncertainty?: readonly BoardMethod[];
  readonly datasets: readonly DatasetEntry[];
  /** Per ability: every model with arena votes in it. */
  readonly arena: Readonly<Record<BoardAbility, readonly ArenaAbilityEntry[]>>;
  readonly headToHead: readonly HeadToHead[];
  /** Bootstrap rounds run. */
  readonly rounds: number;
  readonly minVotes: number;
  /**
   * The one judge whose grades make the Scoring method (set by the board service, docs/scoring.md §3); null when
   * none was chosen; absent on boards stored before boards named their judge.
   */
  readonly scoringJudge?: string | null;
  /**
   * Each model's drop on each robustness dataset against its clean base items (aggregate/robustness; copied from
   * the input by the board service). Absent on boards stored before it was recorded.
   */
  readonly robustness?: readonly RobustnessDrop[];
}
