/**
 * @module arena/identity-guard
 * Refuses answers that would reveal which model wrote them (docs/architecture.md; FastChat's
 * `clean_battle_data.py` drops battles whose text mentions an identity word for the same reason). Pure.
 *
 * Three sources of terms, all matched case-insensitively:
 * 1. `arena.identity_guard.words` from config (vendors, products, "meta ai", 智谱 …);
 * 2. `arena.identity_guard.patterns`, regular expressions compiled with flags `iu`;
 * 3. the two battle models' own names and the vendor tokens split from them: `gpt-3.5-turbo-0301` → `gpt`,
 *    `OpenHermes-2.5-Mistral-7B` → `openhermes`, `mistral`; `chatglm2-6b` → `chatglm`; `gpt4_1106_preview` → `gpt`.
 *    Generic parts (`turbo`, `preview`, `instruct`, `chat`, sizes like `7b`, versions) are not tokens.
 *
 * 4. the Chinese names of those models' products ({@link CHINESE_NAMES}: `qwen` → 通义千问, 通义, 千问; `ernie` → 文心;
 *    `chatglm` → 智谱清言 …), so a Qwen model calling itself 通义千问 is refused as surely as one saying "Qwen".
 *
 * Text and terms are compared after {@link normalizeForGuard}: Unicode NFKC (full-width Latin letters, digits
 * and punctuation become ASCII: `ＣｈａｔＧＰＴ，` → `ChatGPT,`), format characters removed (zero-width spaces and
 * joiners, soft hyphens, bidi marks, which would otherwise split a name invisibly), lower case.
 *
 * Boundaries (a documented choice): a Latin/digit term must not be glued to a letter of a script written with
 * spaces between words (Latin, Greek, Cyrillic) or a digit on its left, and not to such a letter on its right, so
 * `claude` matches "Claude", "Claude2" and "Claude's" but not "Claudette", and `gpt` matches "GPT-4" and "GPT4"
 * but not "ChatGPTesque"; digits may follow because model versions do. Letters of scripts written without spaces
 * (Han, kana, Hangul with its particles, Thai …) are no boundary: `我是ChatGPT，` and `Claudeです` are refused like
 * `I am ChatGPT,`. Terms in those scripts match anywhere. We knowingly refuse some innocent answers: "mistral
 * winds" for a Mistral-based model, "alpaca wool" / 羊驼毛 for alpaca-7b, 海纳百川 (config word 百川), 星火燎原
 * for a Spark model. A refused pair is skipped, never edited: rewriting answers would bias the vote.
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
  /** The matched text (in its {@link normalizeForGuard} form). */
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

/**
 * Chinese names of models and their products, keyed by the vendor token of {@link modelTokens}: refused only in
 * battles of such a model (like the Latin token). Vendor names that are also ordinary words (腾讯, 谷歌, 华为)
 * are left to the configured patterns ("由谷歌开发…"), as "google" is.
 */
export const CHINESE_NAMES: Readonly<Record<string, readonly string[]>> = {
  qwen: ['通义千问', '通义', '千问'],
  ernie: ['文心一言', '文心'],
  chatglm: ['智谱清言', '智谱', '清言'],
  glm: ['智谱清言', '智谱', '清言'],
  spark: ['讯飞星火', '星火'],
  baichuan: ['百川'],
  deepseek: ['深度求索'],
  moonshot: ['月之暗面'],
  kimi: ['月之暗面'],
  doubao: ['豆包'],
  hunyuan: ['混元'],
  internlm: ['书生', '浦语'],
  llama: ['羊驼'],
  alpaca: ['羊驼'],
  vicuna: ['小羊驼', '羊驼'],
  gemini: ['双子座'],
  minimax: ['稀宇'],
};

/**
 * The form text and terms are compared in: NFKC (full-width letters, digits and punctuation → ASCII, U+3000 →
 * space), without format characters (\p{Cf}: zero-width space and joiners, soft hyphen, bidi marks, BOM),
 * lower case. Idempotent.
 */
export function normalizeForGuard(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .toLowerCase();
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const isWordChar = (ch: string | undefined): boolean =>
  ch !== undefined && /[\p{Script=Latin}\p{N}_]/u.test(ch);
/** Letters of scripts written with spaces between words: a Latin term glued to one is part of a longer word. */
const SPACED_LETTER = '\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}';

/**
 * A regex for one literal term with the boundaries described in the module doc; match it against
 * {@link normalizeForGuard}'d text (the term is normalised the same way).
 */
export function termRegex(term: string): RegExp {
  const t = normalizeForGuard(term.trim());
  const chars = [...t];
  const pre = isWordChar(chars[0]) ? `(?<![${SPACED_LETTER}\\p{N}])` : '';
  const post = isWordChar(chars[chars.length - 1]) ? `(?![${SPACED_LETTER}])` : '';
  return new RegExp(`${pre}${escapeRe(t)}${post}`, 'iu');
}

/**
 * The identity tokens of a model name: the whole name, plus each alphabetic part of ≥ 3 letters that is not a
 * generic word (trailing digits dropped: `chatglm2` → `chatglm`, `gpt4` → `gpt`), plus the Chinese names of
 * {@link CHINESE_NAMES} for those parts. The name is NFKC-normalised first.
 * @example modelTokens('gpt-3.5-turbo-0301') // ['gpt-3.5-turbo-0301', 'gpt']
 * @example modelTokens('qwen-14b-chat') // ['qwen-14b-chat', 'qwen', '通义千问', '通义', '千问']
 */
export function modelTokens(name: string): string[] {
  const norm = normalizeForGuard(name);
  const out = new Set<string>([norm]);
  for (const part of norm.split(/[^\p{L}\p{N}]+/u)) {
    const letters = part.replace(/\d+$/u, '');
    if (!/^\p{L}+$/u.test(letters)) continue; // sizes and versions: 7b, 0301, 3.5
    if ([...letters].length < 3 || GENERIC_PARTS.has(letters)) continue;
    out.add(letters);
  }
  for (const token of [...out]) for (const zh of CHINESE_NAMES[token] ?? []) out.add(zh);
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
    // Patterns are matched against normalised text, so they are normalised too (full-width → ASCII).
    this.#patterns = config.patterns.map((p) => ({
      term: p,
      re: new RegExp(p.normalize('NFKC'), 'iu'),
    }));
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
  check(raw: string, models: readonly string[]): IdentityHit | undefined {
    const text = normalizeForGuard(raw);
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
