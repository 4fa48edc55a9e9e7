/**
 * @module eval/metrics/options
 * Ordered option extraction for multiple-choice answers (docs/scoring.md §2). A model answers in free text; the
 * option it commits to is found by an ordered list of answer patterns, each tier stronger than the next. The first
 * tier that matches decides: if its matches name exactly one distinct option letter that is the answer, if they
 * name two or more the answer commits to several options and is wrong. Only when no tier matches does a
 * fallback look at bare option letters, and only if exactly one distinct option letter appears. Full-width
 * letters and punctuation are folded first (NFKC). Pure.
 */
import { nfkc } from '../../text/normalize.ts';

/** One answer pattern: a name for audit and a regular expression whose `letters` group holds the letter list. */
export interface AnswerPattern {
  readonly name: string;
  /** Built for the option letters of an item (e.g. `ABCD`): alternatives, each with one `letters` group. */
  readonly build: (letters: string) => RegExp[];
}

/** What was extracted. */
export type OptionExtraction =
  | { readonly kind: 'option'; readonly letter: string; readonly pattern: string }
  | { readonly kind: 'several'; readonly letters: readonly string[]; readonly pattern: string }
  | { readonly kind: 'none' };

/**
 * A run of option letters not glued to other Latin letters (so the `B` of `Because` never counts; `AB` names A
 * and B).
 */
const one = (L: string) => `(?<![A-Za-z])[${L}]+(?![A-Za-z])`;
/**
 * A list of letters: `B`, `B或C`, `A、B`, `AB`, `B and C`, `B or C`. A letter after a separator that starts a
 * discussion of that option (`答案：D，A项错在…`, `the answer is D, A is wrong`) ends the list instead of joining it.
 */
const list = (L: string, stopAtDiscussion = true) =>
  `(?<letters>${one(L)}(?:\\s*(?:或者?|还是|和|与|及|、|,|/|&|or|and)?\\s*${one(L)}${
    stopAtDiscussion
      ? "(?!\\s*(?:项|选项|的?说法|错|不|中|是|:)|\\s+(?:is|was|has|does|doesn't|isn't|states|says|refers|mentions|seems|only)\\b)"
      : ''
  })*)`;
/** Optional opening bracket before a letter list. */
const open = String.raw`[(\[【<]?\s*`;
/**
 * What may follow a letter that a sentence states as its choice: the end of the text, a closing bracket, a
 * sentence or clause mark, or a reason (`because`, `since`, `as`, `因为`). So `Therefore D.` and `I think it's B,
 * because …` count, `Therefore D is wrong` and `it's B that is wrong` do not.
 */
const stated = String.raw`(?=\s*[)\]】>]?\s*(?:[.。!！,，;；:：]|$|\s+(?:because|since|as|for)\b|\s*因为))`;
/** An English belief or conclusion lead-in is not negated (`I don't think it's B`, `not because it's B`). */
const notNegatedEn = String.raw`(?<!(?:n['’]t|not|never)\s+(?:(?:really\s+)?(?:think|believe|say)\s+)?)`;
/** Words that negate a following choice (`不选A`, `排除A`). */
const notNegated = '(?<!不|没|未|别|勿|排除|除了)';

/**
 * The answer patterns, strongest first. Each tier is tried on the whole NFKC-folded text, with markdown emphasis
 * (`**`, `__`) removed:
 * 1. `answer_marker`: an explicit answer statement: `答案是B`, `答案：Ｂ`, `【答案】B`, `正确答案为(B)`, `最终答案选C`,
 *    `the answer is (C)`, `Answer: B`, `The correct option is C`, `\boxed{C}`, `B is the answer`.
 * 2. `choose`: a choice verb or a conclusion: `故选D`, `本题选C`, `应选A`, `所以选择B`, `选C` (not `不选A`, not `选项C`),
 *    `I choose B`, `I'd go with C`, `Therefore D.`, `So, the correct one is B.`, `因此D。`.
 * 3. `assert_correct`: an option asserted correct: `只有选项C是对的`, `C项正确`, `选项B正确`, `正确的是C`,
 *    `正确选项是C`, `C符合题意` (not `C不正确`, not `B项不符合题意`), `option C is correct`, `B is correct`
 *    (not `B is incorrect`, not `B is not correct`).
 * 4. `belief`: an option stated as the model's view: `I think it's B, because …`, `It must be C.`, `I believe
 *    the answer would be A`, `我认为是B`, `应该是C。` (not `I don't think it's B`).
 */
export const ANSWER_PATTERNS: readonly AnswerPattern[] = Object.freeze([
  {
    name: 'answer_marker',
    build: (L: string) =>
      [
        String.raw`(?:答案|答(?=\s*:))\s*[】\]]?\s*(?:应该?|就|即|最终)?\s*(?:是|为|选择?|应为|应是)?\s*[:]?\s*${open}${list(L)}`,
        String.raw`[Aa]nswer\s*(?:is|would\s+be|should\s+be|must\s+be|:)\s*:?\s*(?:[Oo]ption\s+|[Cc]hoice\s+)?[(\[]?\s*${list(L)}`,
        String.raw`(?:[Cc]orrect|[Rr]ight|[Bb]est)\s+(?:option|choice)\s*(?:is|would\s+be|:)\s*:?\s*[(\[]?\s*${list(L)}`,
        String.raw`\\boxed\{\s*(?:\\text\{\s*)?${list(L)}\s*\}`,
        String.raw`(?:(?:[Oo]ption|[Cc]hoice)\s+)?${list(L, false)}\s+(?:is|would\s+be)\s+the\s+(?:correct\s+|right\s+|best\s+|final\s+)?answer(?![A-Za-z])`,
      ].map((src) => new RegExp(src, 'gu')),
  },
  {
    name: 'choose',
    build: (L: string) =>
      [
        String.raw`${notNegated}(?:选择|选)(?!项)\s*[:]?\s*${open}${list(L)}`,
        String.raw`${notNegatedEn}(?<![A-Za-z])(?:[Cc]hoose|[Ss]elect|[Pp]ick|go\s+with|go\s+for|opt\s+for)\s+(?:[Oo]ption\s+|[Cc]hoice\s+)?[(\[]?${list(L)}`,
        String.raw`(?<![A-Za-z])(?:[Tt]herefore|[Tt]hus|[Hh]ence|[Ss]o|[Cc]onsequently|[Ii]n\s+conclusion|[Oo]verall)\s*,?\s*(?:the\s+(?:correct|right|best)\s+(?:one|option|choice)\s+is\s+|(?:it\s+is|it['’]s)\s+)?(?:[Oo]ption\s+|[Cc]hoice\s+)?${open}${list(L)}${stated}`,
        String.raw`(?:因此|所以|综上所述|综上|故而|故)\s*[,:]?\s*(?:是|为|应是|应为)?\s*(?:选项)?\s*${open}${list(L)}\s*(?:项|选项)?${stated}`,
      ].map((src) => new RegExp(src, 'gu')),
  },
  {
    name: 'assert_correct',
    build: (L: string) =>
      [
        String.raw`(?:选项)?\s*${list(L, false)}\s*(?:项|选项)?\s*(?:的说法|说法)?\s*(?:也|都|均|亦)?\s*(?:是|为|才是)?\s*(?:正确|对的|对|符合题意|符合要求|最合适|最恰当|最佳)`,
        String.raw`正确(?:的|的是|的选项|选项|的一项|的答案)?\s*(?:是|为|有)\s*[:]?\s*(?:选项)?\s*${open}${list(L)}`,
        String.raw`(?:(?:[Oo]ption|[Cc]hoice)\s+)?${list(L, false)}\s+(?:is|are|would\s+be|seems\s+to\s+be|must\s+be)\s+(?:the\s+)?(?:only\s+)?(?:correct|right|best|true)(?![A-Za-z])`,
      ].map((src) => new RegExp(src, 'gu')),
  },
  {
    name: 'belief',
    build: (L: string) =>
      [
        String.raw`${notNegatedEn}(?<![A-Za-z])(?:[Ii]t['’]s|[Ii]t\s+is|[Ii]t\s+(?:must|should|would|could|might)\s+(?:also\s+)?be|[Ii]\s+(?:think|believe|guess|would\s+say)|[Ii]['’]d\s+say|[Mm]y\s+(?:answer|choice|pick|guess)\s+(?:is|would\s+be|:))\s*:?\s*(?:(?:the\s+)?answer\s+(?:is|would\s+be)\s+)?(?:[Oo]ption\s+|[Cc]hoice\s+)?${open}${list(L)}${stated}`,
        String.raw`(?<!不)(?:我认为|我觉得|我选|应该|应当|可能|大概)\s*(?:是|为|选)\s*(?:选项)?\s*${open}${list(L)}\s*(?:项|选项)?${stated}`,
      ].map((src) => new RegExp(src, 'gu')),
  },
]);

function lettersIn(group: string, L: string): string[] {
  const re = new RegExp(one(L), 'g');
  return [...group.matchAll(re)].flatMap((m) => [...m[0]]);
}

/**
 * Extracts the option a free-text answer commits to.
 * @param output the model's raw answer text.
 * @param letters the item's option letters, upper case, e.g. `ABCD` (2 to 26 letters).
 * @returns `option` with the letter and the deciding pattern; `several` when the deciding tier (or the bare-letter
 *   fallback) names two or more distinct letters (scored wrong); `none` when nothing is found (scored wrong).
 * @example extractOption('A、B两项均不正确，故选D。', 'ABCD') // { kind: 'option', letter: 'D', pattern: 'choose' }
 */
export function extractOption(output: string, letters: string): OptionExtraction {
  if (!/^[A-Z]{1,26}$/.test(letters))
    throw new RangeError(`option letters must be A-Z, got "${letters}"`);
  const text = nfkc(output).replace(/\*\*|__/g, '');
  for (const p of ANSWER_PATTERNS) {
    const found = new Set<string>();
    for (const re of p.build(letters)) {
      for (const m of text.matchAll(re)) {
        for (const l of lettersIn(m.groups?.letters ?? '', letters)) found.add(l);
      }
    }
    if (found.size === 1)
      return { kind: 'option', letter: [...found][0] as string, pattern: p.name };
    if (found.size > 1) return { kind: 'several', letters: [...found].sort(), pattern: p.name };
  }
  const bare = new Set(lettersIn(text, letters));
  if (bare.size === 1)
    return { kind: 'option', letter: [...bare][0] as string, pattern: 'bare_letter' };
  if (bare.size > 1) return { kind: 'several', letters: [...bare].sort(), pattern: 'bare_letter' };
  return { kind: 'none' };
}

/** The option letters for `n` options: `A`, `AB`, ... (1 ≤ n ≤ 26). */
export function optionLetters(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 26)
    throw new RangeError(`option count must be 1..26, got ${n}`);
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, n);
}
