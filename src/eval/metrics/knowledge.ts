/**
 * @module eval/metrics/knowledge
 * Exact match of a short knowledge answer against its accepted forms (ZhuJiu's knowledge accuracy and timeliness,
 * Zhang et al. 2023, App. B; docs/scoring.md §2.8). Pure.
 */
import { normalizeAnswer } from '../../text/normalize.ts';

const MARKER = /(?:答案(?:是|为)\s*[:：]?|答案\s*[:：]|答\s*[:：])\s*/gu;

/**
 * The answer a short reply states: the text after its last answer marker (`答案是`, `答案：`, `答：`) when it has
 * one, else the reply; then its first non-empty line, normalised ({@link normalizeAnswer}: NFKC, lower case, no
 * punctuation or symbols, white space collapsed).
 * @example statedAnswer('答案：亚洲。') // '亚洲'
 */
export function statedAnswer(output: string): string {
  let text = output;
  let last = -1;
  for (const m of output.matchAll(MARKER)) last = (m.index ?? 0) + m[0].length;
  if (last >= 0 && last < output.length) text = output.slice(last);
  const line = text.split('\n').find((l) => normalizeAnswer(l) !== '') ?? '';
  return normalizeAnswer(line);
}

/**
 * Exact match of a reply against the accepted forms of the answer: 1 when its stated answer
 * ({@link statedAnswer}) equals the normalised form of any of them.
 * @throws RangeError when `answers` is empty.
 * @example knowledgeExactMatch('10月1日', ['10月1日', '2026年10月1日']) // { score: 1, stated: '10月1日' }
 */
export function knowledgeExactMatch(
  output: string,
  answers: readonly string[],
): { score: 0 | 1; stated: string } {
  if (answers.length === 0) throw new RangeError('knowledgeExactMatch needs at least one answer');
  const stated = statedAnswer(output);
  return { score: answers.some((a) => normalizeAnswer(a) === stated) ? 1 : 0, stated };
}
