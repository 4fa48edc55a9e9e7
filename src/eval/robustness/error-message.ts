/**
 * @module eval/robustness/error-message
 * Error Message (ZhuJiu §2.3.7, token level): the character noise a Chinese reader meets, applied to a question's
 * editable text (eval/robustness/text): homophones (same toned pinyin), similar-shape characters, two neighbouring
 * characters swapped, a character dropped, full-/half-width mixing, and traditional characters. Seeded: the same
 * Rng gives the same edits.
 */
import type { Rng } from '../../core/rng.ts';
import {
  converter,
  homophonesOf,
  isHan,
  otherWidth,
  readings,
  similarShapesOf,
} from './chinese.ts';
import type { EditableText } from './text.ts';

/** The kinds of character noise. */
export const NOISE_OPS = [
  'homophone',
  'similar_shape',
  'swap',
  'drop',
  'width',
  'traditional',
] as const;
/** One kind of character noise. */
export type NoiseOp = (typeof NOISE_OPS)[number];

/** One edit: `from` (one code point; two for a swap) at code point `at` of the original text became `to`. */
export interface NoiseEdit {
  readonly op: NoiseOp;
  readonly at: number;
  readonly from: string;
  readonly to: string;
}

/** Share of the editable Han characters edited, and the bounds on the number of edits. */
export const NOISE_RATE = 0.05;
export const NOISE_MIN_EDITS = 1;
export const NOISE_MAX_EDITS = 12;

/** What an op would make of position `i` (undefined: it does not apply there). */
function candidate(
  op: NoiseOp,
  t: EditableText,
  i: number,
  py: readonly string[],
  rng: Rng,
): { to: string; span: number } | undefined {
  const ch = t.chars[i] as string;
  const pick = (xs: readonly string[]) => (xs.length ? xs[rng.int(xs.length)] : undefined);
  switch (op) {
    case 'homophone': {
      const to = isHan(ch) ? pick(homophonesOf(ch, py[i] as string)) : undefined;
      return to === undefined ? undefined : { to, span: 1 };
    }
    case 'similar_shape': {
      const to = pick(similarShapesOf(ch));
      return to === undefined ? undefined : { to, span: 1 };
    }
    case 'swap': {
      const next = t.chars[i + 1];
      if (!isHan(ch) || next === undefined || !isHan(next) || next === ch || !t.editable[i + 1])
        return undefined;
      return { to: `${next}${ch}`, span: 2 };
    }
    case 'drop':
      return isHan(ch) ? { to: '', span: 1 } : undefined;
    case 'width': {
      const to = otherWidth(ch);
      return to === undefined ? undefined : { to, span: 1 };
    }
    case 'traditional': {
      const to = isHan(ch) ? converter('cn', 't')(ch) : ch;
      return to === ch ? undefined : { to, span: 1 };
    }
  }
}

/** The number of edits for a text with `han` editable Han characters: 5 %, at least 1, at most 12. */
export function noiseEditCount(han: number): number {
  return Math.max(NOISE_MIN_EDITS, Math.min(NOISE_MAX_EDITS, Math.round(NOISE_RATE * han)));
}

/**
 * Applies character noise to `t`: {@link noiseEditCount} edits, each an op drawn uniformly from {@link NOISE_OPS} at
 * a uniformly drawn editable position where it applies (an op that applies nowhere is drawn again, at most 50
 * draws per edit); no position is edited twice. Deterministic for a given Rng state.
 * @returns the noisy text and its edits in text order (none when nothing applies, e.g. no Han character).
 */
export function applyNoise(t: EditableText, rng: Rng): { text: string; edits: NoiseEdit[] } {
  const out = [...t.chars];
  const used = t.chars.map((_, i) => !t.editable[i]);
  const py = readings(t.chars);
  const han = t.chars.filter((c, i) => t.editable[i] && isHan(c)).length;
  const edits: NoiseEdit[] = [];
  const want = han === 0 ? 0 : noiseEditCount(han);
  for (let tries = 0; edits.length < want && tries < 50 * want; tries++) {
    const op = NOISE_OPS[rng.int(NOISE_OPS.length)] as NoiseOp;
    const free = out.map((_, i) => i).filter((i) => !used[i]);
    if (free.length === 0) break;
    const i = free[rng.int(free.length)] as number;
    const c = candidate(op, t, i, py, rng);
    if (!c || (c.span === 2 && used[i + 1])) continue;
    const from = t.chars.slice(i, i + c.span).join('');
    edits.push({ op, at: i, from, to: c.to });
    out[i] = c.to;
    used[i] = true;
    if (c.span === 2) {
      out[i + 1] = '';
      used[i + 1] = true;
    }
  }
  edits.sort((a, b) => a.at - b.at);
  return { text: out.join(''), edits };
}
