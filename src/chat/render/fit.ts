/**
 * @module chat/render/fit
 * Content that must fit a number of messages ({@link MessageContent.fit}, a battle): when the platform's
 * rendering needs more messages than allowed, the section bodies are cut, visibly, at one common length (the
 * longest bodies are cut first, short ones stay whole), each cut body saying how many characters it lost and
 * where the full text is; the full text then goes along as a file ({@link fullText}). Pure.
 */
import { type Locale, t } from '../../i18n/index.ts';
import type { MessageContent } from '../port.ts';
import { fromMarkdownLiteral } from './markdown.ts';
import { fenceAfter } from './split.ts';

/** What {@link fitContent} made: the messages, and how many characters of the section bodies it cut (0: none). */
export interface Fitted<M> {
  readonly messages: M[];
  readonly cutChars: number;
}

/** True when the code unit at `i` is the low half of a surrogate pair. */
function inPair(text: string, i: number): boolean {
  const lo = text.charCodeAt(i);
  const hi = text.charCodeAt(i - 1);
  return i > 0 && lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
}

/**
 * `body` cut to about `keep` UTF-16 code units at a line break or a space in the last quarter (else hard, never
 * inside a surrogate pair), a code block left open by the cut closed again, then `note(characters cut)`.
 * Unchanged when it is not longer than `keep`.
 */
export function cutBody(body: string, keep: number, note: (cut: number) => string): string {
  if (body.length <= keep) return body;
  const end = bodyKept(body, keep);
  let kept = body.slice(0, end).replace(/\s+$/u, '');
  const open = fenceAfter(kept, null);
  if (open) kept += `\n${open.marker}`;
  const cut = body.length - end;
  return kept ? `${kept}\n\n${note(cut)}` : note(cut);
}

/**
 * The cut note in `locale` (default en): "_[… 97,512 more characters not shown: the full text is in
 * battle-12.txt, attached …]_"; `where` says where the file is, in the same language.
 */
export function cutNote(
  cut: number,
  fileName: string,
  where: string,
  locale: Locale = 'en',
): string {
  const n = cut.toLocaleString('en-US');
  return `_[${t(locale, 'render.cut', { n, file: fileName, where })}]_`;
}

/** `content` with every section body longer than `keep` cut by {@link cutBody}. */
function cutSections(
  content: MessageContent,
  keep: number,
  note: (cut: number) => string,
): MessageContent {
  return {
    ...content,
    sections: (content.sections ?? []).map((s) => ({ ...s, body: cutBody(s.body, keep, note) })),
  };
}

/**
 * Renders `content` into at most `maxMessages` messages: as it is when `render` gives that few, else with the
 * section bodies cut at the largest common length that fits (binary search; `render` must need no more messages
 * for shorter bodies). When even bodies of nothing but the note do not fit (a summary text or table too long),
 * that rendering is returned, longer than asked.
 * @param maxMessages ≥ 1.
 * @param note the cut note for a number of characters cut (see {@link cutNote}).
 */
export function fitContent<M>(
  content: MessageContent,
  maxMessages: number,
  render: (c: MessageContent) => M[],
  note: (cut: number) => string,
): Fitted<M> {
  const whole = render(content);
  if (whole.length <= maxMessages) return { messages: whole, cutChars: 0 };
  const bodies = (content.sections ?? []).map((s) => s.body.length);
  let lo = 0;
  let hi = Math.max(0, ...bodies);
  // Invariant: `hi` does not fit; find the largest `lo` that does (0 is taken when none does).
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (render(cutSections(content, mid, note)).length <= maxMessages) lo = mid;
    else hi = mid;
  }
  const cut = cutSections(content, lo, note);
  const cutChars = (content.sections ?? []).reduce(
    (n, s, i) => n + (s.body.length > lo ? (bodies[i] ?? 0) - bodyKept(s.body, lo) : 0),
    0,
  );
  return { messages: render(cut), cutChars };
}

/** How many characters of `body` {@link cutBody} keeps at `keep` (the cut point, before trimming). */
function bodyKept(body: string, keep: number): number {
  let end = keep;
  const nl = body.lastIndexOf('\n', keep);
  const sp = body.lastIndexOf(' ', keep);
  if (nl >= keep * 0.75 && nl > 0) end = nl;
  else if (sp >= keep * 0.75 && sp > 0) end = sp;
  else if (inPair(body, end)) end -= 1;
  return end;
}

/**
 * The whole content as one Markdown text file (what a cut message points to): the title as a `#` heading, the
 * summary, each section under a `##` heading, the footer. Names' Markdown literals are turned back.
 */
export function fullText(content: MessageContent): string {
  const out: string[] = [];
  if (content.title) out.push(`# ${fromMarkdownLiteral(content.title)}`, '');
  if (content.text && content.text !== content.title)
    out.push(fromMarkdownLiteral(content.text), '');
  for (const s of content.sections ?? []) {
    if (s.heading) out.push(`## ${fromMarkdownLiteral(s.heading)}`, '');
    out.push(s.body, '');
  }
  if (content.footer) out.push(fromMarkdownLiteral(content.footer), '');
  return out.join('\n');
}
