/**
 * @module eval/metrics/completeness
 * Completeness, a knowledge property of ZhuJiu (Zhang et al., "ZhuJiu: A Multi-dimensional, Multi-faceted
 * Chinese Benchmark for Large Language Models", 2023, Appendix B): the share of the reference's required elements
 * that the answer covers (docs/scoring.md §2). Pure.
 */
import { normalizeAnswer } from '../../text/normalize.ts';

/** Splits a reference written as a list (`火药、指南针、造纸术、印刷术`, `a, b; c`) into its elements. */
export function splitElements(reference: string): string[] {
  return reference
    .split(/[,，、;；\n]|\s+and\s+/u)
    .map((e) => e.trim())
    .filter((e) => normalizeAnswer(e) !== '');
}

/**
 * Completeness of an answer: covered / required, where a required element is covered when its normalised form
 * ({@link normalizeAnswer}) occurs in the normalised answer. Range [0, 1].
 * @param elements the required elements (or one string that {@link splitElements} splits).
 * @throws RangeError when there is no required element.
 * @example completeness('gunpowder, compass, papermaking, porcelain', 'gunpowder, compass, papermaking, printing')
 *   // { covered: 3, required: 4, score: 0.75, missing: ['printing'] }
 */
export function completeness(
  answer: string,
  elements: readonly string[] | string,
): { covered: number; required: number; score: number; missing: string[] } {
  const list = typeof elements === 'string' ? splitElements(elements) : [...elements];
  if (list.length === 0) throw new RangeError('completeness needs at least one required element');
  const a = normalizeAnswer(answer);
  const missing = list.filter((e) => !a.includes(normalizeAnswer(e)));
  const covered = list.length - missing.length;
  return { covered, required: list.length, score: covered / list.length, missing };
}
