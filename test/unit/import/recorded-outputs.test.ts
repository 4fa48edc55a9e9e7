/**
 * Import errors that point to the fix: the pure parser of recorded outputs says which flag or
 * command fits a file of another kind, caps its list with "… and N more problems", and names repeated
 * instructions by their text and both line numbers.
 */
import { describe, expect, it } from 'vitest';
import { parseRecordedOutputs } from '../../../src/import/formats/recorded-outputs.ts';
import {
  capProblems,
  fileRowKind,
  shortShown,
  sniffShape,
} from '../../../src/import/formats/sniff.ts';

const reasons = (r: ReturnType<typeof parseRecordedOutputs>): string[] => {
  if (r.ok) throw new Error('expected a failure');
  return r.reason;
};

describe('sniffing the kind of an import file', () => {
  it('tells JSON Lines, JSON arrays and other text apart', () => {
    expect(sniffShape('{"a":1}\n\n{"b":2}\n')).toBe('jsonl');
    expect(sniffShape('\uFEFF{"a":1}\n')).toBe('jsonl');
    expect(sniffShape('[\n  {"a":1}\n]')).toBe('json_array');
    expect(sniffShape('{\n  "a": 1\n}')).toBe('other');
    expect(sniffShape('')).toBe('other');
  });
  it('names the kind of rows from the first row, also in a broken array', () => {
    expect(fileRowKind('[{"instruction":"x","output":"y","generator":"g"}]')).toBe('outputs');
    expect(fileRowKind('[\n {\n  "instruction": "x",\n  "output": "y",\n')).toBe('outputs');
    expect(fileRowKind('{"model_a":"a","model_b":"b","winner":"tie"}\n')).toBe('battles');
    expect(fileRowKind('{"model_a":"a","model_b":"b","model_a_wins":3}\n')).toBe('pair_counts');
    expect(fileRowKind('{"item":"1","prompt":"p","output":"o"}\n')).toBe('outputs_jsonl');
    expect(fileRowKind('{"x":1}\n')).toBe('unknown');
  });
  it('caps a list at 20 with the count of the rest and the total', () => {
    const p = Array.from({ length: 23 }, (_, i) => `f:${i + 1}: bad`);
    const capped = capProblems(p);
    expect(capped).toHaveLength(21);
    expect(capped[20]).toBe('… and 3 more problems (23 in total)');
    expect(capProblems(p.slice(0, 21))[20]).toBe('… and 1 more problem (21 in total)');
    expect(capProblems(p.slice(0, 20))).toEqual(p.slice(0, 20));
  });
  it('shortens user text for the catalogue to quote', () => {
    expect(shortShown('a\n  b')).toBe('a b');
    expect(shortShown('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(shortShown('say "hi"')).toBe('say \\"hi\\"');
  });
});

describe('parseRecordedOutputs errors', () => {
  it('a JSONL file read as the default AlpacaEval format says to add --format jsonl', () => {
    const text =
      '{"item":"1","prompt":"p1","output":"o1"}\n{"item":"2","prompt":"p2","output":"o2"}\n';
    expect(reasons(parseRecordedOutputs(text, 'out.jsonl', 'alpaca_eval'))).toEqual([
      'out.jsonl:1: this looks like JSON Lines (one object per line), not a JSON array: add --format jsonl',
    ]);
  });
  it('a CSV or TSV table, in either format, is named as a table with the shapes zhujiu reads', () => {
    const csv = 'instruction,output,generator\nhi,hello,m1\n';
    const tsv = 'item\tprompt\toutput\n1\tp\to\n';
    for (const [text, format] of [
      [csv, 'alpaca_eval'],
      [csv, 'jsonl'],
      [tsv, 'jsonl'],
    ] as const)
      expect(reasons(parseRecordedOutputs(text, 'data.csv', format))).toEqual([
        'data.csv:1: this looks like a CSV table, not JSON; zhujiu reads AlpacaEval JSON (an array of {instruction, output, generator}) or, with --format jsonl, one {item, prompt, output} object per line: convert the table to one of them',
      ]);
    // One line of prose with a comma is not a table: it is reported as the JSON it is not.
    expect(reasons(parseRecordedOutputs('hello, world\n', 'a.json', 'alpaca_eval'))[0]).toMatch(
      /^a\.json:1:1: not valid JSON/u,
    );
  });
  it('a JSON array given with --format jsonl says to use --format alpaca_eval', () => {
    const text = JSON.stringify([{ instruction: 'i', output: 'o' }], null, 2);
    expect(reasons(parseRecordedOutputs(text, 'm.json', 'jsonl'))).toEqual([
      'm.json:1: this is a JSON array, not one object per line; use --format alpaca_eval',
    ]);
  });
  it('a battles file says to use `zhujiu import battles`, a pair-count file `zhujiu ratings --battles`', () => {
    const battles =
      '{"model_a":"a","model_b":"b","winner":"tie"}\n{"model_a":"a","model_b":"c","winner":"model_a"}\n';
    for (const format of ['alpaca_eval', 'jsonl'] as const) {
      expect(reasons(parseRecordedOutputs(battles, 'b.jsonl', format))).toEqual([
        'b.jsonl:1: this looks like arena battles ({model_a, model_b, winner}), not model outputs; import it with `zhujiu import battles b.jsonl`',
      ]);
    }
    const counts = '{"model_a":"a","model_b":"b","model_a_wins":3,"model_b_wins":1}\n';
    expect(reasons(parseRecordedOutputs(counts, 'c.jsonl', 'jsonl'))).toEqual([
      'c.jsonl:1: this looks like arena battles ({model_a, model_b, model_a_wins}), not model outputs; rate it with `zhujiu ratings --battles c.jsonl`',
    ]);
  });
  it('more than 20 bad rows end with "… and N more problems"', () => {
    const text = Array.from({ length: 25 }, (_, i) => `{"item":"${i}","prompt":""}`).join('\n');
    const r = reasons(parseRecordedOutputs(text, 'x.jsonl', 'jsonl'));
    expect(r).toHaveLength(21);
    expect(r[0]).toBe('x.jsonl:1: "prompt" must be a non-empty string; "output" is missing');
    expect(r[20]).toBe('… and 5 more problems (25 in total)');
  });
  it('a repeated instruction is named by its text and both lines, not by a hash', () => {
    const long = `Explain why the sky is blue ${'in great detail '.repeat(5)}`;
    const text = JSON.stringify(
      [
        { instruction: long, output: 'a' },
        { instruction: 'other', output: 'b' },
        { instruction: long, output: 'c' },
      ],
      null,
      2,
    );
    expect(reasons(parseRecordedOutputs(text, 'm.json', 'alpaca_eval'))).toEqual([
      'm.json:10: instruction "Explain why the sky is blue in great detail in great detail…" appears again (first at line 2); keep one answer per instruction',
    ]);
  });
});

describe('the other importers also end a long list with "… and N more problems"', () => {
  it('`judge agree` labels files', async () => {
    const { parseLabels } = await import('../../../src/import/formats/labels.ts');
    // Different problems are capped; the same problem on many lines is one line naming them.
    const text = Array.from({ length: 22 }, (_, i) => `{"item":"${i % 11}","label":1}`).join('\n');
    const r = parseLabels(`{oops\n${'{"item":"x"}\n'.repeat(40)}`, 'l.jsonl');
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.reason).toEqual([
      `l.jsonl:1:2: not valid JSON (expected a string key in double quotes or '}', found 'o'); expected {"item": ..., "label": ...} on each line`,
      'l.jsonl:2: "label" must be a number or a non-empty string (also on lines 3, 4, 5 and 36 more)',
    ]);
    const dup = parseLabels(
      `${text}\n${Array.from({ length: 11 }, (_, i) => `{"item":"y${i}","label":1}`).join('\n')}\n${Array.from({ length: 11 }, (_, i) => `{"item":"y${i}","label":1}`).join('\n')}`,
      'l.jsonl',
    );
    const reason = dup.ok ? [] : dup.reason;
    expect(reason).toHaveLength(21);
    expect(reason[20]).toBe('… and 2 more problems (22 in total)');
  });
  it('`import outputs --format gaokao` result files', async () => {
    const { parseGaokaoFile } = await import('../../../src/import/formats/gaokao.ts');
    const { GAOKAO_KEYWORD_TYPES } = await import('../../../src/eval/metrics/gaokao.ts');
    const keyword = Object.keys(GAOKAO_KEYWORD_TYPES)[0] as string;
    const text = JSON.stringify(
      { keywords: keyword, example: Array.from({ length: 30 }, () => ({ year: 2010 })) },
      null,
      1,
    );
    const r = parseGaokaoFile(text, 'g.json');
    const reason = r.ok ? [] : r.reason;
    expect(reason).toHaveLength(21);
    expect(reason[20]).toBe('… and 10 more problems (30 in total)');
  });
});
