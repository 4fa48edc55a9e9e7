/**
 * @module aggregate/robustness
 * The drop of each robustness dataset against the same model's clean items of its base dataset: PromptBench's
 * performance drop rate (Zhu et al., 2023, "PromptBench", §3: PDR = 1 − perturbed / clean), over the base items the
 * model has both scores for (docs/scoring.md §2.7). Pure.
 */

/** One item score as the board reads it (ten-point scale). */
export interface ScoredItem {
  readonly model: string;
  readonly dataset: string;
  readonly method: string;
  readonly itemId: number;
  readonly score: number;
}

/** One model's drop on one robustness dataset. */
export interface RobustnessDrop {
  readonly model: string;
  /** The robustness (derived) dataset. */
  readonly dataset: string;
  /** The base dataset its items were derived from. */
  readonly base: string;
  /** Derived items whose base item the model also has a clean score for. */
  readonly n: number;
  /** Mean score (0–10) of those derived items. */
  readonly perturbed: number | null;
  /** Mean score (0–10) of their base items, clean. */
  readonly clean: number | null;
  /** 1 − perturbed / clean; null when there is no pair or the clean mean is 0. Negative: better when perturbed. */
  readonly pdr: number | null;
}

/**
 * The drop of every (model, robustness dataset) with at least one derived item scored: `links` maps a derived
 * item to its base item (storage/leaderboard `robustnessLinks`); a pair counts when the model has a score of the
 * same method on both. Sorted by model, then dataset.
 */
export function robustnessDrops(
  scores: readonly ScoredItem[],
  links: readonly {
    readonly itemId: number;
    readonly baseItemId: number;
    readonly baseDataset: string;
  }[],
): RobustnessDrop[] {
  const byItem = new Map(links.map((l) => [l.itemId, l]));
  const score = new Map<string, number>();
  for (const s of scores) score.set(`${s.model}\u0000${s.method}\u0000${s.itemId}`, s.score);
  const acc = new Map<
    string,
    { model: string; dataset: string; base: string; n: number; p: number; c: number }
  >();
  for (const s of scores) {
    const link = byItem.get(s.itemId);
    if (!link) continue;
    const key = `${s.model}\u0000${s.dataset}`;
    const a = acc.get(key) ?? {
      model: s.model,
      dataset: s.dataset,
      base: link.baseDataset,
      n: 0,
      p: 0,
      c: 0,
    };
    acc.set(key, a);
    const clean = score.get(`${s.model}\u0000${s.method}\u0000${link.baseItemId}`);
    if (clean === undefined) continue;
    a.n++;
    a.p += s.score;
    a.c += clean;
  }
  return [...acc.values()]
    .map((a) => {
      const perturbed = a.n === 0 ? null : a.p / a.n;
      const clean = a.n === 0 ? null : a.c / a.n;
      const pdr =
        perturbed === null || clean === null || clean === 0 ? null : 1 - perturbed / clean;
      return { model: a.model, dataset: a.dataset, base: a.base, n: a.n, perturbed, clean, pdr };
    })
    .sort((x, y) => x.model.localeCompare(y.model) || x.dataset.localeCompare(y.dataset));
}
