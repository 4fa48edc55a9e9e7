/**
 * @module text/treebank
 * NLTK's word tokenizer (`NLTKWordTokenizer` in `nltk/tokenize/destructive.py`, the "improved Treebank" rules that
 * `nltk.word_tokenize` applies to each sentence), ported rule by rule with Python `re` semantics: `\w`, `\d`, `\s`
 * and `\b` are Unicode-aware as in Python 3 (`str.isalnum()`, Nd, `str.isspace()`), and `$` also matches before
 * a final line break. No sentence split is done first (docs/scoring.md §2 says why that does not change CMRC 2018
 * scores). Pure.
 */
import { PY_SPACE_CLASS } from './normalize.ts';

/** Python 3 `\w` on `str`: letters, numbers (`str.isalnum()`) and `_`. */
const W = '[\\p{L}\\p{N}_]';
/** Python `\b` on `str`, with {@link W} as the word class. */
const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
/** Python `$` without MULTILINE: the end, or just before a line break that ends the text. */
const END = '(?=\\n?$)';
const S = `[${PY_SPACE_CLASS}]`;

type Rule = readonly [RegExp, string];
const rx = (source: string, flags = 'gu') => new RegExp(source, flags);

const STARTING_QUOTES: readonly Rule[] = [
  [rx('([«“‘„]|[`]+)'), ' $1 '],
  [rx('^"', 'u'), '``'],
  [rx('(``)'), ' $1 '],
  [rx('([ (\\[{<])("|\'{2})'), '$1 `` '],
  [rx(`(')(?!re|ve|ll|m|t|s|d|n)(${W})${B}`, 'giu'), '$1 $2'],
];

const PUNCTUATION: readonly Rule[] = [
  [rx(`([^.])(\\.)([\\])}>"'»”’ ]*)${S}*${END}`), '$1 $2 $3 '],
  [rx('([:,])([^\\p{Nd}])'), ' $1 $2'],
  [rx(`([:,])${END}`), ' $1 '],
  [rx('\\.{2,}'), ' $& '],
  [rx('[;@#$%&]'), ' $& '],
  [rx(`([^.])(\\.)([\\])}>"']*)${S}*${END}`), '$1 $2$3 '],
  [rx('[?!]'), ' $& '],
  [rx("([^'])' "), "$1 ' "],
  [rx('[*]'), ' $& '],
];

const PARENS_BRACKETS: Rule = [rx('[\\]\\[(){}<>]'), ' $& '];
const DOUBLE_DASHES: Rule = [rx('--'), ' -- '];

const ENDING_QUOTES: readonly Rule[] = [
  [rx('([»”’])'), ' $1 '],
  [rx("''"), " '' "],
  [rx('"'), " '' "],
  [rx("([^' ])('[sS]|'[mM]|'[dD]|') "), '$1 $2 '],
  [rx("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), '$1 $2 '],
];

/** Robert MacIntyre's contractions as NLTK lists them (CONTRACTIONS2 then CONTRACTIONS3), each split ` \1 \2 `. */
const CONTRACTIONS: readonly RegExp[] = [
  ...['can)(not', "d)('ye", 'gim)(me', 'gon)(na', 'got)(ta', 'lem)(me', "more)('n"].map((p) =>
    rx(`${B}(${p})${B}`, 'giu'),
  ),
  rx(`${B}(wan)(na)(?=${S})`, 'giu'),
  rx(` ('t)(is)${B}`, 'giu'),
  rx(` ('t)(was)${B}`, 'giu'),
];

const SPLIT = rx(`${S}+`);

/**
 * `NLTKWordTokenizer().tokenize(text)` (NLTK `destructive.py`, default options: no PTB bracket conversion): the
 * starting-quote, punctuation, bracket, double-dash, ending-quote and contraction rules in NLTK's order, then a
 * split on white space.
 * @example treebankWordTokenize("J.K. Rowling's 28℃ .NET don't.") // ['J.K.', 'Rowling', "'s", '28℃', '.NET', 'do', "n't", '.']
 */
export function treebankWordTokenize(text: string): string[] {
  let t = text;
  for (const [re, sub] of STARTING_QUOTES) t = t.replace(re, sub);
  for (const [re, sub] of PUNCTUATION) t = t.replace(re, sub);
  t = t.replace(PARENS_BRACKETS[0], PARENS_BRACKETS[1]);
  t = t.replace(DOUBLE_DASHES[0], DOUBLE_DASHES[1]);
  t = ` ${t} `;
  for (const [re, sub] of ENDING_QUOTES) t = t.replace(re, sub);
  for (const re of CONTRACTIONS) t = t.replace(re, ' $1 $2 ');
  return t.split(SPLIT).filter((w) => w !== '');
}
