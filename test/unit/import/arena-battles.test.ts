/** Parsing of battle / pair-count JSONL: auto-detection and errors that name the line and the fix. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { parseArenaLines } from '../../../src/import/formats/index.ts';
import { computeOnlineElo } from '../../../src/rating/index.ts';

const b = (a: string, bb: string, w: string): string =>
  JSON.stringify({ model_a: a, model_b: bb, winner: w });

function errorOf(lines: string[]): AppError {
  try {
    parseArenaLines(lines, 'votes.jsonl');
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseArenaLines', () => {
  it('reads battles (all four winner values), skips blank lines, keeps the order for Elo', () => {
    const d = parseArenaLines([
      b('x', 'y', 'model_a'),
      '',
      b('y', 'x', 'model_b'),
      b('x', 'z', 'tie'),
      b('z', 'y', 'tie (bothbad)'),
      '',
    ]);
    expect(d.models).toEqual(['x', 'y', 'z']);
    expect(d.totalVotes).toBe(4);
    expect(Array.from(d.numBattles)).toEqual([3, 3, 2]);
    const xy = 0;
    expect([d.winsI[xy], d.winsJ[xy], d.ties[xy]]).toEqual([2, 0, 0]);
    const elo = computeOnlineElo(d)!;
    expect(elo[0]).toBeGreaterThan(1000);
    // first battle: both at 1000, expected 0.5, K = 4 → ±2
    const one = computeOnlineElo(parseArenaLines([b('x', 'y', 'model_a')]))!;
    expect(Array.from(one)).toEqual([1002, 998]);
  });

  it('reads pair counts and sums repeated pairs in either orientation', () => {
    const d = parseArenaLines([
      JSON.stringify({
        model_a: 'x',
        model_b: 'y',
        model_a_wins: 3,
        model_b_wins: 1,
        tie: 2,
        tie_bothbad: 1,
      }),
      JSON.stringify({
        model_a: 'y',
        model_b: 'x',
        model_a_wins: 5,
        model_b_wins: 0,
        tie: 0,
        tie_bothbad: 0,
      }),
    ]);
    expect(d.sequence).toBeNull();
    expect([d.winsI[0], d.winsJ[0], d.ties[0]]).toEqual([3, 6, 3]);
    expect(d.totalVotes).toBe(12);
  });

  const cases: [string, string[], RegExp][] = [
    [
      'unknown winner',
      [b('x', 'y', 'model_a'), b('x', 'y', 'draw')],
      /votes\.jsonl:2: unknown winner "draw"; use one of "model_a", "model_b", "tie", "tie \(bothbad\)"/,
    ],
    [
      'a battle line whose winner is null',
      [b('x', 'y', 'model_a'), '{"model_a":"x","model_b":"y","winner":null}'],
      /votes\.jsonl:2: missing "winner"; use one of "model_a", "model_b", "tie", "tie \(bothbad\)"/,
    ],
    ['self-battle', [b('x', 'x', 'tie')], /votes\.jsonl:1: self-battle: "x" against itself/],
    [
      'non-JSON line',
      [b('x', 'y', 'tie'), '', '{oops'],
      /votes\.jsonl:3:2: not valid JSON \(expected a string key in double quotes or '}', found 'o'\); each line must be/,
    ],
    ['not an object', ['42'], /votes\.jsonl:1: expected a JSON object/],
    [
      'a JSON array of battles',
      ['[{"model_a":"x","model_b":"y","winner":"tie"}]'],
      /^votes\.jsonl:1: this is a JSON array; battles are JSON Lines, one object per line like \{"model_a"[^(]*$/,
    ],
    [
      'an AlpacaEval outputs file (a JSON array of {instruction, output})',
      ['[', '  {', '    "instruction": "q",', '    "output": "a"', '  }', ']'],
      /^votes\.jsonl:1: this is a JSON array; battles are JSON Lines, .* \(a JSON array of \{instruction, output\} is model outputs: `zhujiu import outputs votes\.jsonl --model NAME`\)$/,
    ],
    [
      'a JSONL outputs file',
      ['{"item":"1","prompt":"p","output":"o"}'],
      /^votes\.jsonl:1: this looks like model outputs, not battles; import it with `zhujiu import outputs votes\.jsonl --model NAME --format jsonl`$/,
    ],
    [
      'missing model',
      [JSON.stringify({ model_a: 'x', winner: 'tie' })],
      /votes\.jsonl:1: "model_b" must be a non-empty string/,
    ],
    [
      'neither kind',
      [JSON.stringify({ model_a: 'x', model_b: 'y' })],
      /votes\.jsonl:1: neither a battle .* nor pair counts/,
    ],
    [
      'negative count',
      [
        JSON.stringify({
          model_a: 'x',
          model_b: 'y',
          model_a_wins: -1,
          model_b_wins: 0,
          tie: 0,
          tie_bothbad: 0,
        }),
      ],
      /votes\.jsonl:1: "model_a_wins" must be a non-negative integer, got -1/,
    ],
    [
      'fractional count',
      [
        JSON.stringify({
          model_a: 'x',
          model_b: 'y',
          model_a_wins: 1,
          model_b_wins: 0.5,
          tie: 0,
          tie_bothbad: 0,
        }),
      ],
      /votes\.jsonl:1: "model_b_wins" must be a non-negative integer, got 0.5/,
    ],
    [
      'mixed kinds',
      [
        b('x', 'y', 'tie'),
        JSON.stringify({
          model_a: 'x',
          model_b: 'y',
          model_a_wins: 1,
          model_b_wins: 0,
          tie: 0,
          tie_bothbad: 0,
        }),
      ],
      /votes\.jsonl:2: a pair-count line in a file of battles \(detected at line 1\)/,
    ],
    ['empty file', ['', '  '], /votes\.jsonl: empty input \(2 lines, none with data\)/],
    ['no lines', [], /votes\.jsonl: empty input/],
  ];
  for (const [name, lines, re] of cases) {
    it(`rejects ${name} with the line number and the fix`, () => {
      const e = errorOf(lines);
      expect(e.code).toBe('rating_input_invalid');
      expect(e.message).toMatch(re);
    });
  }
});
