/**
 * @module eval/metrics
 * The deterministic metrics of Metrics Evaluation (docs/scoring.md §2). Pure: no I/O, no clock, no randomness.
 */
export * from './accuracy.ts';
export * from './completeness.ts';
export * from './gaokao.ts';
export * from './knowledge.ts';
export * from './numeric.ts';
export * from './options.ts';
export * from './span.ts';
export * from './stability.ts';
