/**
 * @module import/formats/alpaca-eval-annotations
 * AlpacaEval judge annotations (`annotations_<annotator>/<model>.jsonl`, one object per line, slimmed from
 * upstream `results/<model>/<annotator>/annotations.json`): `{instruction, dataset, generator_1 (the baseline),
 * generator_2 (the model), annotator, preference}`. A JSON array of the same objects (upstream's
 * `annotations.json`) is accepted too. Pure: text in, rows or `file:line: reason` out.
 *
 * `preference` follows AlpacaEval: in [1, 2], 1 = baseline better, 2 = model better, 1.5 = tie, and 0 also
 * means a tie (mapped to 1.5). A missing or null preference (the judge gave no completion) is a judge failure,
 * kept as such (docs/scoring.md §3.5).
 */
import { z } from 'zod';
import { schemaMessage, schemaMessageIn } from '../../config/schema-messages.ts';
import { fail, ok, type Result } from '../../core/result.ts';
import { said, tc } from '../../i18n/cli.ts';
import type { Locale } from '../../i18n/index.ts';
import { zodParseOptions } from '../../i18n/zod.ts';
import { jsonSyntaxMessage, readJson, readJsonl } from './json-reader.ts';
import { instructionKey, issueMessage, promptField } from './recorded-outputs.ts';
import { capProblems } from './sniff.ts';

/** One annotation. */
export interface AlpacaAnnotationRow {
  readonly line: number;
  /** The item key: the same sha256-of-instruction key as `import outputs --format alpaca_eval`. */
  readonly key: string;
  readonly instruction: string;
  readonly subset?: string;
  readonly baseline: string;
  readonly model: string;
  readonly annotator?: string;
  /** In [1, 2]; null when the judge gave none. */
  readonly preference: number | null;
}

const rowSchema = z.object({
  instruction: promptField,
  dataset: z.string().optional(),
  generator_1: z.string().min(1, schemaMessage('cli.rows.annBaseline')),
  generator_2: z.string().min(1, schemaMessage('cli.rows.annModel')),
  annotator: z.string().optional(),
  preference: z
    .number()
    .nullable()
    .optional()
    .refine((p) => p == null || Number.isNaN(p) || p === 0 || (p >= 1 && p <= 2), {
      message: schemaMessage('cli.rows.annPreference'),
    }),
});

/** AlpacaEval's preference normalisation: 0 → 1.5 (tie), NaN/null → null (no verdict). */
export function normalizePreference(p: number | null | undefined): number | null {
  if (p == null || Number.isNaN(p)) return null;
  return p === 0 ? 1.5 : p;
}

function toRow(
  obj: unknown,
  line: number,
  at: string,
  errors: string[],
  locale: Locale,
): AlpacaAnnotationRow | null {
  const r = rowSchema.safeParse(obj, zodParseOptions(locale));
  if (!r.success) {
    const reasons = r.error.issues.map((i) =>
      i.path.length === 0
        ? tc(locale, 'cli.outputs.rowIssue', {
            msg: schemaMessageIn(issueMessage(i, locale), locale),
          })
        : tc(locale, 'cli.outputs.issue', {
            key: i.path.join('.'),
            msg: schemaMessageIn(issueMessage(i, locale), locale),
          }),
    );
    errors.push(
      tc(locale, 'cli.rows.at', { at, reason: reasons.join(tc(locale, 'cli.outputs.sep')) }),
    );
    return null;
  }
  const d = r.data;
  if (d.generator_1 === d.generator_2) {
    errors.push(
      tc(locale, 'cli.rows.at', {
        at,
        reason: tc(locale, 'cli.rows.annSelf', { model: d.generator_1 }),
      }),
    );
    return null;
  }
  return {
    line,
    key: instructionKey(d.instruction),
    instruction: d.instruction,
    ...(d.dataset ? { subset: d.dataset } : {}),
    baseline: d.generator_1,
    model: d.generator_2,
    ...(d.annotator ? { annotator: d.annotator } : {}),
    preference: normalizePreference(d.preference),
  };
}

/**
 * Parses one annotations file (JSONL, or a JSON array).
 * @param locale the language of the problems (the command line's; default English).
 * @returns the rows, or every problem as `file:line: reason` (at most 20).
 */
export function parseAlpacaAnnotations(
  text: string,
  file: string,
  locale: Locale = 'en',
): Result<AlpacaAnnotationRow[], string[]> {
  const body = text.replace(/^\uFEFF/, '');
  const errors: string[] = [];
  const rows: AlpacaAnnotationRow[] = [];
  if (body.trimStart().startsWith('[')) {
    const json = readJson(body);
    if (!json.ok) return fail([jsonSyntaxMessage(file, json.error, undefined, locale)]);
    if (!Array.isArray(json.value))
      return fail([tc(locale, 'cli.rows.annShape', { at: `${file}:1` })]);
    json.value.forEach((obj, i) => {
      const line = json.lineOf(String(i)) ?? 1;
      const r = toRow(obj, line, `${file}:${line}: [${i}]`, errors, locale);
      if (r) rows.push(r);
    });
  } else {
    for (const e of readJsonl(body).entries) {
      if (!e.ok) {
        errors.push(jsonSyntaxMessage(file, e.error, said('cli.json.oneAnnotation'), locale));
        continue;
      }
      const r = toRow(e.value, e.line, `${file}:${e.line}`, errors, locale);
      if (r) rows.push(r);
    }
  }
  const seen = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.model}\u0000${r.baseline}\u0000${r.key}`;
    const prev = seen.get(k);
    if (prev !== undefined) {
      errors.push(
        tc(locale, 'cli.rows.at', {
          at: `${file}:${r.line}`,
          reason: tc(locale, 'cli.rows.annTwice', { model: r.model, baseline: r.baseline, prev }),
        }),
      );
    } else seen.set(k, r.line);
  }
  if (errors.length > 0) return fail(capProblems(errors, undefined, locale));
  if (rows.length === 0) return fail([tc(locale, 'cli.rows.annNone', { at: `${file}:1` })]);
  return ok(rows);
}
