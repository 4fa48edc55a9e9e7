/**
 * @module rating/cluster-bootstrap
 * Bootstrap over battles when a battle carries several votes (a chat arena message that many people vote on).
 *
 * Chatbot Arena's bootstrap (Chiang et al. 2024, arXiv:2403.04132 §5; FastChat `compute_bootstrap_bt`) resamples
 * single votes, which is right when every battle has exactly one vote. In our chat arena one posted battle gathers
 * many votes on the same prompt and the same two answers; those votes are strongly correlated (often unanimous),
 * and resampling them one by one treats 40 copies of one judgement as 40 independent observations, giving
 * intervals that are far too narrow. SCORING.md §4 asks for a "bootstrap over battles": each round draws as many
 * battles as there are, with replacement, keeping all of a drawn battle's votes together (a cluster bootstrap,
 * Davison & Hinkley 1997 §3.8), and refits Bradley–Terry. With one vote per battle it is the ordinary bootstrap.
 */
import { isAppError } from '../core/errors.ts';
import type { Rng } from '../core/rng.ts';
import { arenaFromPairCounts } from './arena-data.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import { quantileSorted } from './quantile.ts';
import type { PairCountRecord } from './types.ts';

/** The live votes of one battle: `a_wins` for the left model (model_a), `b_wins` for the right, `ties` Equal. */
export interface BattleCluster {
  readonly model_a: string;
  readonly model_b: string;
  readonly a_wins: number;
  readonly b_wins: number;
  readonly ties: number;
}

/** A model's bootstrap interval (Elo scale). */
export interface ClusterInterval {
  readonly lo: number;
  readonly median: number;
  readonly hi: number;
  /** Rounds in which the model had a finite rating (a resample can miss a thin model, or leave it one-sided). */
  readonly rounds: number;
}

/** Options of {@link clusterBootstrapBradleyTerry}. */
export interface ClusterBootstrapOptions {
  readonly rounds: number;
  /** Same anchor as the point estimate, so the intervals are on the same scale. */
  readonly anchor?: { readonly model: string; readonly rating: number };
  /** Quantiles; default 0.025 and 0.975. */
  readonly lower?: number;
  readonly upper?: number;
}

/** Pair-count records of a multiset of battles (by index, repeats allowed). */
function aggregate(battles: readonly BattleCluster[], picks: Int32Array): PairCountRecord[] {
  const acc = new Map<
    string,
    {
      model_a: string;
      model_b: string;
      model_a_wins: number;
      model_b_wins: number;
      tie: number;
      tie_bothbad: number;
    }
  >();
  for (const i of picks) {
    const b = battles[i]!;
    const key = `${b.model_a}\u0000${b.model_b}`;
    let rec = acc.get(key);
    if (!rec) {
      rec = {
        model_a: b.model_a,
        model_b: b.model_b,
        model_a_wins: 0,
        model_b_wins: 0,
        tie: 0,
        tie_bothbad: 0,
      };
      acc.set(key, rec);
    }
    rec.model_a_wins += b.a_wins;
    rec.model_b_wins += b.b_wins;
    rec.tie += b.ties;
  }
  return [...acc.values()];
}

/**
 * Percentile intervals of each model's Bradley–Terry rating from a bootstrap over battles (see the module doc).
 * Rounds whose resample cannot be fitted (disconnected, or the anchor missing) contribute nothing; models rated
 * in no round are absent from the result.
 * @param battles one entry per battle (battles with no votes may be left out).
 * @param rng seeded randomness (`createRng(seed)`), so intervals are reproducible.
 * @returns model → interval. Cost: `rounds` BT fits on the aggregated resample.
 * @throws RangeError for a negative or non-integer `rounds`.
 */
export function clusterBootstrapBradleyTerry(
  battles: readonly BattleCluster[],
  rng: Rng,
  opts: ClusterBootstrapOptions,
): Map<string, ClusterInterval> {
  if (!Number.isSafeInteger(opts.rounds) || opts.rounds < 0) {
    throw new RangeError(`bootstrap rounds must be a non-negative integer, got ${opts.rounds}`);
  }
  const samples = new Map<string, number[]>();
  const n = battles.length;
  const picks = new Int32Array(n);
  for (let round = 0; round < opts.rounds && n > 0; round++) {
    for (let k = 0; k < n; k++) picks[k] = rng.int(n);
    const data = arenaFromPairCounts(aggregate(battles, picks));
    if (data.models.length < 2) continue;
    const anchor =
      opts.anchor && data.models.includes(opts.anchor.model) ? { anchor: opts.anchor } : {};
    if (opts.anchor && !anchor.anchor) continue; // without its anchor this round is on another scale
    let fit: ReturnType<typeof fitBradleyTerry>;
    try {
      fit = fitBradleyTerry(data, anchor);
    } catch (err) {
      if (isAppError(err)) continue; // e.g. the anchor itself became one-sided in this resample
      throw err;
    }
    fit.models.forEach((m, i) => {
      let xs = samples.get(m);
      if (!xs) {
        xs = [];
        samples.set(m, xs);
      }
      xs.push(fit.ratings[i]!);
    });
  }
  const out = new Map<string, ClusterInterval>();
  for (const [m, xs] of samples) {
    xs.sort((a, b) => a - b);
    out.set(m, {
      lo: quantileSorted(xs, opts.lower ?? 0.025),
      median: quantileSorted(xs, 0.5),
      hi: quantileSorted(xs, opts.upper ?? 0.975),
      rounds: xs.length,
    });
  }
  return out;
}
