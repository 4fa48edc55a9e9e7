/**
 * @module eval/datasets/choice
 * Multiple-choice and classification datasets, all scored by accuracy over the option extracted from free text
 * (docs/scoring.md §2): C3 (Sun et al., TACL 2020), OCNLI (Hu et al., Findings of EMNLP 2020), CLUEWSC2020 and ChID
 * via FewCLUE (Xu et al., 2021; Zheng et al., ACL 2019), CCPM (Li et al., 2021). Each item's options are shown with
 * letters; the gold answer is a letter. Zero-shot: none of these papers evaluates with in-context examples.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import { schemaMessage } from '../../config/schema-messages.ts';
import type { Said } from '../../core/errors.ts';
import { said } from '../../i18n/cli.ts';
import { jsonSyntaxSaid, readJson, readJsonl } from '../../import/formats/json-reader.ts';
import { issuesSaid, rowSaid } from '../../import/formats/row-problems.ts';
import { choiceScore } from '../metrics/accuracy.ts';
import { optionLetters } from '../metrics/options.ts';
import type { EvalItem, ItemScore } from '../types.ts';
import type { DatasetLoader, ParsedRows } from './loader.ts';
import type { DatasetText } from './source.ts';

/** Reference of a choice item. */
export interface ChoiceReference {
  /** Gold letter. */
  readonly answer: string;
  /** Option letters, e.g. `ABCD`. */
  readonly letters: string;
}

function lettered(options: readonly string[]): string {
  const L = optionLetters(options.length);
  return options.map((o, i) => `${L[i]}. ${o}`).join('\n');
}

const INSTRUCTION = '请只回答正确选项的字母。';

function choiceLoader(
  source: string,
  templateVersion: string,
  parse: (files: readonly DatasetText[]) => ParsedRows,
): DatasetLoader {
  return {
    metric: 'accuracy',
    profiles: ['default'],
    templateVersion,
    source,
    parse: (files) => parse(files),
    system: () => undefined,
    user: (item) => `${item.prompt}\n${INSTRUCTION}`,
    answer: (item) => `答案：${(item.reference as ChoiceReference).answer}`,
    score(item: EvalItem, output: string, profile: string): ItemScore {
      const ref = item.reference as ChoiceReference;
      const { score, extraction } = choiceScore(output, ref.answer, ref.letters);
      return {
        raw: score,
        max: 1,
        metric: 'accuracy',
        profile,
        detail: {
          extracted:
            extraction.kind === 'option'
              ? extraction.letter
              : extraction.kind === 'several'
                ? extraction.letters
                : null,
          pattern: extraction.kind === 'none' ? null : extraction.pattern,
          gold: ref.answer,
        },
      };
    },
  };
}

function item(
  key: string,
  prompt: string,
  answerIndex: number,
  n: number,
  metadata: Record<string, unknown>,
): EvalItem {
  const letters = optionLetters(n);
  return { key, prompt, reference: { answer: letters[answerIndex] as string, letters }, metadata };
}

/** Parses JSON-lines files with a zod row schema; `build` turns a row into an item (or `{ reason }`, a bad row). */
function jsonl<T>(
  files: readonly DatasetText[],
  schema: z.ZodType<T>,
  build: (row: T, file: string, line: number) => EvalItem | { reason: Said } | null,
): ParsedRows {
  const items: EvalItem[] = [];
  const problems: Said[] = [];
  let excluded = 0;
  for (const f of files) {
    for (const e of readJsonl(f.text).entries) {
      const line = e.line;
      if (!e.ok) {
        problems.push(jsonSyntaxSaid(f.name, e.error));
        continue;
      }
      const r = schema.safeParse(e.value);
      if (!r.success) {
        problems.push(rowSaid(`${f.name}:${line}`, issuesSaid(schema, e.value, r.error.issues)));
        continue;
      }
      const it = build(r.data, f.name, line);
      if (it === null) excluded++;
      else if ('reason' in it) problems.push(rowSaid(`${f.name}:${line}`, it.reason));
      else items.push(it);
    }
  }
  return { items, excluded, problems };
}

const idLike = z.union([z.string().min(1), z.number().int()]).transform(String);

/** OCNLI: premise/hypothesis → entailment / neutral / contradiction; `label: "-"` (no majority) is excluded. */
export const ocnliLoader = choiceLoader(
  'OCNLI (Hu et al., Findings of EMNLP 2020)',
  'ocnli-v1',
  (files) => {
    const labels = ['entailment', 'neutral', 'contradiction'] as const;
    const r = jsonl(
      files,
      z.object({
        id: idLike,
        sentence1: z.string().min(1),
        sentence2: z.string().min(1),
        label: z.string(),
      }),
      (row) => {
        if (row.label === '-') return null;
        const at = labels.indexOf(row.label as (typeof labels)[number]);
        if (at < 0) return { reason: said('cli.rows.ocnliLabel', { label: row.label }) };
        return item(
          row.id,
          `前提：${row.sentence1}\n假设：${row.sentence2}\n问：根据前提，假设是否成立？\n` +
            lettered(['蕴含（前提能推出假设）', '中立（无法判断）', '矛盾（前提与假设矛盾）']),
          at,
          3,
          {},
        );
      },
    );
    return {
      ...r,
      excludedReason:
        'label "-" (no majority among the annotators; excluded as the OCNLI README says)',
    };
  },
);

/** CLUEWSC2020: does the pronoun refer to the noun phrase? A 是 / B 否. */
export const cluewscLoader = choiceLoader(
  'CLUEWSC2020 via FewCLUE (Xu et al., 2021)',
  'cluewsc2020-v1',
  (files) =>
    jsonl(
      files,
      z.object({
        idx: idLike,
        text: z.string().min(1),
        label: z.enum(['true', 'false']),
        target: z.object({ span1_text: z.string().min(1), span2_text: z.string().min(1) }),
      }),
      (row) =>
        item(
          row.idx,
          `句子：${row.text}\n问：句子中的“${row.target.span2_text}”指的是“${row.target.span1_text}”吗？\n${lettered(['是', '否'])}`,
          row.label === 'true' ? 0 : 1,
          2,
          {},
        ),
    ),
);

/** ChID (FewCLUE form): one `#idiom#` blank, seven candidate idioms. */
export const chidLoader = choiceLoader(
  'ChID via FewCLUE (Zheng et al., ACL 2019)',
  'chid-v1',
  (files) =>
    jsonl(
      files,
      z.object({
        id: idLike,
        content: z.string().includes('#idiom#', { message: schemaMessage('cli.rows.chidBlank') }),
        candidates: z.array(z.string().min(1)).min(2).max(26),
        answer: z.number().int().min(0),
      }),
      (row) =>
        row.answer >= row.candidates.length
          ? {
              reason: said('cli.rows.notIndex', {
                answer: row.answer,
                list: 'candidates',
                n: row.candidates.length,
              }),
            }
          : item(
              row.id,
              `文段：${row.content.replace('#idiom#', '____')}\n问：横线处应填入哪个成语？\n${lettered(row.candidates)}`,
              row.answer,
              row.candidates.length,
              {},
            ),
    ),
);

/** CCPM: which line of classical poetry matches a modern-Chinese description. No ids: keyed by content hash. */
export const ccpmLoader = choiceLoader('CCPM (Li et al., 2021)', 'ccpm-v1', (files) =>
  jsonl(
    files,
    z.object({
      translation: z.string().min(1),
      choices: z.array(z.string().min(1)).min(2).max(26),
      answer: z.number().int().min(0),
    }),
    (row) =>
      row.answer >= row.choices.length
        ? {
            reason: said('cli.rows.notIndex', {
              answer: row.answer,
              list: 'choices',
              n: row.choices.length,
            }),
          }
        : item(
            contentKey(row.translation, row.choices),
            `白话译文：${row.translation}\n问：与这句译文对应的古诗句是哪一句？\n${lettered(row.choices)}`,
            row.answer,
            row.choices.length,
            {},
          ),
  ),
);

/** A stable key for a row without an id: FNV-1a 64-bit of its content, 16 hex digits. */
export function contentKey(...parts: readonly unknown[]): string {
  let h = 0xcbf29ce484222325n;
  const s = JSON.stringify(parts);
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

const c3Question = z.object({
  question: z.string().min(1),
  choice: z.array(z.string()).min(2).max(26),
  answer: z.string(),
});
const c3Doc = z.tuple([z.array(z.string()), z.array(z.unknown()), idLike]);

/**
 * C3: `[[sentences], [{question, choice, answer}], docId]`; `answer` is the text of the right choice. Items are keyed
 * `<m|d>/<docId>/<n>` (mixed-genre or dialogue file, document, question number).
 */
export const c3Loader = choiceLoader('C3 (Sun et al., TACL 2020)', 'c3-v1', (files) => {
  const items: EvalItem[] = [];
  const problems: Said[] = [];
  for (const f of files) {
    const doc = readJson(f.text);
    if (!doc.ok) {
      problems.push(jsonSyntaxSaid(f.name, doc.error));
      continue;
    }
    const data = doc.value;
    if (!Array.isArray(data)) {
      problems.push(rowSaid(`${f.name}:1`, said('cli.rows.c3Array')));
      continue;
    }
    const subset =
      /c3-([md])-/.exec(basename(f.name))?.[1] ?? basename(f.name).replace(/\..*$/, '');
    data.forEach((raw, d) => {
      const parsedDoc = c3Doc.safeParse(raw);
      const line = doc.lineOf(String(d)) ?? 1;
      if (!parsedDoc.success) {
        problems.push(
          rowSaid(
            `${f.name}:${line}`,
            said('cli.rows.c3Document', {
              doc: d,
              issues: issuesSaid(c3Doc, raw, parsedDoc.error.issues),
            }),
          ),
        );
        return;
      }
      const [sentences, questions, docId] = parsedDoc.data;
      questions.forEach((q, n) => {
        const qLine = doc.lineOf(`${d}.1.${n}`) ?? line;
        const parsed = c3Question.safeParse(q);
        if (!parsed.success) {
          problems.push(
            rowSaid(
              `${f.name}:${qLine}`,
              said('cli.rows.c3Question', {
                doc: docId,
                n,
                issue: issuesSaid(c3Question, q, parsed.error.issues),
              }),
            ),
          );
          return;
        }
        const at = parsed.data.choice.indexOf(parsed.data.answer);
        if (at < 0) {
          problems.push(
            rowSaid(
              `${f.name}:${qLine}`,
              said('cli.rows.c3Question', { doc: docId, n, issue: said('cli.rows.c3Answer') }),
            ),
          );
          return;
        }
        items.push(
          item(
            `${subset}/${docId}/${n}`,
            `材料：\n${sentences.join('\n')}\n问题：${parsed.data.question}\n${lettered(parsed.data.choice)}`,
            at,
            parsed.data.choice.length,
            { subset },
          ),
        );
      });
    });
  }
  return { items, excluded: 0, problems };
});
