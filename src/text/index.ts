/**
 * @module text
 * Normalisation (NFKC, CJK punctuation), mixed tokenisation (per Han character + Latin/digit words) and NLTK's
 * Treebank word tokenizer. Pure.
 */
export * from './normalize.ts';
export * from './tokenize.ts';
export * from './treebank.ts';
