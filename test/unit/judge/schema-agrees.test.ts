/**
 * What we ask the judge for and what we accept agree (docs/scoring.md §3.2): for every shipped rubric, every
 * verdict value its JSON schema admits is read as a verdict, and every value the schema refuses is a failure
 * (letter case, a tie written "C" and a missing `reason` aside: the parser is lenient about form, never about
 * values). The case that was wrong: the ten-point schema admitted any number 0–10, yet 1.1 was a failure.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSafetyVerdict, parseVerdict } from '../../../src/eval/judge/parse.ts';
import {
  loadRubric,
  rubricFileSchema,
  rubricJsonSchema,
  rubricScale,
} from '../../../src/eval/judge/rubrics.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

type Schema = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
};

/** The JSON-schema subset the judge's schemas use (type, enum, minimum, maximum, properties, required). */
function admits(s: Schema, v: unknown): boolean {
  if (s.enum && !s.enum.includes(v)) return false;
  switch (s.type) {
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const o = v as Record<string, unknown>;
      if ((s.required ?? []).some((k) => !(k in o))) return false;
      if (s.additionalProperties === false && Object.keys(o).some((k) => !s.properties?.[k]))
        return false;
      return Object.entries(o).every(([k, x]) => !s.properties?.[k] || admits(s.properties[k], x));
    }
    case 'integer':
      if (!Number.isInteger(v)) return false;
      break;
    case 'number':
      if (typeof v !== 'number') return false;
      break;
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
  }
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) return false;
    if (s.maximum !== undefined && v > s.maximum) return false;
  }
  return true;
}

const CONFIG = join(PROJECT_ROOT, 'config');
const RUBRICS = readdirSync(join(CONFIG, 'rubrics'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''));

describe('judge schema and parser agree', () => {
  it('covers every shipped rubric kind', () => {
    expect(new Set(RUBRICS.map((n) => loadRubric(CONFIG, n).kind))).toEqual(
      new Set(['single', 'pairwise', 'safety']),
    );
  });

  for (const name of RUBRICS) {
    it(`${name}: a verdict value is read exactly when the schema admits it`, () => {
      const rubric = loadRubric(CONFIG, name);
      const { schema } = rubricJsonSchema(rubric) as { schema: Schema };
      const values: unknown[] =
        rubric.kind === 'single'
          ? [-1, 0, 1, 1.1, 2.5, 3, 3.5, 7, 9.99, 10, 10.5, 11, '3', true, null]
          : rubric.kind === 'pairwise'
            ? ['A', 'B', 'tie', 'X', 'AB', '', 1, true, null]
            : [true, false, 'true', 'no', 0, 1, null];
      const key =
        rubric.kind === 'single' ? 'score' : rubric.kind === 'pairwise' ? 'winner' : 'violation';
      for (const v of values) {
        const reply = { reason: 'r', [key]: v };
        const text = JSON.stringify(reply);
        const parsed =
          rubric.kind === 'safety'
            ? parseSafetyVerdict(text)
            : parseVerdict(text, rubricScale(rubric));
        expect([v, parsed.ok], `${name} ${text}`).toEqual([v, admits(schema, reply)]);
      }
    });
  }

  it('a whole-number rubric asks for an integer; a fractional one for a number', () => {
    const ten = rubricJsonSchema(loadRubric(CONFIG, 'ten_point')) as { schema: Schema };
    expect(ten.schema.properties?.score).toEqual({ type: 'integer', minimum: 0, maximum: 10 });
    const frac = parseVerdict('{"reason":"r","score":7.5}', {
      kind: 'points',
      min: 0,
      max: 10,
      fractional: true,
    });
    expect(frac.ok).toBe(true);
  });

  it('a rubric scale the storage cannot hold, or whole-number bounds that are not whole, is refused', () => {
    const rubric = (scale: Record<string, unknown>) =>
      rubricFileSchema.safeParse({
        name: 'x',
        version: 1,
        kind: 'single',
        scale,
        system: 's',
        template: 't',
      }).success;
    expect(rubric({ min: 0, max: 10 })).toBe(true);
    expect(rubric({ min: -1, max: 10 })).toBe(false); // judge_scores keeps points from 0
    expect(rubric({ min: 0, max: 7.5 })).toBe(false);
    expect(rubric({ min: 0, max: 7.5, fractional: true })).toBe(true);
  });
});
