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
import { isCliKey, said, tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';
import { lineAt } from './json-locate.ts';
import { jsonSyntaxMessage, readJson, readJsonl } from './json-reader.ts';
import { capProblems, fileRowKind, looksLikeCsv, shortShown, sniffShape } from './sniff.ts';

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

// The schema's own messages are catalogue keys, said by describeIssue in the reader's language.
const outputField = z
  .string({ error: 'cli.outputs.answerString' })
  .max(MAX_OUTPUT_CHARS, 'cli.outputs.outputTooLong');

/** A prompt (AlpacaEval `instruction`, JSONL `prompt`): non-empty, at most {@link MAX_PROMPT_CHARS}. */
export const promptField = z
  .string({ error: 'cli.outputs.nonEmpty' })
  .min(1, 'cli.outputs.nonEmpty')
  .max(MAX_PROMPT_CHARS, 'cli.outputs.promptTooLong');

const alpacaRow = z.object({
  instruction: promptField,
  output: outputField,
  generator: z.string().optional(),
  dataset: z.string().optional(),
});

const jsonlRow = z.object({
  item: z.union(
    [z.string().min(1).max(MAX_ITEM_KEY_CHARS, 'cli.outputs.keyTooLong'), z.number().int()],
    { error: 'cli.outputs.itemId' },
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

/**
 * One schema issue of a row in `locale`: `"output" is missing`, `"prompt" must be a non-empty string`. The schema's
 * messages are catalogue keys; another message (zod's own) is said as zod gives it.
 */
export function describeIssue(issue: z.core.$ZodIssue, row: unknown, locale: Locale): string {
  const key = issue.path.join('.');
  const first = issue.path[0];
  const absent =
    first !== undefined &&
    typeof row === 'object' &&
    row !== null &&
    !(String(first) in (row as object));
  const msg =
    issue.code === 'invalid_type' && absent
      ? tc(locale, 'cli.outputs.missing')
      : issueMessage(issue, locale);
  return key === ''
    ? tc(locale, 'cli.outputs.rowIssue', { msg })
    : tc(locale, 'cli.outputs.issue', { key, msg });
}

/** The message of a schema issue in `locale`: a catalogue key of these schemas said, any other as it is. */
export function issueMessage(issue: z.core.$ZodIssue, locale: Locale): string {
  return isCliKey(issue.message)
    ? tc(locale, issue.message, {
        outputMax: MAX_OUTPUT_CHARS.toLocaleString('en'),
        promptMax: MAX_PROMPT_CHARS.toLocaleString('en'),
        keyMax: MAX_ITEM_KEY_CHARS,
      })
    : issue.message;
}

/**
 * What is wrong with the file as a whole, before its rows are read: not text, a file of another kind (arena
 * battles, say which command fits), a JSON array given as JSON Lines, empty, or a CSV table.
 * @returns the problem line (`file:LINE: …`), or undefined when the rows can be read.
 */
function wrongShape(
  text: string,
  file: string,
  format: OutputsFormat,
  locale: Locale,
  formatDefaulted: boolean,
): string | undefined {
  const at = `${file}:1`;
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return tc(locale, 'cli.outputs.notText', { at: `${file}:${lineAt(text, nul)}` });
  // A file of another kind: say which command fits rather than listing every row as wrong.
  const kind = fileRowKind(text);
  if (kind === 'battles')
    return tc(locale, 'cli.outputs.battles', { at, file, shape: '{model_a, model_b, winner}' });
  if (kind === 'pair_counts')
    return tc(locale, 'cli.outputs.pairCounts', {
      at,
      file,
      shape: '{model_a, model_b, model_a_wins}',
    });
  if (format === 'jsonl' && text.trimStart().startsWith('['))
    return tc(locale, 'cli.outputs.arrayAsJsonl', { at });
  if (text.trim() === '')
    return format === 'jsonl'
      ? tc(locale, 'cli.outputs.emptyJsonl', { at })
      : formatDefaulted && /\.jsonl$/iu.test(file)
        ? tc(locale, 'cli.outputs.emptyJsonlName', {
            at,
            shape: '{instruction, output}',
            jsonl: '{item, prompt, output}',
          })
        : tc(locale, 'cli.outputs.emptyArray', { at, shape: '{instruction, output}' });
  if (looksLikeCsv(text))
    return tc(locale, 'cli.outputs.csv', {
      at,
      alpaca: '{instruction, output, generator}',
      jsonl: '{item, prompt, output}',
    });
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
  locale: Locale = 'en',
  formatDefaulted = false,
): Result<RecordedOutput[], string[]> {
  const problems: string[] = [];
  const rows: RecordedOutput[] = [];
  // A UTF-8 byte-order mark (some Windows editors add one) is not part of the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const wrong = wrongShape(text, file, format, locale, formatDefaulted);
  const errorMap = zodParseOptions(locale);
  if (wrong) return fail([wrong]);
  if (format === 'alpaca_eval') {
    const json = readJson(text);
    if (!json.ok) {
      if (sniffShape(text) === 'jsonl') {
        return fail([tc(locale, 'cli.outputs.looksJsonl', { at: `${file}:1` })]);
      }
      return fail([jsonSyntaxMessage(file, json.error, said('cli.json.fixSyntax'), locale)]);
    }
    const data = json.value;
    if (!Array.isArray(data)) {
      return fail([
        tc(locale, 'cli.outputs.notArray', {
          at: `${file}:1`,
          shape: '{instruction, output, generator}',
        }),
      ]);
    }
    const offsets = elementOffsets(text);
    data.forEach((row, i) => {
      const start = offsets[i] ?? 0;
      const parsed = alpacaRow.safeParse(row, errorMap);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          // Point at the offending key's line when we can find it inside this element.
          const end = offsets[i + 1] ?? text.length;
          const keyAt =
            issue.path.length > 0 ? text.indexOf(`"${String(issue.path[0])}"`, start) : -1;
          const line = keyAt >= 0 && keyAt < end ? lineAt(text, keyAt) : lineAt(text, start);
          problems.push(
            tc(locale, 'cli.outputs.element', {
              at: `${file}:${line}`,
              i,
              issue: describeIssue(issue, row, locale),
            }),
          );
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
        problems.push(jsonSyntaxMessage(file, e.error, undefined, locale));
        continue;
      }
      const { line, value: obj } = e;
      const parsed = jsonlRow.safeParse(obj, errorMap);
      if (!parsed.success) {
        problems.push(
          tc(locale, 'cli.outputs.rowIssues', {
            at: `${file}:${line}`,
            issues: parsed.error.issues
              .map((x) => describeIssue(x, obj, locale))
              .join(tc(locale, 'cli.outputs.sep')),
          }),
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
  if (problems.length > 0) return fail(capProblems(problems, undefined, locale));
  const seen = new Map<string, number>();
  for (const r of rows) {
    const prev = seen.get(r.key);
    if (prev !== undefined) {
      // Named by what the user wrote: the instruction's text (AlpacaEval keys are internal hashes) or the item key.
      problems.push(
        format === 'alpaca_eval'
          ? tc(locale, 'cli.outputs.instructionTwice', {
              at: `${file}:${r.line}`,
              text: shortShown(r.prompt),
              prev,
            })
          : tc(locale, 'cli.outputs.itemTwice', { at: `${file}:${r.line}`, key: r.key, prev }),
      );
    }
    seen.set(r.key, r.line);
  }
  if (rows.length === 0) problems.push(tc(locale, 'cli.outputs.noRows', { at: `${file}:1` }));
  return problems.length > 0 ? fail(capProblems(problems, undefined, locale)) : ok(rows);
}
