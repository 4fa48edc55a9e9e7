/**
 * @module text
 * Normalisation (NFKC, CJK punctuation) and mixed tokenisation (per Han character + Latin/digit words). Pure.
 */
export * from './normalize.ts';
export * from './tokenize.ts';
