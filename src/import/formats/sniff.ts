/**
 * @module import/formats/sniff
 * Guesses which kind of file the user gave, so an import of the wrong kind can say which command or flag fits
 * instead of listing syntax errors. Pure: text in, a guess out.
 */

import { modelNameSaid } from '../../config/model-name.ts';
import type { AppError, Said } from '../../core/errors.ts';
import { listText, said, saidError, tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { shown } from '../../i18n/quote.ts';

/** What a file looks like. */
export type FileShape =
  /** One JSON object per line (at least the first two non-blank lines are objects). */
  | 'jsonl'
  /** A JSON array (the text starts with `[`). */
  | 'json_array'
  | 'other';

/** The kinds of rows the importers take, by the keys of a row. */
export type RowKind =
  | 'outputs'
  | 'outputs_jsonl'
  | 'battles'
  | 'pair_counts'
  /** `judge agree` labels `{item, label}`. */
  | 'labels'
  /** AlpacaEval annotations `{generator_1, generator_2, preference}`. */
  | 'annotations'
  | 'unknown';

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const o: unknown = JSON.parse(line);
    return typeof o === 'object' && o !== null && !Array.isArray(o)
      ? (o as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shape of a file, from its first non-blank lines.
 * @param text the file's text (or its first lines).
 * @returns `jsonl` when the first two non-blank lines each parse as a JSON object (or the only line does),
 *   `json_array` when the text starts with `[`, else `other`.
 */
export function sniffShape(text: string): FileShape {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trimStart().startsWith('[')) return 'json_array';
  const lines: string[] = [];
  for (const l of body.split('\n')) {
    if (l.trim() === '') continue;
    lines.push(l);
    if (lines.length === 2) break;
  }
  if (lines.length === 0) return 'other';
  return lines.every((l) => parseObject(l) !== undefined) ? 'jsonl' : 'other';
}

/**
 * True when `text` looks like a CSV or TSV table rather than JSON: its first two non-blank lines start with
 * neither `{` nor `[` and have the same number (at least one) of commas, or of tabs.
 */
export function looksLikeCsv(text: string): boolean {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 2);
  if (lines.length < 2 || lines.some((l) => /^\s*[{[]/u.test(l))) return false;
  const count = (l: string, sep: string) => l.split(sep).length - 1;
  return [',', '\t'].some(
    (sep) =>
      count(lines[0] as string, sep) > 0 &&
      count(lines[0] as string, sep) === count(lines[1] as string, sep),
  );
}

/**
 * The refusal of a file that cannot be JSON, as catalogue data: one line `FILE:1: this looks like a CSV table` (as
 * {@link looksLikeCsv} tells it) or `FILE:1: this is not JSON`, then `format` (what the command takes); undefined when
 * the file's first non-blank character (after a byte-order mark) opens an object or an array, or the file is blank.
 */
export function notJsonSaid(text: string, file: string, format: Said): Said | undefined {
  const body = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trimStart();
  if (body === '' || body.startsWith('{') || body.startsWith('[')) return undefined;
  return said(looksLikeCsv(body) ? 'cli.files.csv' : 'cli.files.notJson', {
    at: `${file}:1`,
    format,
  });
}

/**
 * The kind of row an object is, by its keys.
 * @returns `battles` for `{model_a, model_b, winner}`, `pair_counts` for `{model_a, model_b, model_a_wins}`,
 *   `outputs` for `{instruction, output}` (AlpacaEval), `outputs_jsonl` for `{item, prompt, output}`, `labels` for
 *   `{item, label}`, `annotations` for `{generator_1, generator_2, preference}` (AlpacaEval), else `unknown`.
 */
export function rowKind(row: unknown): RowKind {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'unknown';
  const has = (k: string) => k in row;
  if (has('model_a') && has('model_b') && has('winner')) return 'battles';
  if (has('model_a') && has('model_b') && has('model_a_wins')) return 'pair_counts';
  if (has('instruction') && has('output')) return 'outputs';
  if (has('prompt') && has('output')) return 'outputs_jsonl';
  if (has('generator_1') && has('generator_2') && has('preference')) return 'annotations';
  if (has('item') && has('label')) return 'labels';
  return 'unknown';
}

/**
 * The kind of rows a file holds, from its first row: the first element of a JSON array (parsed whole when it
 * parses, else found by a key scan of the first lines), or the first non-blank line of JSON Lines.
 */
export function fileRowKind(text: string): RowKind {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trimStart().startsWith('[')) {
    try {
      const data: unknown = JSON.parse(body);
      return Array.isArray(data) ? rowKind(data[0]) : 'unknown';
    } catch {
      // A broken or cut-off array: look at the keys of its start.
      const head = body.slice(0, 4000);
      const keys = Object.fromEntries(
        [...head.matchAll(/"(\w+)"\s*:/g)].map((m) => [m[1] as string, true]),
      );
      return rowKind(keys);
    }
  }
  const first = body.split('\n').find((l) => l.trim() !== '');
  return first === undefined ? 'unknown' : rowKind(parseObject(first));
}

/**
 * Groups problems that say the same thing on different lines (`file:LINE: reason`) into one line per reason,
 * `file:FIRST: reason (also on lines 4, 9, 12 and 199,985 more)`, in order of first appearance, so a file of the
 * wrong kind gives one line instead of one per row (a `file:LINE:COL:` prefix groups by line, the first keeping its
 * column). Problems without a `file:LINE:` prefix are kept as they are.
 */
export function groupProblems(problems: readonly string[], locale: Locale = 'en'): string[] {
  const groups = new Map<string, { first: string; lines: string[] }>();
  const out: (string | { key: string })[] = [];
  for (const p of problems) {
    // `: ` after the position in English, a full-width colon in Chinese.
    const m = /^(.*?):(\d+)(?::\d+)?(?:: |：)(.*)$/su.exec(p);
    if (!m) {
      out.push(p);
      continue;
    }
    const key = `${m[1]}\u0000${m[3]}`;
    const g = groups.get(key);
    if (g) g.lines.push(m[2] as string);
    else {
      groups.set(key, { first: p, lines: [] });
      out.push({ key });
    }
  }
  return out.map((x) => {
    if (typeof x === 'string') return x;
    const g = groups.get(x.key) as { first: string; lines: string[] };
    if (g.lines.length === 0) return g.first;
    const shown = listText(locale, g.lines.slice(0, 3));
    const more = g.lines.length - 3;
    return (
      g.first +
      tc(locale, 'cli.problems.also', {
        n: g.lines.length,
        shown,
        more: more > 0 ? tc(locale, 'cli.problems.alsoMore', { n: more.toLocaleString('en') }) : '',
      })
    );
  });
}

/**
 * Caps a problem list for display: the first `max`, then one line `… and N more problems (T in total)`.
 * @param problems every problem found.
 * @param max how many to show (default 20).
 * @param locale the language of the last line (the command line's; default English).
 */
export function capProblems(
  problems: readonly string[],
  max = 20,
  locale: Locale = 'en',
): string[] {
  if (problems.length <= max) return [...problems];
  const more = problems.length - max;
  return [
    ...problems.slice(0, max),
    tc(locale, 'cli.problems.more', { more, total: problems.length }),
  ];
}

/**
 * A user's text shortened for a message, for the catalogue to quote (`instruction "{text}"`, `指令“{text}”`):
 * whitespace collapsed, at most `max` characters, control characters and quotes escaped (i18n/quote.ts `shown`).
 * @param max longest shown text in characters (default 60), an ellipsis marks the cut.
 */
export function shortShown(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return shown(flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat);
}

/**
 * A name shown exactly as given (spaces kept, so `"  "` shows as such), cut at `max` characters, control characters
 * and quotes escaped (i18n/quote.ts `shown`), for the catalogue to quote (`--model "{name}"`, `--model “{name}”`).
 * @param max longest shown text in characters (default 40), an ellipsis marks the cut.
 */
export function nameShown(name: string, max = 40): string {
  return shown(name.length > max ? `${name.slice(0, max - 1)}…` : name);
}

/**
 * The model-name rule (config/model-name.ts) applied to a flag's value (`--model`, `--judge`): an AppError
 * `input_invalid` (exit 2) naming the flag, the name and the fix, said in the command line's language, or undefined
 * when the name is fine.
 */
export function modelFlagError(flag: string, name: string): AppError | undefined {
  const problem = modelNameSaid(name);
  return problem === undefined
    ? undefined
    : saidError(
        'input_invalid',
        said('cli.modelName.flag', { flag, name: nameShown(name), problem }),
      );
}
