/**
 * @module rating/arena-data
 * Accumulates battles or pair counts into {@link ArenaData}: per-unordered-pair cells (wins of each side, ties),
 * per-model battle counts and, for battles, the vote sequence for online Elo. Pure: no I/O.
 */
import { said, saidError } from '../i18n/cli.ts';
import type { ArenaData, BattleRecord, PairCountInput, PairCountRecord, Winner } from './types.ts';

const OUTCOME: Record<Winner, number> = { model_a: 0, model_b: 1, tie: 2, 'tie (bothbad)': 2 };

/**
 * Incremental builder of {@link ArenaData}. Add either battles ({@link addBattle}) or pair counts
 * ({@link addPairCounts}); mixing both is allowed but then the Elo sequence only covers the battles, so
 * {@link build} drops the sequence (Elo becomes unavailable) when any pair counts were added.
 *
 * Duplicate pair-count rows for the same pair (in either orientation) are summed.
 */
export class ArenaDataBuilder {
  readonly #index = new Map<string, number>();
  readonly #models: string[] = [];
  readonly #pairIndex = new Map<number, number>();
  #pairI: number[] = [];
  #pairJ: number[] = [];
  #winsI: number[] = [];
  #winsJ: number[] = [];
  #ties: number[] = [];
  #seqA = new Int32Array(1024);
  #seqB = new Int32Array(1024);
  #seqO = new Uint8Array(1024);
  #seqLen = 0;
  #sawPairs = false;

  /** Number of distinct models seen so far. */
  get modelCount(): number {
    return this.#models.length;
  }

  /** Index of a model, registering it on first sight. */
  #model(name: string): number {
    let i = this.#index.get(name);
    if (i === undefined) {
      i = this.#models.length;
      if (i >= 1 << 20) throw saidError('rating_input_invalid', said('cli.rating.tooManyModels'));
      this.#index.set(name, i);
      this.#models.push(name);
    }
    return i;
  }

  /** Cell index of the unordered pair {a, b}, creating it on first sight. */
  #cell(a: number, b: number): number {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const key = lo * 1048576 + hi;
    let k = this.#pairIndex.get(key);
    if (k === undefined) {
      k = this.#pairI.length;
      this.#pairIndex.set(key, k);
      this.#pairI.push(lo);
      this.#pairJ.push(hi);
      this.#winsI.push(0);
      this.#winsJ.push(0);
      this.#ties.push(0);
    }
    return k;
  }

  /**
   * Adds one battle in vote order. Names must be distinct non-empty strings (the parser checks this; here a
   * self-battle throws AppError `rating_input_invalid`).
   */
  addBattle(modelA: string, modelB: string, winner: Winner): void {
    if (modelA === modelB) {
      throw saidError('rating_input_invalid', said('cli.rating.selfBattle', { model: modelA }));
    }
    const a = this.#model(modelA);
    const b = this.#model(modelB);
    const o = OUTCOME[winner];
    const k = this.#cell(a, b);
    if (o === 2) this.#ties[k]! += 1;
    else if ((o === 0) === a < b) this.#winsI[k]! += 1;
    else this.#winsJ[k]! += 1;
    if (this.#seqLen === this.#seqA.length) {
      const n = this.#seqLen * 2;
      const na = new Int32Array(n);
      na.set(this.#seqA);
      this.#seqA = na;
      const nb = new Int32Array(n);
      nb.set(this.#seqB);
      this.#seqB = nb;
      const no = new Uint8Array(n);
      no.set(this.#seqO);
      this.#seqO = no;
    }
    this.#seqA[this.#seqLen] = a;
    this.#seqB[this.#seqLen] = b;
    this.#seqO[this.#seqLen] = o;
    this.#seqLen++;
  }

  /** Adds the counts of one pair (non-negative integers; ties of both kinds count as ties). */
  addPairCounts(
    modelA: string,
    modelB: string,
    aWins: number,
    bWins: number,
    tie: number,
    tieBothBad: number,
  ): void {
    if (modelA === modelB) {
      throw saidError('rating_input_invalid', said('cli.rating.selfBattle', { model: modelA }));
    }
    this.#sawPairs = true;
    const a = this.#model(modelA);
    const b = this.#model(modelB);
    const k = this.#cell(a, b);
    if (a < b) {
      this.#winsI[k]! += aWins;
      this.#winsJ[k]! += bWins;
    } else {
      this.#winsI[k]! += bWins;
      this.#winsJ[k]! += aWins;
    }
    this.#ties[k]! += tie + tieBothBad;
  }

  /** Freezes the data. Throws AppError `rating_input_invalid` when nothing was added. */
  build(): ArenaData {
    if (this.#models.length === 0) {
      throw saidError('rating_input_invalid', said('cli.rating.noBattles'));
    }
    const m = this.#models.length;
    const winsI = Float64Array.from(this.#winsI);
    const winsJ = Float64Array.from(this.#winsJ);
    const ties = Float64Array.from(this.#ties);
    const pairI = Int32Array.from(this.#pairI);
    const pairJ = Int32Array.from(this.#pairJ);
    const numBattles = new Float64Array(m);
    let total = 0;
    for (let k = 0; k < pairI.length; k++) {
      const n = winsI[k]! + winsJ[k]! + ties[k]!;
      numBattles[pairI[k]!]! += n;
      numBattles[pairJ[k]!]! += n;
      total += n;
    }
    const hasSeq = !this.#sawPairs && this.#seqLen > 0;
    return {
      models: [...this.#models],
      pairI,
      pairJ,
      winsI,
      winsJ,
      ties,
      numBattles,
      totalVotes: total,
      sequence: hasSeq
        ? {
            a: this.#seqA.slice(0, this.#seqLen),
            b: this.#seqB.slice(0, this.#seqLen),
            outcome: this.#seqO.slice(0, this.#seqLen),
          }
        : null,
    };
  }
}

/**
 * Builds {@link ArenaData} from battles in vote order (the sequence is kept for online Elo).
 * @throws AppError `rating_input_invalid` on a self-battle or an empty list.
 */
export function arenaFromBattles(battles: Iterable<BattleRecord>): ArenaData {
  const b = new ArenaDataBuilder();
  for (const r of battles) b.addBattle(r.model_a, r.model_b, r.winner);
  return b.build();
}

/**
 * Builds {@link ArenaData} from pair counts (no order, so no Elo sequence). Counts must be non-negative
 * integers.
 * @throws AppError `rating_input_invalid` on a self-pair, a bad count, or an empty list.
 */
export function arenaFromPairCounts(pairs: Iterable<PairCountRecord>): ArenaData {
  const b = new ArenaDataBuilder();
  let row = 0;
  for (const r of pairs) {
    row++;
    for (const key of ['model_a_wins', 'model_b_wins', 'tie', 'tie_bothbad'] as const) {
      const v = r[key];
      if (!Number.isSafeInteger(v) || v < 0) {
        throw saidError(
          'rating_input_invalid',
          said('cli.rating.badPairCount', {
            row,
            a: r.model_a,
            b: r.model_b,
            key,
            value: String(v),
          }),
        );
      }
    }
    b.addPairCounts(r.model_a, r.model_b, r.model_a_wins, r.model_b_wins, r.tie, r.tie_bothbad);
  }
  return b.build();
}

/**
 * Builds {@link ArenaData} from a stored-battle loader's answer: its `battles` (in vote order) when present and
 * non-empty, otherwise its `pairs`.
 */
export function arenaFromInput(input: PairCountInput): ArenaData {
  if (input.battles && input.battles.length > 0) return arenaFromBattles(input.battles);
  return arenaFromPairCounts(input.pairs);
}
