/**
 * @module import/formats/labels
 * Labels files for `zhujiu judge agree`: JSONL, one `{"item", "label"}` per line. `item` is a string or an
 * integer (compared as text); `label` is a number (an ordered score) or a string (a category). Pure: text in,
 * rows or `file:line: reason` out.
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../core/result.ts';
import type { LabelledItem } from '../../eval/metrics/agreement.ts';
import { said, sayCli } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { jsonSyntaxMessage, readJsonl } from './json-reader.ts';
import { capProblems, fileRowKind, groupProblems, notJsonSaid } from './sniff.ts';

const row = z.object({
  item: z
    .union([z.string(), z.number().int()], {
      error: '"item" must be a non-empty string or an integer',
    })
    .refine((v) => v !== '', {
      error: '"item" must be a non-empty string or an integer',
    }),
  label: z
    .union([z.number(), z.string()], { error: '"label" must be a number or a non-empty string' })
    .refine((v) => v !== '', {
      error: '"label" must be a number or a non-empty string',
    }),
});

const LABELS = 'judge agree takes JSON Lines of {"item": ..., "label": ...}';

/**
 * One line naming what a file of another kind is and the command that fits it, or undefined for a labels file
 * (or one whose kind is unknown: its rows are then checked one by one).
 */
function otherKind(text: string, file: string): string | undefined {
  const body = text.trimStart();
  const kind = fileRowKind(text);
  const what: Partial<Record<typeof kind, string>> = {
    battles: `arena battles ({model_a, model_b, winner}); rate them with \`zhujiu ratings --battles ${file}\` or import them with \`zhujiu import battles ${file}\``,
    pair_counts: `arena pair counts ({model_a, model_b, model_a_wins}); rate them with \`zhujiu ratings --battles ${file}\``,
    outputs: `model outputs (a JSON array of {instruction, output}); import them with \`zhujiu import outputs ${file} --model NAME\``,
    outputs_jsonl: `model outputs ({item, prompt, output}); import them with \`zhujiu import outputs ${file} --model NAME --format jsonl\``,
    annotations: `AlpacaEval annotations ({generator_1, generator_2, preference}); import them with \`zhujiu import judgments ${file} --format alpaca_eval --judge NAME\``,
  };
  const w = what[kind];
  if (w !== undefined) return `${file}:1: this looks like ${w}; ${LABELS}`;
  if (
    body.startsWith('[') ||
    (body.startsWith('{') && /^\{\s*$/m.test(body.split('\n')[0] ?? ''))
  ) {
    return `${file}:1: this is one JSON document, not one object per line; ${LABELS}`;
  }
  return undefined;
}

/**
 * Parses a labels file.
 * @param text the file's contents.
 * @param file the file name, for messages.
 * @param locale the language of a file-level refusal (a CSV table, a text that is not JSON); default en.
 * @returns the rows, or every problem as `file:line: reason` (bad JSON, a missing field, an item twice; the same
 *   reason on several lines is one line naming them, the list is capped at 20), or one line naming the command
 *   that fits a file of another kind (arena battles, pair counts, model outputs, AlpacaEval annotations, a JSON
 *   document), or one line for a file that is not JSON (a CSV table, text).
 */
export function parseLabels(
  text: string,
  file: string,
  locale: Locale = 'en',
): Result<LabelledItem[], string[]> {
  const rows: LabelledItem[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  const notJson = notJsonSaid(
    text,
    file,
    said('cli.files.labelsFormat', { shape: '{"item": ..., "label": ...}' }),
  );
  if (notJson !== undefined) return fail([sayCli(locale, notJson)]);
  const other = otherKind(text, file);
  if (other !== undefined) return fail([other]);
  for (const e of readJsonl(text).entries) {
    if (!e.ok) {
      errors.push(
        jsonSyntaxMessage(
          file,
          e.error,
          said('cli.json.eachLine', { shape: '{"item": ..., "label": ...}' }),
        ),
      );
      continue;
    }
    const at = `${file}:${e.line}`;
    const r = row.safeParse(e.value);
    if (!r.success) {
      errors.push(`${at}: ${r.error.issues.map((x) => x.message).join('; ')}`);
      continue;
    }
    const item = String(r.data.item);
    const prev = seen.get(item);
    if (prev !== undefined) {
      errors.push(
        `${at}: item "${item}" is already labelled on line ${prev}; keep one label per item`,
      );
      continue;
    }
    seen.set(item, e.line);
    rows.push({ item, label: r.data.label });
  }
  if (errors.length > 0) return fail(capProblems(groupProblems(errors)));
  if (rows.length === 0)
    return fail([sayCli(locale, said('cli.files.noLabels', { file, shape: '{"item", "label"}' }))]);
  return ok(rows);
}
