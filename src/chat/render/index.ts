/**
 * @module chat/render
 * Platform-neutral rendering helpers shared by the chat adapters (pure functions, no SDK imports).
 */

export { cutBody, cutNote, type Fitted, fitContent, fullText } from './fit.ts';
export { fromMarkdownLiteral, markdownLiteral } from './markdown.ts';
export { splitFenced, splitText, splitTransformed, truncate } from './split.ts';
export { charWidth, displayWidth, renderTable } from './table.ts';
