/**
 * @module chat/slack/render
 * MessageContent → Slack Block Kit messages (plain JSON, no Bolt types), split so that every block respects
 * Slack's limits (3,000 chars per section/context text, 150 per header) and every message has ≤ 50 blocks.
 * The first message is the primary one (it carries the reactions); the rest become `partIds`.
 */
import { t } from '../../i18n/index.ts';
import type { MessageContent } from '../port.ts';
import {
  cutNote,
  type Fitted,
  fitContent,
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
  /**
   * Text characters summed over every block of one message. Slack refuses more with `msg_blocks_too_long`; it
   * does not document the limit, which lies near 12,000 (README "Long battles"), so messages are packed to
   * 11,000 to leave room for what Slack counts beyond block text.
   */
  blockText: 11_000,
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

/** The text characters of one block, as Slack sums them for `msg_blocks_too_long`. */
export function blockTextLength(b: SlackBlockJson): number {
  return b.type === 'context'
    ? b.elements.reduce((n, e) => n + e.text.length, 0)
    : b.text.text.length;
}

/** The header, summary, sections and table of `content` as blocks (no footer), and the footer block. */
function contentBlocks(content: MessageContent): {
  head: SlackBlockJson[];
  body: SlackBlockJson[];
  footer?: SlackBlockJson;
} {
  const L = SLACK_LIMITS;
  const head: SlackBlockJson[] = [];
  if (content.title) {
    head.push({
      type: 'header',
      text: {
        type: 'plain_text',
        text: truncate(fromMarkdownLiteral(content.title), L.headerText),
        emoji: true,
      },
    });
  }
  if (content.text) head.push(...sections(content.text, prose));
  const body: SlackBlockJson[] = [];
  for (const s of content.sections ?? []) {
    if (s.heading) {
      body.push({
        type: 'section',
        text: { type: 'mrkdwn', text: `*${prose(truncate(s.heading, 2900))}*` },
      });
    }
    if (s.body) body.push(...sections(s.body, prose));
  }
  if (content.table) {
    // Every part of the table is its own code block.
    body.push(
      ...splitTransformed(
        renderTable(content.table),
        L.sectionText,
        (c) => `\`\`\`\n${escapeMrkdwn(c)}\n\`\`\``,
      ).map((t): SlackBlockJson => ({ type: 'section', text: { type: 'mrkdwn', text: t } })),
    );
  }
  if (!content.footer) return { head, body };
  const footer = splitTransformed(content.footer, L.sectionText, prose);
  const text =
    footer.length > 1 ? `${truncate(footer[0] ?? '', L.sectionText - 1)}…` : (footer[0] ?? '');
  return text
    ? { head, body, footer: { type: 'context', elements: [{ type: 'mrkdwn', text }] } }
    : { head, body };
}

/**
 * Room the first message of fitted content keeps for its header, summary and footer (counted at least this
 * long), so that the reveal's longer summary and footer fit where the battle's were.
 */
const STABLE_HEAD = 2000;

/** Packs blocks into messages of ≤ 50 blocks and ≤ {@link SLACK_LIMITS.blockText} characters of block text. */
function pack(
  blocks: readonly SlackBlockJson[],
  firstUsed: number,
  firstBlocks: number,
): SlackBlockJson[][] {
  const L = SLACK_LIMITS;
  const out: SlackBlockJson[][] = [[]];
  let used = firstUsed;
  let count = firstBlocks;
  for (const b of blocks) {
    const size = blockTextLength(b);
    const current = out[out.length - 1] as SlackBlockJson[];
    if (count > 0 && (count >= L.blocksPerMessage || used + size > L.blockText)) {
      out.push([b]);
      used = size;
      count = 1;
    } else {
      current.push(b);
      used += size;
      count += 1;
    }
  }
  return out;
}

/**
 * Renders content as Block Kit: header (title), section(s) for the summary text, a bold heading + section(s)
 * per section, the table in code-block sections, the footer as a context block; then packs the blocks into
 * messages of ≤ 50 blocks and ≤ 11,000 characters of block text. Every message carries the (truncated) summary
 * as its fallback `text` (the parts of fitted content: `(continued)`).
 *
 * Content with {@link MessageContent.fit} (a battle) puts the footer at the end of the first message and counts
 * header, summary and footer as at least 2,000 characters there, so that the reveal changes the first message
 * only; it is cut to `fit.maxMessages` messages ({@link renderSlackFitted}).
 */
export function renderSlackMessages(content: MessageContent): SlackMessageJson[] {
  return content.fit
    ? renderSlackFitted(content, content.fit.maxMessages).messages
    : layoutSlack(content);
}

/**
 * {@link renderSlackMessages} of content with `fit`, in at most `maxMessages` messages: the section bodies cut
 * as chat/render/fit `fitContent` says, with a note naming the full-text file posted in the thread.
 */
export function renderSlackFitted(
  content: MessageContent,
  maxMessages: number,
): Fitted<SlackMessageJson> {
  const fileName = content.fit?.fileName ?? 'full-text.txt';
  const locale = content.locale ?? 'en';
  return fitContent(content, maxMessages, layoutSlack, (cut) =>
    cutNote(cut, fileName, t(locale, 'render.where.thread'), locale),
  );
}

function layoutSlack(content: MessageContent): SlackMessageJson[] {
  const { head, body, footer } = contentBlocks(content);
  const fallback = fallbackText(
    fromMarkdownLiteral(content.text || content.title || ' '),
    SLACK_LIMITS.fallbackText,
  );
  let groups: SlackBlockJson[][];
  if (content.fit) {
    const fixed = [...head, ...(footer ? [footer] : [])];
    const headSize = Math.max(
      STABLE_HEAD,
      fixed.reduce((n, b) => n + blockTextLength(b), 0),
    );
    groups = pack(body, headSize, fixed.length);
    groups[0] = [...head, ...(groups[0] ?? []), ...(footer ? [footer] : [])];
  } else {
    groups = pack([...head, ...body, ...(footer ? [footer] : [])], 0, 0);
  }
  // The parts of fitted content carry a fallback of their own, so that the reveal's summary leaves them as
  // they are.
  return groups
    .filter((g, i) => i === 0 || g.length > 0)
    .map((blocks, i) => ({
      text: i > 0 && content.fit ? t(content.locale ?? 'en', 'render.continued') : fallback,
      blocks,
    }));
}
