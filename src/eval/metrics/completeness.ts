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

/** One required element: its name, or its accepted names (any one covers it; the first is shown in `missing`). */
export type RequiredElement = string | readonly string[];

/**
 * Completeness of an answer: covered / required, where a required element is covered when the normalised form
 * ({@link normalizeAnswer}) of its name, or of any of its accepted names, occurs in the normalised answer.
 * Range [0, 1]; `tenPoint` is `10 × score` (ZhuJiu's ten-point scale).
 * @param elements the required elements (or one string that {@link splitElements} splits).
 * @throws RangeError when there is no required element, or an element has no non-empty name.
 * @example completeness('火药, 指南针, 造纸术, 瓷器', '火药、指南针、造纸术、印刷术')
 *   // { covered: 3, required: 4, score: 0.75, tenPoint: 7.5, missing: ['印刷术'] } (ZhuJiu App. B's example)
 */
export function completeness(
  answer: string,
  elements: readonly RequiredElement[] | string,
): { covered: number; required: number; score: number; tenPoint: number; missing: string[] } {
  const list = typeof elements === 'string' ? splitElements(elements) : [...elements];
  if (list.length === 0) throw new RangeError('completeness needs at least one required element');
  const a = normalizeAnswer(answer);
  const missing: string[] = [];
  for (const e of list) {
    const names = (typeof e === 'string' ? [e] : [...e]).map(normalizeAnswer).filter((n) => n);
    if (names.length === 0) throw new RangeError('completeness: a required element has no name');
    if (!names.some((n) => a.includes(n)))
      missing.push(typeof e === 'string' ? e : (e[0] as string));
  }
  const covered = list.length - missing.length;
  const score = covered / list.length;
  return { covered, required: list.length, score, tenPoint: 10 * score, missing };
}
