/**
 * @module eval/metrics/accuracy
 * Accuracy for multiple choice and classification (docs/scoring.md §2): the option extracted by
 * {@link extractOption} against the gold letter; the dataset figure is the mean over items. Pure.
 */
import { extractOption, type OptionExtraction } from './options.ts';

/** The score of one multiple-choice answer: 1 when the extracted option is the gold one, else 0. */
export function choiceScore(
  output: string,
  gold: string,
  letters: string,
): { score: 0 | 1; extraction: OptionExtraction } {
  const extraction = extractOption(output, letters);
  return { score: extraction.kind === 'option' && extraction.letter === gold ? 1 : 0, extraction };
}

/**
 * Mean of item scores (accuracy when scores are 0/1). Range [0, 1].
 * @throws RangeError on an empty list.
 */
export function mean(scores: readonly number[]): number {
  if (scores.length === 0) throw new RangeError('mean of no scores');
  let s = 0;
  for (const x of scores) s += x;
  return s / scores.length;
}
