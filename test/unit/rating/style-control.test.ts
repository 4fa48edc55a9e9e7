/**
 * Style-controlled ratings (docs/scoring.md §4.6) against an independent reference of FastChat's
 * `compute_style_control` on a small exported file (fixtures/style-control, see its README).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/rng.ts';
import { exportLine } from '../../../src/import/formats/arena-export.ts';
import type { StyleBattle } from '../../../src/rating/index.ts';
import {
  bootstrapStyleControl,
  countAnswerTokens,
  countMarkdownElements,
  fitStyleControl,
  styleDesign,
  styleMetadata,
} from '../../../src/rating/index.ts';
import { type RefBattle, referenceStyleControl } from './fixtures/style-control/reference.ts';

const dir = join(import.meta.dirname, 'fixtures', 'style-control');
const lines = readFileSync(join(dir, 'battles.fastchat.jsonl'), 'utf8').trim().split('\n');
const battles = lines.map((l) => JSON.parse(l) as StyleBattle);
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as {
  ratings: Record<string, number>;
  coefficients: number[];
};

describe('style control on the exported fixture', () => {
  it('gives the reference ratings and coefficients to 1e-6', () => {
    const fit = fitStyleControl(battles);
    expect(fit.constant).toEqual([]);
    fit.coefficients.forEach((c, k) => {
      expect(Math.abs(c - expected.coefficients[k]!)).toBeLessThan(1e-6);
    });
    fit.models.forEach((m, j) => {
      expect(Math.abs(fit.ratings[j]! - expected.ratings[m]!)).toBeLessThan(1e-6);
    });
  });

  it('the stored reference is what reference.ts computes from the file', () => {
    const ref = referenceStyleControl(lines.map((l) => JSON.parse(l) as RefBattle));
    expect(ref.coefficients).toEqual(expected.coefficients);
    expect(ref.ratings).toEqual(expected.ratings);
  });

  it('bootstrap: same seed, same intervals; each interval holds the point rating', () => {
    const r1 = bootstrapStyleControl(battles, createRng(7), 40);
    const r2 = bootstrapStyleControl(battles, createRng(7), 40);
    expect(Array.from(r1.ratingLo)).toEqual(Array.from(r2.ratingLo));
    r1.models.forEach((_, j) => {
      expect(r1.ratingLo[j]!).toBeLessThan(r1.ratings[j]!);
      expect(r1.ratingHi[j]!).toBeGreaterThan(r1.ratings[j]!);
    });
    r1.coefficients.forEach((c, k) => {
      expect(r1.coefficientLo[k]!).toBeLessThan(c);
      expect(r1.coefficientHi[k]!).toBeGreaterThan(c);
    });
  });
});

describe('style features', () => {
  it('counts markdown as FastChat add_markdown_info.py does (code blocks removed)', () => {
    const t = [
      '# Title\n## Sub\n### Three\n#### 4\n##### 5\n###### 6\n####### seven\n#no-space',
      '1. one\n  2. two\n١. arabic-indic digit\n- a\n* b\n+ c\n-not',
      '**bold** and __under__ and **not\nbold** and ****',
      '```\n# in code\n- in code\n**in code**\n```',
    ];
    expect(countMarkdownElements(t)).toEqual({
      header_count: { h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1 },
      list_count: { ordered: 3, unordered: 3 },
      bold_count: { '**': 2, __: 1 },
    });
  });

  it('reads ^ and \\s as Python does: a line starts only after \\n; U+FEFF is no space, U+001C is', () => {
    expect(countMarkdownElements(['x\r# not a line start']).header_count.h1).toBe(0);
    expect(countMarkdownElements(['#\ufeffnot a header']).header_count.h1).toBe(0);
    expect(countMarkdownElements(['#\u001cheader']).header_count.h1).toBe(1);
    expect(countMarkdownElements(['x\n\u3000- item']).list_count.unordered).toBe(1);
  });

  it('counts tokens: Han characters one each, words one each, other symbols one each', () => {
    expect(countAnswerTokens('答案是 42 km.')).toBe(6);
    expect(countAnswerTokens('')).toBe(0);
  });

  it('sums the turns of a side (tokens) and joins them for markdown', () => {
    const m = styleMetadata(['a b', '- x'], ['c']);
    expect(m.sum_assistant_a_tokens).toBe(4);
    expect(m.sum_assistant_b_tokens).toBe(1);
    expect(m.list_count_a).toEqual({ ordered: 0, unordered: 1 });
  });

  it('a feature the same in every battle is left at 0 and gets coefficient 0 (FastChat: NaN)', () => {
    const meta = (ta: number, tb: number) => styleMetadata([' x'.repeat(ta)], [' x'.repeat(tb)]);
    const bs: StyleBattle[] = [
      { model_a: 'a', model_b: 'b', winner: 'model_a', conv_metadata: meta(5, 1) },
      { model_a: 'b', model_b: 'a', winner: 'model_a', conv_metadata: meta(1, 5) },
      { model_a: 'a', model_b: 'b', winner: 'tie', conv_metadata: meta(2, 2) },
    ];
    expect(styleDesign(bs).constant).toEqual(['header', 'list', 'bold']);
    const fit = fitStyleControl(bs);
    expect(Array.from(fit.coefficients.slice(1))).toEqual([0, 0, 0]);
  });

  it('refuses a negative count', () => {
    const m = { ...styleMetadata(['x'], ['y']), sum_assistant_a_tokens: -1 };
    expect(() =>
      fitStyleControl([{ model_a: 'a', model_b: 'b', winner: 'tie', conv_metadata: m }]),
    ).toThrow(/length counts must be integers ≥ 0/);
  });
});

describe('export battles --format fastchat', () => {
  const vote = {
    battleId: 1,
    battleNumber: 1,
    source: 'arena',
    kind: 'live',
    ability: null,
    platform: null,
    leftModel: 'a',
    rightModel: 'b',
    choice: 'left',
    voterHash: 'v',
    votedAt: new Date(0),
    postedAt: null,
    closedAt: null,
    turns: 1,
    importedWinner: null,
    promptStart: null,
  } as const;
  it('writes conv_metadata when both answers are stored, and not otherwise', () => {
    const withAnswers = JSON.parse(
      exportLine({ ...vote, answersLeft: ['**x**'], answersRight: ['y'] }, 'fastchat'),
    ) as { conv_metadata: unknown };
    expect(withAnswers.conv_metadata).toEqual(styleMetadata(['**x**'], ['y']));
    const without = JSON.parse(
      exportLine({ ...vote, answersLeft: null, answersRight: null }, 'fastchat'),
    ) as object;
    expect('conv_metadata' in without).toBe(false);
  });
});
