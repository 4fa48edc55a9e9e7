/**
 * @module eval/metrics/span
 * Exact match and character F1 for span-extraction reading comprehension (CMRC 2018, DRCD), with two scorer
 * profiles (docs/scoring.md §2):
 * - `cmrc2018` reproduces CMRC 2018's official script (`cmrc2018_evaluate.py` v5; Cui et al., "A Span-Extraction
 *   Dataset for Chinese Machine Reading Comprehension", EMNLP 2019), quirks included: only its own punctuation
 *   list is removed (ASCII `.` `,` are kept), no NFKC, NLTK-style words for non-Chinese runs.
 * - `default` is the principled one: NFKC, lower case, every Unicode punctuation mark and symbol removed.
 * Both compute F1 per reference from the longest common *contiguous* run of tokens (as the official script does,
 * not SQuAD's bag-of-tokens overlap) and take the best over all references. Pure.
 */
import { cmrcNormalize, normalizeAnswer } from '../../text/normalize.ts';
import { mixedSegmentation, mixedTokens } from '../../text/tokenize.ts';

/** Scorer profiles for span answers. */
export const SPAN_PROFILES = ['cmrc2018', 'default'] as const;
/** One span profile. */
export type SpanProfile = (typeof SPAN_PROFILES)[number];

/** Length of the longest common contiguous run of two token lists (dynamic programming, O(|a|·|b|)). */
export function longestCommonRun(a: readonly string[], b: readonly string[]): number {
  let best = 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        const v = (prev[j - 1] as number) + 1;
        cur[j] = v;
        if (v > best) best = v;
      }
    }
    prev = cur;
  }
  return best;
}

function tokens(s: string, profile: SpanProfile): string[] {
  return profile === 'cmrc2018' ? mixedSegmentation(s, true) : mixedTokens(s);
}

/**
 * F1 of a prediction against one reference: with `l` the longest common run of their tokens, precision
 * `l / |pred|`, recall `l / |ref|`, F1 `2pr / (p + r)`, 0 when `l = 0`. Range [0, 1].
 */
export function f1Against(prediction: string, reference: string, profile: SpanProfile): number {
  const ref = tokens(reference, profile);
  const pred = tokens(prediction, profile);
  const l = longestCommonRun(ref, pred);
  if (l === 0) return 0;
  const p = l / pred.length;
  const r = l / ref.length;
  return (2 * p * r) / (p + r);
}

/**
 * Character F1: best {@link f1Against} over all references. Range [0, 1].
 * @throws RangeError when `references` is empty.
 * @example charF1('中华人民共和国成立', ['中华人民共和国'], 'cmrc2018') // 0.875
 */
export function charF1(
  prediction: string,
  references: readonly string[],
  profile: SpanProfile,
): number {
  if (references.length === 0) throw new RangeError('charF1 needs at least one reference');
  let best = 0;
  for (const r of references) best = Math.max(best, f1Against(prediction, r, profile));
  return best;
}

/**
 * Exact match: 1 when the normalised prediction equals any normalised reference, else 0. `cmrc2018` normalises as
 * the official script (lower case, strip, remove its punctuation list); `default` with {@link normalizeAnswer}.
 * @throws RangeError when `references` is empty.
 * @example exactMatch('北京。', ['北京'], 'cmrc2018') // 1
 */
export function exactMatch(
  prediction: string,
  references: readonly string[],
  profile: SpanProfile,
): 0 | 1 {
  if (references.length === 0) throw new RangeError('exactMatch needs at least one reference');
  const norm = profile === 'cmrc2018' ? cmrcNormalize : normalizeAnswer;
  const p = norm(prediction);
  return references.some((r) => norm(r) === p) ? 1 : 0;
}
