/**
 * @module eval/metrics/gaokao
 * GAOKAO-Bench's objective scoring (Zhang et al., "Evaluating the Performance of Large Language Models on GAOKAO
 * Benchmark", 2023; the scorer `OBJ_score_evaluation.py` and `extract_choice_answer` of OpenLMLab/GAOKAO-Bench),
 * reproduced as that scorer applies it, quirks included, as the `gaokao` profile (docs/scoring.md §2):
 * - the answer is extracted from the raw output by the question type of the item's file (keyword);
 * - an extracted list whose length differs from the standard answer's scores 0 for the whole item;
 * - each equal sub-answer earns the item's `score`;
 * - Physics (multi-select, the only `multi_choice` keyword): exact = full points, otherwise half points when every
 *   extracted letter is among the right ones (a strict subset, repeats allowed, as the scorer checks letter by
 *   letter), else 0. The scorer hard-codes 6 and 3; every Physics item is worth 6, so `score` and `score / 2` are
 *   the same numbers.
 * Scoring rate = Σ earned / Σ (len(standard answer) × score). Pure.
 */

/** GAOKAO-Bench objective question types (its `Obj_Prompt.json` `type`). */
export const GAOKAO_QUESTION_TYPES = [
  'single_choice',
  'multi_question_choice',
  'multi_choice',
  'five_out_of_seven',
] as const;
/** One question type. */
export type GaokaoQuestionType = (typeof GAOKAO_QUESTION_TYPES)[number];

/** GAOKAO-Bench's ten published subjects and the keyword files each is computed from. */
export const GAOKAO_SUBJECTS = {
  chinese: ['2010-2022_Chinese_Modern_Lit', '2010-2022_Chinese_Lang_and_Usage_MCQs'],
  english: [
    '2010-2013_English_MCQs',
    '2010-2022_English_Fill_in_Blanks',
    '2012-2022_English_Cloze_Test',
    '2010-2022_English_Reading_Comp',
  ],
  math_sci: ['2010-2022_Math_I_MCQs'],
  math_hum: ['2010-2022_Math_II_MCQs'],
  physics: ['2010-2022_Physics_MCQs'],
  chemistry: ['2010-2022_Chemistry_MCQs'],
  biology: ['2010-2022_Biology_MCQs'],
  politics: ['2010-2022_Political_Science_MCQs'],
  history: ['2010-2022_History_MCQs'],
  geography: ['2010-2022_Geography_MCQs'],
} as const satisfies Record<string, readonly string[]>;
/** One subject. */
export type GaokaoSubject = keyof typeof GAOKAO_SUBJECTS;

/** The question type of each objective keyword (GAOKAO-Bench `Obj_Prompt.json`). */
export const GAOKAO_KEYWORD_TYPES: Readonly<Record<string, GaokaoQuestionType>> = Object.freeze({
  '2010-2022_Math_II_MCQs': 'single_choice',
  '2010-2022_Math_I_MCQs': 'single_choice',
  '2010-2022_History_MCQs': 'single_choice',
  '2010-2022_Biology_MCQs': 'single_choice',
  '2010-2022_Political_Science_MCQs': 'single_choice',
  '2010-2022_Physics_MCQs': 'multi_choice',
  '2010-2022_Chemistry_MCQs': 'single_choice',
  '2010-2013_English_MCQs': 'single_choice',
  '2010-2022_Chinese_Modern_Lit': 'multi_question_choice',
  '2010-2022_English_Fill_in_Blanks': 'multi_question_choice',
  '2012-2022_English_Cloze_Test': 'five_out_of_seven',
  '2010-2022_Geography_MCQs': 'multi_question_choice',
  '2010-2022_English_Reading_Comp': 'multi_question_choice',
  '2010-2022_Chinese_Lang_and_Usage_MCQs': 'multi_question_choice',
});

/** The subject a keyword belongs to, or undefined for an unknown keyword. */
export function gaokaoSubjectOf(keyword: string): GaokaoSubject | undefined {
  for (const [subject, keywords] of Object.entries(GAOKAO_SUBJECTS)) {
    if ((keywords as readonly string[]).includes(keyword)) return subject as GaokaoSubject;
  }
  return undefined;
}

const matchesOf = (s: string, re: RegExp): string[] => [...s.matchAll(re)].map((m) => m[0]);

/**
 * Extracts the answer list from a raw output as GAOKAO-Bench does for the question type:
 * - `single_choice`: the last letter A–D of the output;
 * - `multi_question_choice` (n sub-questions): the letters after `【答案】` (with optional `:`/`：`) when there are
 *   exactly n such markers, else the first n capital letters A–Z anywhere (fewer if there are fewer);
 * - `multi_choice`: white space removed; if `【答案】` occurs after the start, every A–D from it on, concatenated,
 *   else every A–D of the last 10 characters; one string such as `BD` (no entry when empty);
 * - `five_out_of_seven`: the first five letters A–G.
 * @param n the number of sub-questions (length of the standard answer).
 */
export function extractGaokaoAnswer(output: string, type: GaokaoQuestionType, n: number): string[] {
  switch (type) {
    case 'single_choice': {
      const m = /[A-D]/.exec([...output].reverse().join(''));
      return m ? [m[0]] : [];
    }
    case 'multi_question_choice': {
      const marked = matchesOf(output, /【答案】\s*[:：]*\s*[A-Z]/gu);
      if (marked.length === n) return marked.map((t) => (t.match(/[A-Z]/) as RegExpMatchArray)[0]);
      return matchesOf(output, /[A-Z]/g).slice(0, n);
    }
    case 'multi_choice': {
      const content = output.replace(/\s+/gu, '');
      const at = content.indexOf('【答案】');
      const tail = at > 0 ? content.slice(at) : content.slice(-10);
      const answer = matchesOf(tail, /[A-D]/g).join('');
      return answer === '' ? [] : [answer];
    }
    case 'five_out_of_seven':
      return matchesOf(output, /[A-G]/g).slice(0, 5);
  }
}

/** The GAOKAO-Bench score of one item. */
export interface GaokaoItemScore {
  readonly earned: number;
  readonly possible: number;
  readonly extracted: readonly string[];
}

/**
 * Scores an extracted answer list against the standard answer (see the module doc for the rules).
 * @param points the item's `score` (points per sub-question), > 0.
 */
export function scoreGaokaoAnswer(
  standard: readonly string[],
  extracted: readonly string[],
  points: number,
  type: GaokaoQuestionType,
): GaokaoItemScore {
  const possible = standard.length * points;
  if (extracted.length !== standard.length) return { earned: 0, possible, extracted };
  let earned = 0;
  standard.forEach((gold, j) => {
    const got = extracted[j] as string;
    if (got === gold) earned += points;
    else if (type === 'multi_choice' && [...got].every((c) => gold.includes(c)))
      earned += points / 2;
  });
  return { earned, possible, extracted };
}

/** Extracts and scores a raw output in one step (`gaokao` profile). */
export function scoreGaokaoOutput(
  output: string,
  standard: readonly string[],
  points: number,
  type: GaokaoQuestionType,
): GaokaoItemScore {
  return scoreGaokaoAnswer(
    standard,
    extractGaokaoAnswer(output, type, standard.length),
    points,
    type,
  );
}
