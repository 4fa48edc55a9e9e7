/**
 * @module rating
 * Arena ratings (docs/scoring.md §4): parsing of battle / pair-count JSONL, online Elo, Bradley–Terry MLE,
 * bootstrap intervals, rank by intervals, predicted win rates. Pure: no I/O, no clock, randomness from a
 * seeded Rng passed in.
 */

export {
  ArenaDataBuilder,
  arenaFromBattles,
  arenaFromInput,
  arenaFromPairCounts,
} from './arena-data.ts';
export type {
  ArenaComponent,
  ArenaRatingRow,
  ArenaRatings,
  ArenaRatingsOptions,
} from './arena-ratings.ts';
export {
  clusterBootstrapAsResult,
  clusterBootstrapResult,
  clustersWithin,
  computeArenaRatings,
} from './arena-ratings.ts';
export { multinomialConditionals, sampleBinomial, sampleMultinomialInto } from './binomial.ts';
export type { BootstrapOptions, BootstrapResult } from './bootstrap.ts';
export {
  bootstrapBradleyTerry,
  ResampleRefitter,
  summarizeBootstrapSamples,
} from './bootstrap.ts';
export type {
  BradleyTerryFit,
  BradleyTerryOptions,
  BtProblem,
  BtSolveInfo,
  BtWorkspace,
} from './bradley-terry.ts';
export {
  createBtWorkspace,
  factorBtHessian,
  fitBradleyTerry,
  solveBradleyTerry,
} from './bradley-terry.ts';
export type {
  BattleCluster,
  ClusterBootstrap,
  ClusterBootstrapOptions,
  ClusterInterval,
} from './cluster-bootstrap.ts';
export { clusterBootstrapBradleyTerry, createClusterBootstrap } from './cluster-bootstrap.ts';
export type { ComparisonGraphAnalysis } from './comparison-graph.ts';
export { analyzeComparisonGraph, PairAdjacency, undirectedComponents } from './comparison-graph.ts';
export type { ComponentData } from './components.ts';
export { splitComponents } from './components.ts';
export type { ConditionalPairs, ConditionalWorkspace } from './conditional-refit.ts';
export { createConditionalWorkspace, solveConditionalBradleyTerry } from './conditional-refit.ts';
export type { OnlineEloOptions } from './online-elo.ts';
export { computeOnlineElo } from './online-elo.ts';
export { quantilePair, quantileSorted } from './quantile.ts';
export { rankByIntervals } from './rank-by-intervals.ts';
export type {
  MarkdownCounts,
  StyleBattle,
  StyleControlFit,
  StyleControlOptions,
  StyleControlResult,
  StyleDesign,
  StyleFeature,
  StyleMetadata,
} from './style-control.ts';
export {
  bootstrapStyleControl,
  countAnswerTokens,
  countMarkdownElements,
  fitStyleControl,
  STYLE_FEATURES,
  styleDesign,
  styleMetadata,
} from './style-control.ts';
export type {
  ArenaData,
  BattleRecord,
  ExcludedModel,
  ExclusionReason,
  PairCountInput,
  PairCountRecord,
  Winner,
} from './types.ts';
export { WINNERS } from './types.ts';
export {
  averagePredictedWinRate,
  predictedWinProbability,
  predictedWinRateMatrix,
} from './win-rate.ts';
