/**
 * @module rating/types
 * Plain data shapes shared by the arena rating functions (docs/scoring.md §4). Pure: no I/O.
 */
import type { BattleCluster } from './cluster-bootstrap.ts';

/** Winner of one arena battle, as in Chatbot Arena dumps (Chiang et al. 2024, arXiv:2403.04132). */
export type Winner = 'model_a' | 'model_b' | 'tie' | 'tie (bothbad)';

/** The four accepted {@link Winner} values, in a stable order. */
export const WINNERS: readonly Winner[] = ['model_a', 'model_b', 'tie', 'tie (bothbad)'];

/** One battle: two distinct model names and the vote. */
export interface BattleRecord {
  readonly model_a: string;
  readonly model_b: string;
  readonly winner: Winner;
}

/** Vote counts for one pair of distinct models (non-negative integers). */
export interface PairCountRecord {
  readonly model_a: string;
  readonly model_b: string;
  readonly model_a_wins: number;
  readonly model_b_wins: number;
  readonly tie: number;
  readonly tie_bothbad: number;
}

/**
 * What a stored-battle loader hands to the ratings command: aggregated pair counts, and optionally the same
 * votes as individual battles in vote order (when present, `battles` is used instead of `pairs` and online Elo is
 * computed; otherwise Elo is null because counts carry no order).
 */
export interface PairCountInput {
  readonly pairs: readonly PairCountRecord[];
  /**
   * The same votes grouped by battle (several votes per chat battle); when present, bootstrap intervals resample
   * battles, not votes (see rating/cluster-bootstrap.ts).
   */
  readonly clusters?: readonly BattleCluster[];
  readonly battles?: readonly BattleRecord[];
}

/**
 * Votes ready for rating, built by {@link ArenaDataBuilder} (see `arena-data.ts`).
 *
 * - `models`: every model seen, index → name, in order of first appearance.
 * - Aggregated cells per unordered pair, `pairI[k] < pairJ[k]` (model indices): `winsI[k]` votes for model
 *   `pairI[k]`, `winsJ[k]` for `pairJ[k]`, `ties[k]` ties of either kind (`tie` and `tie (bothbad)`).
 * - `numBattles[m]`: votes involving model m (as model_a plus as model_b).
 * - `totalVotes`: the sum over all cells.
 * - `sequence`: the battles in input order (for online Elo), or null when the input was pair counts.
 *   `outcome` is 0 = model_a won, 1 = model_b won, 2 = tie (either kind).
 */
export interface ArenaData {
  readonly models: readonly string[];
  readonly pairI: Int32Array;
  readonly pairJ: Int32Array;
  readonly winsI: Float64Array;
  readonly winsJ: Float64Array;
  readonly ties: Float64Array;
  readonly numBattles: Float64Array;
  readonly totalVotes: number;
  readonly sequence: {
    readonly a: Int32Array;
    readonly b: Int32Array;
    readonly outcome: Uint8Array;
  } | null;
}

/**
 * Why a model has no Bradley–Terry rating.
 * - `disconnected`: no chain of battles links it to the rated models (or it has no battles at all).
 * - `unbounded_above`: it never lost (counting a tie as half a loss) to the rated group, e.g. only wins: its
 *   maximum-likelihood rating is +∞.
 * - `unbounded_below`: it never won (a tie is half a win) against the rated group, e.g. only losses: MLE −∞.
 * - `unbounded`: linked to the rated group only through other unbounded models in both directions' absence
 *   (neither above nor below it); its MLE is not finite relative to the rated group.
 */
export type ExclusionReason = 'disconnected' | 'unbounded_above' | 'unbounded_below' | 'unbounded';

/** A model left out of the Bradley–Terry fit, with the reason. */
export interface ExcludedModel {
  readonly model: string;
  readonly reason: ExclusionReason;
  readonly numBattles: number;
}
