/**
 * @module eval/datasets/math23k
 * Math23K word problems (Wang et al., "Deep Neural Solver for Math Word Problems", EMNLP 2017), MWPToolkit's JSON
 * lines `{id, original_text, equation, ans}`. Scored by numeric match on the final number with a relative tolerance
 * of 1e-4 (docs/scoring.md §2). Zero-shot.
 */
import { z } from 'zod';
import type { Said } from '../../core/errors.ts';
import { said } from '../../i18n/cli.ts';
import { jsonValueSaid } from '../../i18n/quote.ts';
import { jsonSyntaxSaid, readJsonl } from '../../import/formats/json-reader.ts';
import { issuesSaid, rowSaid } from '../../import/formats/row-problems.ts';
import { numericMatch, parseReferenceNumber } from '../metrics/numeric.ts';
import type { EvalItem } from '../types.ts';
import type { DatasetLoader } from './loader.ts';

const row = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  original_text: z.string().min(1),
  ans: z.union([z.string().min(1), z.number()]).transform(String),
  equation: z.string().optional(),
});

/** Math23K. */
export const math23kLoader: DatasetLoader = {
  metric: 'numeric_match',
  profiles: ['default'],
  templateVersion: 'math23k-v1',
  source: 'Math23K (Wang et al., EMNLP 2017)',
  parse(files) {
    const items: EvalItem[] = [];
    const problems: Said[] = [];
    for (const f of files) {
      for (const e of readJsonl(f.text).entries) {
        const line = e.line;
        if (!e.ok) {
          problems.push(jsonSyntaxSaid(f.name, e.error));
          continue;
        }
        const r = row.safeParse(e.value);
        if (!r.success) {
          problems.push(rowSaid(`${f.name}:${line}`, issuesSaid(row, e.value, r.error.issues)));
          continue;
        }
        const value = parseReferenceNumber(r.data.ans);
        if (value === undefined) {
          problems.push(
            rowSaid(
              `${f.name}:${line}`,
              said('cli.rows.math23kAns', {
                ans: jsonValueSaid(r.data.ans),
                percent: 'N%',
                fraction: '((a)/(b))',
              }),
            ),
          );
          continue;
        }
        items.push({
          key: r.data.id,
          prompt: r.data.original_text,
          reference: value,
          metadata: { ans: r.data.ans, ...(r.data.equation ? { equation: r.data.equation } : {}) },
        });
      }
    }
    return { items, excluded: 0, problems };
  },
  system: () => '请解答下面的数学应用题。先写出简要的解题过程，最后一行写“答案：”加上最终的数值。',
  user: (item) => `题目：${item.prompt}`,
  answer: (item) => `答案：${String((item.metadata as { ans?: string }).ans ?? item.reference)}`,
  score(item, output, profile) {
    const r = numericMatch(output, item.reference as number);
    return {
      raw: r.score,
      max: 1,
      metric: 'numeric_match',
      profile,
      detail: { parsed: r.parsed ?? null, reference: item.reference as number },
    };
  },
};
