/**
 * @module llm/recorded-outputs
 * Parses files of recorded model outputs (the "recorded" model provider). Pure: text in, rows out, every problem
 * reported as `file:line: reason`.
 *
 * Formats:
 * - `alpaca_eval`: AlpacaEval's `model_outputs.json`, a JSON array of `{instruction, output, generator?, dataset?}`.
 *   The item key is derived from the instruction (sha256, 16 hex), so the same instruction answered by several
 *   models is one item.
 * - `jsonl`: one `{item, prompt, output}` object per line; `item` is the key.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { fail, ok, type Result } from '../../core/result.ts';
import { lineAt } from './json-locate.ts';
import { jsonSyntaxMessage, readJson, readJsonl } from './json-reader.ts';
import { capProblems, fileRowKind, looksLikeCsv, quoteShort, sniffShape } from './sniff.ts';

/** A recorded answer to one prompt. */
export interface RecordedOutput {
  /** 1-based line where the row starts. */
  readonly line: number;
  readonly key: string;
  readonly prompt: string;
  readonly output: string;
  readonly generator?: string;
  /** The source subset (AlpacaEval `dataset`, e.g. "helpful_base"). */
  readonly subset?: string;
}

/** Supported formats. */
export type OutputsFormat = 'alpaca_eval' | 'jsonl';

/** The item key of an instruction: first 16 hex chars of its SHA-256 (stable across models and runs). */
export function instructionKey(instruction: string): string {
  return createHash('sha256').update(instruction, 'utf8').digest('hex').slice(0, 16);
}

/** Longest answer accepted (characters): far above real answers, low enough that a broken file is caught. */
export const MAX_OUTPUT_CHARS = 200_000;

/** Longest prompt accepted (characters), the same bound as answers: a prompt is stored with every item. */
export const MAX_PROMPT_CHARS = 200_000;

/** Longest item key (characters): the database's limit (`items.key`, migrations/0001). */
export const MAX_ITEM_KEY_CHARS = 500;

const outputField = z
  .string({ error: 'must be a string (the model answer)' })
  .max(MAX_OUTPUT_CHARS, `is longer than ${MAX_OUTPUT_CHARS.toLocaleString('en')} characters`);

/** A prompt (AlpacaEval `instruction`, JSONL `prompt`): non-empty, at most {@link MAX_PROMPT_CHARS}. */
export const promptField = z
  .string({ error: 'must be a non-empty string' })
  .min(1, 'must be a non-empty string')
  .max(
    MAX_PROMPT_CHARS,
    `is longer than ${MAX_PROMPT_CHARS.toLocaleString('en')} characters; shorten it or drop the row`,
  );

const alpacaRow = z.object({
  instruction: promptField,
  output: outputField,
  generator: z.string().optional(),
  dataset: z.string().optional(),
});

const jsonlRow = z.object({
  item: z.union(
    [
      z
        .string()
        .min(1)
        .max(
          MAX_ITEM_KEY_CHARS,
          `is longer than ${MAX_ITEM_KEY_CHARS} characters; use a shorter key`,
        ),
      z.number().int(),
    ],
    { error: 'must be a non-empty string or an integer id' },
  ),
  prompt: promptField,
  output: outputField,
});

/** Offsets where the top-level array's elements start (a tiny JSON scanner: strings, escapes and depth). */
function elementOffsets(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (depth === 1 && expectValue) {
      starts.push(i);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return starts;
}

function describeIssue(issue: z.core.$ZodIssue, row: unknown): string {
  const key = issue.path.length > 0 ? `"${issue.path.join('.')}"` : 'row';
  const first = issue.path[0];
  const absent =
    first !== undefined &&
    typeof row === 'object' &&
    row !== null &&
    !(String(first) in (row as object));
  const msg = issue.code === 'invalid_type' && absent ? 'is missing' : issue.message;
  return `${key} ${msg}`;
}

/**
 * What is wrong with the file as a whole, before its rows are read: not text, a file of another kind (arena
 * battles, say which command fits), a JSON array given as JSON Lines, empty, or a CSV table.
 * @returns the problem line (`file:LINE: …`), or undefined when the rows can be read.
 */
function wrongShape(text: string, file: string, format: OutputsFormat): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    return `${file}:${lineAt(text, nul)}: not a text file (it contains NUL bytes); expected UTF-8 JSON`;
  }
  // A file of another kind: say which command fits rather than listing every row as wrong.
  const kind = fileRowKind(text);
  if (kind === 'battles' || kind === 'pair_counts') {
    return (
      `${file}:1: this looks like arena battles ({model_a, model_b, ${kind === 'battles' ? 'winner' : 'model_a_wins'}}), not model outputs; ` +
      (kind === 'battles'
        ? `import it with \`zhujiu import battles ${file}\``
        : `rate it with \`zhujiu ratings --battles ${file}\``)
    );
  }
  if (format === 'jsonl' && text.trimStart().startsWith('[')) {
    return `${file}:1: this is a JSON array, not one object per line; use --format alpaca_eval`;
  }
  if (text.trim() === '')
    return `${file}:1: the file is empty; expected ${format === 'jsonl' ? 'one JSON object per line' : 'a JSON array of {instruction, output}'}`;
  if (looksLikeCsv(text))
    return `${file}:1: this looks like a CSV table, not JSON; zhujiu reads AlpacaEval JSON (an array of {instruction, output, generator}) or, with --format jsonl, one {item, prompt, output} object per line: convert the table to one of them`;
  return undefined;
}

/**
 * Parses a recorded-outputs file.
 * @param text the file's contents (UTF-8).
 * @param file the name to show in errors.
 * @returns the rows, or the problems found as `file:line: reason` lines (the first 20, then `… and N more
 *   problems (T in total)`); a file of another kind (JSON Lines without `--format jsonl`, arena battles) gets one
 *   line naming the flag or command that fits.
 */
export function parseRecordedOutputs(
  text: string,
  file: string,
  format: OutputsFormat,
): Result<RecordedOutput[], string[]> {
  const problems: string[] = [];
  const rows: RecordedOutput[] = [];
  // A UTF-8 byte-order mark (some Windows editors add one) is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const wrong = wrongShape(text, file, format);
  if (wrong) return fail([wrong]);
  if (format === 'alpaca_eval') {
    const json = readJson(text);
    if (!json.ok) {
      if (sniffShape(text) === 'jsonl') {
        return fail([
          `${file}:1: this looks like JSON Lines (one object per line), not a JSON array: add --format jsonl`,
        ]);
      }
      return fail([jsonSyntaxMessage(file, json.error, 'fix the syntax at that line')]);
    }
    const data = json.value;
    if (!Array.isArray(data)) {
      return fail([
        `${file}:1: expected a JSON array of {instruction, output, generator} (AlpacaEval model_outputs.json); use --format jsonl for one object per line`,
      ]);
    }
    const offsets = elementOffsets(text);
    data.forEach((row, i) => {
      const start = offsets[i] ?? 0;
      const parsed = alpacaRow.safeParse(row);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          // Point at the offending key's line when we can find it inside this element.
          const end = offsets[i + 1] ?? text.length;
          const keyAt =
            issue.path.length > 0 ? text.indexOf(`"${String(issue.path[0])}"`, start) : -1;
          const line = keyAt >= 0 && keyAt < end ? lineAt(text, keyAt) : lineAt(text, start);
          problems.push(`${file}:${line}: element ${i}: ${describeIssue(issue, row)}`);
        }
        return;
      }
      const r = parsed.data;
      rows.push({
        line: lineAt(text, start),
        key: instructionKey(r.instruction),
        prompt: r.instruction,
        output: r.output,
        ...(r.generator !== undefined ? { generator: r.generator } : {}),
        ...(r.dataset !== undefined ? { subset: r.dataset } : {}),
      });
    });
  } else {
    for (const e of readJsonl(text).entries) {
      if (!e.ok) {
        problems.push(jsonSyntaxMessage(file, e.error));
        continue;
      }
      const { line, value: obj } = e;
      const parsed = jsonlRow.safeParse(obj);
      if (!parsed.success) {
        problems.push(
          `${file}:${line}: ${parsed.error.issues.map((x) => describeIssue(x, obj)).join('; ')}`,
        );
        continue;
      }
      rows.push({
        line,
        key: String(parsed.data.item),
        prompt: parsed.data.prompt,
        output: parsed.data.output,
      });
    }
  }
  if (problems.length > 0) return fail(capProblems(problems));
  const seen = new Map<string, number>();
  for (const r of rows) {
    const prev = seen.get(r.key);
    if (prev !== undefined) {
      // Named by what the user wrote: the instruction's text (AlpacaEval keys are internal hashes) or the item key.
      problems.push(
        format === 'alpaca_eval'
          ? `${file}:${r.line}: instruction ${quoteShort(r.prompt)} appears again (first at line ${prev}); keep one answer per instruction`
          : `${file}:${r.line}: item "${r.key}" appears again (first at line ${prev}); keep one answer per item`,
      );
    }
    seen.set(r.key, r.line);
  }
  if (rows.length === 0) problems.push(`${file}:1: no rows found`);
  return problems.length > 0 ? fail(capProblems(problems)) : ok(rows);
}
