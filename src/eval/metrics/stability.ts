/**
 * @module eval/metrics/stability
 * Robustness of knowledge, a property of ZhuJiu (Zhang et al., "ZhuJiu", 2023, §2.3.1 and App. B): one fact is
 * asked five different ways, and the more stable the answers, the higher the score. ZhuJiu states the principle,
 * not a formula; the formula here is the product's (docs/scoring.md §2.8). Pure.
 */

/** One of the answers to the phrasings of a fact: whether it is right, and its normalised text. */
export interface PhrasingAnswer {
  readonly correct: boolean;
  /** The answer's normalised text (wrong answers with equal text agree with each other). */
  readonly normalized: string;
}

/**
 * Stability score of the answers to several phrasings of one fact: `S = (k / n) × (f / n)`, where `n` is the
 * number of phrasings, `k` the answers that are right, and `f` the size of the largest group of agreeing answers
 * (every right answer agrees with every other right answer, whatever its wording; wrong answers agree when their
 * normalised texts are equal). Range [0, 1]; 1 only when every answer is right. With n = 5: k = 5 → 1, k = 4 →
 * 0.64, k = 3 → 0.36, k = 2 with the three wrong answers equal → 0.24, k = 2 with them all different → 0.16,
 * k = 0 → 0. The first factor is accuracy over the phrasings; the second, the agreement with the majority answer,
 * discounts a fact the model knows only under some phrasings.
 * @throws RangeError when `answers` is empty.
 * @example stability([{correct:true,normalized:'亚洲'}, {correct:true,normalized:'亚洲'}, {correct:false,normalized:'欧洲'}])
 *   // { correct: 2, agreeing: 2, n: 3, score: 4/9 }
 */
export function stability(answers: readonly PhrasingAnswer[]): {
  correct: number;
  agreeing: number;
  n: number;
  score: number;
} {
  const n = answers.length;
  if (n === 0) throw new RangeError('stability needs at least one answer');
  const groups = new Map<string, number>();
  let correct = 0;
  for (const a of answers) {
    if (a.correct) correct++;
    else groups.set(a.normalized, (groups.get(a.normalized) ?? 0) + 1);
  }
  const agreeing = Math.max(correct, ...groups.values());
  return { correct, agreeing, n, score: (correct / n) * (agreeing / n) };
}
