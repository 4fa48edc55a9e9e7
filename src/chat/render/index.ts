/**
 * @module chat/render
 * Platform-neutral rendering helpers shared by the chat adapters (pure functions, no SDK imports).
 */
export { splitFenced, splitText, splitTransformed, truncate } from './split.ts';
export { charWidth, displayWidth, renderTable } from './table.ts';
