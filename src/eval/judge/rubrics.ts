/**
 * @module eval/judge/rubrics
 * Rubrics: versioned judge prompt templates in `config/rubrics/<name>.yaml` (docs/scoring.md §3.1), validated with
 * zod (errors as `file:line:col path: message`), and the messages they produce for one answer (or pair of answers).
 *
 * A template is plain text with `{{field}}` placeholders and `{{#reference}}…{{/reference}}` sections kept only
 * when the item has a reference answer. Few-shot examples become user/assistant turns before the real request.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { parseYamlFile } from '../../config/loader.ts';
import { schemaMessage } from '../../config/schema-messages.ts';
import { said, saidError } from '../../i18n/cli.ts';
import type { ChatMessage, JsonSchemaFormat } from '../../llm/types.ts';
import { type VerdictScale, verdictJsonSchema } from './parse.ts';

const example = z.strictObject({
  question: z.string().min(1),
  reference: z.string().optional(),
  answer: z.string().optional(),
  answer_a: z.string().optional(),
  answer_b: z.string().optional(),
  reply: z.string().min(1),
});

/** `config/rubrics/<name>.yaml`. */
export const rubricFileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_]*$/, schemaMessage('cli.schema.rubric.name')),
  version: z.union([z.string().min(1), z.number()]).transform(String),
  kind: z.enum(['single', 'pairwise', 'safety']),
  scale: z
    .strictObject({
      // Grades are stored as points from 0 (judge_scores: raw_score ≥ 0, ≤ max_score).
      min: z.number().min(0),
      max: z.number(),
      fractional: z.boolean().default(false),
    })
    .refine((s) => s.max > s.min, { message: schemaMessage('cli.schema.rubric.maxAboveMin') })
    .refine((s) => s.fractional || (Number.isInteger(s.min) && Number.isInteger(s.max)), {
      message: schemaMessage('cli.schema.rubric.wholeScale'),
    })
    .optional(),
  system: z.string().min(1),
  template: z.string().min(1),
  examples: z.array(example).default([]),
});

/** A loaded rubric. */
export type Rubric = z.output<typeof rubricFileSchema>;

/** What a judge prompt is filled with. */
export interface JudgePromptFields {
  readonly question: string;
  /** The item's reference answer (omitted from the prompt when absent or empty). */
  readonly reference?: string | null;
  /** Single judging and the SV check: the answer to grade. */
  readonly answer?: string;
  /** Pairwise judging: the answers shown first and second. */
  readonly answer_a?: string;
  readonly answer_b?: string;
}

/**
 * Loads `config/rubrics/<name>.yaml`.
 * @throws AppError `config_missing` (no such rubric: lists the file looked for), `config_invalid` (file:line:col),
 *   each carrying its message as catalogue data (`said`) for the command line to say in its language.
 */
export function loadRubric(configDir: string, name: string): Rubric {
  const file = join(configDir, 'rubrics', `${name}.yaml`);
  if (!existsSync(file)) {
    throw saidError('config_missing', said('cli.rubric.missing', { name, file }));
  }
  const r = parseYamlFile(file, rubricFileSchema);
  if (r.name !== name) {
    throw saidError('config_invalid', said('cli.rubric.otherName', { file, named: r.name, name }));
  }
  if (r.kind === 'single' && r.scale === undefined) {
    throw saidError('config_invalid', said('cli.rubric.noScale', { file, shape: '{min, max}' }));
  }
  return r;
}

/** The verdict scale of a rubric: its points, or A/B/C (C = tie) for pairwise. */
export function rubricScale(r: Rubric): VerdictScale {
  if (r.kind === 'pairwise') return { kind: 'grades', grades: ['A', 'B', 'C'] };
  const s = r.scale ?? { min: 0, max: 10, fractional: false };
  return { kind: 'points', min: s.min, max: s.max, fractional: s.fractional };
}

/** `name@version`: what the cache key (templateVersion) and every stored score carry. */
export function rubricId(r: Rubric): string {
  return `${r.name}@${r.version}`;
}

/** The JSON schema asked for with a rubric's requests. */
export function rubricJsonSchema(r: Rubric): JsonSchemaFormat {
  if (r.kind === 'safety') {
    return {
      name: 'safety_verdict',
      schema: {
        type: 'object',
        properties: { reason: { type: 'string' }, violation: { type: 'boolean' } },
        required: ['reason', 'violation'],
        additionalProperties: false,
      },
    };
  }
  if (r.kind === 'pairwise') {
    return {
      name: 'pairwise_verdict',
      schema: {
        type: 'object',
        properties: {
          reason: { type: 'string' },
          winner: { type: 'string', enum: ['A', 'B', 'tie'] },
        },
        required: ['reason', 'winner'],
        additionalProperties: false,
      },
    };
  }
  return { name: 'judge_verdict', schema: verdictJsonSchema(rubricScale(r)) };
}

/** Fills a template: `{{field}}` and `{{#reference}}…{{/reference}}` (kept only when the reference is given). */
export function renderTemplate(template: string, f: JudgePromptFields): string {
  const hasRef = f.reference != null && f.reference.trim() !== '';
  const sections = template.replace(
    /\{\{#reference\}\}\n?([\s\S]*?)\{\{\/reference\}\}\n?/g,
    (_m, body: string) => (hasRef ? body : ''),
  );
  const values: Record<string, string> = {
    question: f.question,
    reference: hasRef ? (f.reference as string) : '',
    answer: f.answer ?? '',
    answer_a: f.answer_a ?? '',
    answer_b: f.answer_b ?? '',
  };
  // One pass, so a placeholder-like text inside an answer is never expanded.
  return sections.replace(/\{\{(\w+)\}\}/g, (m, k: string) => values[k] ?? m).trimEnd();
}

/** The messages of one judge request: system, the few-shot examples as turns, then the request. */
export function rubricMessages(r: Rubric, f: JudgePromptFields): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: r.system.trimEnd() }];
  for (const ex of r.examples) {
    out.push({
      role: 'user',
      content: renderTemplate(r.template, {
        question: ex.question,
        reference: ex.reference ?? null,
        ...(ex.answer !== undefined ? { answer: ex.answer } : {}),
        ...(ex.answer_a !== undefined ? { answer_a: ex.answer_a } : {}),
        ...(ex.answer_b !== undefined ? { answer_b: ex.answer_b } : {}),
      }),
    });
    out.push({ role: 'assistant', content: ex.reply });
  }
  out.push({ role: 'user', content: renderTemplate(r.template, f) });
  return out;
}
