/**
 * @module eval/datasets/knowledge/loader
 * The `knowledge` loader: reads the knowledge sets `zhujiu datasets build` writes (rows of
 * {@link KnowledgeRow}, `<datasets>/zhujiu-built/knowledge/<perspective>_<property>.jsonl`) and scores each item
 * by its property (ZhuJiu, Zhang et al. 2023, App. B; docs/scoring.md §2.8), every item worth 1 point:
 *
 * - accuracy, timeliness: exact match of the stated answer with an accepted form (`exact_match`);
 * - completeness: the share of the required elements the answer names (`completeness`; ×10 on the board);
 * - robustness: one item asks the fact's five phrasings as five independent requests
 *   ({@link MultiRequest} `independent`) and scores the five answers together with the stability score
 *   (`stability`). Given a single answer (a runner without multi-request support), it is scored as a stability
 *   over that one answer, i.e. exact match.
 *
 * As a scoring dataset (`method: scoring`) the same items are graded by the judge against `reference`.
 */
import { z } from 'zod';
import type { Said } from '../../../core/errors.ts';
import { said } from '../../../i18n/cli.ts';
import { issuesSaid } from '../../../import/formats/row-problems.ts';
import type { ChatMessage } from '../../../llm/types.ts';
import { completeness } from '../../metrics/completeness.ts';
import { knowledgeExactMatch } from '../../metrics/knowledge.ts';
import { stability } from '../../metrics/stability.ts';
import type { EvalItem, ItemScore, MultiRequest } from '../../types.ts';
import type { DatasetLoader, ParsedRows } from '../loader.ts';
import { jsonlRows } from '../scoring-sets.ts';
import type { DatasetText } from '../source.ts';
import { PERSPECTIVES, PROPERTIES } from './build.ts';
import { KNOWLEDGE_TEMPLATE_VERSION } from './templates.ts';

/** Metric name of the knowledge loader (each score names its own: exact_match, completeness, stability). */
export const KNOWLEDGE_METRIC = 'knowledge';

const rowSchema = z.object({
  id: z.string().min(1),
  perspective: z.enum(PERSPECTIVES),
  property: z.enum(PROPERTIES),
  relation: z.string().min(1),
  question: z.string().min(1),
  variants: z.array(z.string().min(1)).min(2).optional(),
  answers: z.array(z.string().min(1)),
  elements: z
    .array(z.array(z.string().min(1)).min(1))
    .min(1)
    .optional(),
  reference: z.string().min(1),
  as_of: z.string().optional(),
  fact: z.string().min(1),
  template: z.string().min(1),
  provenance: z
    .array(z.object({ package: z.string(), version: z.string(), licence: z.string() }))
    .min(1),
});
type Row = z.output<typeof rowSchema>;

function rowProblem(r: Row): Said | undefined {
  if (r.property === 'completeness' && r.elements === undefined)
    return said('cli.rows.knowledgeElements');
  if (r.property === 'robustness' && r.variants === undefined)
    return said('cli.rows.knowledgeVariants');
  if (r.property !== 'completeness' && r.answers.length === 0)
    return said('cli.rows.knowledgeAnswers');
  return undefined;
}

function toItem(r: Row): EvalItem {
  return {
    key: r.id,
    prompt: r.question,
    reference: r.reference,
    metadata: {
      perspective: r.perspective,
      property: r.property,
      relation: r.relation,
      answers: r.answers,
      ...(r.variants !== undefined ? { variants: r.variants } : {}),
      ...(r.elements !== undefined ? { elements: r.elements } : {}),
      ...(r.as_of !== undefined ? { as_of: r.as_of } : {}),
      fact: r.fact,
      template: r.template,
      provenance: r.provenance,
    },
  };
}

/** Parses built knowledge files (bad rows as `file:line: reason`, duplicate ids refused). */
export function parseKnowledge(files: readonly DatasetText[]): ParsedRows {
  return jsonlRows(files, (value) => {
    const r = rowSchema.safeParse(value);
    if (!r.success) return { reason: issuesSaid(rowSchema, value, r.error.issues) };
    const problem = rowProblem(r.data);
    return problem !== undefined ? { reason: problem } : toItem(r.data);
  });
}

const meta = (item: EvalItem) =>
  item.metadata as {
    property: string;
    answers: readonly string[];
    variants?: readonly string[];
    elements?: readonly (readonly string[])[];
  };

/** The five (or more) independent requests of a robustness item; undefined for the other properties. */
export function knowledgeRequests(item: EvalItem): MultiRequest | undefined {
  const m = meta(item);
  if (m.property !== 'robustness' || m.variants === undefined) return undefined;
  return {
    kind: 'independent',
    variants: m.variants.map((v): ChatMessage[] => [{ role: 'user', content: v }]),
  };
}

/**
 * Scores the answers of a knowledge item in request order: the stability score of a robustness item's answers,
 * else the score of the first answer (see the module comment).
 * @throws RangeError when a robustness item gets more answers than it has phrasings, or none.
 */
export function scoreKnowledgeAnswers(
  item: EvalItem,
  outputs: readonly string[],
  profile: string,
): ItemScore {
  const m = meta(item);
  if (m.property === 'robustness') {
    const n = m.variants?.length ?? 1;
    if (outputs.length === 0 || outputs.length > n)
      throw new RangeError(`${item.key}: ${outputs.length} answers for ${n} phrasings`);
    const matched = outputs.map((o) => knowledgeExactMatch(o, m.answers));
    const s = stability(matched.map((x) => ({ correct: x.score === 1, normalized: x.stated })));
    return {
      raw: s.score,
      max: 1,
      metric: 'stability',
      profile,
      detail: {
        correct: s.correct,
        agreeing: s.agreeing,
        n: s.n,
        stated: matched.map((x) => x.stated),
      },
    };
  }
  const output = outputs[0] ?? '';
  if (m.property === 'completeness') {
    const c = completeness(output, m.elements ?? []);
    return {
      raw: c.score,
      max: 1,
      metric: 'completeness',
      profile,
      detail: { covered: c.covered, required: c.required, missing: c.missing },
    };
  }
  const x = knowledgeExactMatch(output, m.answers);
  return { raw: x.score, max: 1, metric: 'exact_match', profile, detail: { stated: x.stated } };
}

/** The `knowledge` loader (see the module comment). */
export const knowledgeLoader: DatasetLoader = {
  metric: KNOWLEDGE_METRIC,
  profiles: ['default'],
  templateVersion: KNOWLEDGE_TEMPLATE_VERSION,
  source:
    'ZhuJiu knowledge (Zhang et al., 2023, §2.3.1, App. B), constructed from npm data packages',
  builtBy: 'zhujiu datasets build',
  parse: (files) => parseKnowledge(files),
  system: () => undefined,
  user: (item) => item.prompt,
  answer: (item) => (typeof item.reference === 'string' ? item.reference : ''),
  score: (item, output, profile) => scoreKnowledgeAnswers(item, [output], profile),
  requests: knowledgeRequests,
  scoreAnswers: scoreKnowledgeAnswers,
};
