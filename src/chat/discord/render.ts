/**
 * @module chat/discord/render
 * MessageContent → Discord message payloads (plain JSON, no discord.js types), split so that every message
 * respects Discord's limits: 2,000 chars of content, ≤ 10 embeds and ≤ 6,000 embed chars per message,
 * 4,096 per embed description, 256 per title. The first message is the primary one (it carries the reactions
 * and the image); the rest become `partIds`.
 */
import type { MessageContent } from '../port.ts';
import {
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

/**
 * Renders content into one or more messages within Discord's limits.
 * Layout: the summary `text` as message content (extra messages when > 2,000 chars); the title on the first
 * embed; one embed per section (long bodies continue in untitled embeds); the table as a code block in its own
 * embed(s); the footer on the last embed. Embeds are packed greedily after the last content chunk. Long text
 * and section bodies are split with `splitFenced`, so every part that holds code is fenced.
 */
export function renderDiscordMessages(content: MessageContent): DiscordMessageJson[] {
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
  if (content.title) {
    const title = truncate(content.title, L.title);
    const first = embeds[0];
    if (first && first.title === undefined) first.title = title;
    else embeds.unshift({ title });
  }
  let text = content.text;
  if (content.footer) {
    const last = embeds[embeds.length - 1];
    // Embed footers show no Markdown: names there are turned back from their Markdown literals.
    if (last) last.footer = { text: truncate(fromMarkdownLiteral(content.footer), L.footer) };
    else text = text ? `${text}\n\n${content.footer}` : content.footer;
  }

  const messages: DiscordMessageJson[] = splitFenced(text, L.content).map((c) => ({
    content: c,
    embeds: [],
  }));
  if (messages.length === 0) messages.push({ content: '', embeds: [] });
  let current = messages[messages.length - 1] as DiscordMessageJson;
  let total = 0;
  for (const e of embeds) {
    const size = embedSize(e);
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
  // Discord rejects a message with neither content, embeds nor files.
  for (const m of messages) if (m.content === '' && m.embeds.length === 0) m.content = '\u200b';
  return messages;
}
