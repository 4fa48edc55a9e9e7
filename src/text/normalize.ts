/**
 * @module text/normalize
 * Text normalisation for scoring Chinese (and mixed Chinese/Latin) answers: Unicode NFKC, a map of the CJK
 * punctuation marks NFKC leaves alone, the `default` answer normalisation and the CMRC 2018 official punctuation
 * list (docs/scoring.md §2). Pure.
 */

/** Unicode NFKC: folds full-width Latin letters and digits (`Ｂ` → `B`), `：，！（）％～` and U+3000. */
export function nfkc(s: string): string {
  return s.normalize('NFKC');
}

/**
 * CJK punctuation marks that NFKC does not fold, mapped to their closest ASCII counterparts. Used to compare
 * answers written with either set of marks (e.g. `北京。` and `北京.`).
 */
export const CJK_PUNCTUATION_MAP: Readonly<Record<string, string>> = Object.freeze({
  '。': '.',
  '｡': '.',
  '、': ',',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
  '《': '<',
  '》': '>',
  '〈': '<',
  '〉': '>',
  '【': '[',
  '】': ']',
  '〔': '[',
  '〕': ']',
  '「': '"',
  '」': '"',
  '『': '"',
  '』': '"',
  '—': '-',
  '–': '-',
  '·': '.',
  '・': '.',
});

const CJK_PUNCT_RE = new RegExp(`[${Object.keys(CJK_PUNCTUATION_MAP).join('')}]`, 'gu');

/** NFKC, then the CJK punctuation map: every mark ends up in its ASCII form. */
export function foldPunctuation(s: string): string {
  return nfkc(s).replace(CJK_PUNCT_RE, (c) => CJK_PUNCTUATION_MAP[c] ?? c);
}

/**
 * The `default` profile's answer normalisation (docs/scoring.md §2): NFKC, lower case, remove every Unicode
 * punctuation mark and symbol (`\p{P}`, `\p{S}`; `～` and `+` are symbols), collapse runs of white space to one
 * space and trim. Idempotent: `normalizeAnswer(normalizeAnswer(x)) === normalizeAnswer(x)`.
 * @example normalizeAnswer('Ｂｅｉｊｉｎｇ，北京。') // 'beijing北京'
 */
export function normalizeAnswer(s: string): string {
  return nfkc(s)
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * The punctuation list of CMRC 2018's official evaluation script (`cmrc2018_evaluate.py`, v5), in its order.
 * `……` is one two-character entry, so a per-character check never matches it (a lone `…` is kept); ASCII
 * `, . ! ? ( ) ' "` and `‘` are not in the list and so are never removed. Reproduced as is (quirks included) so
 * our `cmrc2018` profile gives the published figures.
 */
export const CMRC2018_PUNCTUATION: readonly string[] = Object.freeze([
  '-',
  ':',
  '_',
  '*',
  '^',
  '/',
  '\\',
  '~',
  '`',
  '+',
  '=',
  '，',
  '。',
  '：',
  '？',
  '！',
  '“',
  '”',
  '；',
  '’',
  '《',
  '》',
  '……',
  '·',
  '、',
  '「',
  '」',
  '（',
  '）',
  '－',
  '～',
  '『',
  '』',
]);

const CMRC_PUNCT_SET: ReadonlySet<string> = new Set(CMRC2018_PUNCTUATION);

/** True when the single character `c` is in the CMRC 2018 punctuation list. */
export function isCmrcPunctuation(c: string): boolean {
  return CMRC_PUNCT_SET.has(c);
}

/**
 * CMRC 2018's answer normalisation for exact match: lower case, trim (Python `str.strip()` white space), then
 * drop every character of {@link CMRC2018_PUNCTUATION}. No NFKC: the official script does none.
 */
export function cmrcNormalize(s: string): string {
  let out = '';
  for (const c of pyStrip(s.toLowerCase())) if (!CMRC_PUNCT_SET.has(c)) out += c;
  return out;
}

/** Python's `str.isspace()` characters (category Zs and the bidi classes WS, B, S), as a regex class body. */
export const PY_SPACE_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_SPACE = new RegExp(`[${PY_SPACE_CLASS}]`, 'u');

/**
 * Python's `str.strip()` with no argument: removes leading and trailing characters of `str.isspace()` (categories
 * Zs and bidi classes WS, B, S). Unlike JavaScript's `trim()` it keeps U+FEFF (a byte-order mark is not white space
 * to Python) and removes U+001C–U+001F and U+0085.
 */
export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPyspace(s.charCodeAt(a))) a++;
  while (b > a && isPyspace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Python's `str.isspace()` for one UTF-16 unit (every such character is in the BMP). */
function isPyspace(code: number): boolean {
  return PY_SPACE.test(String.fromCharCode(code));
}
