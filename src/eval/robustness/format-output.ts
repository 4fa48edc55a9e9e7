/**
 * @module eval/robustness/format-output
 * Format Output (ZhuJiu §2.3.7): the question with an instruction to answer in a stated format, scored for format
 * compliance and correctness (docs/scoring.md §2.7): an answer that breaks the format earns 0; one that keeps it
 * earns the base dataset's score of the answer it states.
 */

/** The stated formats. */
export const OUTPUT_FORMATS = ['json', 'tag', 'final_line'] as const;
/** One stated format. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The instruction appended to the question for each format. */
export const FORMAT_INSTRUCTIONS: Readonly<Record<OutputFormat, string>> = {
  json: '无论上文有何格式要求，请只输出一个 JSON 对象，格式为 {"answer": "你的答案"}，不要输出任何其他内容。',
  tag: '无论上文有何格式要求，请把最终答案写在 <answer> 和 </answer> 之间，且只写一次。',
  final_line: '无论上文有何格式要求，请在回答的最后一行只写“最终答案：【你的答案】”。',
};

/**
 * Whether `output` follows `format`, and the answer it states:
 * - `json`: the whole reply (a surrounding Markdown ```json fence allowed) parses as a JSON object with an
 *   `answer` that is a string or a number;
 * - `tag`: exactly one `<answer>…</answer>` pair, non-empty inside;
 * - `final_line`: the last non-empty line is `最终答案：【…】` (a half-width colon allowed), non-empty inside.
 * Pure.
 */
export function readFormatted(
  format: OutputFormat,
  output: string,
): { ok: true; answer: string } | { ok: false } {
  const text = output.trim();
  switch (format) {
    case 'json': {
      const body = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(text)?.[1] ?? text;
      let v: unknown;
      try {
        v = JSON.parse(body);
      } catch {
        return { ok: false };
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false };
      const a = (v as Record<string, unknown>).answer;
      return typeof a === 'string' || typeof a === 'number'
        ? { ok: true, answer: String(a) }
        : { ok: false };
    }
    case 'tag': {
      const all = [...text.matchAll(/<answer>([\s\S]*?)<\/answer>/g)];
      const inner = all.length === 1 ? (all[0]?.[1] ?? '').trim() : '';
      return inner === '' ? { ok: false } : { ok: true, answer: inner };
    }
    case 'final_line': {
      const last =
        text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .pop() ?? '';
      const m = /^最终答案[：:]\s*【([^】]+)】$/.exec(last.trim());
      return m?.[1]?.trim() ? { ok: true, answer: m[1].trim() } : { ok: false };
    }
  }
}
