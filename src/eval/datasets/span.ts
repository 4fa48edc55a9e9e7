/**
 * @module eval/datasets/span
 * Span-extraction reading comprehension in SQuAD layout: CMRC 2018 (Cui et al., EMNLP 2019) and DRCD (Shao et al.,
 * 2018). Scored by character F1 (the dataset figure) with exact match in each score's detail; profile `cmrc2018`
 * (the official script, default) or `default` (docs/scoring.md §2). Zero-shot, as in both papers' model-free setup.
 */
import { z } from 'zod';
import { schemaMessage } from '../../config/schema-messages.ts';
import type { Said } from '../../core/errors.ts';
import { said } from '../../i18n/cli.ts';
import { jsonSyntaxSaid, readJson } from '../../import/formats/json-reader.ts';
import { issuesSaid, rowSaid } from '../../import/formats/row-problems.ts';
import { charF1, exactMatch, type SpanProfile } from '../metrics/span.ts';
import type { EvalItem } from '../types.ts';
import type { DatasetLoader, ParsedRows } from './loader.ts';
import type { DatasetText } from './source.ts';

const qa = z.object({
  id: z.union([z.string().min(1), z.number().int()]).transform(String),
  question: z.string().min(1),
  answers: z.array(z.object({ text: z.string() })).min(1, schemaMessage('cli.rows.oneAnswer')),
});
const squad = z.object({
  data: z.array(
    z.object({
      paragraphs: z.array(z.object({ context: z.string().min(1), qas: z.array(z.unknown()) })),
    }),
  ),
});

function parseSquad(files: readonly DatasetText[]): ParsedRows {
  const items: EvalItem[] = [];
  const problems: Said[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const json = readJson(f.text);
    if (!json.ok) {
      problems.push(jsonSyntaxSaid(f.name, json.error));
      continue;
    }
    const doc = squad.safeParse(json.value);
    if (!doc.success) {
      problems.push(
        rowSaid(
          `${f.name}:1`,
          said('cli.rows.squad', {
            shape: '{data: [{paragraphs: [{context, qas}]}]}',
            issues: issuesSaid(squad, json.value, doc.error.issues),
          }),
        ),
      );
      continue;
    }
    doc.data.data.forEach((article, a) => {
      article.paragraphs.forEach((p, pi) => {
        p.qas.forEach((raw, qi) => {
          const line = json.lineOf(`data.${a}.paragraphs.${pi}.qas.${qi}`) ?? 1;
          const r = qa.safeParse(raw);
          if (!r.success) {
            problems.push(rowSaid(`${f.name}:${line}`, issuesSaid(qa, raw, r.error.issues)));
            return;
          }
          const answers = r.data.answers.map((x) => x.text).filter((t) => t.trim() !== '');
          if (answers.length === 0) {
            problems.push(
              rowSaid(`${f.name}:${line}`, said('cli.rows.emptyAnswers', { id: r.data.id })),
            );
            return;
          }
          if (seen.has(r.data.id)) {
            problems.push(
              rowSaid(`${f.name}:${line}`, said('cli.rows.idRepeats', { id: r.data.id })),
            );
            return;
          }
          seen.add(r.data.id);
          items.push({
            key: r.data.id,
            prompt: `文章：${p.context}\n问题：${r.data.question}`,
            reference: answers,
            metadata: {},
          });
        });
      });
    });
  }
  return { items, excluded: 0, problems };
}

function spanLoader(source: string, templateVersion: string): DatasetLoader {
  return {
    metric: 'char_f1',
    profiles: ['cmrc2018', 'default'],
    templateVersion,
    source,
    parse: (files) => parseSquad(files),
    system: () => '请阅读文章，从文章中摘取一段连续的原文回答问题。只输出答案本身，不要解释。',
    user: (item) => item.prompt,
    answer: (item) => (item.reference as string[])[0] as string,
    score(item, output, profile) {
      const refs = item.reference as string[];
      const p = profile as SpanProfile;
      // The official script strips with Python's `strip()` inside its scorer (a U+FEFF stays); JS `trim()` is for
      // the default profile only (docs/scoring.md §2).
      const answer = p === 'cmrc2018' ? output : output.trim();
      return {
        raw: charF1(answer, refs, p),
        max: 1,
        metric: 'char_f1',
        profile,
        detail: { exact_match: exactMatch(answer, refs, p) },
      };
    },
  };
}

/** CMRC 2018 (simplified Chinese, 3 references per dev question). */
export const cmrc2018Loader = spanLoader('CMRC 2018 (Cui et al., EMNLP 2019)', 'span-zh-v1');
/** DRCD (traditional Chinese, 2 references per dev question). */
export const drcdLoader = spanLoader('DRCD (Shao et al., 2018)', 'span-zh-v1');
