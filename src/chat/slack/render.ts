/**
 * @module chat/slack/render
 * MessageContent → Slack Block Kit messages (plain JSON, no Bolt types), split so that every block respects
 * Slack's limits (3,000 chars per section/context text, 150 per header) and every message has ≤ 50 blocks.
 * The first message is the primary one (it carries the reactions); the rest become `partIds`.
 */
import type { MessageContent } from '../port.ts';
import {
  fromMarkdownLiteral,
  renderTable,
  splitFenced,
  splitTransformed,
  truncate,
} from '../render/index.ts';

/** Slack's documented limits. */
export const SLACK_LIMITS = {
  sectionText: 3000,
  headerText: 150,
  blocksPerMessage: 50,
  /** Top-level `text` (notification / fallback); Slack truncates beyond 40,000, we keep it short. */
  fallbackText: 3000,
} as const;

/** A Block Kit block as JSON (header, section, context). */
export type SlackBlockJson =
  | { type: 'header'; text: { type: 'plain_text'; text: string; emoji: true } }
  | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
  | { type: 'context'; elements: { type: 'mrkdwn'; text: string }[] };

/** One message to post or update. */
export interface SlackMessageJson {
  text: string;
  blocks: SlackBlockJson[];
}

/**
 * Escapes the three characters Slack's mrkdwn reserves, so text shows as typed and cannot ping: `<!channel>`,
 * `<!here>`, `<@U…>` and `<!subteam^…>` become `&lt;!channel&gt;` and so on (Slack API docs, "Formatting text
 * for app surfaces": escaping text).
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
}

/**
 * Prose of a message for mrkdwn: the Markdown literals of names turned back (Slack has no backslash escape, so
 * `\*` would show its backslash), then {@link escapeMrkdwn}. Slack cannot escape `*`, `_`, `~`: a name written
 * `*x*` shows bold there.
 */
function prose(text: string): string {
  return escapeMrkdwn(fromMarkdownLiteral(text));
}

const SLACK_ENTITIES: Readonly<Record<string, string>> = { '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/**
 * Decodes the entities Slack writes for `<`, `>` and `&` in the text it sends (slash-command `text`, message
 * events), once: `Is 3 &lt; 5 &amp;&amp; 5 &gt; 4` → `Is 3 < 5 && 5 > 4`, and `&amp;lt;` → `&lt;` (what the
 * person typed). Slack's own markup (`<@U…>`, `<https://…|label>`) is left as it is.
 */
export function decodeSlackText(text: string): string {
  return text.replace(/&(?:lt|gt|amp);/gu, (e) => SLACK_ENTITIES[e] ?? e);
}

/** The top-level `text` (notification and fallback): escaped like blocks, at most `max` characters. */
function fallbackText(text: string, max: number): string {
  const t = truncate(escapeMrkdwn(text), max);
  // A cut inside an entity would leave e.g. "&am…": drop the partial entity.
  return t.endsWith('…') ? t.replace(/&[a-z]{0,3}…$/u, '…') : t;
}

/** Section blocks for Markdown text: split fence-aware, so every block that holds code is fenced (8.5). */
function sections(text: string, transform: (c: string) => string): SlackBlockJson[] {
  return splitFenced(text, SLACK_LIMITS.sectionText, transform).map((t) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: t },
  }));
}

/**
 * Renders content as Block Kit: header (title), section(s) for the summary text, a bold heading + section(s)
 * per section, the table in code-block sections, the footer as a context block; then packs ≤ 50 blocks per
 * message. Every message carries the (truncated) summary as its fallback `text`.
 */
export function renderSlackMessages(content: MessageContent): SlackMessageJson[] {
  const L = SLACK_LIMITS;
  const blocks: SlackBlockJson[] = [];
  if (content.title) {
    blocks.push({
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncate(fromMarkdownLiteral(content.title), L.headerText),
        emoji: true,
      },
    });
  }
  if (content.text) blocks.push(...sections(content.text, prose));
  for (const s of content.sections ?? []) {
    if (s.heading) {
      blocks.push({
        type: 'section',
        text: { type: 'mrkdwn', text: `*${prose(truncate(s.heading, 2900))}*` },
      });
    }
    if (s.body) blocks.push(...sections(s.body, prose));
  }
  if (content.table) {
    // Every part of the table is its own code block.
    blocks.push(
      ...splitTransformed(
        renderTable(content.table),
        L.sectionText,
        (c) => `\`\`\`\n${escapeMrkdwn(c)}\n\`\`\``,
      ).map((t): SlackBlockJson => ({ type: 'section', text: { type: 'mrkdwn', text: t } })),
    );
  }
  if (content.footer) {
    const footer = splitTransformed(content.footer, L.sectionText, prose);
    const text =
      footer.length > 1 ? `${truncate(footer[0] ?? '', L.sectionText - 1)}…` : (footer[0] ?? '');
    if (text) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
  }
  const fallback = fallbackText(
    fromMarkdownLiteral(content.text || content.title || ' '),
    L.fallbackText,
  );
  const messages: SlackMessageJson[] = [];
  for (let i = 0; i < blocks.length; i += L.blocksPerMessage) {
    messages.push({ text: fallback, blocks: blocks.slice(i, i + L.blocksPerMessage) });
  }
  if (messages.length === 0) messages.push({ text: fallback, blocks: [] });
  return messages;
}
