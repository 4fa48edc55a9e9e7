/**
 * @module chat/render/markdown
 * Outside text (model names, suite and dataset names) inside a message's Markdown. The text fields of
 * `MessageContent` (text, title, section headings and bodies, footer) are Markdown as Discord reads it; a name
 * put there through {@link markdownLiteral} shows as written (`*x*` stays `*x*`, not bold). Places that show
 * those fields without Markdown (Discord embed footers, Slack's mrkdwn, which has no backslash escape, the
 * terminal) turn them back with {@link fromMarkdownLiteral}. Tables are code blocks and take names as they are.
 * Pure.
 */

/**
 * The characters Discord's Markdown gives a meaning to inside a line: emphasis `* _`, strike `~`, code `` ` ``,
 * spoilers `|`, masked links `[ ]`, mentions and timestamps `< >`, and the backslash itself. (`#`, `>`, `-` and
 * `1.` only mean something at the start of a line, where a name never stands.)
 */
const SPECIAL = /[\\*_~`|[\]<>]/gu;
const ESCAPED = /\\([\\*_~`|[\]<>])/gu;

/**
 * `s` as a Markdown literal: each of `\ * _ ~ ` | [ ] < >` gets a backslash (CommonMark §2.4 backslash escapes,
 * which Discord honours).
 * @example markdownLiteral('*GPT* 3.5 (16k)') // '\\*GPT\\* 3.5 (16k)'
 */
export function markdownLiteral(s: string): string {
  return s.replace(SPECIAL, '\\$&');
}

/**
 * Undoes {@link markdownLiteral} (and any backslash escape of those characters) for a place that shows text
 * without Markdown.
 * @example fromMarkdownLiteral('\\*GPT\\* 3.5 (16k)') // '*GPT* 3.5 (16k)'
 */
export function fromMarkdownLiteral(s: string): string {
  return s.replace(ESCAPED, '$1');
}
