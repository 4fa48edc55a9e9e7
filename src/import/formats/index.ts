/**
 * @module import/formats
 * Parsers of outside formats, pure: text in, rows or `file:line: reason` out.
 */
export type { ArenaLineKind, ArenaLineParser } from './arena-battles.ts';
export { createArenaLineParser, parseArenaLines } from './arena-battles.ts';
export * from './gaokao.ts';
export * from './gaokao-human.ts';
export * from './json-locate.ts';
export * from './json-reader.ts';
export * from './recorded-outputs.ts';
export * from './sniff.ts';
