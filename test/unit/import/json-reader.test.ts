/** The one JSON / JSON Lines reader: rows with their lines, and syntax errors at their real line and column. */
import { describe, expect, it } from 'vitest';
import {
  jsonSyntaxMessage,
  locateJsonError,
  readJson,
  readJsonl,
} from '../../../src/import/formats/json-reader.ts';

/** A pretty-printed C3-like array whose line 5 lacks the comma after `"b"` (column 9 is the stray quote). */
const brokenOnLine5 = [
  '[',
  '  [',
  '    ["a"],',
  '    [{"question": "q",',
  '      "choice": ["b" "c"],',
  '      "answer": "b"}],',
  '    "d1"',
  '  ]',
  ']',
].join('\n');

describe('readJson', () => {
  it('reports a syntax error on line 5 at its line and column, whatever the Node version', () => {
    const r = readJson(brokenOnLine5);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ line: 5, column: 22 });
    expect(jsonSyntaxMessage('c3.json', r.error)).toBe(
      `c3.json:5:22: not valid JSON (expected ',' or ']', found '"')`,
    );
  });

  it('gives the line of each top-level element of a valid document', () => {
    const r = readJson('[\n  {"a": 1},\n\n  {"a": [\n 2]}\n]');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual([{ a: 1 }, { a: [2] }]);
    expect([r.lineOf('0'), r.lineOf('1'), r.lineOf('1.a'), r.lineOf('9')]).toEqual([
      2,
      4,
      4,
      undefined,
    ]);
  });

  it('accepts a UTF-8 BOM and CRLF line ends, and counts lines across CRLF', () => {
    const ok = readJson('\uFEFF[\r\n1,\r\n2\r\n]\r\n');
    expect(ok.ok && ok.value).toEqual([1, 2]);
    const bad = readJson('\uFEFF[\r\n1,\r\n2,\r\n]\r\n');
    expect(!bad.ok && bad.error).toMatchObject({ line: 4, column: 1 });
    expect(!bad.ok && bad.error.reason).toMatch(/^expected a value/);
  });

  it('says an empty or blank file ends where a value was expected', () => {
    for (const text of ['', '  \n']) {
      const r = readJson(text);
      expect(!r.ok && r.error.reason).toBe('expected a value, found the end of the text');
    }
    const r = readJson('\n\n');
    expect(!r.ok && r.error).toMatchObject({ line: 3, column: 1 });
  });

  it('locates an error near the end of a huge single line', () => {
    const body = `[${Array.from({ length: 200_000 }, (_, k) => k).join(',')}`;
    const r = readJson(`${body},}`);
    expect(!r.ok && r.error).toMatchObject({ line: 1, column: body.length + 2 });
    expect(!r.ok && r.error.reason).toMatch(/found '}'/);
  });

  it('names each kind of syntax error', () => {
    const reasonOf = (t: string): string => locateJsonError(t).reason;
    expect(reasonOf('{"a" 1}')).toBe("expected ':' after the key, found '1'");
    expect(reasonOf("{'a': 1}")).toBe("expected a string key in double quotes or '}', found '''");
    expect(reasonOf('{"a": 1,}')).toBe("expected a string key in double quotes, found '}'");
    expect(reasonOf('"abc')).toBe(`expected '"' to close the string, found the end of the text`);
    expect(reasonOf('"a\tb"')).toMatch(
      /control characters must be escaped\), found control character U\+0009/,
    );
    expect(reasonOf('"\\x"')).toMatch(/^expected one of/);
    expect(reasonOf('"\\u12g4"')).toMatch(/^expected four hex digits/);
    expect(reasonOf('01')).toBe("expected the end of the text after the value, found '1'");
    expect(reasonOf('1.')).toBe("expected a digit after '.', found the end of the text");
    expect(reasonOf('1e+')).toMatch(/^expected a digit in the exponent/);
    expect(reasonOf('-x')).toBe("expected a digit, found 'x'");
    expect(reasonOf('[tru]')).toMatch(/^expected a value \(an object/);
    expect(reasonOf('[1] [2]')).toBe("expected the end of the text after the value, found '['");
    expect(reasonOf('[1, 2')).toBe("expected ',' or ']', found the end of the text");
    expect(reasonOf('{"a": {"b": [1, {"c": "😀"}]}, "d": 2} x')).toMatch(/found 'x'$/);
  });

  it('agrees with JSON.parse on valid texts, deep nesting included', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    for (const t of ['{}', '[]', '{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\n"]}', ' 0 ', deep]) {
      expect(locateJsonError(t).reason).toBe('the text is valid JSON, found the end of the text');
    }
  });
});

describe('readJsonl', () => {
  it('reports a syntax error on line 7 at its line and column, and keeps reading', () => {
    const lines = Array.from({ length: 9 }, (_, k) => JSON.stringify({ n: k + 1 }));
    lines[6] = '{"n": 7, "model_a": gpt}';
    const r = readJsonl(lines.join('\n'));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 7, column: 21 });
    expect(jsonSyntaxMessage('votes.jsonl', r.errors[0]!)).toMatch(
      /^votes\.jsonl:7:21: not valid JSON \(expected a value/,
    );
    expect(r.rows.map((x) => x.line)).toEqual([1, 2, 3, 4, 5, 6, 8, 9]);
    expect(r.entries.map((x) => `${x.line}${x.ok ? '' : '!'}`).join(' ')).toBe(
      '1 2 3 4 5 6 7! 8 9',
    );
  });

  it('skips blank lines, drops a BOM and CRLF, and numbers rows by file line', () => {
    const r = readJsonl('\uFEFF{"a":1}\r\n\r\n   \r\n{"a":2}\r\n');
    expect(r.errors).toEqual([]);
    expect(r.rows).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 2 } },
    ]);
  });

  it('reads an empty file as no rows', () => {
    expect(readJsonl('')).toEqual({ rows: [], errors: [], entries: [] });
  });

  it('reads a huge single line', () => {
    const big = { text: 'x'.repeat(2_000_000) };
    const r = readJsonl(JSON.stringify(big));
    expect(r.rows).toHaveLength(1);
    const bad = readJsonl(`${JSON.stringify(big).slice(0, -1)}`);
    expect(bad.errors[0]).toMatchObject({ line: 1, column: 2_000_011 });
  });
});
