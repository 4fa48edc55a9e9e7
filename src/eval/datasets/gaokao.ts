/**
 * @module eval/datasets/gaokao
 * GAOKAO-Bench objective questions (Zhang et al., 2023), one dataset per published subject (`gaokao_<subject>`),
 * asked as GAOKAO-Bench asks them (zero-shot: the keyword's prefix prompt from its `Obj_Prompt.json` as the system
 * message, the question as the user message) and scored by its own objective rules (profile `gaokao`,
 * docs/scoring.md §2). Reads question files and result files alike (see import/formats/gaokao.ts).
 */
import { z } from 'zod';
import type { Said } from '../../core/errors.ts';
import { said } from '../../i18n/cli.ts';
import { type GaokaoRow, gaokaoDatasetName, readGaokaoFile } from '../../import/formats/gaokao.ts';
import { jsonSyntaxSaid, readJson } from '../../import/formats/json-reader.ts';
import { rowSaid } from '../../import/formats/row-problems.ts';
import { type GaokaoQuestionType, scoreGaokaoOutput } from '../metrics/gaokao.ts';
import type { EvalItem } from '../types.ts';
import type { DatasetLoader, ParsedRows } from './loader.ts';
import type { DatasetText } from './source.ts';

/** Reference of a GAOKAO-Bench item. */
export interface GaokaoReference {
  readonly standard: readonly string[];
  /** Points per sub-question. */
  readonly score: number;
  readonly type: GaokaoQuestionType;
  readonly keyword: string;
}

const promptsFile = z.object({
  examples: z.array(z.object({ keyword: z.string(), prefix_prompt: z.string() })),
});

/**
 * The item of one GAOKAO-Bench question: key `<keyword>/<index>`, the trimmed question as prompt, the standard
 * answer, points and question type as reference. Loading a question file and importing a result file build items
 * with this one function, so both name the same items.
 */
export function gaokaoItem(row: GaokaoRow, keyword: string, type: GaokaoQuestionType): EvalItem {
  const reference: GaokaoReference = {
    standard: row.standardAnswer,
    score: row.score,
    type,
    keyword,
  };
  return {
    key: row.key,
    prompt: row.question,
    reference,
    metadata: { keyword, year: row.year, category: row.category },
  };
}

/** Parses the question files of one subject dataset (`datasetName` must be `gaokao_<subject>` of every file). */
export function parseGaokaoDataset(
  datasetName: string,
  files: readonly DatasetText[],
  prompts: readonly DatasetText[],
): ParsedRows {
  const items: EvalItem[] = [];
  const problems: Said[] = [];
  const prefixes: Record<string, string> = {};
  for (const p of prompts) {
    const json = readJson(p.text);
    if (!json.ok) {
      problems.push(jsonSyntaxSaid(p.name, json.error));
      continue;
    }
    const r = promptsFile.safeParse(json.value);
    if (!r.success) {
      problems.push(
        rowSaid(
          `${p.name}:1`,
          said('cli.rows.gaokaoPrompts', { shape: '{examples: [{keyword, prefix_prompt}]}' }),
        ),
      );
      continue;
    }
    for (const e of r.data.examples) prefixes[e.keyword] = e.prefix_prompt;
  }
  for (const f of files) {
    const parsed = readGaokaoFile(f.text, f.name);
    if (!parsed.ok) {
      problems.push(...parsed.reason);
      continue;
    }
    const { keyword, subject, type, rows } = parsed.value;
    if (gaokaoDatasetName(subject) !== datasetName) {
      problems.push(
        rowSaid(
          `${f.name}:1`,
          said('cli.rows.gaokaoDataset', {
            keyword,
            dataset: gaokaoDatasetName(subject),
            given: datasetName,
          }),
        ),
      );
      continue;
    }
    if (prefixes[keyword] === undefined) {
      problems.push(rowSaid(`${f.name}:1`, said('cli.rows.gaokaoPrefix', { keyword })));
      continue;
    }
    for (const r of rows) {
      const reference: GaokaoReference = {
        standard: r.standardAnswer,
        score: r.score,
        type,
        keyword,
      };
      items.push({
        key: r.key,
        prompt: r.question,
        reference,
        metadata: { keyword, year: r.year, category: r.category },
      });
    }
  }
  return { items, excluded: 0, problems, context: { prefixes } };
}

/** GAOKAO-Bench objective (the dataset name picks the subject; see {@link parseGaokaoDataset}). */
export function gaokaoLoader(datasetName: string): DatasetLoader {
  return {
    metric: 'gaokao_objective',
    profiles: ['gaokao'],
    templateVersion: 'gaokao-obj-v1',
    source: 'GAOKAO-Bench (Zhang et al., 2023)',
    parse: (files, extra) => parseGaokaoDataset(datasetName, files, extra),
    // Without the prompts file (items read back from the database, eval/datasets/prepare.ts): no system message.
    system: (item, context) =>
      (context.prefixes as Record<string, string> | undefined)?.[
        (item.reference as GaokaoReference).keyword
      ],
    user: (item) => `${item.prompt}\n`,
    answer: (item) => `【答案】 ${(item.reference as GaokaoReference).standard.join(' ')} <eoa>`,
    score(item, output, profile) {
      const ref = item.reference as GaokaoReference;
      const s = scoreGaokaoOutput(output, ref.standard, ref.score, ref.type);
      return {
        raw: s.earned,
        max: s.possible,
        metric: 'gaokao_objective',
        profile,
        detail: { extracted: s.extracted, standard: ref.standard },
      };
    },
  };
}
