/**
 * @module chat/render/split
 * Splits long text into chunks that fit a platform limit, preferring paragraph, then line, then word
 * boundaries, and never cutting a UTF-16 surrogate pair. Lengths are counted in UTF-16 code units (JS
 * `string.length`), which is never less than the code-point count Discord and Slack use, so chunks are safe.
 */

/** Breaks tried in order; the first one found in the last three quarters of the window wins. */
const BREAKS = ['\n\n', '\n', ' '] as const;

/** True when the code unit at `i` is the low half of a surrogate pair whose high half is at `i - 1`. */
function isLowSurrogateAfterHigh(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const lo = text.charCodeAt(i);
  const hi = text.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && hi >= 0xd800 && hi <= 0xdbff;
}

/**
 * Splits `text` into chunks of at most `max` UTF-16 code units. Whitespace at a chosen break (the blank line,
 * newline or space) is dropped; other text is preserved exactly. Empty input gives `[]`.
 * @example splitText('aaa\n\nbbb', 5) // ['aaa', 'bbb']
 */
export function splitText(text: string, max: number): string[] {
  if (!Number.isInteger(max) || max < 2)
    throw new RangeError(`splitText: max must be an integer >= 2, got ${max}`);
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = -1;
    let skip = 0;
    for (const br of BREAKS) {
      // The break must start at or before `max` so the chunk before it fits; too early a break would
      // leave a tiny chunk, so fall through to the next kind of break instead.
      const idx = rest.lastIndexOf(br, max);
      if (idx > 0 && idx >= max / 4) {
        cut = idx;
        skip = br.length;
        break;
      }
    }
    if (cut <= 0) {
      cut = max;
      skip = 0;
      if (isLowSurrogateAfterHigh(rest, cut)) cut -= 1;
    }
    const chunk = rest.slice(0, cut).replace(/\s+$/u, '');
    if (chunk.length > 0) chunks.push(chunk);
    rest = rest.slice(cut + skip).replace(/^\n+/u, '');
  }
  if (rest.trim().length > 0) chunks.push(rest);
  return chunks;
}

/**
 * Cuts `text` to at most `max` code units, ending with `…` when it was cut (never inside a surrogate pair).
 * @example truncate('abcdef', 4) // 'abc…'
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  if (isLowSurrogateAfterHigh(text, cut)) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/**
 * Like {@link splitText}, but the limit applies to `transform(chunk)` (e.g. an escaped or fenced form).
 * Chunks whose transformed form is too long are split again with a proportionally smaller raw limit.
 */
export function splitTransformed(
  text: string,
  max: number,
  transform: (chunk: string) => string,
): string[] {
  const out: string[] = [];
  const visit = (chunk: string, limit: number): void => {
    const t = transform(chunk);
    if (t.length <= max) {
      out.push(t);
      return;
    }
    const smaller = Math.max(2, Math.min(limit - 1, Math.floor((limit * max) / t.length)));
    for (const part of splitText(chunk, smaller)) visit(part, smaller);
  };
  const overhead = transform('').length;
  const first = Math.max(2, max - overhead);
  for (const chunk of splitText(text, first)) visit(chunk, first);
  return out;
}

/** A fenced code block that is open at some point of a text: its marker run and its opening line. */
export interface OpenFence {
  /** The backtick or tilde run that opened it (``` or ````…); a closing fence needs at least as many. */
  readonly marker: string;
  /** The opening line as written, with its info string (```` ```python ````), to reopen it after a cut. */
  readonly opener: string;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/u;

/** The fence still open after `text`, given the one open before it (CommonMark fence rules, simplified). */
export function fenceAfter(text: string, open: OpenFence | null): OpenFence | null {
  let state = open;
  for (const line of text.split('\n')) {
    const m = FENCE_LINE.exec(line);
    if (!m) continue;
    const run = m[1] as string;
    const info = m[2] as string;
    if (state) {
      if (run[0] === state.marker[0] && run.length >= state.marker.length && info.trim() === '')
        state = null;
    } else if (!(run[0] === '`' && info.includes('`'))) {
      state = { marker: run, opener: line.trim() };
    }
  }
  return state;
}

/** Cuts `rest` (longer than `budget`) at the best break within `budget`; see {@link splitFenced}. */
function cutAt(rest: string, budget: number): { chunk: string; next: string } {
  const window = rest.slice(0, budget + 1);
  // A line break keeps code lines whole; a paragraph break is nicer still when there is one.
  for (const br of ['\n\n', '\n']) {
    const idx = window.lastIndexOf(br, budget);
    if (idx > 0 && idx >= budget / 4)
      return { chunk: rest.slice(0, idx), next: rest.slice(idx + 1) };
  }
  const sp = window.lastIndexOf(' ', budget);
  if (sp > 0 && sp >= budget / 4) return { chunk: rest.slice(0, sp), next: rest.slice(sp + 1) };
  let cut = budget;
  if (isLowSurrogateAfterHigh(rest, cut)) cut -= 1;
  return { chunk: rest.slice(0, cut), next: rest.slice(cut) };
}

/**
 * Splits Markdown `text` into parts whose `transform`ed form (e.g. Slack's mrkdwn escaping) is at most `max`
 * UTF-16 code units, keeping fenced code blocks fenced: a part cut inside a code block ends with a closing fence
 * (the same marker run) and the next part starts by reopening it with the same opening line, language included
 * (```` ```python ````). So every part that holds code renders as code on Discord and Slack. Cuts prefer a blank
 * line, then a line break (code lines stay whole), then a space; a single line longer than a part is cut hard
 * (never inside a surrogate pair). Outside code, whitespace at a cut is dropped; inside code nothing is dropped
 * (blank lines and indentation survive). A block the author left unclosed stays unclosed in the last part.
 * Empty input gives `[]`.
 * @example splitFenced('```py\naaaa\nbbbb\n```', 16) // ['```py\naaaa\n```', '```py\nbbbb\n```']
 */
export function splitFenced(
  text: string,
  max: number,
  transform: (part: string) => string = (s) => s,
): string[] {
  if (!Number.isInteger(max) || max < 16)
    throw new RangeError(`splitFenced: max must be an integer >= 16, got ${max}`);
  const out: string[] = [];
  let rest = text;
  let open: OpenFence | null = null;
  while (rest.trim().length > 0) {
    // Reopen the block the previous part closed; an absurdly long opening line falls back to its marker.
    const opener = open ? (open.opener.length <= max / 2 ? open.opener : open.marker) : '';
    const prefix = open ? `${opener}\n` : '';
    let budget = Math.max(2, max - prefix.length);
    for (;;) {
      const whole = rest.length <= budget;
      const { chunk, next } = whole ? { chunk: rest, next: '' } : cutAt(rest, budget);
      const after = fenceAfter(chunk, open);
      const more = next.trim().length > 0;
      const body = after ? chunk : chunk.replace(/\s+$/u, '');
      const suffix = after && more ? `${body.endsWith('\n') ? '' : '\n'}${after.marker}` : '';
      const part = transform(`${prefix}${body}${suffix}`);
      if (part.length <= max || budget <= 2) {
        if (body.trim().length > 0 || prefix) out.push(part);
        rest = after ? next : next.replace(/^\s*\n/u, '');
        open = more ? after : null;
        break;
      }
      budget = Math.max(2, Math.min(budget - 1, Math.floor((budget * max) / part.length)));
    }
  }
  return out;
}
