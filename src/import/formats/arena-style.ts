/**
 * @module import/formats/arena-style
 * Reads FastChat battle lines with style metadata (`conv_metadata`, as `zhujiu export battles --format fastchat`
 * writes it and FastChat's `add_markdown_info.py` adds it) for style-controlled ratings (docs/scoring.md §4.6).
 * Pure: lines in, battles out.
 */
import type { Said } from '../../core/errors.ts';
import { said, saidError } from '../../i18n/cli.ts';
import { literalListSaid } from '../../i18n/quote.ts';
import type { StyleBattle, StyleMetadata } from '../../rating/style-control.ts';
import { WINNERS, type Winner } from '../../rating/types.ts';
import { voteIdentities } from './vote-identity.ts';

/**
 * What was read: battles with style metadata, how many battle lines had none (left out), and how many were the
 * same vote as an earlier line (left out, ./vote-identity.ts).
 */
export interface StyleLines {
  readonly battles: StyleBattle[];
  readonly withoutMetadata: number;
  readonly duplicates?: number;
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
 * of such integers (FastChat sums its values). Lines without `conv_metadata` are counted and left out, and so
 * are lines naming the vote of an earlier line with the same outcome (`question_id`, `tstamp`, `judge`:
 * ./vote-identity.ts; another outcome is refused naming both lines).
 * @param source the name in messages (e.g. the file name).
 * @throws AppError `rating_input_invalid` `source:LINE: problem; fix` for a line that is not a JSON object, a
 *   missing model name, a self-battle, an unknown winner, a vote given again with another outcome, or a malformed
 *   `conv_metadata`; and when no line has
 *   `conv_metadata`.
 */
export function parseStyleLines(lines: Iterable<string>, source = 'input'): StyleLines {
  const battles: StyleBattle[] = [];
  let without = 0;
  let duplicates = 0;
  const identities = voteIdentities();
  let n = 0;
  for (const raw of lines) {
    n++;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    const bad = (msg: Said): never => {
      throw saidError('rating_input_invalid', said('cli.ratingsLine.at', { source, line: n, msg }));
    };
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch (err) {
      bad(said('cli.styleLine.notJson', { detail: (err as Error).message }));
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      return bad(said('cli.styleLine.notObject'));
    }
    const x = o as Record<string, unknown>;
    for (const k of ['model_a', 'model_b'] as const) {
      if (typeof x[k] !== 'string' || x[k] === '') bad(said('cli.styleLine.name', { key: k }));
    }
    if (x.model_a === x.model_b) bad(said('cli.styleLine.same'));
    if (!WINNERS.includes(x.winner as Winner)) {
      bad(said('cli.styleLine.winner', { winners: literalListSaid(WINNERS) }));
    }
    const same = identities.check(x, n, {
      model_a: x.model_a as string,
      model_b: x.model_b as string,
      winner: x.winner as string,
      named: x.anony === false,
    });
    if (same.kind === 'conflict') bad(same.problem);
    if (same.kind === 'duplicate') {
      duplicates++;
      continue;
    }
    const m = x.conv_metadata;
    if (m === undefined || m === null) {
      without++;
      continue;
    }
    if (typeof m !== 'object' || Array.isArray(m)) bad(said('cli.styleLine.metaObject'));
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
        bad(said('cli.styleLine.metaField', { field: f }));
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
    throw saidError('rating_input_invalid', said('cli.styleLine.noMetadata', { source }));
  }
  return { battles, withoutMetadata: without, duplicates };
}
