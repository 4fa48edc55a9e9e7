/**
 * @module import/formats/arena-style
 * Reads FastChat battle lines with style metadata (`conv_metadata`, as `zhujiu export battles --format fastchat`
 * writes it and FastChat's `add_markdown_info.py` adds it) for style-controlled ratings (docs/scoring.md §4.6).
 * Pure: lines in, battles out.
 */
import { AppError } from '../../core/errors.ts';
import type { StyleBattle, StyleMetadata } from '../../rating/style-control.ts';
import { WINNERS, type Winner } from '../../rating/types.ts';

/** What was read: battles with style metadata, and how many battle lines had none (left out). */
export interface StyleLines {
  readonly battles: StyleBattle[];
  readonly withoutMetadata: number;
}

const FIELDS = [
  'sum_assistant_a_tokens',
  'header_count_a',
  'list_count_a',
  'bold_count_a',
  'sum_assistant_b_tokens',
  'header_count_b',
  'list_count_b',
  'bold_count_b',
] as const;

const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Parses battle lines `{"model_a","model_b","winner","conv_metadata":{…}}` (extra keys ignored, blank lines
 * skipped). Each `conv_metadata` field of FastChat's `STYLE_CONTROL_ELEMENTS_V1` is an integer ≥ 0 or an object
 * of such integers (FastChat sums its values). Lines without `conv_metadata` are counted and left out.
 * @param source the name in messages (e.g. the file name).
 * @throws AppError `rating_input_invalid` `source:LINE: problem; fix` for a line that is not a JSON object, a
 *   missing model name, a self-battle, an unknown winner, or a malformed `conv_metadata`; and when no line has
 *   `conv_metadata`.
 */
export function parseStyleLines(lines: Iterable<string>, source = 'input'): StyleLines {
  const battles: StyleBattle[] = [];
  let without = 0;
  let n = 0;
  for (const raw of lines) {
    n++;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    const bad = (msg: string): never => {
      throw new AppError('rating_input_invalid', `${source}:${n}: ${msg}`);
    };
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch (err) {
      bad(`not valid JSON (${(err as Error).message}); write one battle object per line`);
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      return bad('not a JSON object; write one battle object per line');
    }
    const x = o as Record<string, unknown>;
    for (const k of ['model_a', 'model_b'] as const) {
      if (typeof x[k] !== 'string' || x[k] === '')
        bad(`"${k}" must be a non-empty string (the model name)`);
    }
    if (x.model_a === x.model_b)
      bad('model_a and model_b are the same model; a battle needs two models');
    if (!WINNERS.includes(x.winner as Winner)) {
      bad(`"winner" must be one of ${WINNERS.map((w) => JSON.stringify(w)).join(', ')}`);
    }
    const m = x.conv_metadata;
    if (m === undefined || m === null) {
      without++;
      continue;
    }
    if (typeof m !== 'object' || Array.isArray(m)) bad('"conv_metadata" must be an object');
    const meta = m as Record<string, unknown>;
    for (const f of FIELDS) {
      const v = meta[f];
      const ok =
        isCount(v) ||
        (typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          Object.values(v).every(isCount));
      if (!ok) {
        bad(
          `conv_metadata.${f} must be an integer ≥ 0 or an object of them (FastChat's style fields); ` +
            're-export with `zhujiu export battles --format fastchat`',
        );
      }
    }
    battles.push({
      model_a: x.model_a as string,
      model_b: x.model_b as string,
      winner: x.winner as Winner,
      conv_metadata: meta as unknown as StyleMetadata,
    });
  }
  if (battles.length === 0) {
    throw new AppError(
      'rating_input_invalid',
      `${source}: no battle line has conv_metadata (the answers' style counts), so style control has nothing to fit; ` +
        'export battles whose answers are stored with `zhujiu export battles --format fastchat`, or rate without --style-control',
    );
  }
  return { battles, withoutMetadata: without };
}
