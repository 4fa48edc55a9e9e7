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
