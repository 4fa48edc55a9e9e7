/**
 * @module rating/online-elo
 * Online Elo over battles in vote order (docs/scoring.md §4; Chiang et al. 2024 "Chatbot Arena", arXiv:2403.04132,
 * §5; the same update as lm-sys FastChat `fastchat/serve/monitor/rating_systems.py` `compute_elo`).
 */
import type { ArenaData } from './types.ts';

/** Parameters of {@link computeOnlineElo}; the defaults are Chatbot Arena's. */
export interface OnlineEloOptions {
  /** Step size K (default 4). */
  readonly k?: number;
  /** Logistic base (default 10). */
  readonly base?: number;
  /** Rating scale (default 400). */
  readonly scale?: number;
  /** Starting rating of every model (default 1000). */
  readonly initial?: number;
}

/**
 * Online Elo: for each battle (a, b) in order, with E = 1 / (1 + base^((R_b − R_a)/scale)) and the score
 * S = 1 (a won), 0 (b won), 0.5 (`tie` or `tie (bothbad)`): R_a += K·(S − E), R_b −= K·(S − E).
 *
 * @param data arena data whose `sequence` holds the battles in vote order.
 * @returns one rating per model of `data.models` (index-aligned; models never seen keep `initial`), or null
 *   when `data.sequence` is null (pair counts have no order, so online Elo is undefined).
 */
export function computeOnlineElo(
  data: ArenaData,
  opts: OnlineEloOptions = {},
): Float64Array | null {
  const seq = data.sequence;
  if (seq === null) return null;
  const k = opts.k ?? 4;
  const base = opts.base ?? 10;
  const scale = opts.scale ?? 400;
  const r = new Float64Array(data.models.length).fill(opts.initial ?? 1000);
  const { a, b, outcome } = seq;
  for (let t = 0; t < a.length; t++) {
    const ia = a[t]!;
    const ib = b[t]!;
    const e = 1 / (1 + base ** ((r[ib]! - r[ia]!) / scale));
    const o = outcome[t]!;
    const s = o === 0 ? 1 : o === 1 ? 0 : 0.5;
    const d = k * (s - e);
    r[ia]! += d;
    r[ib]! -= d;
  }
  return r;
}
