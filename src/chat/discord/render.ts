/**
 * @module chat/discord/render
 * MessageContent → Discord message payloads (plain JSON, no discord.js types), split so that every message
 * respects Discord's limits: 2,000 chars of content, ≤ 10 embeds and ≤ 6,000 embed chars per message,
 * 4,096 per embed description, 256 per title. The first message is the primary one (it carries the reactions
 * and the image); the rest become `partIds`.
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

/** Discord's documented limits. */
export const DISCORD_LIMITS = {
  content: 2000,
  description: 4096,
  title: 256,
  /** Discord allows 2,048; we cap lower so title + description + footer always fits the 6,000 total. */
  footer: 1024,
  embedsPerMessage: 10,
  embedTotal: 6000,
} as const;

/** An embed as JSON. */
export interface DiscordEmbedJson {
  title?: string;
  description?: string;
  footer?: { text: string };
}

/** One message to send or edit. */
export interface DiscordMessageJson {
  content: string;
  embeds: DiscordEmbedJson[];
}

function embedSize(e: DiscordEmbedJson): number {
  return (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0);
}

/** The embeds of `content`: the title, one per section (long bodies continue in untitled embeds), the table. */
function contentEmbeds(content: MessageContent): {
  embeds: DiscordEmbedJson[];
  titled?: DiscordEmbedJson;
} {
  const L = DISCORD_LIMITS;
  const embeds: DiscordEmbedJson[] = [];
  for (const section of content.sections ?? []) {
    const heading = section.heading ? truncate(section.heading, L.title) : undefined;
    // Fence-aware: a code block cut across embeds is closed and reopened with its language (8.5).
    const chunks = splitFenced(section.body, L.description);
    if (chunks.length === 0) {
      if (heading) embeds.push({ title: heading });
      continue;
    }
    chunks.forEach((chunk, i) => {
      embeds.push(
        i === 0 && heading ? { title: heading, description: chunk } : { description: chunk },
      );
    });
  }
  if (content.table) {
    const fence = (c: string): string => `\`\`\`\n${c}\n\`\`\``;
    for (const chunk of splitTransformed(renderTable(content.table), L.description, fence)) {
      embeds.push({ description: chunk });
    }
  }
  if (!content.title) return { embeds };
  const title = truncate(content.title, L.title);
  const first = embeds[0];
  if (first && first.title === undefined) {
    first.title = title;
    return { embeds, titled: first };
  }
  const titled = { title };
  embeds.unshift(titled);
  return { embeds, titled };
}

/**
 * Renders content into one or more messages within Discord's limits.
 * Layout: the summary `text` as message content (extra messages when > 2,000 chars); the title on the first
 * embed; one embed per section (long bodies continue in untitled embeds); the table as a code block in its own
 * embed(s); the footer on the last embed. Embeds are packed greedily after the last content chunk. Long text
 * and section bodies are split with `splitFenced`, so every part that holds code is fenced.
 *
 * Content with {@link MessageContent.fit} (a battle) is laid out so that a change of its title, summary or
 * footer (the reveal) changes the first message only: the footer goes on the last embed of the first message
 * (just above its reactions), and the packing counts the title and the footer at their longest (256 and 1,024),
 * so the parts after the first never move. Such content is also cut to `fit.maxMessages` messages; see
 * {@link renderDiscordFitted}.
 */
export function renderDiscordMessages(content: MessageContent): DiscordMessageJson[] {
  return content.fit
    ? renderDiscordFitted(content, content.fit.maxMessages).messages
    : layoutDiscord(content);
}

/**
 * {@link renderDiscordMessages} of content with `fit`, in at most `maxMessages` messages: the section bodies
 * cut as chat/render/fit `fitContent` says, with a note naming the attached full-text file.
 */
export function renderDiscordFitted(
  content: MessageContent,
  maxMessages: number,
): Fitted<DiscordMessageJson> {
  const fileName = content.fit?.fileName ?? 'full-text.txt';
  const locale = content.locale ?? 'en';
  return fitContent(content, maxMessages, layoutDiscord, (cut) =>
    cutNote(cut, fileName, t(locale, 'render.where.attached'), locale),
  );
}

function layoutDiscord(content: MessageContent): DiscordMessageJson[] {
  const L = DISCORD_LIMITS;
  const stable = content.fit !== undefined;
  const { embeds, titled } = contentEmbeds(content);
  let text = content.text;
  const footer = content.footer
    ? { text: truncate(fromMarkdownLiteral(content.footer), L.footer) }
    : undefined;
  if (footer && embeds.length === 0)
    text = text ? `${text}\n\n${content.footer}` : (content.footer ?? '');

  const messages: DiscordMessageJson[] = splitFenced(text, L.content).map((c) => ({
    content: c,
    embeds: [],
  }));
  if (messages.length === 0) messages.push({ content: '', embeds: [] });
  const footerAt = messages.length - 1;
  let current = messages[footerAt] as DiscordMessageJson;
  // Stable layout: the first message with embeds keeps room for the longest title and footer.
  let total = stable ? L.footer : 0;
  for (const e of embeds) {
    const size = stable && e === titled ? L.title + (e.description?.length ?? 0) : embedSize(e);
    if (
      current.embeds.length >= L.embedsPerMessage ||
      (current.embeds.length > 0 && total + size > L.embedTotal)
    ) {
      current = { content: '', embeds: [] };
      messages.push(current);
      total = 0;
    }
    current.embeds.push(e);
    total += size;
  }
  // Embed footers show no Markdown: names there are turned back from their Markdown literals.
  if (footer && embeds.length > 0) {
    const on = stable ? (messages[footerAt] as DiscordMessageJson) : current;
    const last = on.embeds[on.embeds.length - 1];
    if (last) last.footer = footer;
  }
  // Discord rejects a message with neither content, embeds nor files.
  for (const m of messages) if (m.content === '' && m.embeds.length === 0) m.content = '\u200b';
  return messages;
}
