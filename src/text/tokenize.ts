/**
 * @module text/tokenize
 * Mixed segmentation for character-level F1 on Chinese answers (docs/scoring.md §2): every Han character is one
 * token, runs of Latin letters and digits are words. Two variants: the CMRC 2018 official script's
 * (`mixedSegmentation`) and the `default` profile's (`mixedTokens`). Pure.
 */
import { isCmrcPunctuation, normalizeAnswer, pyStrip } from './normalize.ts';
import { treebankWordTokenize } from './treebank.ts';

/** U+4E00–U+9FA5, the range the CMRC 2018 script treats as Chinese characters (traditional ones included). */
const CMRC_HAN = /[\u4e00-\u9fa5]/u;

/**
 * The `default` profile's words of a non-Chinese run (after {@link normalizeAnswer}): runs of letters/digits are
 * words (with `.` or `,` inside a number kept, e.g. `3.14`, `1,000`); every other character is its own token.
 */
export function wordTokens(run: string): string[] {
  return run.match(/[\p{L}\p{M}\p{N}]+(?:[.,][\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu) ?? [];
}

/**
 * CMRC 2018's `mixed_segmentation` (official script, `baseline/cmrc2018_evaluate.py`): Python `lower()` then
 * `strip()` ({@link pyStrip}: a U+FEFF stays); each character in U+4E00–U+9FA5 is a token; other characters are
 * buffered and split with NLTK's word tokenizer ({@link treebankWordTokenize}), so `j.k.`, `.net`, `28℃` stay
 * one word and `'s`, `n't` split off. With `removePunctuation` (what the
 * script's F1 uses) characters of the official list are skipped *without* ending the buffered run, so `a-b`
 * becomes the one token `ab`, as in the script. Without it each such character is its own token.
 * @example mixedSegmentation('2008年北京奥运会', true) // ['2008', '年', '北', '京', '奥', '运', '会']
 */
export function mixedSegmentation(s: string, removePunctuation: boolean): string[] {
  const out: string[] = [];
  let buf = '';
  const flush = () => {
    if (buf !== '') out.push(...treebankWordTokenize(buf));
    buf = '';
  };
  for (const c of pyStrip(s.toLowerCase())) {
    const punct = isCmrcPunctuation(c);
    if (removePunctuation && punct) continue;
    if (CMRC_HAN.test(c) || punct) {
      flush();
      out.push(c);
    } else {
      buf += c;
    }
  }
  flush();
  return out;
}

const HAN = /\p{Script=Han}/u;

/**
 * The `default` profile's tokens: {@link normalizeAnswer} (NFKC, lower case, no punctuation or symbols), then
 * every Han character (Unicode script Han, any block) is a token and runs of other letters, marks and digits
 * are words.
 * @example mixedTokens('GPT-4是OpenAI的模型') // ['gpt4', '是', 'openai', '的', '模', '型']
 */
export function mixedTokens(s: string): string[] {
  const out: string[] = [];
  let buf = '';
  for (const c of normalizeAnswer(s)) {
    if (HAN.test(c)) {
      if (buf !== '') out.push(...wordTokens(buf));
      buf = '';
      out.push(c);
    } else {
      buf += c;
    }
  }
  if (buf !== '') out.push(...wordTokens(buf));
  return out;
}
