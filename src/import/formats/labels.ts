/**
 * @module import/formats/labels
 * Labels files for `zhujiu judge agree`: JSONL, one `{"item", "label"}` per line. `item` is a string or an
 * integer (compared as text); `label` is a number (an ordered score) or a string (a category). Pure: text in,
 * rows or `file:line: reason` out.
 */
import { z } from 'zod';
import { fail, ok, type Result } from '../../core/result.ts';
import type { LabelledItem } from '../../eval/metrics/agreement.ts';
import { capProblems } from './sniff.ts';

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

/**
 * Parses a labels file.
 * @param text the file's contents.
 * @param file the file name, for messages.
 * @returns the rows, or every problem as `file:line: reason` (bad JSON, a missing field, an item twice).
 */
export function parseLabels(text: string, file: string): Result<LabelledItem[], string[]> {
  const rows: LabelledItem[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const at = `${file}:${i + 1}`;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      errors.push(`${at}: not valid JSON; expected {"item": ..., "label": ...} on each line`);
      return;
    }
    const r = row.safeParse(obj);
    if (!r.success) {
      errors.push(`${at}: ${r.error.issues.map((x) => x.message).join('; ')}`);
      return;
    }
    const item = String(r.data.item);
    const prev = seen.get(item);
    if (prev !== undefined) {
      errors.push(
        `${at}: item "${item}" is already labelled on line ${prev}; keep one label per item`,
      );
      return;
    }
    seen.set(item, i + 1);
    rows.push({ item, label: r.data.label });
  });
  if (errors.length > 0) return fail(capProblems(errors));
  if (rows.length === 0) return fail([`${file}:1: no labels; expected {"item", "label"} lines`]);
  return ok(rows);
}
