/**
 * @module eval/metrics/agreement
 * Agreement between two raters on the same items (docs/scoring.md §3.6): Cohen's kappa (unweighted, linear- and
 * quadratic-weighted), exact agreement, within-one rate, the confusion matrix and n. Used to validate a judge
 * against people (IndustryBench §4 reports weighted kappa), person against person (PandaLM's inter-annotator
 * kappa) and the judge against the arena crowd. Pure.
 */
import type { Said } from '../../core/errors.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import { said } from '../../i18n/cli.ts';
import { quotedListSaid } from '../../i18n/quote.ts';

/** A label as it appears in a labels file: a number (an ordered score) or a string (a category). */
export type Label = string | number;

/** One item's labels from the two raters. */
export interface LabelPair {
  readonly a: Label;
  readonly b: Label;
}

/** The confusion matrix: `counts[i][j]` items labelled `labels[i]` by A and `labels[j]` by B. */
export interface Confusion {
  readonly labels: readonly Label[];
  readonly counts: readonly (readonly number[])[];
}

/** The figures `zhujiu judge agree --json` prints, in that order. */
export interface Agreement {
  /** Items rated by both. */
  readonly n: number;
  /** Cohen's kappa, unweighted; null when chance agreement is 1 (a single category). */
  readonly kappa: number | null;
  /** Linear-weighted kappa; null unless the labels are ordered (numbers, or `order` given). */
  readonly kappa_linear: number | null;
  /** Quadratic-weighted kappa; null unless the labels are ordered. */
  readonly kappa_quadratic: number | null;
  /** Share of items with the same label, 0–1. */
  readonly exact: number;
  /** Share of items whose labels are at most one step apart, 0–1; null unless the labels are ordered. */
  readonly within_one: number | null;
  readonly confusion: Confusion;
}

/** Options of {@link agreement}. */
export interface AgreementOptions {
  /**
   * The order of the categories, lowest first (e.g. `['1', '0', '2']` for "response 1 better < tie < response 2
   * better"). Positions are then the indices in this list. Without it, numeric labels are ordered by value and
   * string labels are unordered (no weighted kappa, no within-one).
   */
  readonly order?: readonly Label[];
}

const key = (l: Label): string => String(l);

/**
 * Computes the agreement between two raters.
 *
 * Cohen's kappa κ = (p_o − p_e) / (1 − p_e) with p_e from the two raters' marginals (Cohen 1960). Weighted
 * kappa κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij with disagreement weights w_ij = |x_i − x_j| (linear) or
 * (x_i − x_j)² (quadratic) over the category positions x (Cohen 1968); the usual normalisation by (k − 1) cancels.
 * Positions are the numeric labels themselves, or the indices in `order`.
 *
 * @param pairs one entry per item rated by both (join on the item first; see {@link joinLabels}).
 * @returns the figures, or a reason as catalogue data (`cli.agree.*`): no pairs, or a label missing from `order`.
 * @example agreement([{a:1,b:1},{a:2,b:3}]) // n 2, exact 0.5, within_one 1
 */
export function agreement(
  pairs: readonly LabelPair[],
  options: AgreementOptions = {},
): Result<Agreement, Said> {
  if (pairs.length === 0) return fail(said('cli.agree.noPairs'));
  const scale = labelScale(pairs, options);
  if (!scale.ok) return scale;
  const { labels, positions } = scale.value;
  const index = new Map(labels.map((l, i) => [key(l), i]));
  const k = labels.length;
  const counts = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const p of pairs) {
    const i = index.get(key(p.a)) as number;
    const j = index.get(key(p.b)) as number;
    (counts[i] as number[])[j] = ((counts[i] as number[])[j] as number) + 1;
  }
  const n = pairs.length;
  const rows = counts.map((r) => r.reduce((s, x) => s + x, 0));
  const cols = labels.map((_, j) => counts.reduce((s, r) => s + (r[j] as number), 0));
  let agree = 0;
  let chance = 0;
  for (let i = 0; i < k; i++) {
    agree += (counts[i] as number[])[i] as number;
    chance += ((rows[i] as number) * (cols[i] as number)) / (n * n);
  }
  const exact = agree / n;
  const kappa = chance >= 1 ? null : (exact - chance) / (1 - chance);

  const weighted = (power: 1 | 2): number | null => {
    if (positions === null) return null;
    let obs = 0;
    let exp = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const w = Math.abs((positions[i] as number) - (positions[j] as number)) ** power;
        obs += w * ((counts[i] as number[])[j] as number);
        exp += (w * (rows[i] as number) * (cols[j] as number)) / n;
      }
    }
    return exp === 0 ? null : 1 - obs / exp;
  };
  let withinOne: number | null = null;
  if (positions !== null) {
    let close = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        if (Math.abs((positions[i] as number) - (positions[j] as number)) <= 1 + 1e-12) {
          close += (counts[i] as number[])[j] as number;
        }
      }
    }
    withinOne = close / n;
  }
  return ok({
    n,
    kappa,
    kappa_linear: weighted(1),
    kappa_quadratic: weighted(2),
    exact,
    within_one: withinOne,
    confusion: { labels, counts },
  });
}

/**
 * The labels of the confusion table and, for an ordered scale, each label's position: `options.order` (every label
 * must be in it, none twice; positions 0, 1, …), else all-numeric labels ascending (their values as positions),
 * else the labels as text, sorted, unordered (no positions: no weighted kappa).
 */
function labelScale(
  pairs: readonly LabelPair[],
  options: AgreementOptions,
): Result<{ labels: Label[]; positions: number[] | null }, Said> {
  if (options.order !== undefined) {
    const order = options.order.map(key);
    if (new Set(order).size !== order.length) return fail(said('cli.agree.orderTwice'));
    const missing = new Set<string>();
    for (const p of pairs) {
      if (!order.includes(key(p.a))) missing.add(key(p.a));
      if (!order.includes(key(p.b))) missing.add(key(p.b));
    }
    if (missing.size > 0) {
      return fail(
        said('cli.agree.notInOrder', {
          n: missing.size,
          labels: quotedListSaid([...missing]),
          order: order.join(','),
        }),
      );
    }
    const labels = [...options.order];
    return ok({ labels, positions: labels.map((_, i) => i) });
  }
  const seen = new Map<string, Label>();
  for (const p of pairs) {
    seen.set(key(p.a), p.a);
    seen.set(key(p.b), p.b);
  }
  const all = [...seen.values()];
  if (all.every((l) => typeof l === 'number' && Number.isFinite(l))) {
    const labels = (all as number[]).sort((x, y) => x - y);
    return ok({ labels, positions: labels });
  }
  return ok({ labels: all.map(key).sort(), positions: null });
}

/** One labelled item of one rater. */
export interface LabelledItem {
  readonly item: string;
  readonly label: Label;
}

/** Two raters' labels joined on the item. */
export interface JoinedLabels {
  readonly pairs: readonly LabelPair[];
  /** Items only A labelled (their count matters: e.g. a judge's unparsed replies). */
  readonly onlyA: readonly string[];
  /** Items only B labelled. */
  readonly onlyB: readonly string[];
}

/** Joins two raters' labels on `item` (each item once per rater; the caller rejects duplicates). */
export function joinLabels(a: readonly LabelledItem[], b: readonly LabelledItem[]): JoinedLabels {
  const bByItem = new Map(b.map((x) => [x.item, x.label]));
  const aItems = new Set(a.map((x) => x.item));
  const pairs: LabelPair[] = [];
  const onlyA: string[] = [];
  for (const x of a) {
    const lb = bByItem.get(x.item);
    if (lb === undefined) onlyA.push(x.item);
    else pairs.push({ a: x.label, b: lb });
  }
  const onlyB = b.filter((x) => !aItems.has(x.item)).map((x) => x.item);
  return { pairs, onlyA, onlyB };
}

/**
 * The crowd's label of one arena battle: the choice with the most live votes (`left`, `equal`, `right`), or null
 * when there are no votes or the top choices are tied (no majority to compare a judge with).
 */
export function crowdLabel(votes: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of votes) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let top = 0;
  let tied = false;
  for (const [k, c] of counts) {
    if (c > top) {
      best = k;
      top = c;
      tied = false;
    } else if (c === top) tied = true;
  }
  return tied ? null : best;
}

/** The order of battle choices for weighted kappa: the left answer better < equal < the right answer better. */
export const BATTLE_CHOICE_ORDER = ['left', 'equal', 'right'] as const;
