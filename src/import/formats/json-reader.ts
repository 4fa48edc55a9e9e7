/**
 * @module import/formats/json-reader
 * The one reader of JSON and JSON Lines files for datasets and imports. A JSON syntax error is located by this
 * module's own scan of the text (line and column of the first offending character), never by reading the JSS
 * engine's error message, whose wording and positions differ between Node versions. Pure: callers pass the text.
 *
 * One wording for every error (README, "import outputs" and "Datasets and suites"):
 * - syntax: `FILE:LINE:COL: not valid JSON (<what was expected>, found <what was there>)`;
 * - anything else about a row: `FILE:LINE: <reason>`.
 */

import type { Said } from '../../core/errors.ts';
import { type CliMessageKey, said, sayCli } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { containerLines, lineAt } from './json-locate.ts';

/** Where and why a JSON text is not valid JSON. `line` and `column` are 1-based; a column counts UTF-16 units. */
export interface JsonSyntaxError {
  /** 0-based offset of the offending character in the text given (after a leading BOM was dropped). */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** What was expected and what was found, e.g. `expected ',' or '}', found '"'` (English). */
  readonly reason: string;
  /** {@link reason} as catalogue data, for {@link jsonSyntaxMessage} to say in a language. */
  readonly said: Said;
}

/** A parsed JSON document, with the 1-based line where any object or array in it starts. */
export interface JsonDocument {
  readonly ok: true;
  readonly value: unknown;
  /**
   * The 1-based line where the object or array at `path` starts: keys and array indexes joined with `.`
   * (`'3'` is the fourth top-level element, `'data.0.qas.2'`, `''` the root); `undefined` for a path that is not an
   * object or array. Computed on first use, in one pass over the text.
   */
  lineOf(path: string): number | undefined;
}

/** One non-blank line of a JSON Lines text, parsed. */
export interface JsonlRow {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: unknown;
}

/** Drops a leading UTF-8 byte order mark (U+FEFF), which JSON.parse rejects. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses one JSON text (a leading BOM dropped). On a syntax error, the result names its real line and column.
 * @returns `{ ok: true, value, lineOf }` or `{ ok: false, error }`.
 */
export function readJson(text: string): JsonDocument | { ok: false; error: JsonSyntaxError } {
  const body = stripBom(text);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, error: locateJsonError(body) };
  }
  let lines: Map<string, number> | undefined;
  return {
    ok: true,
    value,
    lineOf(path) {
      lines ??= containerLines(body);
      return lines.get(path);
    },
  };
}

/** One non-blank line of a JSON Lines text that is not valid JSON. */
export interface JsonlError {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly error: JsonSyntaxError;
}

/**
 * Parses a JSON Lines text: one JSON value per line, blank lines skipped, a leading BOM and CRLF line ends accepted.
 * A line that is not valid JSON becomes an error at its line (and the column within that line); the other lines
 * are still read.
 * @returns `rows` and `errors`, and `entries`, both in file order (what a loader reporting in line order walks).
 */
export function readJsonl(text: string): {
  rows: JsonlRow[];
  errors: JsonSyntaxError[];
  entries: (({ ok: true } & JsonlRow) | ({ ok: false } & JsonlError))[];
} {
  const rows: JsonlRow[] = [];
  const errors: JsonSyntaxError[] = [];
  const entries: (({ ok: true } & JsonlRow) | ({ ok: false } & JsonlError))[] = [];
  let start = 0;
  let line = 0;
  const body = stripBom(text);
  while (start <= body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    line++;
    const r = readJsonLine(body.slice(start, end), line);
    if (r.ok) {
      if (r.value !== undefined) {
        rows.push({ line, value: r.value });
        entries.push({ ok: true, line, value: r.value });
      }
    } else {
      const error = { ...r.error, offset: start + r.error.offset };
      errors.push(error);
      entries.push({ ok: false, line, error });
    }
    start = end + 1;
  }
  return { rows, errors, entries };
}

/**
 * Parses one line of a JSON Lines file (a trailing `\r` and a leading BOM are dropped). A blank line gives
 * `{ ok: true, value: undefined }`. On a syntax error, `error.line` is `lineNo` and `error.column` the column in
 * this line.
 */
export function readJsonLine(
  raw: string,
  lineNo: number,
): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  const text = stripBom(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const e = locateJsonError(text);
    return { ok: false, error: { ...e, line: lineNo + e.line - 1 } };
  }
}

/**
 * `FILE:LINE:COL: not valid JSON (<reason>)`, the one wording of a JSON syntax error, in `locale` (the command
 * line's; default English).
 * @param hint what to do, said after the reason (`; fix the syntax at that line`).
 */
export function jsonSyntaxMessage(
  file: string,
  error: JsonSyntaxError,
  hint?: Said,
  locale: Locale = 'en',
): string {
  return sayCli(locale, jsonSyntaxSaid(file, error, hint));
}

/** {@link jsonSyntaxMessage} as catalogue data (for an error the command line says in its language). */
export function jsonSyntaxSaid(file: string, error: JsonSyntaxError, hint?: Said): Said {
  return said('cli.json.invalid', {
    at: `${file}:${error.line}:${error.column}`,
    reason: error.said,
    hint: hint ? said('cli.json.hint', { hint }) : '',
  });
}

const WS = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const DIGIT = (c: number): boolean => c >= 48 && c <= 57;
const HEX = /^[0-9a-fA-F]{4}$/;

/**
 * Finds the first place where `text` stops being JSON (RFC 8259): an iterative scan, so deep nesting cannot
 * overflow the stack. For a text that is valid JSON, returns an error at the end of the text saying so
 * (callers only ask after JSON.parse failed).
 */
export function locateJsonError(text: string): JsonSyntaxError {
  const n = text.length;
  let i = 0;
  const at = (offset: number, expected: CliMessageKey, params?: Readonly<Record<string, string>>) =>
    syntaxErrorAt(text, offset, said(expected, params));
  const skipWs = (): void => {
    while (i < n && WS(text.charCodeAt(i))) i++;
  };
  // Scans one string starting at the quote at i; returns an error or null (i then is after the closing quote).
  const scanString = (): JsonSyntaxError | null => {
    i++;
    for (;;) {
      if (i >= n) return at(i, 'cli.json.expect.closeString', { quote: '"' });
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return null;
      }
      if (c < 32) return at(i, 'cli.json.expect.escapeControl', { quote: '"', backslash: '\\' });
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!HEX.test(text.slice(i + 2, i + 6))) return at(i, 'cli.json.expect.hex');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else
          return at(i, 'cli.json.expect.escape', {
            escapes: '\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u',
            backslash: '\\',
          });
        continue;
      }
      i++;
    }
  };
  const scanNumber = (): JsonSyntaxError | null => {
    if (text.charCodeAt(i) === 45) i++;
    if (i < n && text.charCodeAt(i) === 48) i++;
    else if (i < n && DIGIT(text.charCodeAt(i))) while (i < n && DIGIT(text.charCodeAt(i))) i++;
    else return at(i, 'cli.json.expect.digit');
    if (text.charCodeAt(i) === 46) {
      i++;
      if (!DIGIT(text.charCodeAt(i))) return at(i, 'cli.json.expect.digitAfterPoint');
      while (i < n && DIGIT(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      const s = text.charCodeAt(i);
      if (s === 43 || s === 45) i++;
      if (!DIGIT(text.charCodeAt(i))) return at(i, 'cli.json.expect.digitExponent');
      while (i < n && DIGIT(text.charCodeAt(i))) i++;
    }
    return null;
  };
  // Scans one value at i (whitespace already skipped). Opening a container pushes it and returns 'open'.
  const stack: ('{' | '[')[] = [];
  const scanValue = (): JsonSyntaxError | 'open' | null => {
    if (i >= n) return at(i, 'cli.json.expect.value');
    const c = text[i] as string;
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      return 'open';
    }
    if (c === '"') return scanString();
    if (c === '-' || DIGIT(text.charCodeAt(i))) return scanNumber();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    return at(i, 'cli.json.expect.valueKinds');
  };
  // After a container opened: an empty close, a key (objects) or a value (arrays).
  const firstInContainer = (): JsonSyntaxError | 'open' | null => {
    skipWs();
    const top = stack.at(-1);
    if (top === '[' && text[i] === ']') return null;
    if (top === '{' && text[i] === '}') return null;
    return top === '{' ? memberStart('cli.json.expect.keyOrClose') : valueIn();
  };
  const memberStart = (expected: CliMessageKey): JsonSyntaxError | 'open' | null => {
    skipWs();
    if (text[i] !== '"') return at(i, expected, { close: '}' });
    const s = scanString();
    if (s) return s;
    skipWs();
    if (text[i] !== ':') return at(i, 'cli.json.expect.colon');
    i++;
    return valueIn();
  };
  const valueIn = (): JsonSyntaxError | 'open' | null => {
    skipWs();
    return scanValue();
  };

  skipWs();
  let r = scanValue();
  for (;;) {
    if (r !== null && r !== 'open') return r;
    if (r === 'open') {
      r = firstInContainer();
      continue;
    }
    // A value just ended: close containers or go on to the next element.
    skipWs();
    const top = stack.at(-1);
    if (top === undefined) break;
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      r = null;
      continue;
    }
    if (text[i] !== ',') return at(i, 'cli.json.expect.commaOr', { close });
    i++;
    r = top === '{' ? memberStart('cli.json.expect.key') : valueIn();
  }
  if (i < n) return at(i, 'cli.json.expect.end');
  return at(n, 'cli.json.expect.valid');
}

/** The syntax error at `offset` of `text`: its line and column, and what was expected there and found. */
function syntaxErrorAt(text: string, offset: number, expected: Said): JsonSyntaxError {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const reason = said('cli.json.reason', { expected, found: found(text, offset) });
  const column = offset - lineStart + 1;
  return { offset, line: lineAt(text, offset), column, reason: sayCli('en', reason), said: reason };
}

/** The character at `offset`, quoted, or "the end of the text" (catalogue data). */
function found(text: string, offset: number): Said {
  if (offset >= text.length) return said('cli.json.found.end');
  const c = text.codePointAt(offset) as number;
  if (c < 32)
    return said('cli.json.found.control', {
      code: c.toString(16).toUpperCase().padStart(4, '0'),
    });
  return said('cli.json.found.char', { char: String.fromCodePoint(c) });
}
