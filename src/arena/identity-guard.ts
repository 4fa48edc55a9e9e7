/**
 * @module arena/identity-guard
 * Refuses answers that would reveal which model wrote them (ARCHITECTURE.md "Arena"; FastChat's
 * `clean_battle_data.py` drops battles whose text mentions an identity word for the same reason). Pure.
 *
 * Three sources of terms, all matched case-insensitively:
 * 1. `arena.identity_guard.words` from config (vendors, products, "meta ai", 智谱 …);
 * 2. `arena.identity_guard.patterns`, regular expressions compiled with flags `iu`;
 * 3. the two battle models' own names and the vendor tokens split from them: `gpt-3.5-turbo-0301` → `gpt`,
 *    `OpenHermes-2.5-Mistral-7B` → `openhermes`, `mistral`; `chatglm2-6b` → `chatglm`; `gpt4_1106_preview` → `gpt`.
 *    Generic parts (`turbo`, `preview`, `instruct`, `chat`, sizes like `7b`, versions) are not tokens.
 *
 * Boundaries (a documented choice): a Latin/digit term must not be glued to a letter or digit on its left and not
 * to a letter on its right, so `claude` matches "Claude", "Claude2" and "Claude's" but not "Claudette", and `gpt`
 * matches "GPT-4" and "GPT4" but not "ChatGPTesque"; digits may follow because model versions do. Terms in
 * scripts without spaces (Han, kana …) match anywhere. We knowingly refuse some innocent answers: "mistral winds"
 * for a Mistral-based model, "alpaca wool" for alpaca-7b, "a spark plug" (config word `spark`). A refused pair
 * is skipped, never edited: rewriting answers would bias the vote.
 */

/** Identity-guard configuration (`arena.identity_guard`). */
export interface IdentityGuardConfig {
  readonly words: readonly string[];
  readonly patterns: readonly string[];
}

/** Why an answer was refused. */
export interface IdentityHit {
  /** `word`, `pattern` or `model` (a battle model's name or vendor token). */
  readonly kind: 'word' | 'pattern' | 'model';
  /** The configured word / pattern / model token that matched. */
  readonly term: string;
  /** The matched text. */
  readonly match: string;
}

/** Name parts that say nothing about the vendor. */
const GENERIC_PARTS = new Set([
  'turbo',
  'preview',
  'instruct',
  'chat',
  'base',
  'latest',
  'mini',
  'large',
  'small',
  'medium',
  'pro',
  'plus',
  'ultra',
  'hf',
  'dpo',
  'sft',
  'rlhf',
  'it',
  'model',
  'the',
  'and',
]);

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const isWordChar = (ch: string | undefined): boolean =>
  ch !== undefined && /[\p{Script=Latin}\p{N}_]/u.test(ch);

/** A regex for one literal term with the boundaries described in the module doc. */
export function termRegex(term: string): RegExp {
  const t = term.trim();
  const chars = [...t];
  const pre = isWordChar(chars[0]) ? '(?<![\\p{L}\\p{N}])' : '';
  const post = isWordChar(chars[chars.length - 1]) ? '(?!\\p{L})' : '';
  return new RegExp(`${pre}${escapeRe(t)}${post}`, 'iu');
}

/**
 * The identity tokens of a model name: the whole name, plus each alphabetic part of ≥ 3 letters that is not a
 * generic word (trailing digits dropped: `chatglm2` → `chatglm`, `gpt4` → `gpt`).
 * @example modelTokens('gpt-3.5-turbo-0301') // ['gpt-3.5-turbo-0301', 'gpt']
 */
export function modelTokens(name: string): string[] {
  const out = new Set<string>([name.toLowerCase()]);
  for (const part of name.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    const letters = part.replace(/\d+$/u, '');
    if (!/^\p{L}+$/u.test(letters)) continue; // sizes and versions: 7b, 0301, 3.5
    if ([...letters].length < 3 || GENERIC_PARTS.has(letters)) continue;
    out.add(letters);
  }
  return [...out];
}

/** A compiled guard; build once per configuration, call {@link IdentityGuard.check} per answer. */
export class IdentityGuard {
  readonly #words: { term: string; re: RegExp }[];
  readonly #patterns: { term: string; re: RegExp }[];
  readonly #modelCache = new Map<string, { term: string; re: RegExp }[]>();

  constructor(config: IdentityGuardConfig) {
    this.#words = config.words
      .filter((w) => w.trim() !== '')
      .map((w) => ({ term: w, re: termRegex(w) }));
    this.#patterns = config.patterns.map((p) => ({ term: p, re: new RegExp(p, 'iu') }));
  }

  #modelTerms(name: string): { term: string; re: RegExp }[] {
    let terms = this.#modelCache.get(name);
    if (!terms) {
      terms = modelTokens(name).map((t) => ({ term: t, re: termRegex(t) }));
      this.#modelCache.set(name, terms);
    }
    return terms;
  }

  /**
   * The first identity hit in `text`, or undefined when the text reveals nothing.
   * @param models the names of both models of the battle (each answer is checked against both).
   */
  check(text: string, models: readonly string[]): IdentityHit | undefined {
    for (const m of models) {
      for (const { term, re } of this.#modelTerms(m)) {
        const hit = re.exec(text);
        if (hit) return { kind: 'model', term, match: hit[0] };
      }
    }
    for (const { term, re } of this.#words) {
      const hit = re.exec(text);
      if (hit) return { kind: 'word', term, match: hit[0] };
    }
    for (const { term, re } of this.#patterns) {
      const hit = re.exec(text);
      if (hit) return { kind: 'pattern', term, match: hit[0] };
    }
    return undefined;
  }

  /** Checks both answers of a pair; the first hit with the side it was found on. */
  checkPair(
    left: string,
    right: string,
    models: readonly string[],
  ): (IdentityHit & { readonly side: 'left' | 'right' }) | undefined {
    const l = this.check(left, models);
    if (l) return { ...l, side: 'left' };
    const r = this.check(right, models);
    return r ? { ...r, side: 'right' } : undefined;
  }
}
