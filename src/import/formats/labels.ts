/**
 * @module import/formats/labels
 * Labels files for `zhujiu judge agree`: JSONL, one `{"item", "label"}` per line. `item` is a string or an
 * integer (compared as text); `label` is a number (an ordered score) or a string (a category). Pure: text in,
 * rows or `file:line: reason` out.
 */
import { z } from 'zod';
import { schemaMessage, schemaMessageIn } from '../../config/schema-messages.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import type { LabelledItem } from '../../eval/metrics/agreement.ts';
import { said, sayCli, tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';
import { jsonSyntaxMessage, readJsonl } from './json-reader.ts';
import { capProblems, fileRowKind, groupProblems, notJsonSaid } from './sniff.ts';

const row = z.object({
  item: z
    .union([z.string(), z.number().int()], { error: schemaMessage('cli.rows.labelsItem') })
    .refine((v) => v !== '', { error: schemaMessage('cli.rows.labelsItem') }),
  label: z
    .union([z.number(), z.string()], { error: schemaMessage('cli.rows.labelsLabel') })
    .refine((v) => v !== '', { error: schemaMessage('cli.rows.labelsLabel') }),
});

/** The catalogue key of what a file of another kind is, by the kind of its first row. */
const OTHER_KIND_KEYS = {
  battles: 'cli.labels.battles',
  pair_counts: 'cli.labels.pairCounts',
  outputs: 'cli.labels.outputs',
  outputs_jsonl: 'cli.labels.outputsJsonl',
  annotations: 'cli.labels.annotations',
} as const;

/** The shape each kind's words name. */
const OTHER_KIND_SHAPES: Readonly<Record<keyof typeof OTHER_KIND_KEYS, string>> = {
  battles: '{model_a, model_b, winner}',
  pair_counts: '{model_a, model_b, model_a_wins}',
  outputs: '{instruction, output}',
  outputs_jsonl: '{item, prompt, output}',
  annotations: '{generator_1, generator_2, preference}',
};

/**
 * One line naming what a file of another kind is and the command that fits it, in `locale`, or undefined for a
 * labels file (or one whose kind is unknown: its rows are then checked one by one).
 */
function otherKind(text: string, file: string, locale: Locale): string | undefined {
  const body = text.trimStart();
  const kind = fileRowKind(text);
  const takes = tc(locale, 'cli.labels.takes', { shape: '{"item": ..., "label": ...}' });
  if (Object.hasOwn(OTHER_KIND_KEYS, kind)) {
    const k = kind as keyof typeof OTHER_KIND_KEYS;
    const what = tc(locale, OTHER_KIND_KEYS[k], { shape: OTHER_KIND_SHAPES[k], file });
    return tc(locale, 'cli.labels.looksLike', { at: `${file}:1`, what, takes });
  }
  if (
    body.startsWith('[') ||
    (body.startsWith('{') && /^\{\s*$/m.test(body.split('\n')[0] ?? ''))
  ) {
    return tc(locale, 'cli.labels.oneDocument', { at: `${file}:1`, takes });
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
 *   document), or one line for a file that is not JSON (a CSV table, text). The row problems are said in `locale`
 *   (the command line's; default English).
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
  const other = otherKind(text, file, locale);
  if (other !== undefined) return fail([other]);
  for (const e of readJsonl(text).entries) {
    if (!e.ok) {
      errors.push(
        jsonSyntaxMessage(
          file,
          e.error,
          said('cli.json.eachLine', { shape: '{"item": ..., "label": ...}' }),
          locale,
        ),
      );
      continue;
    }
    const at = `${file}:${e.line}`;
    const r = row.safeParse(e.value, zodParseOptions(locale));
    if (!r.success) {
      const reasons = r.error.issues.map((x) => schemaMessageIn(x.message, locale));
      errors.push(
        tc(locale, 'cli.rows.at', { at, reason: reasons.join(tc(locale, 'cli.outputs.sep')) }),
      );
      continue;
    }
    const item = String(r.data.item);
    const prev = seen.get(item);
    if (prev !== undefined) {
      errors.push(
        tc(locale, 'cli.rows.at', {
          at,
          reason: tc(locale, 'cli.rows.labelsTwice', { item, prev }),
        }),
      );
      continue;
    }
    seen.set(item, e.line);
    rows.push({ item, label: r.data.label });
  }
  if (errors.length > 0) return fail(capProblems(groupProblems(errors, locale), undefined, locale));
  if (rows.length === 0)
    return fail([
      tc(locale, 'cli.rows.labelsNone', { at: `${file}:1`, shape: '{"item", "label"}' }),
    ]);
  return ok(rows);
}
