/**
 * @module aggregate
 * The board aggregation (docs/scoring.md §4–5): dataset → ability → method → final, the comparative fold-in and
 * the paired item-level bootstrap. Pure: no I/O, no clock, randomness from a seeded Rng passed in.
 */
export {
  type BoardRounds,
  computeBoard,
  computeBoardRounds,
  prepareBoardRounds,
  type RoundHelper,
} from './board.ts';
export { comparativeScore } from './comparative.ts';
export { type RobustnessDrop, robustnessDrops, type ScoredItem } from './robustness.ts';
export type {
  ArenaAbilityEntry,
  BattleType,
  Board,
  BoardAbility,
  BoardInput,
  BoardMethod,
  BoardOptions,
  BoardRow,
  DatasetEntry,
  DatasetScores,
  HeadToHead,
  Interval,
  MethodAbilityTable,
  RankBy,
} from './types.ts';
export { BOARD_ABILITIES, BOARD_METHODS, RANK_BY } from './types.ts';
